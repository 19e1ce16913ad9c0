/*
 * crypto_mbedtls.c - hostap 2.10's crypto.h back end over Mbed TLS 3.6 (fathom's own code)
 *
 * hostap 2.10 ships no Mbed TLS back end. This file implements, over Mbed TLS's public APIs
 * only (mbedtls/bignum.h, mbedtls/ecp.h, mbedtls/sha256.h, mbedtls/md.h), exactly the part
 * of src/crypto/crypto.h that src/common/sae.c, src/common/dragonfly.c,
 * src/crypto/sha256-prf.c and src/crypto/sha256-kdf.c call: the crypto_bignum_* (21),
 * crypto_ec_* (9) and crypto_ec_point_* (11) functions, plus sha256_vector(),
 * hmac_sha256_vector() and hmac_sha256(). No crypto_dh_* (no FFC groups).
 *
 * The hostap expectations it meets (crypto.h's contract, with crypto_openssl.c as the
 * reference for behaviour that the header leaves open):
 *  - every failure returns that function's hostap error value (-1, NULL, or -2 for
 *    crypto_bignum_legendre), never a wrong number, and frees what it allocated;
 *  - results may alias the operands (hostap passes e.g. crypto_bignum_mod(v, t, v) and
 *    crypto_ec_point_add(e, K, Q, K)): every bignum result is computed into a fresh
 *    mbedtls_mpi and swapped into the output only on success, so an output is left as it
 *    was on failure and never aliases an input while Mbed TLS computes;
 *  - crypto_bignum_exptmod: mbedtls_mpi_exp_mod(X, A, E, N) gives wrong results when X
 *    aliases E or N (it writes X before it has finished reading E and N), and hostap's SSWU
 *    code calls exptmod with result == exponent. The result is therefore computed into a
 *    fresh mbedtls_mpi (see exptmod below), never into d directly;
 *  - crypto_ec_get_a returns p - 3 for the curves where Mbed TLS leaves grp.A empty
 *    (A = -3 implied: the NIST curves), grp.A otherwise (Brainpool);
 *  - mbedtls_ecp_mul needs an RNG (blinding of the scalar multiplication): fathom_ecp_rng
 *    calls hostap's os_get_random(), which the firmware feeds from the harness's deterministic
 *    generator (os_unix.c's on the host);
 *  - crypto_ec_point_add is mbedtls_ecp_muladd(1*P + 1*Q). It rejects the point at infinity
 *    as an operand (its 1*P shortcut validates P as a public key), so an operand at infinity
 *    is handled here as OpenSSL's EC_POINT_add does (O + Q = Q, P + O = P). P + (-P) comes
 *    back from Mbed TLS as the point at infinity with success, as from OpenSSL; sae.c then
 *    rejects K at infinity by crypto_ec_point_is_at_infinity(). Unlike EC_POINT_add, an
 *    operand that is not on the curve is refused (-1);
 *  - crypto_ec_point_mul: mbedtls_ecp_mul refuses scalars outside [1, order - 1]. sae.c
 *    passes only scalars in that range (val in 1..q-1, mask and rand < q, a peer scalar
 *    checked 1 < s < q), but the scalar is reduced mod the order here anyway, which gives the
 *    same point on the curves mapped below (all of prime order, cofactor 1). A scalar = 0 mod
 *    order, or a point at infinity, gives the point at infinity, as with OpenSSL; a point not
 *    on the curve is refused (-1; EC_POINT_mul does not check);
 *  - points are always kept in affine form (Z = 1) or at infinity (Z = 0): every Mbed TLS
 *    operation used here normalizes its result, so mbedtls_ecp_point_cmp compares them
 *    correctly. The coordinates are read and set through mbedtls_ecp_point_write_binary /
 *    _read_binary (uncompressed form), since mbedtls_ecp_point's fields are private;
 *  - crypto_ec_point_from_bin rejects a point not on the curve (or with a coordinate >= p),
 *    as OpenSSL 1.1.1+'s EC_POINT_set_affine_coordinates does;
 *  - crypto_ec_point_is_on_curve returns 1 for the point at infinity, as EC_POINT_is_on_curve;
 *  - crypto_bignum_legendre is crypto_openssl.c's: a^((p-1)/2) mod p, mapped to 1/0/-1 by
 *    constant-time selection, -2 on error.
 *
 * Groups: 19 (P-256, the one that must work), 20 (P-384), 21 (P-521), 25 (P-192), 26 (P-224),
 * 28/29/30 (Brainpool P256r1/P384r1/P512r1), each where the Mbed TLS configuration enables it.
 * Any other group: crypto_ec_init returns NULL.
 *
 * Firmware constraint: besides Mbed TLS, this file calls only os_zalloc/os_free/os_memcpy/
 * os_get_random from hostap's os.h (and const_time.h's inline helpers).
 */

