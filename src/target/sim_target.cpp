#include "target/sim_target.h"

#include <fmt/core.h>

#include <cstring>

#include "elf/elf_image.h"
#include "protocol/stream_decoder.h"
#include "sim/machine.h"

namespace fathom::target {
namespace {

// Layout of the harness's `fathom_params` object (firmware/harness/fathom_harness.c).
constexpr uint32_t kParamsMagic = 0x50485446u;
constexpr size_t kOnlyOpsBytes = 512;

util::Result<std::vector<uint8_t>> encode_params(const RunRequest& req) {
  std::string only;
  for (const auto& op : req.operations) {
    if (!only.empty()) only += ',';
    only += op;
  }
  if (only.size() >= kOnlyOpsBytes)
    return util::fail(fmt::format("too many operations selected ({} bytes of names; at most {})",
                                  only.size(), kOnlyOpsBytes - 1));
  std::vector<uint8_t> bytes(12 + kOnlyOpsBytes, 0);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
  };
  put32(0, kParamsMagic);
  put32(4, req.runs);
  put32(8, req.warmup);
  std::memcpy(bytes.data() + 12, only.data(), only.size());
  return bytes;
}

}  // namespace

util::Result<TargetRun> SimTarget::run(const RunRequest& req) {
  auto image = elf::ElfImage::load(req.elf);
  if (!image) return tl::unexpected(image.error());
  auto machine = sim::Machine::create(*req.board, mode_);
  if (!machine) return tl::unexpected(machine.error());
  if (auto r = (*machine)->load(*image); !r) return tl::unexpected(r.error());
  (*machine)->set_observer(observer_);

  const elf::Symbol* params = image->find_symbol("fathom_params");
  if (!params)
    return util::fail(fmt::format("'{}' has no fathom_params symbol: it was not built with the "
                                  "fathom harness",
                                  req.elf.string()));
  auto bytes = encode_params(req);
  if (!bytes) return tl::unexpected(bytes.error());
  if (params->size_bytes != bytes->size())
    return util::fail(fmt::format("'{}': fathom_params is {} bytes, expected {} (harness and "
                                  "host disagree; rebuild the image)",
                                  req.elf.string(), params->size_bytes, bytes->size()));
  const model::MemoryRegion* flash = req.board->flash();
  if (!flash || params->address < flash->origin ||
      uint64_t{params->address} + params->size_bytes > uint64_t{flash->origin} + flash->length_bytes)
    return util::fail(fmt::format("'{}': fathom_params is at {:#010x}, outside flash; the startup "
                                  "code would overwrite the run parameters (rebuild the image)",
                                  req.elf.string(), params->address));
  if (auto r = (*machine)->write_memory(params->address, *bytes); !r)
    return tl::unexpected(r.error());

  sim::RunOutcome outcome = (*machine)->run(req.cycle_budget);

  std::vector<protocol::CycleProbe> probes;
  probes.reserve(outcome.cycle_counter_reads.size());
  for (const auto& r : outcome.cycle_counter_reads) probes.push_back({r.value, r.instructions});
  protocol::DecodedStream decoded =
      protocol::decode_stream(outcome.console, std::span<const protocol::CycleProbe>(probes));

  TargetRun run;
  run.fault = outcome.fault;
  run.completed = decoded.completed && outcome.exited && !outcome.fault;
  run.errors = std::move(decoded.errors);
  run.operations = std::move(decoded.operations);
  run.console_log = std::move(decoded.log_lines);
  run.total_cycles = outcome.cycles;
  run.total_instructions = outcome.instructions;
  run.timing_model = (*machine)->timing_model_name();
  run.host_seconds = outcome.host_seconds;
  return run;
}

}  // namespace fathom::target
