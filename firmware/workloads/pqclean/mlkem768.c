/* fathom workloads: ML-KEM-768 (FIPS 203) with PQClean's clean implementation.
 * Operations mlkem768_keygen, mlkem768_encaps, mlkem768_decaps; see mlkem_ops.h. */
#include "ml-kem-768/clean/api.h"
#define MLKEM_NS(x) PQCLEAN_MLKEM768_CLEAN_##x
#define MLKEM_KAT(x) mlkem768_kat0_##x
#include "mlkem_ops.h"

static const fathom_op op_mlkem768_keygen = {.name = "mlkem768_keygen", MLKEM_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mlkem768_keygen);

static const fathom_op op_mlkem768_encaps = {.name = "mlkem768_encaps", MLKEM_ENCAPS_OP};
FATHOM_REGISTER_OP(op_mlkem768_encaps);

static const fathom_op op_mlkem768_decaps = {.name = "mlkem768_decaps", MLKEM_DECAPS_OP};
FATHOM_REGISTER_OP(op_mlkem768_decaps);