#include "includes.h"

#include "common.h"
#include "crypto.h"
#include "sha256.h"
#include "utils/const_time.h"

#include <mbedtls/bignum.h>
#include <mbedtls/ecp.h>
#include <mbedtls/md.h>
#include <mbedtls/platform_util.h>
#include <mbedtls/sha256.h>

struct crypto_bignum {
	mbedtls_mpi mpi;
};

struct crypto_ec {
	mbedtls_ecp_group grp;
	struct crypto_bignum prime;
	struct crypto_bignum order;
	struct crypto_bignum a;
	struct crypto_bignum b;
};

struct crypto_ec_point {
	mbedtls_ecp_point pt;
};

#define MPI(bn) (&(bn)->mpi)

/* The RNG that Mbed TLS's scalar multiplication and mbedtls_mpi_random need. */
static int fathom_ecp_rng(void *ctx, unsigned char *buf, size_t len)
{
	(void) ctx;
	if (os_get_random(buf, len) != 0)
		return MBEDTLS_ERR_ECP_RANDOM_FAILED;
	return 0;
}


/* Moves a freshly computed value into the result: the old value is freed (zeroized). */
static int finish_mpi(int ret, mbedtls_mpi *tmp, struct crypto_bignum *out)
{
	if (ret == 0)
		mbedtls_mpi_swap(tmp, MPI(out));
	mbedtls_mpi_free(tmp);
	return ret == 0 ? 0 : -1;
}


/* ---- bignums ---------------------------------------------------------------------------- */

struct crypto_bignum * crypto_bignum_init(void)
{
	struct crypto_bignum *n = os_zalloc(sizeof(*n));

	if (!n)
		return NULL;
	mbedtls_mpi_init(MPI(n));
	return n;
}


struct crypto_bignum * crypto_bignum_init_set(const u8 *buf, size_t len)
{
	struct crypto_bignum *n = crypto_bignum_init();

	if (!n)
		return NULL;
	if (mbedtls_mpi_read_binary(MPI(n), buf, len) != 0) {
		crypto_bignum_deinit(n, 1);
		return NULL;
	}
	return n;
}


struct crypto_bignum * crypto_bignum_init_uint(unsigned int val)
{
	u8 be[sizeof(val)];
	size_t i;

	/* Through big-endian bytes: mbedtls_mpi_lset takes a signed limb, which on a 32-bit
	 * target cannot hold every unsigned int. */
	for (i = 0; i < sizeof(val); i++)
		be[i] = (u8) (val >> (8 * (sizeof(val) - 1 - i)));
	return crypto_bignum_init_set(be, sizeof(be));
}


void crypto_bignum_deinit(struct crypto_bignum *n, int clear)
{
	(void) clear; /* mbedtls_mpi_free always zeroizes the limbs */
	if (!n)
		return;
	mbedtls_mpi_free(MPI(n));
	os_free(n);
}


int crypto_bignum_to_bin(const struct crypto_bignum *a,
			 u8 *buf, size_t buflen, size_t padlen)
{
	size_t num_bytes, len;

	if (padlen > buflen)
		return -1;
	num_bytes = mbedtls_mpi_size(MPI(a));
	if (num_bytes > buflen)
		return -1;
	len = num_bytes > padlen ? num_bytes : padlen;
	/* Big endian, zero-padded on the left to len bytes. */
	if (mbedtls_mpi_write_binary(MPI(a), buf, len) != 0)
		return -1;
	return (int) len;
}


int crypto_bignum_rand(struct crypto_bignum *r, const struct crypto_bignum *m)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	/* Uniform in [0, m), as BN_rand_range; fails for m <= 0. */
	return finish_mpi(mbedtls_mpi_random(&t, 0, MPI(m), fathom_ecp_rng, NULL), &t, r);
}


int crypto_bignum_add(const struct crypto_bignum *a,
		      const struct crypto_bignum *b,
		      struct crypto_bignum *c)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	return finish_mpi(mbedtls_mpi_add_mpi(&t, MPI(a), MPI(b)), &t, c);
}


