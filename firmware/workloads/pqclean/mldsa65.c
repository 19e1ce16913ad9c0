/* fathom workloads: ML-DSA-65 (FIPS 204) with PQClean's clean implementation.
 * Operations mldsa65_keygen, mldsa65_sign, mldsa65_verify; see mldsa_ops.h. */
#include "ml-dsa-65/clean/api.h"
#define MLDSA_NS(x) PQCLEAN_MLDSA65_CLEAN_##x
#define MLDSA_KAT(x) mldsa65_kat0_##x
#include "mldsa_ops.h"

static const fathom_op op_mldsa65_keygen = {.name = "mldsa65_keygen", MLDSA_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mldsa65_keygen);

static const fathom_op op_mldsa65_sign = {.name = "mldsa65_sign", MLDSA_SIGN_OP};
FATHOM_REGISTER_OP(op_mldsa65_sign);

static const fathom_op op_mldsa65_verify = {.name = "mldsa65_verify", MLDSA_VERIFY_OP};
FATHOM_REGISTER_OP(op_mldsa65_verify);
