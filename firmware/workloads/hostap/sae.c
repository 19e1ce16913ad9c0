/* fathom workloads: WPA3-SAE (Simultaneous Authentication of Equals, IEEE 802.11-2020 12.4) on
 * group 19 (P-256), with hostap 2.10's own code (src/common/sae.c, dragonfly.c) over the image's
 * crypto back end (firmware/libs/hostap-mbedtls: fathom's Mbed TLS back end;
 * firmware/libs/hostap-wolfssl: hostap's crypto_wolfssl.c). The same file serves both.
 *
 * The steps people reason about, one station's side each:
 *   sae_h2e_pt          Hash-to-Element password element: PT from SSID, password and password
 *                       identifier (sae_derive_pt: two SSWU map evaluations and a point
 *                       addition). Done once per network, not per connection.
 *   sae_h2e_commit      H2E commit: PWE = [val]PT from PT and both MAC addresses, then rand,
 *                       mask, commit scalar and element (sae_prepare_commit_pt) and the commit
 *                       frame's body (sae_write_commit, with the password identifier).
 *   sae_hnp_commit      Hunting-and-Pecking commit: PWE by the looping derivation (hostap runs
 *                       at least dragonfly_min_pwe_loop_iter(19) = 40 candidates whatever the
 *                       counter that succeeds), then the commit (sae_prepare_commit) and frame.
 *   sae_process_commit  the peer's commit: parsing with validation of its scalar and element
 *                       (sae_parse_commit), the shared secret K = [rand](scalar*PWE + element)
 *                       and the keys KCK, PMK, PMKID (sae_process_commit).
 *   sae_confirm         our confirm (sae_write_confirm: HMAC with KCK) and the check of the
 *                       peer's (sae_check_confirm).
 *   sae_handshake_h2e / sae_handshake_hnp
 *                       a complete handshake between two instances in this image (a station and
 *                       an access point): both commits, both processed, both confirms written
 *                       and checked, the PMKs compared. H2E uses a PT derived in setup (both
 *                       ends hold it before a connection).
 *
 * Known answers (IEEE 802.11-2020 Annex J.10, firmware/workloads/vectors/sae_ieee80211_j10.h),
 * checked in every image before any SAE timing counts: the H&P commit message, KCK, PMK and
 * PMKID; the H2E PWE from PT; and every handshake completing with the same PMK and PMKID on
 * both sides. Randomness (rand, mask, the H&P blinding values, the back ends' blinding) comes
 * from os_get_random, i.e. the harness's deterministic generator
 * (firmware/libs/hostap/os_fathom.c). */
#include <stdint.h>
#include <string.h>

#include "fathom_harness.h"

/* hostap's headers are not written for -Wextra (unused parameters of inline stubs). */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wunused-parameter"
#include "includes.h"

#include "common.h"
#include "common/ieee802_11_defs.h"
#include "common/sae.h"
#include "crypto/crypto.h"
#include "utils/wpabuf.h"
#pragma GCC diagnostic pop
#include "../vectors/sae_ieee80211_j10.h"

#define SAE_GROUP 19
#define P256_LEN 32
/* Body of an SAE commit frame for group 19: group (2), scalar (32), element x || y (64). */
#define SAE_COMMIT_BODY_LEN (2 + P256_LEN + 2 * P256_LEN)
/* Password Identifier element: element ID extension (3 bytes of header) + the identifier. */
#define SAE_PASSWORD_ID_ELEMENT_LEN (3 + sizeof sae_j10_password_id - 1)
/* Body of an SAE confirm frame: send-confirm (2) + the confirm (HMAC-SHA256, 32). */
#define SAE_CONFIRM_BODY_LEN (2 + 32)

static int sae_groups[] = {SAE_GROUP, 0};

/* An access point's address for the handshakes (the station is sae_j10_addr1). */
static const uint8_t sae_ap_addr[6] = {0x02, 0x00, 0x00, 0x00, 0x01, 0x00};