int crypto_bignum_mod(const struct crypto_bignum *a,
		      const struct crypto_bignum *b,
		      struct crypto_bignum *c)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	/* 0 <= c < b; b <= 0 is an error. */
	return finish_mpi(mbedtls_mpi_mod_mpi(&t, MPI(a), MPI(b)), &t, c);
}


int crypto_bignum_exptmod(const struct crypto_bignum *a,
			  const struct crypto_bignum *b,
			  const struct crypto_bignum *c,
			  struct crypto_bignum *d)
{
	mbedtls_mpi t;

	/*
	 * d = a^b mod c. mbedtls_mpi_exp_mod(X, A, E, N) is wrong when X aliases E or N, and
	 * hostap calls this with d == b (SSWU). Computing into the fresh t means X never aliases
	 * any operand; d gets the value only on success. The modulus must be odd (Montgomery),
	 * as for OpenSSL's BN_mod_exp_mont_consttime; b < 0 is an error.
	 */
	mbedtls_mpi_init(&t);
	return finish_mpi(mbedtls_mpi_exp_mod(&t, MPI(a), MPI(b), MPI(c), NULL), &t, d);
}


int crypto_bignum_inverse(const struct crypto_bignum *a,
			  const struct crypto_bignum *b,
			  struct crypto_bignum *c)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	/* Fails when a has no inverse mod b (a = 0 mod b, gcd > 1) or b <= 1. */
	return finish_mpi(mbedtls_mpi_inv_mod(&t, MPI(a), MPI(b)), &t, c);
}


int crypto_bignum_sub(const struct crypto_bignum *a,
		      const struct crypto_bignum *b,
		      struct crypto_bignum *c)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	return finish_mpi(mbedtls_mpi_sub_mpi(&t, MPI(a), MPI(b)), &t, c);
}


int crypto_bignum_div(const struct crypto_bignum *a,
		      const struct crypto_bignum *b,
		      struct crypto_bignum *c)
{
	mbedtls_mpi t;

	mbedtls_mpi_init(&t);
	/* Quotient only, as BN_div(c, NULL, a, b); b = 0 is an error. */
	return finish_mpi(mbedtls_mpi_div_mpi(&t, NULL, MPI(a), MPI(b)), &t, c);
}


int crypto_bignum_addmod(const struct crypto_bignum *a,
			 const struct crypto_bignum *b,
			 const struct crypto_bignum *c,
			 struct crypto_bignum *d)
{
	mbedtls_mpi t;
	int ret;

	mbedtls_mpi_init(&t);
	ret = mbedtls_mpi_add_mpi(&t, MPI(a), MPI(b));
	if (ret == 0)
		ret = mbedtls_mpi_mod_mpi(&t, &t, MPI(c));
	return finish_mpi(ret, &t, d);
}


int crypto_bignum_mulmod(const struct crypto_bignum *a,
			 const struct crypto_bignum *b,
			 const struct crypto_bignum *c,
			 struct crypto_bignum *d)
{
	mbedtls_mpi t;
	int ret;

	mbedtls_mpi_init(&t);
	ret = mbedtls_mpi_mul_mpi(&t, MPI(a), MPI(b));
	if (ret == 0)
		ret = mbedtls_mpi_mod_mpi(&t, &t, MPI(c));
	return finish_mpi(ret, &t, d);
}


int crypto_bignum_sqrmod(const struct crypto_bignum *a,
			 const struct crypto_bignum *b,
			 struct crypto_bignum *c)
{
	return crypto_bignum_mulmod(a, a, b, c);
}


int crypto_bignum_rshift(const struct crypto_bignum *a, int n,
			 struct crypto_bignum *r)
{
	mbedtls_mpi t;
	int ret;

	if (n < 0)
		return -1;
	mbedtls_mpi_init(&t);
	ret = mbedtls_mpi_copy(&t, MPI(a));
	if (ret == 0)
		ret = mbedtls_mpi_shift_r(&t, (size_t) n);
	return finish_mpi(ret, &t, r);
}


int crypto_bignum_cmp(const struct crypto_bignum *a,
		      const struct crypto_bignum *b)
{
	return mbedtls_mpi_cmp_mpi(MPI(a), MPI(b));
}


int crypto_bignum_is_zero(const struct crypto_bignum *a)
{
	return mbedtls_mpi_cmp_int(MPI(a), 0) == 0;
}


