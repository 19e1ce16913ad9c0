/*
 * Host test driver for firmware/libs/hostap-mbedtls/crypto_mbedtls.c (run by
 * test_crypto_mbedtls.sh, which compiles it with Mbed TLS and hostap's SAE code).
 *
 * Two parts:
 *  - "kat" runs IEEE 802.11-2020 Annex J.10 through hostap's own sae.c as hostap's
 *    sae_tests() (src/common/common_module_tests.c) does: Hunting-and-Pecking commit message,
 *    KCK, PMK, PMKID; Hash-to-Element PT -> PWE x, y for group 19. The expected bytes are the
 *    standard's (copied from sae_tests()). Each field prints "kat.<vector>.<field>=ok" or
 *    "=MISMATCH" (with got/expected on stderr). A full SAE exchange between two peers with
 *    random scalars ("sae_exchange") checks that both derive the same PMK and accept each
 *    other's confirm.
 *  - every other line of stdin is one operation of the back end on operands that the script's
 *    python3 chose; the driver prints "label=result", and python3 compares with what it
 *    computed itself with its own big-integer arithmetic (so no expected value comes from the
 *    code under test). See the script for the line format.
 *
 * The back end is #included so that a test can build a point that is not on the curve
 * (crypto_ec_point_from_bin rightly refuses one) for crypto_ec_point_is_on_curve.
 */

#include "crypto_mbedtls.c"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/sae.h"
#include "crypto/dh_groups.h"
#include "utils/wpabuf.h"

/* dh_groups.c references these (FFC Diffie-Hellman, not used by SAE's ECC groups). */
int crypto_dh_init(u8 generator, const u8 *prime, size_t prime_len, u8 *privkey,
		   u8 *pubkey)
{
	(void) generator; (void) prime; (void) prime_len; (void) privkey; (void) pubkey;
	return -1;
}

int crypto_dh_derive_secret(u8 generator, const u8 *prime, size_t prime_len,
			    const u8 *order, size_t order_len,
			    const u8 *privkey, size_t privkey_len,
			    const u8 *pubkey, size_t pubkey_len,
			    u8 *secret, size_t *len)
{
	(void) generator; (void) prime; (void) prime_len; (void) order; (void) order_len;
	(void) privkey; (void) privkey_len; (void) pubkey; (void) pubkey_len; (void) secret;
	(void) len;
	return -1;
}

static int failures;

static void print_hex(const u8 *b, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		printf("%02x", b[i]);
}

static void kat_field(const char *vector, const char *field, const u8 *got, size_t got_len,
		      const u8 *want, size_t want_len)
{
	int ok = got && got_len == want_len && memcmp(got, want, want_len) == 0;

	printf("kat.%s.%s=%s\n", vector, field, ok ? "ok" : "MISMATCH");
	if (!ok) {
		failures++;
		fprintf(stderr, "MISMATCH in vector %s, field %s\n  got      ", vector, field);
		if (got) {
			size_t i;
			for (i = 0; i < got_len; i++)
				fprintf(stderr, "%02x", got[i]);
		} else {
			fprintf(stderr, "(nothing: the step failed)");
		}
		fprintf(stderr, "\n  expected ");
		{
			size_t i;
			for (i = 0; i < want_len; i++)
				fprintf(stderr, "%02x", want[i]);
		}
		fprintf(stderr, "\n");
	}
}

static void kat_step(const char *vector, const char *step, int ok)
{
	printf("kat.%s.%s=%s\n", vector, step, ok ? "ok" : "FAILED");
	if (!ok) {
		failures++;
		fprintf(stderr, "FAILED in vector %s: step %s returned an error\n", vector, step);
	}
}

