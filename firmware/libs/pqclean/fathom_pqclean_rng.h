/* Randomness for PQClean in fathom firmware: PQCLEAN_randombytes() draws from the harness's
 * deterministic generator (fathom_random_bytes) unless the NIST KAT DRBG is selected.
 *
 * The NIST KAT DRBG is the AES-256 CTR_DRBG without derivation function or prediction
 * resistance of NIST's PQCgenKAT rng.c (as in PQClean test/common/nistkatrng.c): it produces the
 * `seed` lines and the randomness behind every entry of the NIST PQC .rsp KAT files. */
#ifndef FATHOM_PQCLEAN_RNG_H
#define FATHOM_PQCLEAN_RNG_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* (Re)seeds the KAT DRBG with 48 bytes of entropy input (no personalisation string), as
 * randombytes_init(entropy_input, NULL, 256) does. */
void fathom_katrng_init(const uint8_t entropy_input[48]);

/* Draws `len` bytes from the KAT DRBG (randombytes() of NIST's rng.c). */
void fathom_katrng_bytes(uint8_t *out, size_t len);

/* `on` != 0: PQCLEAN_randombytes() draws from the KAT DRBG; 0: from fathom_random_bytes(). */
void fathom_katrng_select(int on);

#ifdef __cplusplus
}
#endif
#endif /* FATHOM_PQCLEAN_RNG_H */
