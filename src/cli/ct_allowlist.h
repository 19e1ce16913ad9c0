#pragma once
// `fathom ct --allow FILE`: taint findings accepted with a reason (docs/CT.md "Accepting
// findings"). The file is TOML, one [[allow]] table per accepted finding:
//
//   [[allow]]
//   function = "mbedtls_mpi_cmp_mpi"     # required: the function the finding is in
//   reason = "coordinates are randomized (ecp.c, ecp_randomize_jac)"   # required
//   operation = "ecdh_p256_shared"       # optional: only in this operation
//   class = "branch"                     # optional: only this class (taint_class_name)
//   configuration = "mbedtls"            # optional
//   board = "sim-m33"                    # optional
//   line = "bignum.c:1103"               # optional: only the finding at this source line
//                                        # (the file names the end of the finding's path)
//
// An allowed finding stays in the output, marked with its reason; an operation whose findings
// are all allowed has the verdict "allowed" and does not make the command exit 4. An entry that
// matched nothing is reported (a stale allowance hides nothing, but says so).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "cli/taint_check.h"
#include "util/error.h"

namespace fathom::cli {

struct AllowEntry {
  std::string function, reason;
  std::string operation, cls, configuration, board;  // "" = any
  std::string file;   // with `line`: the end of the finding's source path, at a '/'; "" = any
  uint32_t line = 0;  // 0 = any
  std::string where;  // "FILE:LINE:COL" of its [[allow]], for messages
  uint64_t matched = 0;  // findings it accepted
};

util::Result<std::vector<AllowEntry>> load_allowlist(const std::filesystem::path& path);

// Marks the findings of `check` that an entry accepts (TaintSite::allowed) and sets the
// verdict: leak while any finding is not allowed, else allowed if any was.
void apply_allowlist(std::vector<AllowEntry>& entries, TaintCheck& check);

}  // namespace fathom::cli
