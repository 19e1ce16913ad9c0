#!/bin/sh
# Installs the Debian packages fathom needs to build, test and fetch its pinned sources.
# Idempotent: checks what is installed first and calls apt-get only if something is missing.
# Runs as root, or through sudo when available. Non-interactive.
#
#   scripts/setup.sh          what `make build` and `make test` need
#   scripts/setup.sh --fuzz   also clang and its libFuzzer/sanitizer runtimes (scripts/fuzz.sh)
set -eu

PACKAGES="
  cmake ninja-build g++ pkg-config ccache
  gcc-arm-none-eabi libnewlib-arm-none-eabi picolibc-arm-none-eabi
  libunicorn-dev libcapstone-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  libtomlplusplus-dev libexpected-dev libgtest-dev libelf-dev libdw-dev libsqlite3-dev
  libssl-dev libbenchmark-tools python3-scipy python3-jsonschema
  qemu-system-arm
  chromium-headless-shell
  dpkg-dev xz-utils bzip2 ca-certificates git python3
"
case "${1:-}" in
  "") ;;
  --fuzz) PACKAGES="$PACKAGES clang libclang-rt-14-dev" ;;
  *) echo "usage: $0 [--fuzz]" >&2; exit 2 ;;
esac

# One dpkg-query for all packages (one call per package would cost seconds). Packages it does
# not know are absent from its output; multi-arch packages may appear once per architecture.
# shellcheck disable=SC2086  # word splitting of the package list is intended
installed=$(dpkg-query -W -f='${Package} ${Status}\n' $PACKAGES 2>/dev/null |
            awk '$NF == "installed" { print $1 }' || true)
# shellcheck disable=SC2086,SC2116
installed=" $(echo $installed) "  # one line, space-separated, padded for matching
missing=""
for package in $PACKAGES; do
  case "$installed" in
    *" $package "*) ;;
    *) missing="$missing $package" ;;
  esac
done
# npm fetches the pqclean source (sources.lock). Any npm on PATH will do (the machine may have
# Node.js from elsewhere); otherwise take Debian's.
if ! command -v npm >/dev/null 2>&1; then
  missing="$missing npm"
fi

if [ -z "$missing" ]; then
  echo "setup: all required packages are installed"
  exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
  as_root=""
elif command -v sudo >/dev/null 2>&1; then
  as_root="sudo"
else
  echo "setup: missing packages:$missing" >&2
  echo "setup: not root and no sudo; install them as root: apt-get install$missing" >&2
  exit 1
fi

echo "setup: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# shellcheck disable=SC2086  # word splitting of the package list is intended
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
echo "setup: done"
