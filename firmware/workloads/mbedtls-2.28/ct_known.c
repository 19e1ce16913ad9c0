/* fathom workloads: the known cases of `fathom ct` that Mbed TLS 2.28 and 3.6 share
 * (docs/CT.md): the same operations, secrets and known answers as Mbed TLS 3.6's
 * (firmware/workloads/mbedtls/ct_known.c), compiled against 2.28, whose mbedtls_mpi_inv_mod
 * branches on the secret's bits. One source, so the two versions are checked on identical
 * inputs. */
#include "../mbedtls/ct_known.c"