int crypto_bignum_is_one(const struct crypto_bignum *a)
{
	return mbedtls_mpi_cmp_int(MPI(a), 1) == 0;
}


int crypto_bignum_is_odd(const struct crypto_bignum *a)
{
	return mbedtls_mpi_get_bit(MPI(a), 0) == 1;
}


int crypto_bignum_legendre(const struct crypto_bignum *a,
			   const struct crypto_bignum *p)
{
	mbedtls_mpi exp, tmp;
	int res = -2;
	unsigned int mask;

	mbedtls_mpi_init(&exp);
	mbedtls_mpi_init(&tmp);
	/* exp = (p - 1) / 2; tmp = a^exp mod p (Euler's criterion, as crypto_openssl.c) */
	if (mbedtls_mpi_sub_int(&exp, MPI(p), 1) != 0 ||
	    mbedtls_mpi_shift_r(&exp, 1) != 0 ||
	    mbedtls_mpi_exp_mod(&tmp, MPI(a), &exp, MPI(p), NULL) != 0)
		goto fail;

	/* 1 if tmp == 1, 0 if tmp == 0, -1 otherwise, by constant-time selection. */
	res = -1;
	mask = const_time_eq(mbedtls_mpi_cmp_int(&tmp, 1) == 0, 1);
	res = const_time_select_int(mask, 1, res);
	mask = const_time_eq(mbedtls_mpi_cmp_int(&tmp, 0) == 0, 1);
	res = const_time_select_int(mask, 0, res);

fail:
	mbedtls_mpi_free(&tmp);
	mbedtls_mpi_free(&exp);
	return res;
}


/* ---- elliptic curves -------------------------------------------------------------------- */

/* IANA IKE group number -> Mbed TLS curve; MBEDTLS_ECP_DP_NONE where not supported. */
static mbedtls_ecp_group_id crypto_ec_group_2_id(int group)
{
	switch (group) {
#if defined(MBEDTLS_ECP_DP_SECP256R1_ENABLED)
	case 19:
		return MBEDTLS_ECP_DP_SECP256R1;
#endif
#if defined(MBEDTLS_ECP_DP_SECP384R1_ENABLED)
	case 20:
		return MBEDTLS_ECP_DP_SECP384R1;
#endif
#if defined(MBEDTLS_ECP_DP_SECP521R1_ENABLED)
	case 21:
		return MBEDTLS_ECP_DP_SECP521R1;
#endif
#if defined(MBEDTLS_ECP_DP_SECP192R1_ENABLED)
	case 25:
		return MBEDTLS_ECP_DP_SECP192R1;
#endif
#if defined(MBEDTLS_ECP_DP_SECP224R1_ENABLED)
	case 26:
		return MBEDTLS_ECP_DP_SECP224R1;
#endif
#if defined(MBEDTLS_ECP_DP_BP256R1_ENABLED)
	case 28:
		return MBEDTLS_ECP_DP_BP256R1;
#endif
#if defined(MBEDTLS_ECP_DP_BP384R1_ENABLED)
	case 29:
		return MBEDTLS_ECP_DP_BP384R1;
#endif
#if defined(MBEDTLS_ECP_DP_BP512R1_ENABLED)
	case 30:
		return MBEDTLS_ECP_DP_BP512R1;
#endif
	default:
		return MBEDTLS_ECP_DP_NONE;
	}
}


struct crypto_ec * crypto_ec_init(int group)
{
	struct crypto_ec *e;
	mbedtls_ecp_group_id id = crypto_ec_group_2_id(group);
	int ret;

	if (id == MBEDTLS_ECP_DP_NONE)
		return NULL;
	e = os_zalloc(sizeof(*e));
	if (!e)
		return NULL;
	mbedtls_ecp_group_init(&e->grp);
	mbedtls_mpi_init(MPI(&e->prime));
	mbedtls_mpi_init(MPI(&e->order));
	mbedtls_mpi_init(MPI(&e->a));
	mbedtls_mpi_init(MPI(&e->b));