static struct sae_pt *derive_pt(void) {
  return sae_derive_pt(sae_groups, (const u8 *)sae_j10_ssid, strlen(sae_j10_ssid),
                       (const u8 *)sae_j10_password, strlen(sae_j10_password),
                       sae_j10_password_id);
}

/* The Hunting-and-Pecking commit of J.10: hostap's own derivation of the PWE for addr1/addr2 and
 * the password, then rand and mask replaced by the vector's (as sae_tests() does). */
static int prepare_j10_commit(struct sae_data *sae) {
  memset(sae, 0, sizeof *sae);
  if (sae_set_group(sae, SAE_GROUP) < 0 ||
      sae_prepare_commit(sae_j10_addr1, sae_j10_addr2, (const u8 *)sae_j10_password,
                         strlen(sae_j10_password), sae) < 0)
    return -1;
  struct crypto_bignum *mask = crypto_bignum_init_set(sae_j10_mask, sizeof sae_j10_mask);
  crypto_bignum_deinit(sae->tmp->sae_rand, 1);
  sae->tmp->sae_rand = crypto_bignum_init_set(sae_j10_rand, sizeof sae_j10_rand);
  int r = -1;
  if (mask && sae->tmp->sae_rand &&
      crypto_bignum_add(sae->tmp->sae_rand, mask, sae->tmp->own_commit_scalar) == 0 &&
      crypto_bignum_mod(sae->tmp->own_commit_scalar, sae->tmp->order,
                        sae->tmp->own_commit_scalar) == 0 &&
      crypto_ec_point_mul(sae->tmp->ec, sae->tmp->pwe_ecc, mask,
                          sae->tmp->own_commit_element_ecc) == 0 &&
      crypto_ec_point_invert(sae->tmp->ec, sae->tmp->own_commit_element_ecc) == 0)
    r = 0;
  crypto_bignum_deinit(mask, 1);
  return r;
}

/* ---- sae_h2e_pt */

static void h2e_pwe_kat(const struct sae_pt *pt, const char *what);

static int h2e_pt_setup(void) {
  fathom_report_bytes("password_element", 2 * P256_LEN); /* PT, kept per network */
  return 0;
}

static void h2e_pt_kat(void) {
  struct sae_pt *pt = derive_pt();
  h2e_pwe_kat(pt, "j10-h2e");
  sae_deinit_pt(pt);
}

/* J.10 H2E: PWE from PT for addr1b/addr2b must equal the vector's x and y. */
static void h2e_pwe_kat(const struct sae_pt *pt, const char *what) {
  char name_x[40], name_y[40];
  snprintf(name_x, sizeof name_x, "%s-pwe-x", what);
  snprintf(name_y, sizeof name_y, "%s-pwe-y", what);
  struct crypto_ec_point *pwe =
      pt ? sae_derive_pwe_from_pt_ecc(pt, sae_j10_addr1b, sae_j10_addr2b) : NULL;
  u8 bin[2 * P256_LEN];
  if (!pwe || crypto_ec_point_to_bin(pt->ec, pwe, bin, bin + P256_LEN) < 0) {
    fathom_kat_check(name_x, NULL, sae_j10_h2e_pwe_x, P256_LEN);
    fathom_kat_check(name_y, NULL, sae_j10_h2e_pwe_y, P256_LEN);
  } else {
    fathom_kat_check(name_x, bin, sae_j10_h2e_pwe_x, P256_LEN);
    fathom_kat_check(name_y, bin + P256_LEN, sae_j10_h2e_pwe_y, P256_LEN);
  }
  crypto_ec_point_deinit(pwe, 1);
}

static int h2e_pt_run(void) {
  struct sae_pt *pt = derive_pt();
  if (!pt) return 1;
  sae_deinit_pt(pt);
  return 0;
}

static const fathom_op op_sae_h2e_pt = {
    .name = "sae_h2e_pt",
    .setup = h2e_pt_setup,
    .kat = h2e_pt_kat,
    .run = h2e_pt_run,
};
FATHOM_REGISTER_OP(op_sae_h2e_pt);

/* ---- sae_h2e_commit */