/* IEEE Std 802.11-2020, Annex J.10, as in hostap 2.10's sae_tests(). */
static void kat_j10(void)
{
	struct sae_data sae;
	const u8 addr1[ETH_ALEN] = { 0x4d, 0x3f, 0x2f, 0xff, 0xe3, 0x87 };
	const u8 addr2[ETH_ALEN] = { 0xa5, 0xd8, 0xaa, 0x95, 0x8e, 0x3c };
	const char *ssid = "byteme";
	const char *pw = "mekmitasdigoat";
	const char *pwid = "psk4internet";
	const u8 local_rand[] = {
		0x99, 0x24, 0x65, 0xfd, 0x3d, 0xaa, 0x3c, 0x60,
		0xaa, 0x65, 0x65, 0xb7, 0xf6, 0x2a, 0x2a, 0x7f,
		0x2e, 0x12, 0xdd, 0x12, 0xf1, 0x98, 0xfa, 0xf4,
		0xfb, 0xed, 0x89, 0xd7, 0xff, 0x1a, 0xce, 0x94
	};
	const u8 local_mask[] = {
		0x95, 0x07, 0xa9, 0x0f, 0x77, 0x7a, 0x04, 0x4d,
		0x6a, 0x08, 0x30, 0xb9, 0x1e, 0xa3, 0xd5, 0xdd,
		0x70, 0xbe, 0xce, 0x44, 0xe1, 0xac, 0xff, 0xb8,
		0x69, 0x83, 0xb5, 0xe1, 0xbf, 0x9f, 0xb3, 0x22
	};
	const u8 local_commit[] = {
		0x13, 0x00, 0x2e, 0x2c, 0x0f, 0x0d, 0xb5, 0x24,
		0x40, 0xad, 0x14, 0x6d, 0x96, 0x71, 0x14, 0xce,
		0x00, 0x5c, 0xe1, 0xea, 0xb0, 0xaa, 0x2c, 0x2e,
		0x5c, 0x28, 0x71, 0xb7, 0x74, 0xf6, 0xc2, 0x57,
		0x5c, 0x65, 0xd5, 0xad, 0x9e, 0x00, 0x82, 0x97,
		0x07, 0xaa, 0x36, 0xba, 0x8b, 0x85, 0x97, 0x38,
		0xfc, 0x96, 0x1d, 0x08, 0x24, 0x35, 0x05, 0xf4,
		0x7c, 0x03, 0x53, 0x76, 0xd7, 0xac, 0x4b, 0xc8,
		0xd7, 0xb9, 0x50, 0x83, 0xbf, 0x43, 0x82, 0x7d,
		0x0f, 0xc3, 0x1e, 0xd7, 0x78, 0xdd, 0x36, 0x71,
		0xfd, 0x21, 0xa4, 0x6d, 0x10, 0x91, 0xd6, 0x4b,
		0x6f, 0x9a, 0x1e, 0x12, 0x72, 0x62, 0x13, 0x25,
		0xdb, 0xe1
	};
	const u8 peer_commit[] = {
		0x13, 0x00, 0x59, 0x1b, 0x96, 0xf3, 0x39, 0x7f,
		0xb9, 0x45, 0x10, 0x08, 0x48, 0xe7, 0xb5, 0x50,
		0x54, 0x3b, 0x67, 0x20, 0xd8, 0x83, 0x37, 0xee,
		0x93, 0xfc, 0x49, 0xfd, 0x6d, 0xf7, 0xe0, 0x8b,
		0x52, 0x23, 0xe7, 0x1b, 0x9b, 0xb0, 0x48, 0xd3,
		0x87, 0x3f, 0x20, 0x55, 0x69, 0x53, 0xa9, 0x6c,
		0x91, 0x53, 0x6f, 0xd8, 0xee, 0x6c, 0xa9, 0xb4,
		0xa6, 0x8a, 0x14, 0x8b, 0x05, 0x6a, 0x90, 0x9b,
		0xe0, 0x3e, 0x83, 0xae, 0x20, 0x8f, 0x60, 0xf8,
		0xef, 0x55, 0x37, 0x85, 0x80, 0x74, 0xdb, 0x06,
		0x68, 0x70, 0x32, 0x39, 0x98, 0x62, 0x99, 0x9b,
		0x51, 0x1e, 0x0a, 0x15, 0x52, 0xa5, 0xfe, 0xa3,
		0x17, 0xc2
	};
	const u8 kck[] = {
		0x1e, 0x73, 0x3f, 0x6d, 0x9b, 0xd5, 0x32, 0x56,
		0x28, 0x73, 0x04, 0x33, 0x88, 0x31, 0xb0, 0x9a,
		0x39, 0x40, 0x6d, 0x12, 0x10, 0x17, 0x07, 0x3a,
		0x5c, 0x30, 0xdb, 0x36, 0xf3, 0x6c, 0xb8, 0x1a
	};
	const u8 pmk[] = {
		0x4e, 0x4d, 0xfa, 0xb1, 0xa2, 0xdd, 0x8a, 0xc1,
		0xa9, 0x17, 0x90, 0xf9, 0x53, 0xfa, 0xaa, 0x45,
		0x2a, 0xe5, 0xc6, 0x87, 0x3a, 0xb7, 0x5b, 0x63,
		0x60, 0x5b, 0xa6, 0x63, 0xf8, 0xa7, 0xfe, 0x59
	};
	const u8 pmkid[] = {
		0x87, 0x47, 0xa6, 0x00, 0xee, 0xa3, 0xf9, 0xf2,
		0x24, 0x75, 0xdf, 0x58, 0xca, 0x1e, 0x54, 0x98
	};
	const u8 pwe_19_x[32] = {
		0xc9, 0x30, 0x49, 0xb9, 0xe6, 0x40, 0x00, 0xf8,
		0x48, 0x20, 0x16, 0x49, 0xe9, 0x99, 0xf2, 0xb5,
		0xc2, 0x2d, 0xea, 0x69, 0xb5, 0x63, 0x2c, 0x9d,
		0xf4, 0xd6, 0x33, 0xb8, 0xaa, 0x1f, 0x6c, 0x1e
	};
	const u8 pwe_19_y[32] = {
		0x73, 0x63, 0x4e, 0x94, 0xb5, 0x3d, 0x82, 0xe7,
		0x38, 0x3a, 0x8d, 0x25, 0x81, 0x99, 0xd9, 0xdc,
		0x1a, 0x5e, 0xe8, 0x26, 0x9d, 0x06, 0x03, 0x82,
		0xcc, 0xbf, 0x33, 0xe6, 0x14, 0xff, 0x59, 0xa0
	};
	int pt_groups[] = { 19, 0 };
	const u8 addr1b[ETH_ALEN] = { 0x00, 0x09, 0x5b, 0x66, 0xec, 0x1e };
	const u8 addr2b[ETH_ALEN] = { 0x00, 0x0b, 0x6b, 0xd9, 0x02, 0x46 };
	struct wpabuf *buf = NULL;
	struct crypto_bignum *mask = NULL;
	struct sae_pt *pt_info = NULL, *pt;
	int ok;

	/* --- Hunting and Pecking (J.10's first case) --- */
	os_memset(&sae, 0, sizeof(sae));
	buf = wpabuf_alloc(1000);
	ok = buf && sae_set_group(&sae, 19) == 0;
	kat_step("j10.hnp", "set_group_19", ok);
	if (!ok)
		goto h2e;
	ok = sae_prepare_commit(addr1, addr2, (const u8 *) pw, os_strlen(pw), &sae) == 0;
	kat_step("j10.hnp", "prepare_commit", ok);
	if (!ok)
		goto h2e;

	/* Override the local values with the vector's, as sae_tests() does. */
	crypto_bignum_deinit(sae.tmp->sae_rand, 1);
	sae.tmp->sae_rand = crypto_bignum_init_set(local_rand, sizeof(local_rand));
	mask = crypto_bignum_init_set(local_mask, sizeof(local_mask));
	ok = sae.tmp->sae_rand && mask &&
		crypto_bignum_add(sae.tmp->sae_rand, mask, sae.tmp->own_commit_scalar) == 0 &&
		crypto_bignum_mod(sae.tmp->own_commit_scalar, sae.tmp->order,
				  sae.tmp->own_commit_scalar) == 0 &&
		crypto_ec_point_mul(sae.tmp->ec, sae.tmp->pwe_ecc, mask,
				    sae.tmp->own_commit_element_ecc) == 0 &&
		crypto_ec_point_invert(sae.tmp->ec, sae.tmp->own_commit_element_ecc) == 0;
	kat_step("j10.hnp", "commit_from_rand_and_mask", ok);
	if (!ok)
		goto h2e;
	ok = sae_write_commit(&sae, buf, NULL, NULL) == 0;
	kat_step("j10.hnp", "write_commit", ok);
	if (!ok)
		goto h2e;
	kat_field("j10.hnp", "commit", wpabuf_head(buf), wpabuf_len(buf), local_commit,
		  sizeof(local_commit));

	ok = sae_parse_commit(&sae, peer_commit, sizeof(peer_commit), NULL, NULL, NULL, 0) == 0;
	kat_step("j10.hnp", "parse_peer_commit", ok);
	if (!ok)
		goto h2e;
	ok = sae_process_commit(&sae) == 0;
	kat_step("j10.hnp", "process_commit", ok);
	if (!ok)
		goto h2e;
	kat_field("j10.hnp", "kck", sae.tmp->kck, SAE_KCK_LEN, kck, sizeof(kck));
	kat_field("j10.hnp", "pmk", sae.pmk, SAE_PMK_LEN, pmk, sizeof(pmk));
	kat_field("j10.hnp", "pmkid", sae.pmkid, SAE_PMKID_LEN, pmkid, sizeof(pmkid));

h2e:
	/* --- Hash to Element: PT, then PWE for the second pair of addresses --- */
	pt_info = sae_derive_pt(pt_groups, (const u8 *) ssid, os_strlen(ssid),
				(const u8 *) pw, os_strlen(pw), pwid);
	kat_step("j10.h2e", "derive_pt", pt_info != NULL);
	for (pt = pt_info; pt; pt = pt->next) {
		struct crypto_ec_point *pwe;
		u8 bin[2 * 32];

		if (pt->group != 19)
			continue;
		pwe = sae_derive_pwe_from_pt_ecc(pt, addr1b, addr2b);
		ok = pwe && crypto_ec_point_to_bin(pt->ec, pwe, bin, bin + 32) == 0;
		kat_step("j10.h2e", "derive_pwe_from_pt", ok);
		kat_field("j10.h2e", "pwe.x", ok ? bin : NULL, 32, pwe_19_x, 32);
		kat_field("j10.h2e", "pwe.y", ok ? bin + 32 : NULL, 32, pwe_19_y, 32);
		crypto_ec_point_deinit(pwe, 1);
	}
	sae_deinit_pt(pt_info);
	sae_clear_data(&sae);
	wpabuf_free(buf);
	crypto_bignum_deinit(mask, 1);
}