	ret = mbedtls_ecp_group_load(&e->grp, id);
	if (ret == 0 && mbedtls_ecp_get_type(&e->grp) != MBEDTLS_ECP_TYPE_SHORT_WEIERSTRASS)
		ret = -1;
	if (ret == 0)
		ret = mbedtls_mpi_copy(MPI(&e->prime), &e->grp.P);
	if (ret == 0)
		ret = mbedtls_mpi_copy(MPI(&e->order), &e->grp.N);
	if (ret == 0)
		ret = mbedtls_mpi_copy(MPI(&e->b), &e->grp.B);
	if (ret == 0) {
		/* Mbed TLS leaves grp.A empty (p == NULL) when A = -3: a = p - 3. */
		if (mbedtls_ecp_group_a_is_minus_3(&e->grp))
			ret = mbedtls_mpi_sub_int(MPI(&e->a), &e->grp.P, 3);
		else
			ret = mbedtls_mpi_copy(MPI(&e->a), &e->grp.A);
	}
	if (ret != 0) {
		crypto_ec_deinit(e);
		return NULL;
	}
	return e;
}


void crypto_ec_deinit(struct crypto_ec *e)
{
	if (!e)
		return;
	mbedtls_mpi_free(MPI(&e->b));
	mbedtls_mpi_free(MPI(&e->a));
	mbedtls_mpi_free(MPI(&e->order));
	mbedtls_mpi_free(MPI(&e->prime));
	mbedtls_ecp_group_free(&e->grp);
	os_free(e);
}


size_t crypto_ec_prime_len(struct crypto_ec *e)
{
	return mbedtls_mpi_size(&e->grp.P);
}


size_t crypto_ec_prime_len_bits(struct crypto_ec *e)
{
	return mbedtls_mpi_bitlen(&e->grp.P);
}


size_t crypto_ec_order_len(struct crypto_ec *e)
{
	return mbedtls_mpi_size(&e->grp.N);
}


const struct crypto_bignum * crypto_ec_get_prime(struct crypto_ec *e)
{
	return &e->prime;
}


const struct crypto_bignum * crypto_ec_get_order(struct crypto_ec *e)
{
	return &e->order;
}


const struct crypto_bignum * crypto_ec_get_a(struct crypto_ec *e)
{
	return &e->a;
}


const struct crypto_bignum * crypto_ec_get_b(struct crypto_ec *e)
{
	return &e->b;
}


/* A new point is the point at infinity (Z = 0), as OpenSSL's EC_POINT_new. */
struct crypto_ec_point * crypto_ec_point_init(struct crypto_ec *e)
{
	struct crypto_ec_point *p;

	if (!e)
		return NULL;
	p = os_zalloc(sizeof(*p));
	if (!p)
		return NULL;
	mbedtls_ecp_point_init(&p->pt);
	return p;
}


void crypto_ec_point_deinit(struct crypto_ec_point *p, int clear)
{
	(void) clear; /* mbedtls_ecp_point_free zeroizes the coordinates */
	if (!p)
		return;
	mbedtls_ecp_point_free(&p->pt);
	os_free(p);
}


static int point_is_zero(const struct crypto_ec_point *p)
{
	/* mbedtls_ecp_is_zero only reads the point; it is not declared const. */
	return mbedtls_ecp_is_zero((mbedtls_ecp_point *) &p->pt) == 1;
}


/*
 * The coordinates of an affine point, through the public API (the X, Y, Z fields of
 * mbedtls_ecp_point are private in Mbed TLS 3): buf = 0x04 || x || y, each prime_len bytes.
 */
static int point_uncompressed(const struct crypto_ec *e, const struct crypto_ec_point *p,
			      u8 buf[MBEDTLS_ECP_MAX_PT_LEN])
{
	size_t olen = 0;
	size_t len = mbedtls_mpi_size(&e->grp.P);

	if (mbedtls_ecp_point_write_binary(&e->grp, &p->pt, MBEDTLS_ECP_PF_UNCOMPRESSED, &olen,
					   buf, MBEDTLS_ECP_MAX_PT_LEN) != 0 ||
	    olen != 1 + 2 * len)
		return -1;
	return 0;
}


/* Sets p from x || y (prime_len bytes each); no curve check. */
static int point_set_xy(const struct crypto_ec *e, struct crypto_ec_point *p, const u8 *xy)
{
	u8 buf[MBEDTLS_ECP_MAX_PT_LEN];
	size_t len = mbedtls_mpi_size(&e->grp.P);
	int ret;

	if (1 + 2 * len > sizeof(buf))
		return -1;
	buf[0] = 0x04;
	os_memcpy(buf + 1, xy, 2 * len);
	ret = mbedtls_ecp_point_read_binary(&e->grp, &p->pt, buf, 1 + 2 * len);
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return ret == 0 ? 0 : -1;
}


