#include "target/qemu_target.h"

#include <fmt/core.h>
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <sstream>
#include <system_error>

#include "protocol/stream_decoder.h"
#include "target/qemu_probe_file.h"
#include "target/run_parameters.h"
#include "util/subprocess.h"

namespace fathom::target {
namespace fs = std::filesystem;
namespace {

std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// A fresh directory inside `parent` (created), removed when this goes out of scope.
class RunDir {
 public:
  static util::Result<RunDir> create(const fs::path& parent) {
    std::error_code ec;
    fs::create_directories(parent, ec);
    if (ec) return util::fail(fmt::format("cannot create {}: {}", parent.string(), ec.message()));
    std::string pattern = (parent / "qemu-run-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      return util::fail(fmt::format("cannot create a run directory in {}", parent.string()));
    return RunDir(pattern);
  }
  RunDir(RunDir&& other) noexcept : path_(std::move(other.path_)) { other.path_.clear(); }
  RunDir(const RunDir&) = delete;
  ~RunDir() {
    std::error_code ec;
    if (!path_.empty()) fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit RunDir(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

// The last few lines of QEMU's stderr, for an error message.
std::string stderr_tail(const std::string& text) {
  std::string tail = text.size() > 2000 ? text.substr(text.size() - 2000) : text;
  while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r')) tail.pop_back();
  return tail.empty() ? std::string("(no output on stderr)") : tail;
}

// The board's timing facts for the engine plugin (src/target/qemu_engine/engine_plugin.cpp).
std::string engine_arguments(const model::Board& board) {
  std::string out = fmt::format(
      ",core={},prefetch={:d},icache={:d},refinements={:d},multiplier={}", board.core,
      board.prefetch, board.icache, board.timing_refinements,
      board.multiplier == model::Multiplier::kSmall ? "small" : "fast");
  if (const model::MemoryRegion* flash = board.flash()) out += fmt::format(",vtor={:#x}", flash->origin);
  for (const auto& r : board.memory)
    out += fmt::format(",region={}:{:#x}:{:#x}:{}",
                       r.kind == model::MemoryKind::kFlash ? "flash" : "ram", r.origin,
                       r.length_bytes, r.wait_states);
  return out;
}

}  // namespace

util::Result<std::unique_ptr<QemuTarget>> QemuTarget::create(QemuTargetSettings settings) {
  auto version = util::run_process({settings.binary, "--version"});
  if (!version) return tl::unexpected(version.error());
  const std::string line = version->stdout_text.substr(0, version->stdout_text.find('\n'));
  if (version->exit_code != 0 || line.empty())
    return util::fail(fmt::format("{} --version failed (exit {}): {}", settings.binary,
                                  version->exit_code, util::last_line(version->stderr_text)));
  return std::unique_ptr<QemuTarget>(new QemuTarget(std::move(settings), line));
}

std::string QemuTarget::measurement_key() const {
  return fmt::format("qemu version={} plugin={}{}{}", version_, settings_.plugin_sha256,
                     settings_.engine ? (settings_.engine_observers ? " engine+observers"
                                                                    : " engine")
                                      : "",
                     settings_.engine_profile ? " profile" : "");
}

util::Result<TargetRun> QemuTarget::run(const ImageToRun& img, const RunParameters& params) {
  const model::Board& board = *img.board;
  if (!board.qemu)
    return util::fail_usage(
        fmt::format("board '{}' has no [qemu] machine in its board.toml", board.name));
  auto encoded = encode_run_parameters(*img.elf, board, params, img.elf_path.string());
  if (!encoded) return tl::unexpected(encoded.error());
  auto dir = RunDir::create(settings_.work_dir);
  if (!dir) return tl::unexpected(dir.error());
  const fs::path elf = dir->path() / "image.elf";
  const fs::path console = dir->path() / "console.bin";
  const fs::path probes_file = dir->path() / "probes.txt";
  if (auto r = write_patched_elf(img.elf_path, *img.elf, *encoded, elf); !r)
    return tl::unexpected(r.error());

  std::string plugin_arguments = fmt::format("{},out={},console={:#x}", settings_.plugin.string(),
                                             probes_file.string(), board.console_address);
  if (settings_.engine) plugin_arguments += engine_arguments(board);
  if (settings_.engine && settings_.engine_observers) {
    plugin_arguments += ",elf=" + elf.string();
    // The primitive groups for the engine's share tracker, in a file (patterns may hold
    // commas, which -plugin would split at).
    if (!img.primitive_groups.empty()) {
      const fs::path groups = dir->path() / "groups.txt";
      std::ofstream out(groups);
      for (const auto& [group, patterns] : img.primitive_groups)
        for (const auto& pattern : patterns) out << group << '\t' << pattern << '\n';
      if (!out) return util::fail(fmt::format("cannot write {}", groups.string()));
      plugin_arguments += ",groups=" + groups.string();
    }
  }
  const fs::path profile_file = dir->path() / "profile.txt";
  const bool profiling = settings_.engine && settings_.engine_observers && settings_.engine_profile;
  if (profiling) plugin_arguments += ",profile=" + profile_file.string();
  std::vector<std::string> argv = {settings_.binary, "-M", board.qemu->machine};
  if (!board.qemu->cpu.empty()) argv.insert(argv.end(), {"-cpu", board.qemu->cpu});
  argv.insert(argv.end(),
              {"-nographic", "-monitor", "none", "-semihosting-config",
               "enable=on,target=native", "-chardev",
               "file,id=fathom_console,path=" + console.string(), "-serial",
               "chardev:fathom_console", "-kernel", elf.string(), "-plugin", plugin_arguments});
  const auto start = std::chrono::steady_clock::now();
  auto qemu = util::run_process(argv, {.timeout = settings_.timeout});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!qemu) return tl::unexpected(qemu.error());

  const std::string console_bytes = read_file(console).value_or("");
  const std::optional<std::string> probe_text = read_file(probes_file);
  if (!qemu->timed_out && !probe_text && console_bytes.empty())
    return util::fail(fmt::format("QEMU did not run {} (exit {}): {}", img.elf_path.string(),
                                  qemu->exit_code, stderr_tail(qemu->stderr_text)));

  TargetRun run;
  run.measured = {.cycles = settings_.engine, .instructions = true, .observation = false};
  run.origin["target"] = "qemu";
  run.origin["qemu"] = version_;
  if (settings_.engine) run.origin["engine"] = "fathom QEMU engine (TCG plugin with the timing model)";
  run.origin["machine"] = board.qemu->machine + (board.qemu->cpu.empty() ? "" : " -cpu " +
                                                                                 board.qemu->cpu);
  run.host_seconds = seconds;

  std::optional<QemuProbes> probes;
  if (probe_text) {
    auto parsed = parse_qemu_probes(*probe_text);
    if (parsed)
      probes = std::move(*parsed);
    else
      run.errors.push_back(parsed.error().message);
  }
  if (qemu->timed_out) {
    run.fault = model::Fault{
        .kind = "timeout",
        .pc = 0,
        .function = "",
        .detail = fmt::format("QEMU ran longer than {} s and was killed",
                              std::chrono::duration_cast<std::chrono::seconds>(settings_.timeout)
                                  .count())};
  } else if (!probes) {
    // The guest ran (it wrote to the console) but QEMU stopped without the plugin's exit hook.
    run.fault = model::Fault{
        .kind = "qemu-error",
        .pc = 0,
        .function = "",
        .detail = fmt::format("QEMU exited with status {} before the image finished: {}",
                              qemu->exit_code, stderr_tail(qemu->stderr_text))};
  }

  const std::vector<protocol::PositionedProbe> none;
  protocol::DecodedStream decoded = protocol::decode_stream_without_cycles(
      console_bytes, probes ? std::span<const protocol::PositionedProbe>(probes->probes)
                            : std::span<const protocol::PositionedProbe>(none));
  if (probes && probes->console_bytes != console_bytes.size())
    decoded.errors.push_back(fmt::format(
        "the firmware stored {} bytes to the console but {} arrived: the instruction counts "
        "cannot be placed",
        probes->console_bytes, console_bytes.size()));
  if (!probes) {
    for (auto& op : decoded.operations) {
      op.instruction_samples.clear();
      op.instructions.reset();
    }
  }
  // A guest that exits before its END record (the board's fault handler exits with 0xFF).
  if (!run.fault && probes && !decoded.completed && qemu->exit_code != 0)
    run.fault = model::Fault{
        .kind = "early-exit",
        .pc = 0,
        .function = "",
        .detail = fmt::format("the image exited with status {} before its END record",
                              qemu->exit_code)};
  run.completed = decoded.completed && probes.has_value() && !run.fault &&
                  probes->console_bytes == console_bytes.size();
  run.errors.insert(run.errors.end(), decoded.errors.begin(), decoded.errors.end());
  run.operations = std::move(decoded.operations);
  run.console_log = std::move(decoded.log_lines);
  run.total_instructions = probes ? probes->total_instructions : 0;
  if (settings_.engine && probes) {
    if (!probes->total_cycles)
      run.errors.push_back("the QEMU plugin is not fathom's engine: its output has no cycles");
    run.total_cycles = probes->total_cycles.value_or(0);
    // The engine's memory watch: the simulator's stack and heap figures, checked against the
    // harness's as on the simulator.
    if (!probes->executions.empty()) {
      run.measured.observation = true;
      for (auto& op : run.operations) add_simulator_memory(*img.elf, probes->executions, op);
    }
    for (auto& op : run.operations)
      if (auto it = probes->shares.find(op.operation); it != probes->shares.end())
        for (const auto& [group, figures] : it->second) {
          op.primitive_share[group] = figures.first;
          op.primitive_calls[group] = figures.second;
        }
    for (const auto& [name, value] : probes->stats) {
      if (name == "model") run.timing_model = value;
      if (name == "unplaced" && value != "0")
        run.errors.push_back(fmt::format(
            "the QEMU engine could not place {} events (an instruction's operands or flags, or "
            "a block left early at an unknown point): its cycles are not exact",
            value));
    }
  }
  if (profiling) {
    if (std::optional<std::string> text = read_file(profile_file))
      settings_.engine_profile(std::move(*text));
    else if (probes)
      run.errors.push_back("the QEMU engine wrote no profile (" + profile_file.string() + ")");
  }
  run.isolation = std::move(decoded.isolation);
  run.run_order = std::move(decoded.run_order);
  if (!qemu->timed_out && probes && qemu->exit_code != 0 && decoded.completed &&
      std::none_of(run.operations.begin(), run.operations.end(),
                   [](const model::OperationResult& op) { return !op.error.empty(); }))
    run.errors.push_back(fmt::format("the image exited with status {} although every operation "
                                     "passed: {}",
                                     qemu->exit_code, stderr_tail(qemu->stderr_text)));
  return run;
}

}  // namespace fathom::target
