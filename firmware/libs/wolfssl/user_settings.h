/* fathom: the user_settings.h that wolfSSL's settings.h includes when WOLFSSL_USER_SETTINGS is
 * defined. fathom defines WOLFSSL_USER_SETTINGS to the name of the configuration's generated
 * header ("fathom_user_config.h", library.toml's config_macro), so this file only forwards to
 * it: that header includes the platform settings (fathom_wolfssl_settings.h) and then the
 * configuration's own #undef/#define lines, which therefore win. */
#ifndef FATHOM_WOLFSSL_USER_SETTINGS_H
#define FATHOM_WOLFSSL_USER_SETTINGS_H

#include WOLFSSL_USER_SETTINGS

#endif /* FATHOM_WOLFSSL_USER_SETTINGS_H */
