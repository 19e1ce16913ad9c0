# Entry points for people and CI. Everything real lives in CMake and the fathom binary;
# this file only strings the steps together.
#
#   make setup    install the Debian packages fathom needs (scripts/setup.sh; idempotent)
#   make build    configure and build everything into $(BUILD_DIR) (default: build)
#   make tool     configure and build the fathom executable alone (what demo needs)
#   make sources  download, verify and unpack the pinned third-party sources (sources.lock)
#   make demo     setup + tool + sources, then `fathom run`
#   make qemu10   sources, then QEMU 10 with TCG plugins into the cache (scripts/build-qemu10.sh;
#                 once, about 6-10 minutes on 2 cores) and fathom again with its QEMU engine
#   make test     setup + tool + sources + qemu10 (which builds everything), then every test
#   make clean    remove $(BUILD_DIR)
#
# The source cache location follows FATHOM_CACHE_DIR / XDG_CACHE_HOME / ~/.cache/fathom.

BUILD_DIR ?= build
CMAKE_BUILD_TYPE ?= RelWithDebInfo
CTEST_PARALLEL ?= 2
FATHOM := ./$(BUILD_DIR)/fathom

.PHONY: all setup build tool sources qemu10 demo test clean

all: build

setup:
	./scripts/setup.sh

build: setup
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE)
	ninja -C $(BUILD_DIR)

# The executable without the unit tests and fuzz targets (they were 643 of the
# 1,492 compiler seconds of a build with an empty ccache, docs/TESTING.md 2026-12-08): `make
# demo` needs only this; `make test` builds everything (qemu10 below).
tool: setup
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE)
	ninja -C $(BUILD_DIR) fathom

sources: tool
	$(FATHOM) sources --fetch

demo: sources
	$(FATHOM) run

# The QEMU engine (docs/QEMU-ENGINE.md) is a plugin for QEMU 10, which Debian 12 does not ship:
# built from the pinned trixie source once, then CMake finds its plugin header and builds the
# engine. `make demo` does not need it. If QEMU 10 cannot be built here, everything else still
# works and is tested; the engine's tests say they were skipped, and why.
qemu10: sources
	./scripts/build-qemu10.sh || echo "make: QEMU 10 was not built (above); the QEMU engine and its tests are left out" >&2
	cmake -S . -B $(BUILD_DIR) -G Ninja -DCMAKE_BUILD_TYPE=$(CMAKE_BUILD_TYPE)
	ninja -C $(BUILD_DIR)

test: qemu10
	ctest --test-dir $(BUILD_DIR) --output-on-failure -j$(CTEST_PARALLEL)

clean:
	rm -rf $(BUILD_DIR)