static struct sae_pt *network_pt; /* PT of the J.10 network, derived in setup */

static int network_pt_setup(void) {
  if (!network_pt) network_pt = derive_pt();
  return network_pt ? 0 : 1;
}

static void network_pt_teardown(void) {
  sae_deinit_pt(network_pt);
  network_pt = NULL;
}

static int h2e_commit_setup(void) {
  fathom_report_bytes("commit_frame", SAE_COMMIT_BODY_LEN + SAE_PASSWORD_ID_ELEMENT_LEN);
  return network_pt_setup();
}

/* One H2E commit of `sae` (a fresh instance) for own/peer addresses, written into `frame`. */
static int h2e_commit(struct sae_data *sae, const u8 *own, const u8 *peer, struct wpabuf *frame) {
  memset(sae, 0, sizeof *sae);
  if (sae_set_group(sae, SAE_GROUP) < 0 ||
      sae_prepare_commit_pt(sae, network_pt, own, peer, NULL, NULL) < 0)
    return -1;
  return sae_write_commit(sae, frame, NULL, sae_j10_password_id);
}

static void h2e_commit_kat(void) {
  /* The PWE this commit derives from PT for addr1b/addr2b is the J.10 vector's... */
  struct sae_data sae;
  memset(&sae, 0, sizeof sae);
  u8 bin[2 * P256_LEN];
  int ok = network_pt && sae_set_group(&sae, SAE_GROUP) == 0 &&
           sae_prepare_commit_pt(&sae, network_pt, sae_j10_addr1b, sae_j10_addr2b, NULL, NULL) ==
               0 &&
           crypto_ec_point_to_bin(sae.tmp->ec, sae.tmp->pwe_ecc, bin, bin + P256_LEN) == 0;
  fathom_kat_check("j10-h2e-commit-pwe-x", ok ? bin : NULL, sae_j10_h2e_pwe_x, P256_LEN);
  fathom_kat_check("j10-h2e-commit-pwe-y", ok ? bin + P256_LEN : NULL, sae_j10_h2e_pwe_y,
                   P256_LEN);
  sae_clear_data(&sae);
  /* ...and the frame it writes has the size of group 19's commit with the identifier. */
  struct wpabuf *frame = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  ok = frame && h2e_commit(&sae, sae_j10_addr1, sae_ap_addr, frame) == 0 &&
       wpabuf_len(frame) == SAE_COMMIT_BODY_LEN + SAE_PASSWORD_ID_ELEMENT_LEN;
  fathom_kat_expect("h2e-commit-frame-length", ok);
  sae_clear_data(&sae);
  wpabuf_free(frame);
}

static int h2e_commit_run(void) {
  struct sae_data sae;
  struct wpabuf *frame = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  int r = frame ? h2e_commit(&sae, sae_j10_addr1, sae_ap_addr, frame) : -1;
  sae_clear_data(&sae);
  wpabuf_free(frame);
  return r < 0;
}

static const fathom_op op_sae_h2e_commit = {
    .name = "sae_h2e_commit",
    .setup = h2e_commit_setup,
    .kat = h2e_commit_kat,
    .run = h2e_commit_run,
    .teardown = network_pt_teardown,
};
FATHOM_REGISTER_OP(op_sae_h2e_commit);

/* ---- sae_hnp_commit */

static int hnp_commit_setup(void) {
  fathom_report_bytes("commit_frame", SAE_COMMIT_BODY_LEN);
  return 0;
}

static void hnp_commit_kat(void) {
  struct sae_data sae;
  struct wpabuf *frame = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  int ok = frame && prepare_j10_commit(&sae) == 0 && sae_write_commit(&sae, frame, NULL, NULL) == 0 &&
           wpabuf_len(frame) == sizeof sae_j10_commit;
  fathom_kat_check("j10-hnp-commit", ok ? wpabuf_head(frame) : NULL, sae_j10_commit,
                   sizeof sae_j10_commit);
  sae_clear_data(&sae);
  wpabuf_free(frame);
}

