/* fathom workloads: ML-KEM-512 (FIPS 203) with PQClean's clean implementation.
 * Operations mlkem512_keygen, mlkem512_encaps, mlkem512_decaps; see mlkem_ops.h. */
#include <stdint.h>

#include "ml-kem-512/clean/api.h"
#include "mlkem_ops.h"
#include "vectors/mlkem_kat.h"

#define MLKEM512(x) PQCLEAN_MLKEM512_CLEAN_##x

static uint8_t pk[MLKEM512(CRYPTO_PUBLICKEYBYTES)], sk[MLKEM512(CRYPTO_SECRETKEYBYTES)];
static uint8_t ct[MLKEM512(CRYPTO_CIPHERTEXTBYTES)];
static uint8_t scratch_pk[sizeof pk], scratch_sk[sizeof sk], scratch_ct[sizeof ct];

static const mlkem_set mlkem512_set = {
    .pk_bytes = sizeof pk,
    .sk_bytes = sizeof sk,
    .ct_bytes = sizeof ct,
    .keypair = MLKEM512(crypto_kem_keypair),
    .enc = MLKEM512(crypto_kem_enc),
    .dec = MLKEM512(crypto_kem_dec),
    .kat_seed = mlkem512_kat0_seed,
    .kat_pk_sha3_256 = mlkem512_kat0_pk_sha3_256,
    .kat_sk_sha3_256 = mlkem512_kat0_sk_sha3_256,
    .kat_ct_sha3_256 = mlkem512_kat0_ct_sha3_256,
    .kat_ss = mlkem512_kat0_ss,
    .pk = pk,
    .sk = sk,
    .ct = ct,
    .scratch_pk = scratch_pk,
    .scratch_sk = scratch_sk,
    .scratch_ct = scratch_ct,
};

MLKEM_DEFINE_HOOKS(mlkem512, mlkem512_set)

static const fathom_op op_mlkem512_keygen = {
    .name = "mlkem512_keygen",
    .setup = mlkem512_setup,
    .kat = mlkem512_keygen_kat,
    .run = mlkem512_keygen_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem512_keygen);

static const fathom_op op_mlkem512_encaps = {
    .name = "mlkem512_encaps",
    .setup = mlkem512_setup,
    .kat = mlkem512_encaps_kat,
    .run = mlkem512_encaps_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem512_encaps);

static const fathom_op op_mlkem512_decaps = {
    .name = "mlkem512_decaps",
    .setup = mlkem512_setup,
    .kat = mlkem512_decaps_kat,
    .run = mlkem512_decaps_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem512_decaps);
