/* fathom workloads: ML-DSA-87 (FIPS 204) with PQClean's clean implementation.
 * Operations mldsa87_keygen, mldsa87_sign, mldsa87_verify; see mldsa_ops.h. */
#include "ml-dsa-87/clean/api.h"
#define MLDSA_NS(x) PQCLEAN_MLDSA87_CLEAN_##x
#define MLDSA_KAT(x) mldsa87_kat0_##x
#include "mldsa_ops.h"

static const fathom_op op_mldsa87_keygen = {.name = "mldsa87_keygen", MLDSA_KEYGEN_OP};
FATHOM_REGISTER_OP(op_mldsa87_keygen);

static const fathom_op op_mldsa87_sign = {.name = "mldsa87_sign", MLDSA_SIGN_OP};
FATHOM_REGISTER_OP(op_mldsa87_sign);

static const fathom_op op_mldsa87_verify = {.name = "mldsa87_verify", MLDSA_VERIFY_OP};
FATHOM_REGISTER_OP(op_mldsa87_verify);