/*
 * Two peers with random scalars (os_get_random), H&P and H2E: each parses the other's commit,
 * both derive the same PMK and accept each other's confirm. No fixed expected value: what is
 * checked is agreement, and that a corrupted confirm is refused.
 */
static void sae_exchange(const char *name, int h2e)
{
	const u8 a1[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	const u8 a2[ETH_ALEN] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x02 };
	const char *pw = "correct horse battery staple";
	int groups[] = { 19, 0 };
	struct sae_data s1, s2;
	struct sae_pt *pt = NULL;
	struct wpabuf *c1 = wpabuf_alloc(500), *c2 = wpabuf_alloc(500);
	struct wpabuf *f1 = wpabuf_alloc(500), *f2 = wpabuf_alloc(500);
	int ok;

	os_memset(&s1, 0, sizeof(s1));
	os_memset(&s2, 0, sizeof(s2));
	ok = c1 && c2 && f1 && f2 && sae_set_group(&s1, 19) == 0 && sae_set_group(&s2, 19) == 0;
	if (ok && h2e) {
		pt = sae_derive_pt(groups, (const u8 *) "fathom", 6, (const u8 *) pw,
				   os_strlen(pw), NULL);
		ok = pt && sae_prepare_commit_pt(&s1, pt, a1, a2, NULL, NULL) == 0 &&
			sae_prepare_commit_pt(&s2, pt, a2, a1, NULL, NULL) == 0;
	} else if (ok) {
		ok = sae_prepare_commit(a1, a2, (const u8 *) pw, os_strlen(pw), &s1) == 0 &&
			sae_prepare_commit(a2, a1, (const u8 *) pw, os_strlen(pw), &s2) == 0;
	}
	ok = ok && sae_write_commit(&s1, c1, NULL, NULL) == 0 &&
		sae_write_commit(&s2, c2, NULL, NULL) == 0;
	kat_step(name, "commits", ok);
	if (ok) {
		ok = sae_parse_commit(&s1, wpabuf_head(c2), wpabuf_len(c2), NULL, NULL, NULL,
				      h2e) == 0 &&
			sae_parse_commit(&s2, wpabuf_head(c1), wpabuf_len(c1), NULL, NULL, NULL,
					 h2e) == 0 &&
			sae_process_commit(&s1) == 0 && sae_process_commit(&s2) == 0;
		kat_step(name, "parse_and_process", ok);
	}
	if (ok) {
		kat_field(name, "same_pmk", s1.pmk, SAE_PMK_LEN, s2.pmk, SAE_PMK_LEN);
		kat_field(name, "same_pmkid", s1.pmkid, SAE_PMKID_LEN, s2.pmkid, SAE_PMKID_LEN);
		ok = sae_write_confirm(&s1, f1) == 0 && sae_write_confirm(&s2, f2) == 0 &&
			sae_check_confirm(&s1, wpabuf_head(f2), wpabuf_len(f2)) == 0 &&
			sae_check_confirm(&s2, wpabuf_head(f1), wpabuf_len(f1)) == 0;
		kat_step(name, "confirms_accepted", ok);
		if (ok) {
			u8 *bad = wpabuf_mhead_u8(f2);

			bad[wpabuf_len(f2) - 1] ^= 0x01;
			kat_step(name, "corrupt_confirm_refused",
				 sae_check_confirm(&s1, wpabuf_head(f2), wpabuf_len(f2)) != 0);
		}
	}
	sae_clear_data(&s1);
	sae_clear_data(&s2);
	sae_deinit_pt(pt);
	wpabuf_free(c1);
	wpabuf_free(c2);
	wpabuf_free(f1);
	wpabuf_free(f2);
}

