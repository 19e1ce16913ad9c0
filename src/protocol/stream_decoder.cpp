#include "protocol/stream_decoder.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <array>
#include <map>
#include <set>

#include "model/statistics.h"
#include "protocol/record.h"
#include "util/error.h"

namespace fathom::protocol {
namespace {

constexpr uint32_t kProtocolVersion = 3;

// Field layout of each record type, for field-count errors that show what was expected.
struct RecordShape {
  std::string_view type;
  size_t field_count;
  std::string_view fields;
};

constexpr std::array<RecordShape, 13> kShapes = {{
    {"HELLO", 7, "<protocol> <board> <config> <library> <library_version> <runs> <warmup>"},
    {"CAL", 2, "<t0> <t1>"},
    {"KAT", 3, "<op> <vector> PASS|FAIL"},
    {"KATSUM", 3, "<op> <passed> <total>"},
    {"SAMPLE", 4, "<op> <run> <t0> <t1>"},
    {"MEM", 5, "<op> <peak_stack_bytes> <heap_peak_bytes> <allocations> <heap_start_bytes>"},
    {"ISOLATION", 1, "snapshot|none"},
    {"SKIP", 2, "<op> <reason>"},
    {"RUNS", 2, "<op> <runs>"},
    {"INPUTS", 2, "<op> <distinct_inputs>"},
    {"SECRETS", 2, "<op> <variants>"},
    {"BYTES", 3, "<op> <object> <bytes>"},
    {"END", 2, "<kat_failures> <records>"},
}};

const RecordShape* shape_of(std::string_view type) {
  for (const auto& shape : kShapes)
    if (shape.type == type) return &shape;
  return nullptr;
}

bool is_operation_name(std::string_view name) {
  if (name.empty()) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

// Finds the two counter reads of a CAL or SAMPLE record: by the values the firmware reported
// (cycle probes), or by position, the last two reads before the record's first console byte
// (positioned probes, a counter without cycles).
class ProbeIndex {
 public:
  explicit ProbeIndex(std::span<const CycleProbe> probes) : cycle_probes_(probes) {}
  explicit ProbeIndex(std::span<const PositionedProbe> probes)
      : positioned_(true),
        positioned_cycles_(!probes.empty() &&
                           std::all_of(probes.begin(), probes.end(),
                                       [](const PositionedProbe& p) { return p.cyccnt.has_value(); })),
        positioned_probes_(probes) {}

  bool positioned() const { return positioned_; }
  // Positioned probes that carry the counter's values (PositionedProbe::cyccnt).
  bool positioned_cycles() const { return positioned_cycles_; }
  uint32_t cyccnt(size_t index) const { return positioned_probes_[index].cyccnt.value_or(0); }

  // Cycle probes only: lookups see probes [begin, end) alone (a piece's own, StreamPiece).
  void bound(size_t begin, size_t end) {
    begin_ = begin;
    end_ = end;
  }

  // The reads (i0, i1) that returned t0 and t1, the first at or after `from` (else the most
  // recent before it), the second after the first; or, positioned, the last two before
  // console byte `record_offset`, both at or after `from`. A description of what is missing
  // otherwise.
  util::Result<std::pair<size_t, size_t>> pair(uint32_t t0, uint32_t t1, size_t from,
                                               uint64_t record_offset) const {
    if (positioned_) {
      const auto end = std::upper_bound(
          positioned_probes_.begin(), positioned_probes_.end(), record_offset,
          [](uint64_t offset, const PositionedProbe& p) { return offset < p.console_offset; });
      const auto count = static_cast<size_t>(end - positioned_probes_.begin());
      if (count < 2 || count - 2 < from)
        return util::fail(fmt::format("no two unused counter reads before console byte {}",
                                      record_offset));
      return std::pair{count - 2, count - 1};
    }
    const auto i0 = find(t0, from);
    const auto i1 = i0 ? find_forward(t1, *i0 + 1) : std::nullopt;
    if (!i0 || !i1)
      return util::fail(
          fmt::format("no CYCCNT read returned {}={}", i0 ? "t1" : "t0", i0 ? t1 : t0));
    return std::pair{*i0, *i1};
  }

  uint64_t instructions(size_t index) const {
    return positioned_ ? positioned_probes_[index].instructions
                       : cycle_probes_[index].instructions;
  }

 private:
  // Index of the first probe at or after `from` that returned `cyccnt`.
  std::optional<size_t> find_forward(uint32_t cyccnt, size_t from) const {
    for (size_t i = std::max(from, begin_); i < std::min(end_, cycle_probes_.size()); ++i)
      if (cycle_probes_[i].cyccnt == cyccnt) return i;
    return std::nullopt;
  }

  // find_forward(cyccnt, from), else the most recent probe before `from` with that value.
  std::optional<size_t> find(uint32_t cyccnt, size_t from) const {
    if (auto i = find_forward(cyccnt, from)) return i;
    for (size_t i = std::min({from, end_, cycle_probes_.size()}); i > begin_; --i)
      if (cycle_probes_[i - 1].cyccnt == cyccnt) return i - 1;
    return std::nullopt;
  }

  bool positioned_ = false;
  bool positioned_cycles_ = false;
  size_t begin_ = 0;
  size_t end_ = SIZE_MAX;
  std::span<const CycleProbe> cycle_probes_;
  std::span<const PositionedProbe> positioned_probes_;
};

// Per-operation bookkeeping beside the OperationResult that is handed out.
struct OperationState {
  bool katsum_seen = false;
  bool skipped = false;
  bool mem_seen = false;
  bool instructions_unavailable = false;
  std::set<uint32_t> runs_seen;
  std::optional<uint32_t> asked_runs;   // timed runs announced by RUNS, if it arrived
  std::optional<uint32_t> inputs_runs;  // timed runs announced by INPUTS, if it arrived
};

class Decoder {
 public:
  explicit Decoder(std::optional<ProbeIndex> probes, std::span<const StreamPiece> pieces = {})
      : probes_(std::move(probes)),
        counter_has_cycles_(!probes_ || !probes_->positioned() || probes_->positioned_cycles()),
        pieces_(pieces) {}

  DecodedStream run(std::string_view bytes) {
    size_t pos = 0;
    size_t line_number = 0;
    while (pos < bytes.size()) {
      ++line_number;
      const size_t newline = bytes.find('\n', pos);
      const bool terminated = newline != std::string_view::npos;
      const std::string_view line =
          bytes.substr(pos, terminated ? newline - pos : std::string_view::npos);
      line_offset_ = pos;
      while (next_piece_ < pieces_.size() && pieces_[next_piece_].console_offset <= pos)
        enter_piece(next_piece_++);
      pos = terminated ? newline + 1 : bytes.size();
      handle_line(line, line_number, terminated);
    }
    finish();
    return std::move(out_);
  }

 private:
  // From here on the records and counter reads are piece `i`'s.
  void enter_piece(size_t i) {
    const StreamPiece& piece = pieces_[i];
    seq_offset_ = piece.seq_offset;
    if (probes_ && !probes_->positioned()) {
      const size_t end = i + 1 < pieces_.size() ? pieces_[i + 1].first_probe : SIZE_MAX;
      probes_->bound(piece.first_probe, end);
      probe_cursor_ = std::max(probe_cursor_, piece.first_probe);
    }
  }

  void error(const Record& record, std::string_view what) {
    out_.errors.push_back(fmt::format("line {}: {}", record.line_number, what));
  }

  void handle_line(std::string_view line, size_t line_number, bool terminated) {
    std::string_view content = line;
    if (!content.empty() && content.back() == '\r') content.remove_suffix(1);
    // A last line cut short inside "@F " or after it is a record that lost its end.
    const bool looks_like_record = content.starts_with(kRecordPrefix) ||
                                   (!content.empty() && kRecordPrefix.starts_with(content));
    if (!terminated && looks_like_record) {
      out_.errors.push_back(fmt::format(
          "line {}: truncated record (the stream ends in the middle of a line)", line_number));
      return;
    }
    auto parsed = parse_line(content, line_number);
    if (!parsed) {
      out_.errors.push_back(parsed.error().message);
      return;
    }
    if (!*parsed) {
      out_.log_lines.push_back(escape_log_text(content));
      return;
    }
    Record record = std::move(**parsed);
    record.seq += seq_offset_;  // its place in the image's sequence (StreamPiece)
    handle_record(record);
  }

  void handle_record(const Record& record) {
    if (end_seen_) {
      error(record, fmt::format("record {} ({}) after END; ignored", record.seq, record.type));
      return;
    }
    if (unsupported_protocol_) return;  // already reported once at HELLO

    if (record.seq < expected_seq_) {
      error(record, fmt::format("record {} repeated or interleaved: expected seq {}, got {}",
                                record.seq, expected_seq_, record.seq));
      return;
    }
    if (record.seq > expected_seq_) {
      const std::string missing =
          record.seq - expected_seq_ == 1
              ? fmt::format("record {}", expected_seq_)
              : fmt::format("records {}..{}", expected_seq_, record.seq - 1);
      error(record, fmt::format("{} missing or interleaved: expected seq {}, got {}", missing,
                                expected_seq_, record.seq));
    }
    // Sequence accepted (a gap is reported above; this record itself is intact).
    expected_seq_ = record.seq + 1;
    const uint64_t received_before = records_received_++;
    last_record_ = record.seq;
    last_record_line_ = record.line_number;

    if (received_before == 0 && record.type != "HELLO")
      error(record,
            fmt::format("stream does not start with HELLO (first record is {})", record.type));

    const RecordShape* shape = shape_of(record.type);
    if (shape == nullptr) {
      error(record, fmt::format("unknown record type '{}'; ignored", record.type));
      return;
    }
    if (record.fields.size() != shape->field_count) {
      error(record, fmt::format("{} record has {} fields, expected {} ({})", record.type,
                                record.fields.size(), shape->field_count, shape->fields));
      return;
    }
    if (record.type == "HELLO")
      on_hello(record);
    else if (record.type == "CAL")
      on_cal(record);
    else if (record.type == "KAT")
      on_kat(record);
    else if (record.type == "KATSUM")
      on_katsum(record);
    else if (record.type == "SAMPLE")
      on_sample(record);
    else if (record.type == "MEM")
      on_mem(record);
    else if (record.type == "SKIP")
      on_skip(record);
    else if (record.type == "RUNS")
      on_runs(record);
    else if (record.type == "INPUTS")
      on_inputs(record);
    else if (record.type == "SECRETS")
      on_secrets(record);
    else if (record.type == "BYTES")
      on_bytes(record);
    else if (record.type == "END")
      on_end(record);
    else if (record.type == "ISOLATION")
      on_isolation(record);
  }

  // Numeric field `index` (named `name` in messages); reports an error if it does not parse
  // or exceeds `max`.
  std::optional<uint64_t> number(const Record& record, size_t index, std::string_view name,
                                 uint64_t max) {
    const std::string& text = record.fields[index];
    const std::optional<uint64_t> value = parse_decimal_u64(text);
    if (!value || *value > max) {
      error(record,
            fmt::format("{} field {} '{}' is not an unsigned {}-bit decimal; record "
                        "ignored",
                        record.type, name, escape_log_text(text, 64), max == UINT32_MAX ? 32 : 64));
      return std::nullopt;
    }
    return value;
  }
  std::optional<uint32_t> number32(const Record& record, size_t index, std::string_view name) {
    auto v = number(record, index, name, UINT32_MAX);
    if (!v) return std::nullopt;
    return static_cast<uint32_t>(*v);
  }

  // The operation named by field 0, or nullptr (error reported) if the name is invalid.
  // `create` adds it in first-seen order.
  model::OperationResult* operation(const Record& record, bool create) {
    const std::string& name = record.fields[0];
    if (!is_operation_name(name)) {
      error(record, fmt::format("{} record names operation '{}', which is not [a-z0-9_]+; "
                                "record ignored",
                                record.type, escape_log_text(name, 64)));
      return nullptr;
    }
    auto it = op_index_.find(name);
    if (it != op_index_.end()) return &out_.operations[it->second];
    if (!create) return nullptr;
    op_index_.emplace(name, out_.operations.size());
    out_.operations.emplace_back().operation = name;
    op_state_.emplace_back();
    return &out_.operations.back();
  }
  OperationState& state_of(const model::OperationResult* op) {
    return op_state_[static_cast<size_t>(op - out_.operations.data())];
  }

  void on_hello(const Record& record) {
    if (hello_seen_) {
      error(record, "second HELLO record; ignored");
      return;
    }
    auto protocol = number32(record, 0, "protocol");
    auto runs = number32(record, 5, "runs");
    auto warmup = number32(record, 6, "warmup");
    if (!protocol || !runs || !warmup) return;
    hello_seen_ = true;
    if (*protocol != kProtocolVersion) {
      error(record, fmt::format("unsupported protocol version {} (this fathom reads version {}); "
                                "rebuild the image with this fathom's harness",
                                *protocol, kProtocolVersion));
      unsupported_protocol_ = true;
      return;
    }
    HelloInfo& h = out_.hello;
    h.protocol = *protocol;
    h.board = record.fields[1];
    h.config = record.fields[2];
    h.library = record.fields[3];
    h.library_version = record.fields[4];
    h.runs = *runs;
    h.warmup = *warmup;
  }

  void on_cal(const Record& record) {
    if (out_.cal) {
      error(record, "second CAL record; ignored");
      return;
    }
    auto t0 = number32(record, 0, "t0");
    auto t1 = number32(record, 1, "t1");
    if (!t0 || !t1) return;
    if (!counter_from_probes(record, *t0, *t1)) return;
    out_.cal.emplace(*t0, *t1);
    if (!probes_) return;
    const auto reads = probes_->pair(*t0, *t1, probe_cursor_, line_offset_);
    if (!reads) {
      error(record, fmt::format("CAL: {}; no instruction counts for this image",
                                reads.error().message));
      return;
    }
    const auto [i0, i1] = *reads;
    probe_cursor_ = std::max(probe_cursor_, i1 + 1);
    if (probes_->instructions(i1) < probes_->instructions(i0)) {
      error(record,
            "CAL: the instruction count decreased between its reads; no instruction "
            "counts for this image");
      return;
    }
    cal_instructions_ = probes_->instructions(i1) - probes_->instructions(i0);
  }

  // Positioned probes with counter values: the record's reads are the last two probes before
  // it, and their values replace the fields the guest wrote (0 on QEMU).
  // False (with an error) when the two reads are not there: the record's fields are the
  // guest's 0s, which must not be taken for cycles.
  bool counter_from_probes(const Record& record, uint32_t& t0, uint32_t& t1) {
    if (!probes_ || !probes_->positioned_cycles()) return true;
    const auto reads = probes_->pair(t0, t1, probe_cursor_, line_offset_);
    if (!reads) {
      error(record, fmt::format("{} record ignored: {}", record.type, reads.error().message));
      return false;
    }
    t0 = probes_->cyccnt(reads->first);
    t1 = probes_->cyccnt(reads->second);
    return true;
  }

  void on_kat(const Record& record) {
    const std::string& result = record.fields[2];
    if (result != "PASS" && result != "FAIL") {
      error(record, fmt::format("KAT result '{}' is neither PASS nor FAIL; record ignored",
                                escape_log_text(result, 64)));
      return;
    }
    if (auto it = op_index_.find(record.fields[0]);
        it != op_index_.end() && op_state_[it->second].katsum_seen) {
      error(record, fmt::format("KAT for {} after its KATSUM; ignored", record.fields[0]));
      return;
    }
    model::OperationResult* op = operation(record, true);
    if (op == nullptr) return;
    op->kat_vectors.push_back({record.fields[1], result == "PASS"});
  }

  void on_katsum(const Record& record) {
    auto passed = number32(record, 1, "passed");
    auto total = number32(record, 2, "total");
    if (!passed || !total) return;
    if (*passed > *total) {
      error(record,
            fmt::format("KATSUM reports {} of {} vectors passed; record ignored", *passed, *total));
      return;
    }
    model::OperationResult* op = operation(record, true);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if (st.katsum_seen) {
      error(record, fmt::format("second KATSUM for {}; ignored", op->operation));
      return;
    }
    st.katsum_seen = true;
    const auto received_passed = static_cast<size_t>(std::count_if(
        op->kat_vectors.begin(), op->kat_vectors.end(), [](const auto& v) { return v.passed; }));
    const bool consistent = op->kat_vectors.size() == *total && received_passed == *passed;
    if (!consistent)
      error(record,
            fmt::format("KATSUM for {} reports {} of {} vectors passed, but {} KAT "
                        "records ({} passed) were received; treated as failed",
                        op->operation, *passed, *total, op->kat_vectors.size(), received_passed));
    if (consistent && *total > 0 && *passed == *total) {
      op->kat = model::KatStatus::kPassed;
      return;
    }
    op->kat = model::KatStatus::kFailed;
    failed_ops_.insert(op->operation);
    if (op->error.empty())
      op->error = *total == 0  ? "no known-answer vectors ran"
                  : consistent ? fmt::format("known-answer test failed: {} of {} vectors passed",
                                             *passed, *total)
                               : "known-answer results incomplete (protocol error)";
  }

  // The operation of a SAMPLE or MEM record if its KAT passed and it was not skipped;
  // otherwise reports why the record is rejected and returns nullptr.
  model::OperationResult* timed_operation(const Record& record) {
    model::OperationResult* op = operation(record, false);
    if (op == nullptr) {
      if (is_operation_name(record.fields[0]))
        error(record, fmt::format("{} for {} rejected: the operation has no passing KATSUM",
                                  record.type, record.fields[0]));
      return nullptr;
    }
    if (op->kat != model::KatStatus::kPassed) {
      error(record, fmt::format("{} for {} rejected: the operation has no passing KATSUM",
                                record.type, op->operation));
      return nullptr;
    }
    if (state_of(op).skipped) {
      error(record, fmt::format("{} for {} rejected: the harness skipped the operation",
                                record.type, op->operation));
      return nullptr;
    }
    return op;
  }

  void on_sample(const Record& record) {
    auto run = number32(record, 1, "run");
    auto t0 = number32(record, 2, "t0");
    auto t1 = number32(record, 3, "t1");
    if (!run || !t0 || !t1) return;
    if (!counter_from_probes(record, *t0, *t1)) return;
    model::OperationResult* op = timed_operation(record);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if ((st.inputs_runs || st.asked_runs || hello_seen_) && *run >= expected_runs(st)) {
      error(record, fmt::format("SAMPLE for {} run {} but {} announced {} runs; ignored",
                                op->operation, *run,
                                st.inputs_runs ? "INPUTS" : st.asked_runs ? "RUNS" : "HELLO",
                                expected_runs(st)));
      return;
    }
    if (!st.runs_seen.insert(*run).second) {
      error(record, fmt::format("second SAMPLE for {} run {}; ignored", op->operation, *run));
      return;
    }
    if (!out_.cal) {
      error(record, fmt::format("SAMPLE for {} before CAL: the probe overhead is unknown; "
                                "ignored",
                                op->operation));
      return;
    }
    if (!counter_has_cycles_) {
      // The counter values mean nothing here; the run counts as timed when its instructions
      // are known.
      if (!st.instructions_unavailable) add_instructions(record, *op, st, *t0, *t1);
      if (!st.instructions_unavailable && op->instruction_samples.size() == 1)
        out_.run_order.push_back(op->operation);
      return;
    }
    // Unsigned 32-bit subtraction is exactly (t1 - t0) mod 2^32: CYCCNT wraps.
    const uint32_t raw_cycles = *t1 - *t0;
    const uint32_t overhead_cycles = out_.cal->second - out_.cal->first;
    if (raw_cycles < overhead_cycles) {
      error(record, fmt::format("SAMPLE for {} run {} took {} cycles, less than the probe "
                                "overhead {} from CAL; ignored",
                                op->operation, *run, raw_cycles, overhead_cycles));
      return;
    }
    op->cycle_samples.push_back(raw_cycles - overhead_cycles);
    if (op->cycle_samples.size() == 1) out_.run_order.push_back(op->operation);
    if (probes_ && !st.instructions_unavailable) add_instructions(record, *op, st, *t0, *t1);
  }

  void add_instructions(const Record& record, model::OperationResult& op, OperationState& st,
                        uint32_t t0, uint32_t t1) {
    std::string problem;
    const auto reads = probes_->pair(t0, t1, probe_cursor_, line_offset_);
    if (!cal_instructions_) {
      problem = "the CAL reads were not found";
    } else if (!reads) {
      problem = reads.error().message;
    } else {
      probe_cursor_ = std::max(probe_cursor_, reads->second + 1);
      const uint64_t at_t0 = probes_->instructions(reads->first);
      const uint64_t at_t1 = probes_->instructions(reads->second);
      if (at_t1 < at_t0 || at_t1 - at_t0 < *cal_instructions_)
        problem = fmt::format(
            "instruction count went from {} to {} between its reads, less "
            "than the {} of CAL",
            at_t0, at_t1, *cal_instructions_);
      else
        op.instruction_samples.push_back(at_t1 - at_t0 - *cal_instructions_);
    }
    if (problem.empty()) return;
    // Report once per operation; the CAL problem was already reported at CAL.
    if (cal_instructions_)
      error(record, fmt::format("SAMPLE for {}: {}; no instruction counts for this operation",
                                op.operation, problem));
    st.instructions_unavailable = true;
    op.instruction_samples.clear();
  }

  void on_isolation(const Record& record) {
    if (!out_.isolation.empty()) {
      error(record, "second ISOLATION record; ignored");
      return;
    }
    const std::string& method = record.fields[0];
    if (method != "snapshot" && method != "none") {
      error(record, fmt::format("ISOLATION method '{}' is neither 'snapshot' nor 'none'; ignored",
                                escape_log_text(method, 64)));
      return;
    }
    out_.isolation = method;
  }

  void on_mem(const Record& record) {
    auto stack = number(record, 1, "peak_stack_bytes", UINT64_MAX);
    auto heap = number(record, 2, "heap_peak_bytes", UINT64_MAX);
    auto allocations = number(record, 3, "allocations", UINT64_MAX);
    auto heap_start = number(record, 4, "heap_start_bytes", UINT64_MAX);
    if (!stack || !heap || !allocations || !heap_start) return;
    model::OperationResult* op = timed_operation(record);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if (st.mem_seen) {
      error(record, fmt::format("second MEM for {}; ignored", op->operation));
      return;
    }
    st.mem_seen = true;
    op->peak_stack_bytes = *stack;
    op->heap_peak_bytes = *heap;
    op->allocations = *allocations;
    op->heap_start_bytes = *heap_start;
  }

  // The timed runs `st`'s operation makes: INPUTS's count, else RUNS's, else HELLO's.
  uint32_t expected_runs(const OperationState& st) const {
    return st.inputs_runs ? *st.inputs_runs : st.asked_runs.value_or(out_.hello.runs);
  }

  // RUNS <op> <n>: the host asked for n timed runs of `op` instead of HELLO's runs (protocol
  // 3). It precedes the operation's INPUTS and samples.
  void on_runs(const Record& record) {
    auto count = number32(record, 1, "runs");
    if (!count) return;
    model::OperationResult* op = timed_operation(record);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if (st.asked_runs) {
      error(record, fmt::format("second RUNS for {}; ignored", op->operation));
      return;
    }
    if (!st.runs_seen.empty() || st.inputs_runs) {
      error(record, fmt::format("RUNS for {} after its {}; ignored", op->operation,
                                st.inputs_runs ? "INPUTS" : "first SAMPLE"));
      return;
    }
    if (*count == 0) {
      error(record, fmt::format("RUNS for {} announces 0 runs; ignored", op->operation));
      return;
    }
    st.asked_runs = *count;
  }

  // INPUTS <op> <n>: the n timed runs of `op` that follow each use a distinct input. The
  // harness makes max(the runs asked for, the operation's min_runs) runs, so n below RUNS's
  // count (or HELLO's runs without RUNS) is an error; it must precede the operation's samples.
  void on_inputs(const Record& record) {
    auto count = number32(record, 1, "distinct_inputs");
    if (!count) return;
    model::OperationResult* op = timed_operation(record);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if (st.inputs_runs) {
      error(record, fmt::format("second INPUTS for {}; ignored", op->operation));
      return;
    }
    if (!st.runs_seen.empty()) {
      error(record, fmt::format("INPUTS for {} after its first SAMPLE; ignored", op->operation));
      return;
    }
    if (*count == 0 || ((hello_seen_ || st.asked_runs) && *count < expected_runs(st))) {
      error(record, fmt::format("INPUTS for {} announces {} runs, fewer than {}'s {} (or "
                                "none); ignored",
                                op->operation, *count, st.asked_runs ? "RUNS" : "HELLO",
                                expected_runs(st)));
      return;
    }
    st.inputs_runs = *count;
    op->distinct_inputs = *count;
  }

  // SECRETS <op> <n>: each of the n timed runs of `op` that follow uses another variant of its
  // secret (`fathom ct`). The harness makes exactly the runs asked for, so n must equal them;
  // it must precede the operation's samples.
  void on_secrets(const Record& record) {
    auto count = number32(record, 1, "variants");
    if (!count) return;
    model::OperationResult* op = timed_operation(record);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    if (op->secret_variants != 0) {
      error(record, fmt::format("second SECRETS for {}; ignored", op->operation));
      return;
    }
    if (!st.runs_seen.empty()) {
      error(record, fmt::format("SECRETS for {} after its first SAMPLE; ignored", op->operation));
      return;
    }
    if (*count == 0 || ((hello_seen_ || st.asked_runs) && *count != expected_runs(st))) {
      error(record, fmt::format("SECRETS for {} announces {} variants, not {}'s {} runs; ignored",
                                op->operation, *count, st.asked_runs ? "RUNS" : "HELLO",
                                expected_runs(st)));
      return;
    }
    op->secret_variants = *count;
  }

  // BYTES <op> <object> <bytes>: the size of an object `op` produces or consumes; sent from
  // the operation's setup or KAT hook, so it does not need a passing KATSUM.
  void on_bytes(const Record& record) {
    const std::string& object = record.fields[1];
    auto bytes = number32(record, 2, "bytes");
    if (!bytes) return;
    if (!is_operation_name(object)) {
      error(record, fmt::format("BYTES object name '{}' is not [a-z0-9_]+; record ignored",
                                escape_log_text(object, 64)));
      return;
    }
    model::OperationResult* op = operation(record, true);
    if (op == nullptr) return;
    if (!op->object_bytes.emplace(object, *bytes).second)
      error(record, fmt::format("second BYTES {} for {}; ignored", object, op->operation));
  }

  void on_skip(const Record& record) {
    const std::string& reason = record.fields[1];
    model::OperationResult* op = operation(record, true);
    if (op == nullptr) return;
    OperationState& st = state_of(op);
    st.skipped = true;
    if (reason == "setup-failed" || reason == "run-failed") failed_ops_.insert(op->operation);
    // A skipped operation has no timing, even if some runs completed before it failed.
    op->cycle_samples.clear();
    op->instruction_samples.clear();
    op->distinct_inputs = 0;
    op->peak_stack_bytes.reset();
    op->heap_peak_bytes.reset();
    op->heap_start_bytes.reset();
    op->allocations.reset();
    if (op->error.empty())
      op->error = fmt::format("harness skipped timing: {}", escape_log_text(reason, 64));
  }

  void on_end(const Record& record) {
    auto kat_failures = number32(record, 0, "kat_failures");
    auto records = number(record, 1, "records", UINT64_MAX);
    if (!kat_failures || !records) return;
    end_seen_ = true;
    bool valid = true;
    // Every record before END must have arrived intact: END's own seq and its count agree
    // with the number of records received.
    const uint64_t received_before = records_received_ - 1;
    if (*records != record.seq || *records != received_before) {
      error(record, fmt::format("END reports {} records before it, but {} arrived intact "
                                "(END has seq {})",
                                *records, received_before, record.seq));
      valid = false;
    }
    if (*kat_failures != failed_ops_.size()) {
      error(record, fmt::format("END reports {} failed operations, but the records received "
                                "show {}",
                                *kat_failures, failed_ops_.size()));
      valid = false;
    }
    out_.completed = valid;
  }

  void finish() {
    if (!end_seen_) {
      out_.errors.push_back(
          records_received_ == 0
              ? std::string("stream truncated: no records at all (no END record)")
              : fmt::format("stream truncated: no END record (last intact record: seq {} on "
                            "line {})",
                            last_record_, last_record_line_));
    }
    if (!hello_seen_ && records_received_ > 0)
      out_.errors.push_back("no valid HELLO record: board, configuration and runs unknown");
    for (size_t i = 0; i < out_.operations.size(); ++i) {
      model::OperationResult& op = out_.operations[i];
      const OperationState& st = op_state_[i];
      const uint32_t expected = expected_runs(st);
      // Without cycles, a timed sample is an instruction sample.
      const size_t accepted =
          counter_has_cycles_ ? op.cycle_samples.size() : op.instruction_samples.size();
      if (op.kat == model::KatStatus::kPassed && !st.skipped && hello_seen_ &&
          accepted != expected)
        out_.errors.push_back(fmt::format("operation {}: {} of {} timed samples were accepted",
                                          op.operation, accepted, expected));
      if (!probes_ || st.instructions_unavailable) op.instruction_samples.clear();
      op.cycles = model::summarize(op.cycle_samples);
      op.instructions = model::summarize(op.instruction_samples);
    }
  }

  std::optional<ProbeIndex> probes_;
  const bool counter_has_cycles_;
  size_t line_offset_ = 0;  // console byte where the current line starts
  size_t probe_cursor_ = 0;
  std::optional<uint64_t> cal_instructions_;
  std::span<const StreamPiece> pieces_;
  size_t next_piece_ = 0;     // the first piece not started yet
  uint64_t seq_offset_ = 0;   // of the piece the current line is in

  DecodedStream out_;
  std::map<std::string, size_t, std::less<>> op_index_;
  std::vector<OperationState> op_state_;
  std::set<std::string> failed_ops_;
  uint64_t expected_seq_ = 0;
  uint64_t records_received_ = 0;
  uint64_t last_record_ = 0;
  size_t last_record_line_ = 0;
  bool hello_seen_ = false;
  bool unsupported_protocol_ = false;
  bool end_seen_ = false;
};

}  // namespace

std::string escape_log_text(std::string_view bytes, size_t max_input_bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  const std::string_view kept = bytes.substr(0, max_input_bytes);
  out.reserve(kept.size());
  for (char ch : kept) {
    const auto c = static_cast<uint8_t>(ch);
    if (c == '\\') {
      out += "\\\\";
    } else if (c >= 0x20 && c <= 0x7e) {
      out += ch;
    } else {
      out += "\\x";
      out += kHex[c >> 4];
      out += kHex[c & 0xF];
    }
  }
  if (bytes.size() > kept.size())
    out += fmt::format("... ({} more bytes)", bytes.size() - kept.size());
  return out;
}

DecodedStream decode_stream(std::string_view console_bytes,
                            std::optional<std::span<const CycleProbe>> cycle_probes,
                            std::span<const StreamPiece> pieces) {
  std::optional<ProbeIndex> index;
  if (cycle_probes) index.emplace(*cycle_probes);
  return Decoder(std::move(index), pieces).run(console_bytes);
}

DecodedStream decode_stream_without_cycles(std::string_view console_bytes,
                                           std::span<const PositionedProbe> probes) {
  return Decoder(ProbeIndex(probes)).run(console_bytes);
}

}  // namespace fathom::protocol
