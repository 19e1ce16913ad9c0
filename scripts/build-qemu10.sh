#!/bin/bash
# Builds qemu-system-arm 10.0.13 with TCG plugins (plugin API 4: register reads) from Debian
# trixie's qemu source package, into the fathom cache, once: the QEMU that fathom's QEMU engine
# (src/target/qemu_engine, `--qemu-engine model`; docs/QEMU-ENGINE.md) runs in.
#
#   scripts/build-qemu10.sh     prints the path of the built qemu-system-arm (last line)
#
# Needs: `fathom sources --fetch` run once before (its private trixie apt state,
# <cache>/state/apt-trixie/sources.list, is derived from this machine's Debian mirror and is
# reused here, so no host name is written anywhere), network access to that mirror, and the
# build packages below (installed as root or through sudo if missing). The compile runs at
# nice 19. Cache: $FATHOM_CACHE_DIR, else $XDG_CACHE_HOME/fathom, else ~/.cache/fathom.
set -euo pipefail

VERSION=10.0.13
QEMU_PACKAGE_VERSION=1:10.0.13+ds-0+deb13u1
QEMU_ORIG=qemu_10.0.13+ds.orig.tar.xz
QEMU_ORIG_SHA256=6a0888e806c2ffc0c5f0733e974f9aea55491950d3c47c98669c8b236dde59ae
QEMU_DEBIAN=qemu_10.0.13+ds-0+deb13u1.debian.tar.xz
QEMU_DEBIAN_SHA256=da73c092f5684c551b0334d675eb16a3dec91e1edea94759cfb1102fa4a0364e
# QEMU 10 needs Meson >= 1.5; bookworm has 1.0.1, trixie's source package is not served, its
# binary package (architecture all, pure Python) is: unpacked, never installed.
MESON_DEB=meson_1.7.0-1_all.deb
MESON_VERSION=1.7.0-1
MESON_DEB_SHA256=e92d04e60e784336883d537755d09b7dcb856809fa318a0931df3898e84ded95
BUILD_PACKAGES="gcc pkg-config ninja-build python3 python3-venv libglib2.0-dev libfdt-dev \
  xz-utils patch"

CACHE="${FATHOM_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/fathom}"
ROOT="$CACHE/qemu10-$VERSION"
BINARY="$ROOT/build/qemu-system-arm"
SRC="$ROOT/src/qemu-$VERSION"
die() { echo "build-qemu10: $*" >&2; exit 1; }
# Any other failing command ends the script (set -e): say which, rather than nothing.
trap 'echo "build-qemu10: failed (exit $?) at line $LINENO: $BASH_COMMAND" >&2' ERR

if [ -x "$BINARY" ] && [ -f "$ROOT/build/.fathom-complete" ]; then
  echo "$BINARY"
  exit 0
fi

# Build packages: one dpkg-query, apt-get only for what is missing (as scripts/setup.sh).
# dpkg-query exits 1 when any of them is not installed (the case this is for): under pipefail
# that would end the script silently, so its status is ignored and its output read.
# shellcheck disable=SC2086
installed=" $( { dpkg-query -W -f='${Package} ${Status}\n' $BUILD_PACKAGES 2>/dev/null || true; } |
              awk '$NF == "installed" { print $1 }' | sed 's/:.*//' | tr '\n' ' ') "
missing=""
for p in $BUILD_PACKAGES; do
  case "$installed" in *" $p "*) ;; *) missing="$missing $p" ;; esac
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" -eq 0 ]; then as_root=""; elif command -v sudo >/dev/null; then as_root=sudo
  else die "missing packages:$missing (install them as root)"; fi
  echo "build-qemu10: installing$missing" >&2
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q >&2
  # shellcheck disable=SC2086
  $as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
    $missing >&2
fi

STATE="$CACHE/state/apt-trixie"
[ -f "$STATE/sources.list" ] ||
  die "no $STATE/sources.list: run 'fathom sources --fetch' first (it derives it from this machine's Debian mirror)"
apt_opts() {  # apt_opts STATE_DIR SOURCE_LIST
  echo -o "Dir::Etc::SourceList=$2" -o Dir::Etc::SourceParts=/dev/null \
    -o "Dir::State::Lists=$1/lists" -o "Dir::Cache=$1/cache" -o Debug::NoLocking=1 \
    -o Dir::State::status=/dev/null
}
sandbox=()
[ "$(id -u)" -eq 0 ] && sandbox=(-o APT::Sandbox::User=root)
check_sha256() {  # check_sha256 FILE SHA256
  echo "$2  $1" | sha256sum -c --quiet - >/dev/null 2>&1 ||
    die "$1: SHA-256 is $(sha256sum "$1" | cut -d' ' -f1), expected $2"
}