/* ---- the operation interpreter ---------------------------------------------------------- */

#define MAX_ARGS 8
#define MAX_BYTES 200

static char *tok[MAX_ARGS + 3];
static int ntok;

static void die_input(const char *why)
{
	fprintf(stderr, "bad test input: %s\n", why);
	exit(2);
}

static struct crypto_bignum * parse_bn(const char *hex)
{
	u8 b[MAX_BYTES];
	size_t n = strlen(hex);
	struct crypto_bignum *r;

	if (n % 2 || n / 2 > sizeof(b) || hexstr2bin(hex, b, n / 2) != 0)
		die_input(hex);
	r = crypto_bignum_init_set(b, n / 2);
	if (!r)
		die_input("crypto_bignum_init_set failed");
	return r;
}

static void print_bn(const char *label, const struct crypto_bignum *a)
{
	u8 b[MAX_BYTES];
	int n = crypto_bignum_to_bin(a, b, sizeof(b), 0);

	if (n < 0) {
		printf("%s=TOBIN_FAILED\n", label);
		return;
	}
	printf("%s=", label);
	if (n == 0)
		printf("0");
	print_hex(b, (size_t) n);
	printf("\n");
}

static void print_bn_result(const char *label, int ret, const struct crypto_bignum *r)
{
	if (ret == 0)
		print_bn(label, r);
	else
		printf("%s=ERR%d\n", label, ret);
}

