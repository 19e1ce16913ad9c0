/* fathom workloads: ML-KEM-1024 (FIPS 203) with PQClean's clean implementation.
 * Operations mlkem1024_keygen, mlkem1024_encaps, mlkem1024_decaps; see mlkem_ops.h. */
#include "ml-kem-1024/clean/api.h"
#define MLKEM_NS(x) PQCLEAN_MLKEM1024_CLEAN_##x
#define MLKEM_KAT(x) mlkem1024_kat0_##x
#include "mlkem_ops.h"

static const fathom_op op_mlkem1024_keygen = {.name = "mlkem1024_keygen", MLKEM_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mlkem1024_keygen);

static const fathom_op op_mlkem1024_encaps = {.name = "mlkem1024_encaps", MLKEM_ENCAPS_OP};
FATHOM_REGISTER_OP(op_mlkem1024_encaps);

static const fathom_op op_mlkem1024_decaps = {.name = "mlkem1024_decaps", MLKEM_DECAPS_OP};
FATHOM_REGISTER_OP(op_mlkem1024_decaps);