static int hnp_commit_run(void) {
  struct sae_data sae;
  memset(&sae, 0, sizeof sae);
  struct wpabuf *frame = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  int r = -1;
  if (frame && sae_set_group(&sae, SAE_GROUP) == 0 &&
      sae_prepare_commit(sae_j10_addr1, sae_ap_addr, (const u8 *)sae_j10_password,
                         strlen(sae_j10_password), &sae) == 0)
    r = sae_write_commit(&sae, frame, NULL, NULL);
  sae_clear_data(&sae);
  wpabuf_free(frame);
  return r < 0;
}

static const fathom_op op_sae_hnp_commit = {
    .name = "sae_hnp_commit",
    .setup = hnp_commit_setup,
    .kat = hnp_commit_kat,
    .run = hnp_commit_run,
};
FATHOM_REGISTER_OP(op_sae_hnp_commit);

/* ---- sae_process_commit: the J.10 station processing the J.10 peer's commit */

static struct sae_data j10_station; /* prepared in setup: our commit sent, the peer's to come */

static int process_commit_setup(void) {
  fathom_report_bytes("peer_commit_frame", sizeof sae_j10_peer_commit);
  sae_clear_data(&j10_station);
  return prepare_j10_commit(&j10_station) < 0;
}

static int process_peer_commit(struct sae_data *sae) {
  if (sae_parse_commit(sae, sae_j10_peer_commit, sizeof sae_j10_peer_commit, NULL, NULL, NULL,
                       0) != WLAN_STATUS_SUCCESS)
    return -1;
  return sae_process_commit(sae);
}

static void process_commit_kat(void) {
  const int ok = process_peer_commit(&j10_station) == 0;
  fathom_kat_check("j10-hnp-kck", ok ? j10_station.tmp->kck : NULL, sae_j10_kck,
                   sizeof sae_j10_kck);
  fathom_kat_check("j10-hnp-pmk", ok ? j10_station.pmk : NULL, sae_j10_pmk, sizeof sae_j10_pmk);
  fathom_kat_check("j10-hnp-pmkid", ok ? j10_station.pmkid : NULL, sae_j10_pmkid,
                   sizeof sae_j10_pmkid);
  /* The validation is real: a peer element off the curve is rejected. */
  u8 bad[sizeof sae_j10_peer_commit];
  memcpy(bad, sae_j10_peer_commit, sizeof bad);
  bad[sizeof bad - 1] ^= 0x01;
  fathom_kat_expect("peer-element-off-curve-rejected",
                    sae_parse_commit(&j10_station, bad, sizeof bad, NULL, NULL, NULL, 0) !=
                        WLAN_STATUS_SUCCESS);
}

static int process_commit_run(void) { return process_peer_commit(&j10_station) < 0; }

static void process_commit_teardown(void) { sae_clear_data(&j10_station); }

static const fathom_op op_sae_process_commit = {
    .name = "sae_process_commit",
    .setup = process_commit_setup,
    .kat = process_commit_kat,
    .run = process_commit_run,
    .teardown = process_commit_teardown,
};
FATHOM_REGISTER_OP(op_sae_process_commit);

/* ---- the two-instance handshake, and sae_confirm on its state */

struct sae_pair {
  struct sae_data sta, ap;
  struct wpabuf *commit_sta, *commit_ap, *confirm_sta, *confirm_ap;
};

static void pair_clear(struct sae_pair *p) {
  sae_clear_data(&p->sta);
  sae_clear_data(&p->ap);
  wpabuf_free(p->commit_sta);
  wpabuf_free(p->commit_ap);
  wpabuf_free(p->confirm_sta);
  wpabuf_free(p->confirm_ap);
  memset(p, 0, sizeof *p);
}