static struct crypto_ec *get_ec(const char *group)
{
	struct crypto_ec *e = crypto_ec_init(atoi(group));

	if (!e)
		die_input("crypto_ec_init failed for a group the test uses");
	return e;
}

/* "inf", "X,Y" (through crypto_ec_point_from_bin) or "raw:X,Y" (no curve check). */
static struct crypto_ec_point * parse_pt(struct crypto_ec *e, const char *s)
{
	u8 b[2 * 66];
	size_t len = crypto_ec_prime_len(e);
	struct crypto_ec_point *p;
	int raw = strncmp(s, "raw:", 4) == 0;
	const char *comma;

	if (strcmp(s, "inf") == 0) {
		p = crypto_ec_point_init(e);
		if (!p)
			die_input("crypto_ec_point_init failed");
		return p;
	}
	if (raw)
		s += 4;
	comma = strchr(s, ',');
	if (!comma || (size_t) (comma - s) != 2 * len || strlen(comma + 1) != 2 * len ||
	    hexstr2bin(s, b, len) != 0 || hexstr2bin(comma + 1, b + len, len) != 0)
		die_input(s);
	if (!raw) {
		p = crypto_ec_point_from_bin(e, b);
		if (!p)
			die_input("crypto_ec_point_from_bin refused a point the test says is valid");
		return p;
	}
	p = crypto_ec_point_init(e);
	if (!p || point_set_xy(e, p, b) != 0)
		die_input("raw point");
	return p;
}

static void print_pt(const char *label, struct crypto_ec *e, const struct crypto_ec_point *p)
{
	u8 b[2 * 66];
	size_t len = crypto_ec_prime_len(e);

	if (crypto_ec_point_is_at_infinity(e, p)) {
		printf("%s=inf\n", label);
		return;
	}
	if (crypto_ec_point_to_bin(e, p, b, b + len) != 0) {
		printf("%s=TOBIN_FAILED\n", label);
		return;
	}
	printf("%s=", label);
	print_hex(b, len);
	printf(",");
	print_hex(b + len, len);
	printf("\n");
}

static void need(int n)
{
	if (ntok != n)
		die_input(tok[0]);
}