mkdir -p "$ROOT/download" "$ROOT/src" "$ROOT/meson"
cd "$ROOT/download"
# shellcheck disable=SC2046
if [ ! -f "$QEMU_ORIG" ] || [ ! -f "$QEMU_DEBIAN" ]; then
  apt-get -q $(apt_opts "$STATE" "$STATE/sources.list") "${sandbox[@]}" update >&2
  apt-get -q $(apt_opts "$STATE" "$STATE/sources.list") "${sandbox[@]}" source \
    --download-only --only-source "qemu=$QEMU_PACKAGE_VERSION" >&2
fi
check_sha256 "$QEMU_ORIG" "$QEMU_ORIG_SHA256"
check_sha256 "$QEMU_DEBIAN" "$QEMU_DEBIAN_SHA256"

if [ ! -f "$MESON_DEB" ]; then
  # A binary-package apt state beside it: the first deb-src line (the main archive) as a deb line.
  BIN="$ROOT/apt-trixie-binary"
  mkdir -p "$BIN/lists/partial" "$BIN/cache/archives/partial"
  grep -m1 '^deb-src ' "$STATE/sources.list" | sed 's/^deb-src /deb /' > "$BIN/sources.list"
  # shellcheck disable=SC2046
  apt-get -q $(apt_opts "$BIN" "$BIN/sources.list") "${sandbox[@]}" update >&2
  # shellcheck disable=SC2046
  apt-get -q $(apt_opts "$BIN" "$BIN/sources.list") "${sandbox[@]}" download \
    "meson=$MESON_VERSION" >&2
fi
check_sha256 "$MESON_DEB" "$MESON_DEB_SHA256"

if [ ! -f "$ROOT/src/.fathom-unpacked" ]; then
  rm -rf "$ROOT/src" && mkdir -p "$ROOT/src"
  tar -C "$ROOT/src" -xf "$QEMU_ORIG"
  tar -C "$ROOT/src" -xf "$QEMU_DEBIAN" debian/patches
  # Two of Debian's own patches: the +ds archive lacks the pycotap wheel and the EDK2 blobs.
  for p in disable-pycotap.patch skip-unpack-edk2-blobs.patch; do
    patch -d "$SRC" -p1 -s < "$ROOT/src/debian/patches/$p"
  done
  touch "$ROOT/src/.fathom-unpacked"
fi
MESON_PY="$ROOT/meson/usr/lib/python3/dist-packages"
[ -d "$MESON_PY/mesonbuild" ] || dpkg-deb -x "$MESON_DEB" "$ROOT/meson"

rm -rf "$ROOT/build" && mkdir -p "$ROOT/build" && cd "$ROOT/build"
# configure makes a venv (pyvenv) that sees the system's packages; Meson comes from PYTHONPATH
# here and from a .pth file in the venv afterwards (ninja re-runs meson).
CONFIGURE=(--python=/usr/bin/python3 --target-list=arm-softmmu --enable-plugins --disable-docs
  --disable-tools --disable-werror --without-default-features --enable-tcg --enable-fdt=system
  --disable-download --disable-install-blobs)
echo "build-qemu10: configure ${CONFIGURE[*]}" >&2
PYTHONPATH="$MESON_PY" nice -n 19 "$SRC/configure" "${CONFIGURE[@]}" > configure.log 2>&1 ||
  { tail -20 configure.log >&2; die "configure failed (log: $ROOT/build/configure.log)"; }
echo "$MESON_PY" > "$(echo pyvenv/lib/python3*/site-packages)/fathom-meson.pth"
echo "build-qemu10: compiling (nice 19; about 10 minutes on 2 cores)" >&2
nice -n 19 ninja -j"$(nproc)" qemu-system-arm > build.log 2>&1 ||
  { tail -20 build.log >&2; die "build failed (log: $ROOT/build/build.log)"; }
"$BINARY" --version | head -1 | grep -q "version $VERSION" || die "$BINARY is not QEMU $VERSION"
touch "$ROOT/build/.fathom-complete"
echo "$BINARY"
