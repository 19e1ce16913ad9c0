#pragma once
// `fathom ct`'s taint check (docs/CT.md): one operation of one image run once, secret variant 0,
// on the simulator in its per-instruction mode with a profile::TaintTracker watching; its
// findings named by function, source line and instruction.
#include <cstdint>
#include <string>
#include <vector>

#include "model/suite.h"
#include "profile/taint_sites.h"

namespace fathom::cli {

using profile::TaintSite;

// kAllowed: findings, every one accepted by --allow (cli/ct_allowlist.h).
enum class TaintVerdict { kLeak, kNoFinding, kNotChecked, kAllowed };
const char* to_string(TaintVerdict v);  // "leak", "no finding", "not checked", "allowed"

struct TaintCheck {
  std::string configuration, board, operation;
  TaintVerdict verdict = TaintVerdict::kNotChecked;
  std::string reason;  // why not checked; empty otherwise
  uint64_t marked_bytes = 0;          // declared secret (fathom_ct_secret)
  uint64_t tainted_instructions = 0;  // executed in the timed run that read secret data
  std::vector<TaintSite> findings;    // in the order they first happened
  uint64_t count(profile::TaintClass c) const;  // distinct sites of class c
};

// Never throws for the operation's own failures (a KAT that fails, an image that faults): they
// come back as "not checked" with the reason.
TaintCheck taint_check(const model::Suite& suite, const std::string& configuration,
                       const std::string& board, const std::string& operation);

}  // namespace fathom::cli
