#pragma once
// Decodes a whole firmware console stream (docs/PROTOCOL.md) into facts for the results model.
// Every protocol problem is listed in DecodedStream::errors; the record that caused it is
// dropped, so a damaged stream can lose numbers but never produce a wrong one.
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/run_result.h"

namespace fathom::protocol {

// The HELLO record. All fields stay empty/zero when no valid HELLO arrived (then `errors` says
// so); `protocol` is 0 in that case and 1 otherwise.
struct HelloInfo {
  uint32_t protocol = 0;
  std::string board;
  std::string config;
  std::string library;
  std::string library_version;
  uint32_t runs = 0;    // timed runs per operation
  uint32_t warmup = 0;  // untimed runs before them
};

// One DWT_CYCCNT read served by the simulator, in the order they happened.
struct CycleProbe {
  uint32_t cyccnt = 0;        // the value the firmware read
  uint64_t instructions = 0;  // instructions retired at that moment
};

// One read of the counter on a target whose counter carries no cycles (QEMU models none:
// DWT_CYCCNT reads 0): the instructions retired and the console bytes written before it.
struct PositionedProbe {
  uint64_t instructions = 0;
  uint64_t console_offset = 0;
  // What the counter would have returned, when an engine outside the guest models it (the
  // QEMU engine: the guest reads 0, the timing model counts). Then it stands for the record's
  // counter fields, and the stream has cycles.
  std::optional<uint32_t> cyccnt;
};

struct DecodedStream {
  HelloInfo hello;
  std::optional<std::pair<uint32_t, uint32_t>> cal;  // raw CYCCNT (t0, t1) of the CAL record
  // In the order the operations first appear in accepted records. Per operation: KAT status
  // and vectors; cycle_samples = (t1 - t0) mod 2^32 - (cal_t1 - cal_t0) mod 2^32 in run order
  // of arrival; instruction_samples likewise when probes were given and every lookup worked;
  // cycles/instructions statistics; memory from MEM; distinct_inputs from INPUTS (then the
  // operation has that many samples instead of HELLO's runs); object_bytes from BYTES;
  // `error` from a failed KAT or a SKIP.
  std::vector<model::OperationResult> operations;
  // The ISOLATION record's method: "snapshot" (every operation's runs started from the same
  // post-boot machine state) or "none" (one pass, in run order); empty if none arrived.
  std::string isolation;
  // The operations in the order their timed runs were made (first SAMPLE of each).
  std::vector<std::string> run_order;
  // END arrived intact, and its record count and failure count agree with what was received.
  bool completed = false;
  std::vector<std::string> errors;     // one line each: "line 12: record CRC mismatch (...)"
  std::vector<std::string> log_lines;  // free-text lines; bytes outside 0x20..0x7e as \xNN
};

// A console stream made of pieces that ran from the same machine state, one after another
// or on separate machines (the simulator's isolated slots, docs/SIMULATOR.md "Isolation"): from
// byte `console_offset` on, the records are numbered from the piece's own start, and
// `seq_offset` added to each record's seq gives its place in the image's sequence. Each
// record's CRC still covers the bytes as the firmware sent them. The piece's counter reads
// are the cycle probes from index `first_probe` up to the next piece's: a record's reads are
// looked up among its own piece's only (the pieces' CYCCNT values may repeat).
struct StreamPiece {
  size_t console_offset = 0;
  uint64_t seq_offset = 0;
  size_t first_probe = 0;
};

// Decodes `console_bytes`, the complete console output of one image run.
// `cycle_probes`, if given, is every CYCCNT read the simulator served, in order; each sample
// then also gets an instruction count: instructions between its t0 and t1 reads minus those
// between the CAL reads. A probe is looked up by value, first at or after the reads already
// matched (reads happen in record order), else the most recent one before them; a value not
// found is an error and leaves that operation without instruction samples.
// Never fails as a whole: problems go to DecodedStream::errors.
// `pieces`, sorted by console_offset, renumber the records of a stream made of pieces (see
// StreamPiece); none = the records are numbered as sent.
DecodedStream decode_stream(std::string_view console_bytes,
                            std::optional<std::span<const CycleProbe>> cycle_probes = std::nullopt,
                            std::span<const StreamPiece> pieces = {});

// Decodes `console_bytes` from a target whose counter values carry no cycles: the records'
// counter fields are ignored, cycle_samples and cycles stay empty (unless every probe carries
// `cyccnt`: then those values are the records' counter fields), and each CAL or SAMPLE
// record's two reads are the last two `probes` before the record's first byte (the harness
// reads the counter twice and writes nothing in between but the operation's own log, then
// writes the record). Instruction samples are then made as with cycle probes; an operation's
// timed samples are counted by its instruction samples.
DecodedStream decode_stream_without_cycles(std::string_view console_bytes,
                                           std::span<const PositionedProbe> probes);

// `bytes` as printable ASCII: '\\' becomes "\\\\", bytes outside 0x20..0x7e become "\xNN".
// At most `max_input_bytes` of the input are kept; a longer input ends with
// "... (N more bytes)".
std::string escape_log_text(std::string_view bytes, size_t max_input_bytes = 4096);

}  // namespace fathom::protocol