/*
 * Line format: OP LABEL ARGS... Bignums are even-length hex. RES is "n" (a new result) or the
 * 0-based index of the operand that also receives the result (aliasing).
 *   add|sub|mod|div|inverse LABEL RES A B        -> hex or ERR<ret>
 *   addmod|mulmod|exptmod LABEL RES A B M        -> hex or ERR<ret>
 *   sqrmod LABEL RES A M;  rshift LABEL RES A N(decimal)
 *   legendre LABEL A P; cmp LABEL A B; is_zero|is_one|is_odd LABEL A -> decimal
 *   init_uint LABEL N(decimal) -> hex
 *   tobin LABEL BUFLEN PADLEN A -> RET:hex-of-RET-bytes, or -1
 *   rand LABEL M COUNT -> comma-separated hex values
 *   ecinit LABEL GROUP -> ok | NULL;  ecparams LABEL GROUP -> p,n,a,b,plen,pbits,nlen
 *   padd LABEL GROUP RES P Q;  pmul LABEL GROUP RES P K;  pinv LABEL GROUP P  -> point or ERR
 *   poncurve|pinf LABEL GROUP P -> decimal;  pcmp LABEL GROUP P Q -> decimal
 *   pfrombin LABEL GROUP XYHEX -> point or NULL;  ptobin LABEL GROUP P -> x,y or -1
 *   ysqr LABEL GROUP X -> hex or NULL
 *   sha256 LABEL ELEM...;  hmac LABEL KEY ELEM...;  hmac1 LABEL KEY DATA -> hex ("-" = empty)
 * A point is "x,y" in hex (prime_len bytes each) or "inf".
 */
