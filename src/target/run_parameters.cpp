#include "target/run_parameters.h"

#include <fmt/core.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <iterator>

#include "elf/harness_operations.h"

namespace fathom::target {
namespace {

// Layout of the harness's `fathom_params` object (firmware/harness/fathom_params.h).
// The magic names the layout: "FTH4" ("FTHP" had no op_runs, "FTH2" no flags, "FTH3" no
// secret_first).
constexpr uint32_t kParamsMagic = 0x34485446u;
constexpr size_t kOnlyOpsBytes = 512;
constexpr size_t kMaxOps = 64;  // FATHOM_MAX_OPS
constexpr size_t kOpRunsOffset = 12 + kOnlyOpsBytes;
constexpr size_t kFlagsOffset = kOpRunsOffset + 4 * kMaxOps;
constexpr size_t kSecretFirstOffset = kFlagsOffset + 4;
constexpr size_t kParamsBytes = kSecretFirstOffset + 4;
constexpr uint32_t kFlagMemoryInTimedRun = 1;  // FATHOM_PARAM_MEMORY_IN_TIMED_RUN
constexpr uint32_t kFlagSecretVariants = 2;    // FATHOM_PARAM_SECRET_VARIANTS
constexpr uint32_t kFlagSecretFixed = 4;       // FATHOM_PARAM_SECRET_FIXED

}  // namespace

util::Result<std::vector<uint8_t>> encode_parameter_bytes(
    const RunParameters& params, const std::vector<std::string>& registry,
    const std::string& display_name) {
  std::string only;
  for (const auto& op : params.operations) {
    if (!only.empty()) only += ',';
    only += op;
  }
  if (only.size() >= kOnlyOpsBytes)
    return util::fail(fmt::format("too many operations selected ({} bytes of names; at most {})",
                                  only.size(), kOnlyOpsBytes - 1));
  std::vector<uint8_t> bytes(kParamsBytes, 0);
  auto put32 = [&](size_t at, uint32_t v) {
    for (int i = 0; i < 4; ++i) bytes[at + i] = static_cast<uint8_t>(v >> (8 * i));
  };
  put32(0, kParamsMagic);
  put32(4, params.runs);
  put32(8, params.warmup);
  std::memcpy(bytes.data() + 12, only.data(), only.size());
  put32(kFlagsOffset, (params.memory_in_timed_run ? kFlagMemoryInTimedRun : 0) |
                          (params.secret_variants ? kFlagSecretVariants : 0) |
                          (params.secret_variants && params.secret_fixed ? kFlagSecretFixed : 0));
  put32(kSecretFirstOffset, params.secret_first);
  // Per-operation counts go by registry index, the harness's own numbering.
  for (const auto& [op, runs] : params.operation_runs) {
    const auto at = std::find(registry.begin(), registry.end(), op);
    if (at == registry.end())
      return util::fail(fmt::format("'{}' has no operation '{}' to give {} timed runs",
                                    display_name, op, runs));
    const size_t index = static_cast<size_t>(at - registry.begin());
    if (index >= kMaxOps)
      return util::fail(fmt::format("'{}': operation '{}' is number {} of the registry; "
                                    "per-operation run counts reach only the first {}",
                                    display_name, op, index + 1, kMaxOps));
    if (runs == 0) return util::fail(fmt::format("0 timed runs for operation '{}'", op));
    put32(kOpRunsOffset + 4 * index, runs);
  }
  return bytes;
}

util::Result<EncodedParameters> encode_run_parameters(const elf::ElfImage& image,
                                                      const model::Board& board,
                                                      const RunParameters& params,
                                                      const std::string& display_name) {
  const elf::Symbol* symbol = image.find_symbol("fathom_params");
  if (!symbol)
    return util::fail(fmt::format("'{}' has no fathom_params symbol: it was not built with the "
                                  "fathom harness",
                                  display_name));
  std::vector<std::string> registry;
  if (!params.operation_runs.empty()) {
    auto names = elf::harness_operations(image);
    if (!names) return tl::unexpected(names.error());
    registry = std::move(*names);
  }
  auto bytes = encode_parameter_bytes(params, registry, display_name);
  if (!bytes) return tl::unexpected(bytes.error());
  EncodedParameters out;
  out.address = symbol->address;
  out.bytes = std::move(*bytes);
  if (symbol->size_bytes != out.bytes.size())
    return util::fail(fmt::format("'{}': fathom_params is {} bytes, expected {} (harness and "
                                  "host disagree; rebuild the image)",
                                  display_name, symbol->size_bytes, out.bytes.size()));
  const model::MemoryRegion* flash = board.flash();
  if (!flash || symbol->address < flash->origin ||
      uint64_t{symbol->address} + symbol->size_bytes >
          uint64_t{flash->origin} + flash->length_bytes)
    return util::fail(fmt::format("'{}': fathom_params is at {:#010x}, outside flash; the startup "
                                  "code would overwrite the run parameters (rebuild the image)",
                                  display_name, symbol->address));
  return out;
}

util::Result<void> write_patched_elf(const std::filesystem::path& elf_path,
                                     const elf::ElfImage& image,
                                     const EncodedParameters& encoded,
                                     const std::filesystem::path& out_path) {
  std::ifstream in(elf_path, std::ios::binary);
  if (!in) return util::fail(fmt::format("cannot read {}", elf_path.string()));
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const uint64_t size = encoded.bytes.size();
  const elf::LoadSegment* holder = nullptr;
  for (const auto& s : image.segments()) {
    // The object is initialised data of a segment in the file (its load address is in flash).
    if (encoded.address >= s.virtual_address &&
        uint64_t{encoded.address} + size <= uint64_t{s.virtual_address} + s.data.size()) {
      holder = &s;
      break;
    }
  }
  if (!holder)
    return util::fail(fmt::format("{}: no loadable segment holds fathom_params at {:#010x} in the "
                                  "file; rebuild the image",
                                  elf_path.string(), encoded.address));
  const uint64_t offset = holder->file_offset + (encoded.address - holder->virtual_address);
  if (offset + size > bytes.size())
    return util::fail(fmt::format("{}: fathom_params lies outside the file ({} bytes); the file "
                                  "changed since it was loaded",
                                  elf_path.string(), bytes.size()));
  std::memcpy(bytes.data() + offset, encoded.bytes.data(), size);
  std::ofstream out(out_path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) return util::fail(fmt::format("cannot write {}", out_path.string()));
  return {};
}

}  // namespace fathom::target
