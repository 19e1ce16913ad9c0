#pragma once
// Which functions explain an operation's change between two images: per function, the
// exclusive and inclusive cycles and calls in each profile, ranked by their share of the
// change, until they cover at least `coverage` of it; and, for each of those functions, the
// operations that also run it but did not change — the control that shows the change is the
// function's and not the whole image's.
#include <cstdint>
#include <string>
#include <vector>

#include "profile/primitive_share.h"
#include "profile/profile.h"

namespace fathom::compare {

struct FunctionDelta {
  std::string function;
  int64_t exclusive_a = 0, exclusive_b = 0;
  int64_t inclusive_a = 0, inclusive_b = 0;  // over call paths without recursion
  uint64_t calls_a = 0, calls_b = 0;
  double share = 0;  // exclusive delta / total delta
};

struct OperationDiagnosis {
  std::string operation;
  uint64_t cycles_a = 0, cycles_b = 0;  // profile totals
  bool changed = false;
  std::vector<FunctionDelta> functions;  // ranked, covering >= coverage of the delta
  // The functions whose inclusive cycles (everything under them) grew by at least a quarter
  // of the change, largest first — the callers that hold the change — and the functions that
  // ran in A but not at all in B (code the change removed), largest first.
  std::vector<FunctionDelta> grew_inclusive;
  std::vector<FunctionDelta> vanished;
  double covered = 0;                    // share of the delta those functions explain
  // Operations whose cycles did not change but that execute one of `functions`, with the
  // functions they share.
  struct Control {
    std::string operation;
    uint64_t cycles_a = 0, cycles_b = 0;
    std::vector<std::string> shared_functions;
  };
  std::vector<Control> controls;
};

// One primitive group (library.toml [primitive_groups]: "scalar mult", "Legendre") of one
// operation in A and in B: the cycles under it and its outermost calls per execution.
struct GroupDelta {
  std::string group;
  uint64_t cycles_a = 0, cycles_b = 0;  // per execution (profile cycles / executions)
  double calls_a = 0, calls_b = 0;      // per execution
  bool changed = false;                 // |B/A - 1| beyond the threshold
};

struct OperationGroups {
  std::string operation;
  std::vector<GroupDelta> groups;  // the groups either image ran, in name order
};

struct DiagnosisOptions {
  double threshold_percent = 0.5;  // |change| at or below this is "unchanged"
  double coverage = 0.9;
  size_t max_functions = 25;
};

// `a` and `b`: per-operation profiles (ProfileSet::profiles named by operation, frames
// symbolized) of the same operations in two images. Operations in only one side are skipped.
std::vector<OperationDiagnosis> diagnose(const profile::ProfileSet& a, const profile::ProfileSet& b,
                                         const DiagnosisOptions& options = {});

// Per operation profiled in both sets, every group of `groups` that ran in A or B (cycles or
// calls non-zero), with A and B per execution and whether it moved beyond
// `threshold_percent`. Frames are matched by name (profile/primitive_share.h).
std::vector<OperationGroups> diagnose_groups(const profile::ProfileSet& a,
                                             const profile::ProfileSet& b,
                                             const profile::PrimitiveGroups& groups,
                                             double threshold_percent);

}  // namespace fathom::compare
