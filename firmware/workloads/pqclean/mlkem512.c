/* fathom workloads: ML-KEM-512 (FIPS 203) with PQClean's clean implementation.
 * Operations mlkem512_keygen, mlkem512_encaps, mlkem512_decaps; see mlkem_ops.h. */
#include "ml-kem-512/clean/api.h"
#define MLKEM_NS(x) PQCLEAN_MLKEM512_CLEAN_##x
#define MLKEM_KAT(x) mlkem512_kat0_##x
#include "mlkem_ops.h"

static const fathom_op op_mlkem512_keygen = {.name = "mlkem512_keygen", MLKEM_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mlkem512_keygen);

static const fathom_op op_mlkem512_encaps = {.name = "mlkem512_encaps", MLKEM_ENCAPS_OP};
FATHOM_REGISTER_OP(op_mlkem512_encaps);

static const fathom_op op_mlkem512_decaps = {.name = "mlkem512_decaps", MLKEM_DECAPS_OP};
FATHOM_REGISTER_OP(op_mlkem512_decaps);
