#!/bin/bash
# Host test of fathom's hostap crypto back end over Mbed TLS
# (firmware/libs/hostap-mbedtls/crypto_mbedtls.c): compiled on the host with cc together with
# Mbed TLS 3.6.6 (default configuration) and hostap 2.10's own SAE code (sae.c, dragonfly.c,
# sha256-prf.c, sha256-kdf.c, dh_groups.c, wpabuf.c, common.c, os_unix.c), then
#  - IEEE 802.11-2020 Annex J.10 through sae.c as hostap's sae_tests() does (H&P commit, KCK,
#    PMK, PMKID; H2E PT -> PWE for group 19), and a full two-peer SAE exchange;
#  - every function of the back end, the pitfalls included (exptmod aliasing, get_a = p - 3,
#    point addition incl. P + (-P) and the point at infinity, invert, on-curve checks,
#    from_bin refusing off-curve points, to_bin padding, error values), on operands chosen
#    here, with every expected value computed here by python3's own integer arithmetic.
# Called as test_crypto_mbedtls.sh FATHOM_BINARY SOURCE_DIR (as tests/e2e/*.sh); exits 77
# (skipped) when the Mbed TLS or hostap sources are not there. The compiled Mbed TLS library
# is cached (FATHOM_TEST_CACHE, default ~/.cache/fathom/test-cache) so that later runs take
# seconds.
set -u
FATHOM="${1:-}"
SRC="${2:-$(cd "$(dirname "$0")/../../../.." && pwd)}"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "SKIP: $*" >&2; exit 77; }

# --- the sources: env, then `fathom sources`, then the default cache folders ------------------
source_path() { # NAME VERSION: the path `fathom sources` reports for NAME VERSION, if ok
  [ -n "$FATHOM" ] && [ -x "$FATHOM" ] || return 0
  "$FATHOM" sources 2>/dev/null | awk -v n="$1" -v v="$2" \
    '$1 == n && $2 == v && ($3 == "ok" || $3 == "overridden") { print $NF }'
}
MBED="${FATHOM_SOURCE_MBEDTLS:-$(source_path mbedtls 3.6.6)}"
HOSTAP="${FATHOM_SOURCE_HOSTAP:-$(source_path hostap 2.10)}"
MBED="${MBED:-$HOME/.cache/fathom/sources/mbedtls-3.6.6/mbedtls-3.6.6}"
HOSTAP="${HOSTAP:-$HOME/.cache/fathom/sources/hostap-2.10/wpa-2.10}"
[ -f "$MBED/include/mbedtls/ecp.h" ] && [ -f "$MBED/library/bignum.c" ] ||
  skip "Mbed TLS sources not found at $MBED (fathom sources --fetch, or FATHOM_SOURCE_MBEDTLS)"
[ -f "$HOSTAP/src/common/sae.c" ] ||
  skip "hostap sources not found at $HOSTAP (fathom sources --fetch, or FATHOM_SOURCE_HOSTAP)"
CC="${CC:-cc}"
command -v "$CC" >/dev/null || skip "no host C compiler ($CC)"
command -v python3 >/dev/null || skip "python3 is not installed"

BACKEND="$SRC/firmware/libs/hostap-mbedtls/crypto_mbedtls.c"
DRIVER="$SRC/tests/firmware/libs/hostap-mbedtls/crypto_mbedtls_test.c"
[ -f "$BACKEND" ] || fail "$BACKEND is missing"
H="$HOSTAP/src"
# What hostap's own build (wpa_supplicant/Makefile, CONFIG_SAE=y) defines for this code, and
# what a bare-metal build uses instead of the random pool and the debug output.
DEFS=(-DCONFIG_SAE -DCONFIG_ECC -DCONFIG_SHA256 -DCONFIG_NO_STDOUT_DEBUG
      -DCONFIG_NO_RANDOM_POOL)
INCS=(-I"$H" -I"$H/utils" -I"$H/crypto" -I"$MBED/include")

