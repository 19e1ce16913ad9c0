/* fathom workloads: ML-DSA-44 (FIPS 204) with PQClean's clean implementation.
 * Operations mldsa44_keygen, mldsa44_sign, mldsa44_verify; see mldsa_ops.h. */
#include "ml-dsa-44/clean/api.h"
#define MLDSA_NS(x) PQCLEAN_MLDSA44_CLEAN_##x
#define MLDSA_KAT(x) mldsa44_kat0_##x
#include "mldsa_ops.h"

static const fathom_op op_mldsa44_keygen = {.name = "mldsa44_keygen", MLDSA_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mldsa44_keygen);

static const fathom_op op_mldsa44_sign = {.name = "mldsa44_sign", MLDSA_SIGN_OP};
FATHOM_REGISTER_OP(op_mldsa44_sign);

static const fathom_op op_mldsa44_verify = {.name = "mldsa44_verify", MLDSA_VERIFY_OP};
FATHOM_REGISTER_OP(op_mldsa44_verify);
