/* fathom workloads: ML-KEM-768 (FIPS 203) with PQClean's clean implementation.
 * Operations mlkem768_keygen, mlkem768_encaps, mlkem768_decaps; see mlkem_ops.h. */
#include <stdint.h>

#include "ml-kem-768/clean/api.h"
#include "mlkem_ops.h"
#include "vectors/mlkem_kat.h"

#define MLKEM768(x) PQCLEAN_MLKEM768_CLEAN_##x

static uint8_t pk[MLKEM768(CRYPTO_PUBLICKEYBYTES)], sk[MLKEM768(CRYPTO_SECRETKEYBYTES)];
static uint8_t ct[MLKEM768(CRYPTO_CIPHERTEXTBYTES)];
static uint8_t scratch_pk[sizeof pk], scratch_sk[sizeof sk], scratch_ct[sizeof ct];

static const mlkem_set mlkem768_set = {
    .pk_bytes = sizeof pk,
    .sk_bytes = sizeof sk,
    .ct_bytes = sizeof ct,
    .keypair = MLKEM768(crypto_kem_keypair),
    .enc = MLKEM768(crypto_kem_enc),
    .dec = MLKEM768(crypto_kem_dec),
    .kat_seed = mlkem768_kat0_seed,
    .kat_pk_sha3_256 = mlkem768_kat0_pk_sha3_256,
    .kat_sk_sha3_256 = mlkem768_kat0_sk_sha3_256,
    .kat_ct_sha3_256 = mlkem768_kat0_ct_sha3_256,
    .kat_ss = mlkem768_kat0_ss,
    .pk = pk,
    .sk = sk,
    .ct = ct,
    .scratch_pk = scratch_pk,
    .scratch_sk = scratch_sk,
    .scratch_ct = scratch_ct,
};

MLKEM_DEFINE_HOOKS(mlkem768, mlkem768_set)

static const fathom_op op_mlkem768_keygen = {
    .name = "mlkem768_keygen",
    .setup = mlkem768_setup,
    .kat = mlkem768_keygen_kat,
    .run = mlkem768_keygen_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem768_keygen);

static const fathom_op op_mlkem768_encaps = {
    .name = "mlkem768_encaps",
    .setup = mlkem768_setup,
    .kat = mlkem768_encaps_kat,
    .run = mlkem768_encaps_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem768_encaps);

static const fathom_op op_mlkem768_decaps = {
    .name = "mlkem768_decaps",
    .setup = mlkem768_setup,
    .kat = mlkem768_decaps_kat,
    .run = mlkem768_decaps_run,
    .teardown = NULL,
};
FATHOM_REGISTER_OP(op_mlkem768_decaps);