/* Both commits, each processed by the other side. `h2e` selects the PWE method. */
static int pair_commit(struct sae_pair *p, int h2e) {
  memset(p, 0, sizeof *p);
  p->commit_sta = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  p->commit_ap = wpabuf_alloc(SAE_COMMIT_MAX_LEN);
  p->confirm_sta = wpabuf_alloc(SAE_CONFIRM_MAX_LEN);
  p->confirm_ap = wpabuf_alloc(SAE_CONFIRM_MAX_LEN);
  if (!p->commit_sta || !p->commit_ap || !p->confirm_sta || !p->confirm_ap) return -1;
  if (h2e) {
    if (h2e_commit(&p->sta, sae_j10_addr1, sae_ap_addr, p->commit_sta) < 0 ||
        h2e_commit(&p->ap, sae_ap_addr, sae_j10_addr1, p->commit_ap) < 0)
      return -1;
  } else {
    const u8 *pw = (const u8 *)sae_j10_password;
    const size_t pw_len = strlen(sae_j10_password);
    if (sae_set_group(&p->sta, SAE_GROUP) < 0 || sae_set_group(&p->ap, SAE_GROUP) < 0 ||
        sae_prepare_commit(sae_j10_addr1, sae_ap_addr, pw, pw_len, &p->sta) < 0 ||
        sae_prepare_commit(sae_ap_addr, sae_j10_addr1, pw, pw_len, &p->ap) < 0 ||
        sae_write_commit(&p->sta, p->commit_sta, NULL, NULL) < 0 ||
        sae_write_commit(&p->ap, p->commit_ap, NULL, NULL) < 0)
      return -1;
  }
  if (sae_parse_commit(&p->ap, wpabuf_head(p->commit_sta), wpabuf_len(p->commit_sta), NULL, NULL,
                       NULL, h2e) != WLAN_STATUS_SUCCESS ||
      sae_parse_commit(&p->sta, wpabuf_head(p->commit_ap), wpabuf_len(p->commit_ap), NULL, NULL,
                       NULL, h2e) != WLAN_STATUS_SUCCESS ||
      sae_process_commit(&p->ap) < 0 || sae_process_commit(&p->sta) < 0)
    return -1;
  return 0;
}

/* Empties a frame buffer for the next frame (hostap 2.10's wpabuf has no reset). */
static void frame_reset(struct wpabuf *frame) { frame->used = 0; }

/* Both confirms written and checked by the other side. */
static int pair_confirm(struct sae_pair *p) {
  frame_reset(p->confirm_sta);
  frame_reset(p->confirm_ap);
  if (sae_write_confirm(&p->sta, p->confirm_sta) < 0 ||
      sae_write_confirm(&p->ap, p->confirm_ap) < 0 ||
      sae_check_confirm(&p->ap, wpabuf_head(p->confirm_sta), wpabuf_len(p->confirm_sta)) < 0 ||
      sae_check_confirm(&p->sta, wpabuf_head(p->confirm_ap), wpabuf_len(p->confirm_ap)) < 0)
    return -1;
  return 0;
}

/* A handshake completed: both confirms accepted and both sides hold the same PMK and PMKID. */
static void handshake_kat(int h2e, const char *name) {
  struct sae_pair p;
  int ok = pair_commit(&p, h2e) == 0 && pair_confirm(&p) == 0;
  char vector[40];
  snprintf(vector, sizeof vector, "%s-pmk-match", name);
  fathom_kat_check(vector, ok ? p.sta.pmk : NULL, p.ap.pmk, SAE_PMK_LEN);
  snprintf(vector, sizeof vector, "%s-pmkid-match", name);
  fathom_kat_check(vector, ok ? p.sta.pmkid : NULL, p.ap.pmkid, SAE_PMKID_LEN);
  /* A confirm that does not prove knowledge of the PMK's KCK is rejected. */
  int rejected = 0;
  if (ok) {
    frame_reset(p.confirm_sta);
    ok = sae_write_confirm(&p.sta, p.confirm_sta) == 0;
    u8 *c = wpabuf_mhead_u8(p.confirm_sta);
    c[wpabuf_len(p.confirm_sta) - 1] ^= 0x80;
    rejected = ok && sae_check_confirm(&p.ap, c, wpabuf_len(p.confirm_sta)) < 0;
  }
  snprintf(vector, sizeof vector, "%s-bad-confirm-rejected", name);
  fathom_kat_expect(vector, rejected);
  pair_clear(&p);
}