int crypto_ec_point_to_bin(struct crypto_ec *e,
			   const struct crypto_ec_point *point, u8 *x, u8 *y)
{
	u8 buf[MBEDTLS_ECP_MAX_PT_LEN];
	size_t len = mbedtls_mpi_size(&e->grp.P);

	/* The point at infinity has no affine coordinates (EC_POINT_get_affine_... fails). */
	if (point_is_zero(point) || point_uncompressed(e, point, buf) < 0)
		return -1;
	if (x)
		os_memcpy(x, buf + 1, len);
	if (y)
		os_memcpy(y, buf + 1 + len, len);
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return 0;
}


struct crypto_ec_point * crypto_ec_point_from_bin(struct crypto_ec *e,
						  const u8 *val)
{
	struct crypto_ec_point *p;

	p = crypto_ec_point_init(e);
	if (!p)
		return NULL;
	/* Rejects x or y >= p and a point with y^2 != x^3 + ax + b. */
	if (point_set_xy(e, p, val) < 0 ||
	    mbedtls_ecp_check_pubkey(&e->grp, &p->pt) != 0) {
		crypto_ec_point_deinit(p, 1);
		return NULL;
	}
	return p;
}


int crypto_ec_point_add(struct crypto_ec *e, const struct crypto_ec_point *a,
			const struct crypto_ec_point *b,
			struct crypto_ec_point *c)
{
	mbedtls_ecp_point t;
	mbedtls_mpi one;
	int ret;

	/*
	 * mbedtls_ecp_muladd refuses an operand at infinity (its 1*P shortcut checks P as a
	 * public key): O + Q = Q and P + O = P here, as EC_POINT_add. P + (-P) comes back as
	 * the point at infinity (ret 0), as from EC_POINT_add.
	 */
	if (point_is_zero(a))
		return mbedtls_ecp_copy(&c->pt, &b->pt) == 0 ? 0 : -1;
	if (point_is_zero(b))
		return mbedtls_ecp_copy(&c->pt, &a->pt) == 0 ? 0 : -1;

	mbedtls_ecp_point_init(&t);
	mbedtls_mpi_init(&one);
	ret = mbedtls_mpi_lset(&one, 1);
	if (ret == 0)
		ret = mbedtls_ecp_muladd(&e->grp, &t, &one, &a->pt, &one, &b->pt);
	if (ret == 0)
		ret = mbedtls_ecp_copy(&c->pt, &t);
	mbedtls_mpi_free(&one);
	mbedtls_ecp_point_free(&t);
	return ret == 0 ? 0 : -1;
}


int crypto_ec_point_mul(struct crypto_ec *e, const struct crypto_ec_point *p,
			const struct crypto_bignum *b,
			struct crypto_ec_point *res)
{
	mbedtls_ecp_point t;
	mbedtls_mpi k;
	int ret;

	mbedtls_ecp_point_init(&t);
	mbedtls_mpi_init(&k);
	/*
	 * mbedtls_ecp_mul accepts only scalars in [1, order - 1] (mbedtls_ecp_check_privkey).
	 * sae.c passes scalars in that range, but reduce mod the order anyway: on these
	 * prime-order curves [b]P = [b mod order]P. [0]P and [b]O are the point at infinity,
	 * as with OpenSSL's EC_POINT_mul.
	 */
	ret = mbedtls_mpi_mod_mpi(&k, MPI(b), &e->grp.N);
	if (ret == 0) {
		if (point_is_zero(p) || mbedtls_mpi_cmp_int(&k, 0) == 0)
			ret = mbedtls_ecp_set_zero(&t);
		else
			ret = mbedtls_ecp_mul(&e->grp, &t, &k, &p->pt, fathom_ecp_rng, NULL);
	}
	if (ret == 0)
		ret = mbedtls_ecp_copy(&res->pt, &t);
	mbedtls_mpi_free(&k);
	mbedtls_ecp_point_free(&t);
	return ret == 0 ? 0 : -1;
}


