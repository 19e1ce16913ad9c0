#!/bin/bash
# The seam (docs/ARCHITECTURE.md "Host layers"): the pipeline never names a simulator type,
# and the CLI reaches the simulator only through the sim target (target/sim/sim_target.h).
# The build already refuses sim/ headers in src/pipeline (its layer does not link sim); this
# also covers src/cli, whose layer must link target/sim and so could see sim/ headers.
# Called as: test FATHOM SOURCE_DIR.
SRC="$2"
found=$(grep -rnE '#include "sim/' "$SRC/src/cli" "$SRC/src/pipeline" "$SRC/src/main.cpp")
if [ -n "$found" ]; then
  echo "FAIL: a simulator header outside the targets (use target/sim/sim_target.h):" >&2
  echo "$found" >&2
  exit 1
fi
echo "PASS: no sim/ include in src/cli, src/pipeline or src/main.cpp"
