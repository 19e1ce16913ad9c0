#include "pipeline/result_cache.h"

#include <fmt/core.h>
#include <unistd.h>

#include <atomic>
#include <ctime>
#include <fstream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>

#include "model/run_result_json.h"
#include "util/sha256.h"

namespace fathom::pipeline {
namespace fs = std::filesystem;

namespace {

using Json = model::ResultJson;

// The envelope's format; a file with another value is ignored.
constexpr int kCacheFormat = 1;

void field(std::string& out, std::string_view label, std::string_view text) {
  out += fmt::format("{} {}\n", label, text.size());
  out += text;
  out += '\n';
}

// The whole file, or nothing when it cannot be opened or read.
std::optional<std::string> read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream content;
  content << in.rdbuf();
  if (in.bad()) return std::nullopt;
  return content.str();
}

}  // namespace

std::string result_key(const ResultKeyInputs& in) {
  std::string text;
  field(text, "elf", in.elf_sha256);
  field(text, "board", in.board_description);
  field(text, "runs", std::to_string(in.runs));
  field(text, "operation-runs", std::to_string(in.operation_runs.size()));
  for (const auto& [op, runs] : in.operation_runs)
    field(text, "operation-run", op + "=" + std::to_string(runs));
  field(text, "warmup", std::to_string(in.warmup));
  field(text, "operations", std::to_string(in.operations.size()));
  for (const auto& op : in.operations) field(text, "operation", op);
  field(text, "cycle-budget", std::to_string(in.cycle_budget));
  field(text, "observers", in.observers);
  field(text, "secret-variants", in.secret_variants);
  field(text, "tool", in.tool_sha256);
  return util::sha256_hex(text);
}

util::Result<std::string> executable_sha256() {
  static std::once_flag once;
  static util::Result<std::string> digest;
  std::call_once(once, [] { digest = util::sha256_file("/proc/self/exe"); });
  return digest;
}

std::string utc_timestamp_now() {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

bool reusable(const model::ImageResult& image) {
  if (!image.completed || !image.error.empty() || image.fault) return false;
  for (const auto& op : image.operations)
    if (op.kat != model::KatStatus::kPassed || !op.memory_mismatch.empty()) return false;
  return true;
}

fs::path ResultCache::file_for(const std::string& key) const { return dir_ / (key + ".json"); }

std::optional<model::ImageResult> ResultCache::load(const std::string& key) const {
  if (!util::is_sha256_hex(key)) return std::nullopt;
  const auto content = read_file(file_for(key));
  if (!content) return std::nullopt;
  const Json envelope = Json::parse(*content, nullptr, false);
  if (envelope.is_discarded() || !envelope.is_object()) return std::nullopt;
  const auto format = envelope.find("fathom_result_cache");
  const auto stored_key = envelope.find("key");
  const auto measured_at = envelope.find("measured_at");
  const auto result = envelope.find("result");
  if (format == envelope.end() || !format->is_number_integer() || *format != kCacheFormat ||
      stored_key == envelope.end() || !stored_key->is_string() || *stored_key != key ||
      measured_at == envelope.end() || !measured_at->is_string() || result == envelope.end())
    return std::nullopt;
  auto run = model::run_result_from_json(*result);
  if (!run || run->images.size() != 1 || !reusable(run->images.front())) return std::nullopt;
  model::ImageResult image = std::move(run->images.front());
  image.provenance.reused_from = measured_at->get<std::string>();
  return image;
}

bool ResultCache::store(const std::string& key, const model::ImageResult& image,
                        const std::string& measured_at) const {
  std::error_code ec;
  if (!util::is_sha256_hex(key)) return false;
  if (!reusable(image)) {
    fs::remove(file_for(key), ec);
    fs::remove(observation_file_for(key), ec);
    return true;
  }
  model::RunResult run;
  run.images.push_back(image);
  run.images.front().provenance.reused_from.clear();  // the stored copy is the measurement
  Json envelope;
  envelope["fathom_result_cache"] = kCacheFormat;
  envelope["key"] = key;
  envelope["measured_at"] = measured_at;
  envelope["result"] = model::to_json(run);

  return write_atomically(file_for(key), key, model::dump_json(envelope, 1) + '\n');
}

bool ResultCache::write_atomically(const fs::path& path, const std::string& key,
                                   std::string_view text) const {
  std::error_code ec;
  fs::create_directories(dir_, ec);
  if (ec) return false;
  // A name no other writer uses (process and call), then an atomic rename.
  static std::atomic<uint64_t> counter{0};
  const fs::path tmp =
      dir_ / fmt::format(".{}.{}.{}.tmp", key, ::getpid(), counter.fetch_add(1));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    if (!out) {
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (!ec) return true;
  std::error_code ignored;
  fs::remove(tmp, ignored);
  return false;
}

fs::path ResultCache::observation_file_for(const std::string& key) const {
  return dir_ / (key + ".observation");
}

bool ResultCache::store_observation(const std::string& key, std::string_view text) const {
  if (!util::is_sha256_hex(key)) return false;
  return write_atomically(observation_file_for(key), key, text);
}

std::optional<std::string> ResultCache::load_observation(const std::string& key) const {
  if (!util::is_sha256_hex(key)) return std::nullopt;
  return read_file(observation_file_for(key));
}

}  // namespace fathom::pipeline
