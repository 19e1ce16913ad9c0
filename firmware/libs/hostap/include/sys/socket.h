/* fathom: empty stand-in for <sys/socket.h>. hostap's src/utils/includes.h includes the socket headers
 * unconditionally; the SAE code fathom builds (sae.c, dragonfly.c, wpabuf.c, common.c) uses
 * none of their declarations, and a bare-metal C library has no such header. */
#ifndef FATHOM_STANDIN_SYS_SOCKET_H
#define FATHOM_STANDIN_SYS_SOCKET_H
#endif