# --- Mbed TLS, compiled once per source tree and compiler ------------------------------------
CACHE="${FATHOM_TEST_CACHE:-$HOME/.cache/fathom/test-cache}"
LIBDIR="$CACHE/hostap-mbedtls/$(basename "$MBED")-$("$CC" -dumpfullversion -dumpversion | head -1)"
if [ ! -f "$LIBDIR/libmbedcrypto.a" ]; then
  mkdir -p "$CACHE/hostap-mbedtls" || fail "cannot create $CACHE"
  BUILD="$(mktemp -d "$CACHE/hostap-mbedtls/build.XXXXXX")"
  # Two jobs at most (the machine has two cores and other work on it).
  (cd "$MBED/library" && ls ./*.c) | sed 's|^\./||' |
    xargs -P2 -I{} sh -c '"$0" -O1 -I"$1/include" -I"$1/library" -c "$1/library/$2" \
      -o "$3/${2%.c}.o" 2>>"$3/errors" || { echo "$2" >>"$3/failed"; exit 255; }' \
      "$CC" "$MBED" {} "$BUILD"
  [ -f "$BUILD/failed" ] && { cat "$BUILD/errors" >&2; rm -rf "$BUILD"; fail "Mbed TLS did not compile"; }
  ar rcs "$BUILD/libmbedcrypto.a" "$BUILD"/*.o || { rm -rf "$BUILD"; fail "ar failed"; }
  rm -f "$BUILD"/*.o "$BUILD/errors"
  mkdir -p "$(dirname "$LIBDIR")"
  mv "$BUILD" "$LIBDIR" 2>/dev/null || rm -rf "$BUILD"   # another run may have won the race
fi
[ -f "$LIBDIR/libmbedcrypto.a" ] || fail "no $LIBDIR/libmbedcrypto.a"

# --- the back end compiles without a warning: host (C11) and, if installed, Cortex-M ----------
"$CC" -std=c11 -Wall -Wextra -Werror "${DEFS[@]}" "${INCS[@]}" -fsyntax-only "$BACKEND" \
  2>"$WORK/warn" || { cat "$WORK/warn" >&2; fail "crypto_mbedtls.c: warnings or errors (host, -std=c11)"; }
if command -v arm-none-eabi-gcc >/dev/null 2>&1; then
  # includes.h wants a few POSIX headers that newlib lacks, and common.h the byte order: the
  # firmware build provides stand-ins; these empty ones are enough to compile the back end.
  mkdir -p "$WORK/arm/sys" "$WORK/arm/netinet" "$WORK/arm/arpa"
  for f in sys/socket.h sys/uio.h netinet/in.h arpa/inet.h; do : >"$WORK/arm/$f"; done
  printf '%s\n' '#define __LITTLE_ENDIAN 1234' '#define __BIG_ENDIAN 4321' \
    '#define __BYTE_ORDER __LITTLE_ENDIAN' '#define bswap_16 __builtin_bswap16' \
    '#define bswap_32 __builtin_bswap32' '#define bswap_64 __builtin_bswap64' >"$WORK/arm/prelude.h"
  arm-none-eabi-gcc -mcpu=cortex-m33 -mthumb -std=c11 -Wall -Wextra -Werror -O2 \
    -include "$WORK/arm/prelude.h" -I"$WORK/arm" "${DEFS[@]}" "${INCS[@]}" \
    -c "$BACKEND" -o "$WORK/arm/crypto_mbedtls.o" 2>"$WORK/warn" ||
    { cat "$WORK/warn" >&2; fail "crypto_mbedtls.c: warnings or errors (arm-none-eabi-gcc)"; }
fi

# --- the driver with hostap's SAE code --------------------------------------------------------
HOSTAP_SRCS=("$H/common/sae.c" "$H/common/dragonfly.c" "$H/crypto/sha256-prf.c"
             "$H/crypto/sha256-kdf.c" "$H/crypto/dh_groups.c" "$H/utils/wpabuf.c"
             "$H/utils/common.c" "$H/utils/os_unix.c")
# Two at a time: run_jobs starts each compile in the background and waits when two run.
compile() { # SOURCE OBJECT
  "$CC" -O1 -g -Wall -Wno-unused-parameter -Wno-sign-compare "${DEFS[@]}" "${INCS[@]}" \
    -I"$SRC/firmware/libs/hostap-mbedtls" -c "$1" -o "$2" 2>"$2.log" ||
    { cat "$2.log" >&2; return 1; }
}
pids=()
for f in "$DRIVER" "${HOSTAP_SRCS[@]}"; do
  compile "$f" "$WORK/$(basename "${f%.c}").o" & pids+=($!)
  if [ "${#pids[@]}" -ge 2 ]; then wait "${pids[0]}" || fail "compiling ${f##*/} or the one before"; pids=("${pids[@]:1}"); fi
done
for p in "${pids[@]}"; do wait "$p" || fail "compiling the hostap sources"; done
"$CC" -o "$WORK/driver" "$WORK"/*.o "$LIBDIR/libmbedcrypto.a" 2>"$WORK/link.log" ||
  { cat "$WORK/link.log" >&2; fail "linking the driver"; }

# --- run it: python3 chooses the operands, computes the expected values, compares ------------
python3 - "$WORK/driver" <<'PY' || fail "see above"
import subprocess, sys
out = subprocess.run([sys.argv[1]], input="kat k\nsae_exchange x\n", capture_output=True, text=True)
print(out.stdout); print(out.stderr, file=sys.stderr)
sys.exit(out.returncode)
PY
