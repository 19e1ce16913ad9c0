// make_timing_model: the board's core selects the model (docs/TIMING.md, "Adding a core").
#include <fmt/core.h>

#include "sim/timing/core_timing_model.h"
#include "sim/timing/cortex_m0plus_model.h"
#include "sim/timing/cortex_m33_model.h"
#include "sim/timing/cortex_m3_model.h"
#include "sim/timing/cortex_m4_model.h"

namespace fathom::sim::timing {

util::Result<std::unique_ptr<CoreTimingModel>> make_timing_model(const model::Board& board) {
  if (board.core == "cortex-m4") return std::make_unique<CortexM4Model>(board);
  if (board.core == "cortex-m3") return std::make_unique<CortexM3Model>(board);
  if (board.core == "cortex-m33") return std::make_unique<CortexM33Model>(board);
  if (board.core == "cortex-m0plus") return std::make_unique<CortexM0PlusModel>(board);
  return util::fail(fmt::format("no timing model for core '{}' (board {}); known cores: "
                                "cortex-m0plus, cortex-m3, cortex-m4, cortex-m33",
                                board.core, board.name));
}

}  // namespace fathom::sim::timing