static int handshake_run(int h2e) {
  struct sae_pair p;
  int r = pair_commit(&p, h2e) == 0 && pair_confirm(&p) == 0 &&
          memcmp(p.sta.pmk, p.ap.pmk, SAE_PMK_LEN) == 0;
  pair_clear(&p);
  return !r;
}

static void report_handshake_bytes(int h2e) {
  const uint32_t commit =
      SAE_COMMIT_BODY_LEN + (h2e ? (uint32_t)SAE_PASSWORD_ID_ELEMENT_LEN : 0u);
  fathom_report_bytes("commit_frames", 2 * commit);           /* one each way */
  fathom_report_bytes("confirm_frames", 2 * SAE_CONFIRM_BODY_LEN); /* one each way */
  fathom_report_bytes("pmk", SAE_PMK_LEN);
}

static int handshake_h2e_setup(void) {
  report_handshake_bytes(1);
  return network_pt_setup();
}
static void handshake_h2e_kat(void) { handshake_kat(1, "handshake-h2e"); }
static int handshake_h2e_run(void) { return handshake_run(1); }

static const fathom_op op_sae_handshake_h2e = {
    .name = "sae_handshake_h2e",
    .setup = handshake_h2e_setup,
    .kat = handshake_h2e_kat,
    .run = handshake_h2e_run,
    .teardown = network_pt_teardown,
};
FATHOM_REGISTER_OP(op_sae_handshake_h2e);

static int handshake_hnp_setup(void) {
  report_handshake_bytes(0);
  return 0;
}
static void handshake_hnp_kat(void) { handshake_kat(0, "handshake-hnp"); }
static int handshake_hnp_run(void) { return handshake_run(0); }

static const fathom_op op_sae_handshake_hnp = {
    .name = "sae_handshake_hnp",
    .setup = handshake_hnp_setup,
    .kat = handshake_hnp_kat,
    .run = handshake_hnp_run,
};
FATHOM_REGISTER_OP(op_sae_handshake_hnp);

/* ---- sae_confirm: one side's confirm step after both commits (H&P pair from setup) */

static struct sae_pair confirm_pair;

/* Both commits processed, and the access point's confirm written as it would arrive. */
static int confirm_setup(void) {
  fathom_report_bytes("confirm_frame", SAE_CONFIRM_BODY_LEN);
  fathom_report_bytes("peer_confirm_frame", SAE_CONFIRM_BODY_LEN);
  pair_clear(&confirm_pair);
  return pair_commit(&confirm_pair, 0) < 0 ||
         sae_write_confirm(&confirm_pair.ap, confirm_pair.confirm_ap) < 0;
}

/* The station writes its confirm and checks the access point's. */
static int confirm_run(void) {
  frame_reset(confirm_pair.confirm_sta);
  return sae_write_confirm(&confirm_pair.sta, confirm_pair.confirm_sta) < 0 ||
         sae_check_confirm(&confirm_pair.sta, wpabuf_head(confirm_pair.confirm_ap),
                           wpabuf_len(confirm_pair.confirm_ap)) < 0;
}

static void confirm_kat(void) {
  fathom_kat_expect("confirm-frame-length",
                    wpabuf_len(confirm_pair.confirm_ap) == SAE_CONFIRM_BODY_LEN);
  fathom_kat_expect("confirm-peer-accepted", confirm_run() == 0);
  fathom_kat_expect("confirm-accepted-by-peer",
                    sae_check_confirm(&confirm_pair.ap, wpabuf_head(confirm_pair.confirm_sta),
                                      wpabuf_len(confirm_pair.confirm_sta)) == 0);
}

static void confirm_teardown(void) { pair_clear(&confirm_pair); }

static const fathom_op op_sae_confirm = {
    .name = "sae_confirm",
    .setup = confirm_setup,
    .kat = confirm_kat,
    .run = confirm_run,
    .teardown = confirm_teardown,
};
FATHOM_REGISTER_OP(op_sae_confirm);
