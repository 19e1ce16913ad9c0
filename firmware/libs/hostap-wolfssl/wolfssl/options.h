/* fathom: wolfSSL's configure writes wolfssl/options.h; fathom builds wolfSSL with
 * WOLFSSL_USER_SETTINGS instead (firmware/libs/wolfssl/user_settings.h), so hostap's
 * crypto_wolfssl.c, which includes <wolfssl/options.h> first, gets an empty one and the settings
 * through <wolfssl/wolfcrypt/settings.h> like every other wolfSSL file of the image. */
#ifndef FATHOM_WOLFSSL_OPTIONS_H
#define FATHOM_WOLFSSL_OPTIONS_H
#endif
