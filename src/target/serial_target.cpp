#include "target/serial_target.h"

#include <unistd.h>

#include <fmt/core.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <system_error>

#include "protocol/stream_decoder.h"
#include "protocol/stream_watch.h"
#include "target/command_template.h"
#include "target/run_parameters.h"
#include "target/serial_port.h"
#include "util/subprocess.h"

namespace fathom::target {
namespace {

using Clock = SerialPort::Clock;

// More than any image's console (the default suite's largest is a few hundred KiB): a board
// that keeps sending without END is stopped here rather than filling the host's memory.
constexpr size_t kMaxStreamBytes = size_t{64} << 20;

// Images of one run may be run several at a time (`fathom run -j`), but one port is one board:
// its runs take turns.
std::mutex& port_mutex(const std::string& port) {
  static std::mutex registry_mutex;
  static std::map<std::string, std::unique_ptr<std::mutex>> registry;
  std::lock_guard<std::mutex> lock(registry_mutex);
  auto& m = registry[port];
  if (!m) m = std::make_unique<std::mutex>();
  return *m;
}

// The Arm objcopy beside the compiler build/toolchain.h uses (FATHOM_ARM_GCC overrides).
std::string objcopy_program() {
  if (const char* gcc = std::getenv("FATHOM_ARM_GCC"); gcc && *gcc) {
    const std::string g = gcc;
    if (g.size() >= 3 && g.compare(g.size() - 3, 3, "gcc") == 0)
      return g.substr(0, g.size() - 3) + "objcopy";
  }
  return "arm-none-eabi-objcopy";
}

// The last `lines` non-empty lines of `text`, joined with " | ", for a one-line error.
std::string tail_lines(const std::string& text, size_t lines) {
  std::vector<std::string> kept;
  size_t end = text.size();
  while (end > 0 && kept.size() < lines) {
    size_t start = text.rfind('\n', end - 1);
    start = start == std::string::npos ? 0 : start + 1;
    std::string line = text.substr(start, end - start);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    if (!line.empty()) kept.insert(kept.begin(), protocol::escape_log_text(line, 300));
    end = start == 0 ? 0 : start - 1;
  }
  std::string out;
  for (const auto& l : kept) out += (out.empty() ? "" : " | ") + l;
  return out.empty() ? "(no output)" : out;
}

// Runs one of the board's commands; a non-zero exit is an error quoting its stderr.
util::Result<void> run_board_command(const std::vector<std::string>& argv, std::string_view what) {
  auto out = util::run_process(argv);
  if (!out)
    return util::fail(fmt::format("the {} command could not start ({}): {}", what,
                                  command_line(argv), out.error().message));
  if (out->exit_code != 0)
    return util::fail(fmt::format("the {} command failed with exit code {} ({}): {}", what,
                                  out->exit_code, command_line(argv),
                                  tail_lines(out->stderr_text + out->stdout_text, 3)));
  return {};
}

// A scratch directory for one run: the caller's work dir, else a temporary one removed at the end.
class RunDirectory {
 public:
  static util::Result<RunDirectory> make(const std::filesystem::path& work_dir) {
    std::error_code ec;
    if (!work_dir.empty()) {
      std::filesystem::create_directories(work_dir, ec);
      if (ec) return util::fail(fmt::format("cannot create {}: {}", work_dir.string(), ec.message()));
      return RunDirectory(work_dir, false);
    }
    std::string pattern =
        (std::filesystem::temp_directory_path(ec) / "fathom-serial-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr)
      return util::fail(fmt::format("cannot create a temporary directory {}", pattern));
    return RunDirectory(pattern, true);
  }
  RunDirectory(RunDirectory&& o) noexcept : path_(std::move(o.path_)), remove_(o.remove_) {
    o.remove_ = false;
  }
  RunDirectory(const RunDirectory&) = delete;
  ~RunDirectory() {
    std::error_code ec;
    if (remove_) std::filesystem::remove_all(path_, ec);
  }
  const std::filesystem::path& path() const { return path_; }

 private:
  RunDirectory(std::filesystem::path p, bool remove) : path_(std::move(p)), remove_(remove) {}
  std::filesystem::path path_;
  bool remove_ = false;
};

// Why reading stopped before the stream was over, as an error line; empty if it is over.
struct ReadResult {
  std::string problem;
  size_t bytes = 0;
};

ReadResult read_stream(SerialPort& port, protocol::StreamWatch& watch,
                       const model::SerialSettings& settings, Clock::time_point started) {
  const auto run_deadline = started + std::chrono::seconds(settings.timeout_seconds);
  const auto idle = std::chrono::seconds(settings.idle_timeout_seconds);
  auto last_byte = started;
  size_t total = 0;
  std::string chunk;
  while (!watch.over()) {
    const auto deadline = std::min(run_deadline, last_byte + idle);
    chunk.clear();
    auto status = port.read_some(chunk, deadline);
    if (!status) return {status.error().message, total};
    if (*status == SerialPort::ReadStatus::kData) {
      total += chunk.size();
      last_byte = Clock::now();
      watch.feed(chunk);
      if (total > kMaxStreamBytes && !watch.over())
        return {fmt::format("the board sent more than {} MiB without an END record; stopped",
                            kMaxStreamBytes >> 20),
                total};
      continue;
    }
    const std::string where =
        total == 0 ? std::string("before the board sent anything")
                   : fmt::format("after {} bytes ({} complete lines)", total, watch.lines());
    if (*status == SerialPort::ReadStatus::kClosed)
      return {fmt::format("the serial port {} closed {} (board unplugged?)", port.path(), where),
              total};
    if (Clock::now() >= run_deadline)
      return {fmt::format("the run took longer than timeout_seconds = {} and was stopped {}",
                          settings.timeout_seconds, where),
              total};
    return {fmt::format("the board was silent for idle_timeout_seconds = {} {}; it stopped "
                        "mid-run (hung, crashed or lost power)",
                        settings.idle_timeout_seconds, where),
            total};
  }
  return {"", total};
}

}  // namespace

util::Result<model::SerialSettings> SerialTarget::settings_for(const model::Board& board,
                                                               const SerialOverrides& overrides) {
  if (!board.serial)
    return util::fail_usage(fmt::format("board '{}' has no [serial] table (port, baud, flash): "
                                        "it cannot run on the serial target",
                                        board.name));
  model::SerialSettings s = *board.serial;
  if (!overrides.port.empty()) s.port = overrides.port;
  if (overrides.baud) s.baud = *overrides.baud;
  if (s.port.empty())
    return util::fail_usage(fmt::format("board '{}': no serial port; set [serial] port in its "
                                        "board.toml or pass --port /dev/ttyACM0",
                                        board.name));
  if (auto speed = serial_speed(s.baud); !speed) return tl::unexpected(speed.error());
  return s;
}

std::string SerialTarget::measurement_key() const {
  return fmt::format("serial port={} baud={} flash={} reset={} probe={}", settings_.port,
                     settings_.baud, command_line(settings_.flash), command_line(settings_.reset),
                     settings_.probe);
}

util::Result<TargetRun> SerialTarget::run(const ImageToRun& img, const RunParameters& params) {
  const model::Board& board = *img.board;
  auto encoded = encode_run_parameters(*img.elf, board, params, img.elf_path.string());
  if (!encoded) return tl::unexpected(encoded.error());
  auto dir = RunDirectory::make(work_dir_);
  if (!dir) return tl::unexpected(dir.error());

  CommandFiles files;
  files.port = settings_.port;
  files.elf = dir->path() / (img.elf_path.stem().string() + ".params.elf");
  if (auto r = write_patched_elf(img.elf_path, *img.elf, *encoded, files.elf); !r)
    return tl::unexpected(r.error());
  const auto uses = [&](std::string_view name) {
    return template_uses(settings_.flash, name) || template_uses(settings_.reset, name);
  };
  for (const auto& [name, format] : {std::pair{"hex", "ihex"}, std::pair{"bin", "binary"}}) {
    if (!uses(name)) continue;
    std::filesystem::path out = files.elf;
    out.replace_extension(name);
    if (auto r = run_board_command({objcopy_program(), "-O", format, files.elf.string(),
                                    out.string()},
                                   fmt::format("objcopy (.{})", name));
        !r)
      return tl::unexpected(r.error());
    (std::string(name) == "hex" ? files.hex : files.bin) = out;
  }
  auto flash = expand_command(settings_.flash, files, "flash");
  if (!flash) return tl::unexpected(flash.error());
  std::optional<std::vector<std::string>> reset;
  if (!settings_.reset.empty()) {
    auto r = expand_command(settings_.reset, files, "reset");
    if (!r) return tl::unexpected(r.error());
    reset = std::move(*r);
  }

  std::lock_guard<std::mutex> board_lock(port_mutex(settings_.port));
  // Open first: the image starts talking as soon as the flash tool lets it run.
  auto port = SerialPort::open(settings_.port, settings_.baud);
  if (!port) return tl::unexpected(port.error());
  port->drain();
  const auto started = Clock::now();
  if (auto r = run_board_command(*flash, "flash"); !r) return tl::unexpected(r.error());
  if (reset)
    if (auto r = run_board_command(*reset, "reset"); !r) return tl::unexpected(r.error());

  protocol::StreamWatch watch;
  // Both timeouts count from the reset (board.h): flashing may take longer than the board's
  // longest silence, and what the board said meanwhile is already in the port's queue.
  const ReadResult reading = read_stream(*port, watch, settings_, Clock::now());
  protocol::DecodedStream decoded = protocol::decode_stream(watch.stream());

  TargetRun run;
  run.host_seconds = std::chrono::duration<double>(Clock::now() - started).count();
  run.errors = std::move(decoded.errors);
  if (!reading.problem.empty()) run.errors.insert(run.errors.begin(), reading.problem);
  if (watch.reset_line())
    run.errors.insert(run.errors.begin(),
                      fmt::format("the board reset mid-run: a second HELLO on line {}; only the "
                                  "records before it are kept",
                                  *watch.reset_line()));
  run.completed = decoded.completed && !watch.reset_line() && reading.problem.empty();
  run.operations = std::move(decoded.operations);
  run.console_log = std::move(decoded.log_lines);
  run.isolation = std::move(decoded.isolation);
  run.run_order = std::move(decoded.run_order);
  // DWT on silicon counts core cycles; a board whose counter does not run (QEMU behind a pty
  // reads DWT as 0) gives samples that are all 0: those are no cycle counts at all.
  run.measured = {.cycles = true, .instructions = false, .observation = false};
  bool any_sample = false;
  bool all_zero = true;
  for (const auto& op : run.operations)
    for (uint64_t s : op.cycle_samples) {
      any_sample = true;
      all_zero = all_zero && s == 0;
    }
  if (any_sample && all_zero) {
    run.measured.cycles = false;
    for (auto& op : run.operations) {
      op.cycle_samples.clear();
      op.cycles.reset();
    }
    run.origin["cycles"] = "unavailable: every cycle sample was 0 (the board's cycle counter "
                           "does not count)";
  }
  run.origin["target"] = "serial";
  run.origin["port"] = settings_.port;
  run.origin["baud"] = std::to_string(settings_.baud);
  run.origin["flash"] = command_line(*flash);
  if (reset) run.origin["reset"] = command_line(*reset);
  run.origin["board"] = board.name;
  run.origin["clock_hz"] = std::to_string(board.clock_hz);
  if (!settings_.probe.empty()) run.origin["probe"] = settings_.probe;
  return run;
}

}  // namespace fathom::target