static void run_line(void)
{
	const char *op = tok[0], *label = tok[1];
	struct crypto_bignum *v[3] = { NULL, NULL, NULL }, *res = NULL;
	int nv = 0, ret = 0, i;

	if (ntok < 2)
		die_input("short line");

	if (!strcmp(op, "add") || !strcmp(op, "sub") || !strcmp(op, "mod") ||
	    !strcmp(op, "div") || !strcmp(op, "inverse") || !strcmp(op, "addmod") ||
	    !strcmp(op, "mulmod") || !strcmp(op, "exptmod") || !strcmp(op, "sqrmod") ||
	    !strcmp(op, "rshift")) {
		int three = !strcmp(op, "addmod") || !strcmp(op, "mulmod") ||
			!strcmp(op, "exptmod");
		int one = !strcmp(op, "rshift");

		nv = three ? 3 : one ? 1 : 2;
		need(3 + nv + (one ? 1 : 0));
		for (i = 0; i < nv; i++)
			v[i] = parse_bn(tok[3 + i]);
		if (strcmp(tok[2], "n") == 0) {
			res = crypto_bignum_init();
		} else {
			int k = atoi(tok[2]);
			if (k < 0 || k >= nv)
				die_input("alias index");
			res = v[k];
		}
		if (!strcmp(op, "add"))
			ret = crypto_bignum_add(v[0], v[1], res);
		else if (!strcmp(op, "sub"))
			ret = crypto_bignum_sub(v[0], v[1], res);
		else if (!strcmp(op, "mod"))
			ret = crypto_bignum_mod(v[0], v[1], res);
		else if (!strcmp(op, "div"))
			ret = crypto_bignum_div(v[0], v[1], res);
		else if (!strcmp(op, "inverse"))
			ret = crypto_bignum_inverse(v[0], v[1], res);
		else if (!strcmp(op, "addmod"))
			ret = crypto_bignum_addmod(v[0], v[1], v[2], res);
		else if (!strcmp(op, "mulmod"))
			ret = crypto_bignum_mulmod(v[0], v[1], v[2], res);
		else if (!strcmp(op, "exptmod"))
			ret = crypto_bignum_exptmod(v[0], v[1], v[2], res);
		else if (!strcmp(op, "sqrmod"))
			ret = crypto_bignum_sqrmod(v[0], v[1], res);
		else
			ret = crypto_bignum_rshift(v[0], atoi(tok[4]), res);
		print_bn_result(label, ret, res);
		if (strcmp(tok[2], "n") == 0)
			crypto_bignum_deinit(res, 1);
	} else if (!strcmp(op, "legendre") || !strcmp(op, "cmp")) {
		need(4);
		v[0] = parse_bn(tok[2]);
		v[1] = parse_bn(tok[3]);
		nv = 2;
		printf("%s=%d\n", label, !strcmp(op, "cmp") ? crypto_bignum_cmp(v[0], v[1]) :
		       crypto_bignum_legendre(v[0], v[1]));
	} else if (!strcmp(op, "is_zero") || !strcmp(op, "is_one") || !strcmp(op, "is_odd")) {
		need(3);
		v[0] = parse_bn(tok[2]);
		nv = 1;
		printf("%s=%d\n", label, !strcmp(op, "is_zero") ? crypto_bignum_is_zero(v[0]) :
		       !strcmp(op, "is_one") ? crypto_bignum_is_one(v[0]) :
		       crypto_bignum_is_odd(v[0]));
	} else if (!strcmp(op, "init_uint")) {
		need(3);
		v[0] = crypto_bignum_init_uint((unsigned int) strtoul(tok[2], NULL, 10));
		nv = 1;
		if (v[0])
			print_bn(label, v[0]);
		else
			printf("%s=NULL\n", label);
	} else if (!strcmp(op, "tobin")) {
		u8 b[MAX_BYTES];
		size_t buflen, padlen;

		need(5);
		buflen = strtoul(tok[2], NULL, 10);
		padlen = strtoul(tok[3], NULL, 10);
		if (buflen > sizeof(b))
			die_input("buflen");
		v[0] = parse_bn(tok[4]);
		nv = 1;
		ret = crypto_bignum_to_bin(v[0], b, buflen, padlen);
		printf("%s=%d", label, ret);
		if (ret >= 0) {
			printf(":");
			print_hex(b, (size_t) ret);
		}
		printf("\n");
	} else if (!strcmp(op, "rand")) {
		int count;

		need(4);
		v[0] = parse_bn(tok[2]);
		v[1] = crypto_bignum_init();
		nv = 2;
		count = atoi(tok[3]);
		printf("%s=", label);
		for (i = 0; i < count; i++) {
			u8 b[MAX_BYTES];
			int n;

			if (crypto_bignum_rand(v[1], v[0]) != 0) {
				printf("ERR");
				break;
			}
			n = crypto_bignum_to_bin(v[1], b, sizeof(b), 0);
			printf("%s", i ? "," : "");
			if (n == 0)
				printf("0");
			print_hex(b, n < 0 ? 0 : (size_t) n);
		}
		printf("\n");
	} else if (!strcmp(op, "ecinit")) {
		struct crypto_ec *e;

		need(3);
		e = crypto_ec_init(atoi(tok[2]));
		printf("%s=%s\n", label, e ? "ok" : "NULL");
		crypto_ec_deinit(e);
	} else if (!strcmp(op, "ecparams")) {
		struct crypto_ec *e;
		u8 b[MAX_BYTES];
		const struct crypto_bignum *parts[4];
		int n;

		need(3);
		e = get_ec(tok[2]);
		parts[0] = crypto_ec_get_prime(e);
		parts[1] = crypto_ec_get_order(e);
		parts[2] = crypto_ec_get_a(e);
		parts[3] = crypto_ec_get_b(e);
		printf("%s=", label);
		for (i = 0; i < 4; i++) {
			n = crypto_bignum_to_bin(parts[i], b, sizeof(b), 0);
			print_hex(b, n < 0 ? 0 : (size_t) n);
			printf(",");
		}
		printf("%zu,%zu,%zu\n", crypto_ec_prime_len(e), crypto_ec_prime_len_bits(e),
		       crypto_ec_order_len(e));
		crypto_ec_deinit(e);
	} else if (tok[0][0] == 'p' || !strcmp(op, "ysqr")) {
		struct crypto_ec *e;
		struct crypto_ec_point *p = NULL, *q = NULL, *r = NULL;

		if (ntok < 4)
			die_input(op);
		e = get_ec(tok[2]);
		if (!strcmp(op, "padd") || !strcmp(op, "pmul")) {
			int add = !strcmp(op, "padd");

			need(6);
			p = parse_pt(e, tok[4]);
			if (add)
				q = parse_pt(e, tok[5]);
			else
				v[nv++] = parse_bn(tok[5]);
			if (!strcmp(tok[3], "n"))
				r = crypto_ec_point_init(e);
			else
				r = atoi(tok[3]) == 0 ? p : q;
			if (!r)
				die_input("alias");
			ret = add ? crypto_ec_point_add(e, p, q, r) :
				crypto_ec_point_mul(e, p, v[0], r);
			if (ret == 0)
				print_pt(label, e, r);
			else
				printf("%s=ERR%d\n", label, ret);
			if (r == p || r == q)
				r = NULL;
		} else if (!strcmp(op, "pinv")) {
			need(4);
			p = parse_pt(e, tok[3]);
			ret = crypto_ec_point_invert(e, p);
			if (ret == 0)
				print_pt(label, e, p);
			else
				printf("%s=ERR%d\n", label, ret);
		} else if (!strcmp(op, "poncurve") || !strcmp(op, "pinf")) {
			need(4);
			p = parse_pt(e, tok[3]);
			printf("%s=%d\n", label, !strcmp(op, "pinf") ?
			       crypto_ec_point_is_at_infinity(e, p) :
			       crypto_ec_point_is_on_curve(e, p));
		} else if (!strcmp(op, "pcmp")) {
			need(5);
			p = parse_pt(e, tok[3]);
			q = parse_pt(e, tok[4]);
			printf("%s=%d\n", label, crypto_ec_point_cmp(e, p, q));
		} else if (!strcmp(op, "pfrombin")) {
			u8 b[2 * 66];
			size_t len = crypto_ec_prime_len(e);

			need(4);
			if (strlen(tok[3]) != 4 * len || hexstr2bin(tok[3], b, 2 * len) != 0)
				die_input(tok[3]);
			p = crypto_ec_point_from_bin(e, b);
			if (p)
				print_pt(label, e, p);
			else
				printf("%s=NULL\n", label);
		} else if (!strcmp(op, "ptobin")) {
			u8 b[2 * 66];
			size_t len = crypto_ec_prime_len(e);

			need(4);
			p = parse_pt(e, tok[3]);
			ret = crypto_ec_point_to_bin(e, p, b, b + len);
			if (ret == 0) {
				printf("%s=", label);
				print_hex(b, len);
				printf(",");
				print_hex(b + len, len);
				printf("\n");
			} else {
				printf("%s=%d\n", label, ret);
			}
		} else if (!strcmp(op, "ysqr")) {
			need(4);
			v[nv++] = parse_bn(tok[3]);
			res = crypto_ec_point_compute_y_sqr(e, v[0]);
			if (res)
				print_bn(label, res);
			else
				printf("%s=NULL\n", label);
			crypto_bignum_deinit(res, 1);
		} else {
			die_input(op);
		}
		crypto_ec_point_deinit(p, 1);
		crypto_ec_point_deinit(q, 1);
		crypto_ec_point_deinit(r, 1);
		crypto_ec_deinit(e);
	} else if (!strcmp(op, "sha256") || !strcmp(op, "hmac") || !strcmp(op, "hmac1")) {
		/* sha256 LABEL ELEM...; hmac LABEL KEY ELEM...; hmac1 LABEL KEY DATA ("-" = empty) */
		static u8 data[MAX_ARGS][MAX_BYTES];
		const u8 *addr[MAX_ARGS];
		size_t len[MAX_ARGS], k;
		int first = !strcmp(op, "sha256") ? 2 : 3, nelem = ntok - first;
		u8 key[MAX_BYTES], mac[32];
		size_t key_len = 0;

		if (nelem < 0 || (!strcmp(op, "hmac1") && nelem != 1))
			die_input(op);
		for (i = 0; i < ntok - 2; i++) {
			const char *h = strcmp(tok[2 + i], "-") ? tok[2 + i] : "";
			size_t hl = strlen(h);
			u8 *dst = i == 0 && first == 3 ? key : data[i];

			if (hl % 2 || hl / 2 > MAX_BYTES || hexstr2bin(h, dst, hl / 2))
				die_input(h);
			if (i == 0 && first == 3) {
				key_len = hl / 2;
			} else {
				k = (size_t) (i - (first - 2));
				addr[k] = data[i];
				len[k] = hl / 2;
			}
		}
		if (!strcmp(op, "sha256"))
			ret = sha256_vector((size_t) nelem, addr, len, mac);
		else if (!strcmp(op, "hmac"))
			ret = hmac_sha256_vector(key, key_len, (size_t) nelem, addr, len, mac);
		else
			ret = hmac_sha256(key, key_len, addr[0], len[0], mac);
		printf("%s=", label);
		if (ret == 0)
			print_hex(mac, sizeof(mac));
		else
			printf("ERR%d", ret);
		printf("\n");
	} else if (!strcmp(op, "kat")) {
		kat_j10();
	} else if (!strcmp(op, "sae_exchange")) {
		need(2);
		sae_exchange("exchange.hnp", 0);
		sae_exchange("exchange.h2e", 1);
	} else {
		die_input(op);
	}
	for (i = 0; i < nv; i++)
		crypto_bignum_deinit(v[i], 1);
}

int main(void)
{
	char line[4096];

	while (fgets(line, sizeof(line), stdin)) {
		char *s, *save = NULL;

		ntok = 0;
		for (s = strtok_r(line, " \t\r\n", &save); s; s = strtok_r(NULL, " \t\r\n", &save)) {
			if (ntok == (int) (sizeof(tok) / sizeof(tok[0])))
				die_input("too many fields");
			tok[ntok++] = s;
		}
		if (ntok == 0 || tok[0][0] == '#')
			continue;
		run_line();
		fflush(stdout);
	}
	/* The KAT mismatches were reported line by line; the script also checks them. */
	return failures ? 1 : 0;
}