int crypto_ec_point_invert(struct crypto_ec *e, struct crypto_ec_point *p)
{
	u8 buf[MBEDTLS_ECP_MAX_PT_LEN];
	size_t len = mbedtls_mpi_size(&e->grp.P);
	mbedtls_mpi y;
	int ret = -1;

	/* -O = O; otherwise (x, y) -> (x, (p - y) mod p). */
	if (point_is_zero(p))
		return 0;
	mbedtls_mpi_init(&y);
	if (point_uncompressed(e, p, buf) < 0 ||
	    mbedtls_mpi_read_binary(&y, buf + 1 + len, len) != 0)
		goto out;
	if (mbedtls_mpi_cmp_int(&y, 0) != 0 &&
	    (mbedtls_mpi_sub_mpi(&y, &e->grp.P, &y) != 0 ||
	     mbedtls_mpi_write_binary(&y, buf + 1 + len, len) != 0))
		goto out;
	ret = point_set_xy(e, p, buf + 1);
out:
	mbedtls_mpi_free(&y);
	mbedtls_platform_zeroize(buf, sizeof(buf));
	return ret;
}


struct crypto_bignum *
crypto_ec_point_compute_y_sqr(struct crypto_ec *e,
			      const struct crypto_bignum *x)
{
	struct crypto_bignum *y2 = crypto_bignum_init();

	/* y^2 = x^3 + ax + b = (x^2 + a)x + b mod p */
	if (!y2 ||
	    crypto_bignum_sqrmod(x, &e->prime, y2) < 0 ||
	    crypto_bignum_addmod(y2, &e->a, &e->prime, y2) < 0 ||
	    crypto_bignum_mulmod(y2, x, &e->prime, y2) < 0 ||
	    crypto_bignum_addmod(y2, &e->b, &e->prime, y2) < 0) {
		crypto_bignum_deinit(y2, 1);
		return NULL;
	}
	return y2;
}


int crypto_ec_point_is_at_infinity(struct crypto_ec *e,
				   const struct crypto_ec_point *p)
{
	(void) e;
	return point_is_zero(p);
}


int crypto_ec_point_is_on_curve(struct crypto_ec *e,
				const struct crypto_ec_point *p)
{
	/* The point at infinity counts as on the curve, as for EC_POINT_is_on_curve. */
	if (point_is_zero(p))
		return 1;
	return mbedtls_ecp_check_pubkey(&e->grp, &p->pt) == 0;
}


int crypto_ec_point_cmp(const struct crypto_ec *e,
			const struct crypto_ec_point *a,
			const struct crypto_ec_point *b)
{
	int za = point_is_zero(a), zb = point_is_zero(b);

	(void) e;
	if (za || zb)
		return za && zb ? 0 : 1;
	/* Both affine (Z = 1, see above): mbedtls_ecp_point_cmp compares X, Y and Z. */
	return mbedtls_ecp_point_cmp(&a->pt, &b->pt) == 0 ? 0 : 1;
}


/* ---- SHA-256 and HMAC-SHA-256 ----------------------------------------------------------- */

int sha256_vector(size_t num_elem, const u8 *addr[], const size_t *len,
		  u8 *mac)
{
	mbedtls_sha256_context ctx;
	size_t i;
	int ret;

	mbedtls_sha256_init(&ctx);
	ret = mbedtls_sha256_starts(&ctx, 0);
	for (i = 0; ret == 0 && i < num_elem; i++)
		ret = mbedtls_sha256_update(&ctx, addr[i], len[i]);
	if (ret == 0)
		ret = mbedtls_sha256_finish(&ctx, mac);
	mbedtls_sha256_free(&ctx);
	return ret == 0 ? 0 : -1;
}


int hmac_sha256_vector(const u8 *key, size_t key_len, size_t num_elem,
		       const u8 *addr[], const size_t *len, u8 *mac)
{
	const mbedtls_md_info_t *info = mbedtls_md_info_from_type(MBEDTLS_MD_SHA256);
	mbedtls_md_context_t ctx;
	size_t i;
	int ret;

	if (!info)
		return -1;
	mbedtls_md_init(&ctx);
	ret = mbedtls_md_setup(&ctx, info, 1);
	if (ret == 0)
		ret = mbedtls_md_hmac_starts(&ctx, key, key_len);
	for (i = 0; ret == 0 && i < num_elem; i++)
		ret = mbedtls_md_hmac_update(&ctx, addr[i], len[i]);
	if (ret == 0)
		ret = mbedtls_md_hmac_finish(&ctx, mac);
	mbedtls_md_free(&ctx);
	return ret == 0 ? 0 : -1;
}


int hmac_sha256(const u8 *key, size_t key_len, const u8 *data,
		size_t data_len, u8 *mac)
{
	return hmac_sha256_vector(key, key_len, 1, &data, &data_len, mac);
}
