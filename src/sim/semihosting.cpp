#include "sim/semihosting.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <utility>

namespace fathom::sim {
namespace {

// errno values as newlib defines them (sys/errno.h); rdimon hands SYS_ERRNO's result to the
// program unchanged.
constexpr uint32_t kEnoent = 2;
constexpr uint32_t kEbadf = 9;
constexpr uint32_t kEinval = 22;
constexpr uint32_t kEmfile = 24;
constexpr uint32_t kEspipe = 29;

constexpr uint32_t kMinusOne = 0xFFFFFFFFu;

// The feature file (spec 4.3): the magic "SHFB", then feature byte 0 with
// SH_EXT_EXIT_EXTENDED (bit 0) and SH_EXT_STDOUT_STDERR (bit 1).
constexpr std::array<uint8_t, 5> kFeatureFile = {'S', 'H', 'F', 'B', 0x03};
constexpr std::string_view kConsolePath = ":tt";
constexpr std::string_view kFeaturesPath = ":semihosting-features";

// ADP_Stopped_* reason codes (spec table 6-4) run from BranchThroughZero to OSSpecific; on
// AArch32 SYS_EXIT's r1 is one of them, anything else is taken as a parameter block address.
constexpr uint32_t kFirstStoppedReason = 0x20000;
constexpr uint32_t kLastStoppedReason = 0x20029;

SemihostingResult returning(uint32_t r0) {
  SemihostingResult r;
  r.r0 = r0;
  return r;
}

SemihostingResult bad_access(std::string_view operation, std::string_view what, uint32_t address,
                             uint64_t length) {
  SemihostingResult r;
  r.error = fmt::format("semihosting {}: the {} at {:#010x} ({} bytes) is outside guest memory",
                        operation, what, address, length);
  return r;
}

uint32_t align_down_8(uint32_t a) { return a & ~7u; }

}  // namespace

SemihostingHeapInfo semihosting_heap_info(uint32_t ram_origin, uint32_t ram_length_bytes,
                                          uint32_t stack_bytes,
                                          std::optional<uint32_t> end_address) {
  const uint64_t ram_end = uint64_t{ram_origin} + ram_length_bytes;
  SemihostingHeapInfo info;
  info.stack_base_address =
      align_down_8(static_cast<uint32_t>(std::min<uint64_t>(ram_end, 0xFFFFFFF8u)));
  info.stack_limit_address = std::max(
      ram_origin, info.stack_base_address - std::min(stack_bytes, info.stack_base_address));
  uint32_t heap_base = ram_origin;
  if (end_address && *end_address >= ram_origin && *end_address < ram_end)
    heap_base = static_cast<uint32_t>(
        std::min<uint64_t>((uint64_t{*end_address} + 7) & ~7ull, info.stack_limit_address));
  info.heap_base_address = std::min(heap_base, info.stack_limit_address);
  info.heap_limit_address = info.stack_limit_address;
  return info;
}

Semihosting::Semihosting(GuestRead read, GuestWrite write, SemihostingHeapInfo heap_info,
                         uint64_t clock_hz)
    : read_(std::move(read)),
      write_(std::move(write)),
      heap_info_(heap_info),
      clock_hz_(clock_hz) {}

void Semihosting::reset() {
  console_.clear();
  files_.clear();
  errno_ = 0;
}

SemihostingResult Semihosting::call(uint32_t operation, uint32_t parameter, uint64_t now_cycles) {
  switch (operation) {
    case kSysOpen:
      return open(parameter);
    case kSysClose:
      return close(parameter);
    case kSysWritec: {
      char c = 0;
      if (!read_(parameter, &c, 1)) return bad_access("SYS_WRITEC", "character", parameter, 1);
      console_.push_back(c);
      return returning(0);
    }
    case kSysWrite0:
      return write0(parameter);
    case kSysWrite:
      return write(parameter);
    case kSysRead:
      return read(parameter);
    case kSysIstty:
      return istty(parameter);
    case kSysSeek:
      return seek(parameter);
    case kSysFlen:
      return flen(parameter);
    case kSysClock:
      if (clock_hz_ == 0) return returning(kMinusOne);
      return returning(static_cast<uint32_t>(now_cycles / clock_hz_ * 100 +
                                             now_cycles % clock_hz_ * 100 / clock_hz_));
    case kSysTime:
      return returning(0);
    case kSysErrno:
      return returning(errno_);
    case kSysGetCmdline:
      return get_cmdline(parameter);
    case kSysHeapinfo:
      return heapinfo(parameter);
    case kSysExit:
      return exit(parameter, false);
    case kSysExitExtended:
      return exit(parameter, true);
    default: {
      SemihostingResult r;
      r.error = fmt::format("unsupported semihosting operation {:#04x} (parameter {:#010x})",
                            operation, parameter);
      return r;
    }
  }
}

bool Semihosting::read_words(uint32_t address, uint32_t* words, size_t count) const {
  if (uint64_t{address} + count * 4 > (1ull << 32)) return false;
  std::array<uint8_t, 16> bytes{};
  if (count * 4 > bytes.size() || !read_(address, bytes.data(), count * 4)) return false;
  for (size_t i = 0; i < count; ++i)  // the guest is little-endian
    words[i] = uint32_t{bytes[i * 4]} | uint32_t{bytes[i * 4 + 1]} << 8 |
               uint32_t{bytes[i * 4 + 2]} << 16 | uint32_t{bytes[i * 4 + 3]} << 24;
  return true;
}

Semihosting::OpenFile* Semihosting::file(uint32_t handle) {
  if (handle == 0 || handle > files_.size() || !files_[handle - 1]) return nullptr;
  return &*files_[handle - 1];
}

SemihostingResult Semihosting::failure(uint32_t error_number) {
  errno_ = error_number;
  return returning(kMinusOne);
}

SemihostingResult Semihosting::open(uint32_t block) {
  uint32_t args[3];  // path address, mode, path length (without the NUL)
  if (!read_words(block, args, 3)) return bad_access("SYS_OPEN", "parameter block", block, 12);
  if (args[2] > kMaxStringBytes) return failure(kEnoent);
  std::string path(args[2], '\0');
  if (uint64_t{args[0]} + args[2] > (1ull << 32) ||
      (!path.empty() && !read_(args[0], path.data(), path.size())))
    return bad_access("SYS_OPEN", "path", args[0], args[2]);
  FileKind kind;
  if (path == kConsolePath) {
    // Modes 0-3 are "r"/"rb"/"r+"/"r+b", 4-7 "w...", 8-11 "a..." (spec table 6-1).
    if (args[1] > 11) return failure(kEinval);
    kind = args[1] < 4 ? FileKind::kStdin : (args[1] < 8 ? FileKind::kStdout : FileKind::kStderr);
  } else if (path == kFeaturesPath) {
    if (args[1] > 1) return failure(kEinval);  // read-only
    kind = FileKind::kFeatures;
  } else {
    return failure(kEnoent);
  }
  auto slot = std::find(files_.begin(), files_.end(), std::nullopt);
  if (slot == files_.end()) {
    if (files_.size() >= kMaxOpenFiles) return failure(kEmfile);
    slot = files_.insert(files_.end(), std::nullopt);
  }
  *slot = OpenFile{kind, 0};
  return returning(static_cast<uint32_t>(slot - files_.begin()) + 1);
}

SemihostingResult Semihosting::close(uint32_t block) {
  uint32_t handle = 0;
  if (!read_words(block, &handle, 1)) return bad_access("SYS_CLOSE", "parameter block", block, 4);
  if (!file(handle)) return failure(kEbadf);
  files_[handle - 1].reset();
  return returning(0);
}

SemihostingResult Semihosting::write0(uint32_t address) {
  // Byte by byte: a string may end just before unmapped memory. Programs print with SYS_WRITE;
  // this path is rare and short.
  std::string text;
  for (uint64_t a = address; text.size() < kMaxStringBytes; ++a) {
    char c = 0;
    if (a >= (1ull << 32) || !read_(static_cast<uint32_t>(a), &c, 1))
      return bad_access("SYS_WRITE0", "string", address, text.size() + 1);
    if (c == '\0') break;
    text.push_back(c);
  }
  console_ += text;  // an unterminated string is cut at kMaxStringBytes
  return returning(0);
}

SemihostingResult Semihosting::write(uint32_t block) {
  uint32_t args[3];  // handle, data address, length
  if (!read_words(block, args, 3)) return bad_access("SYS_WRITE", "parameter block", block, 12);
  const OpenFile* f = file(args[0]);
  if (!f || (f->kind != FileKind::kStdout && f->kind != FileKind::kStderr)) {
    errno_ = kEbadf;
    return returning(args[2]);  // nothing written
  }
  // A longer write is served in part; the result (bytes not written) tells the caller to
  // write the rest.
  const uint32_t n = std::min<uint32_t>(args[2], kMaxStringBytes);
  std::string data(n, '\0');
  if (uint64_t{args[1]} + n > (1ull << 32) || (n && !read_(args[1], data.data(), n)))
    return bad_access("SYS_WRITE", "buffer", args[1], args[2]);
  console_ += data;
  return returning(args[2] - n);
}

SemihostingResult Semihosting::read(uint32_t block) {
  uint32_t args[3];  // handle, buffer address, length
  if (!read_words(block, args, 3)) return bad_access("SYS_READ", "parameter block", block, 12);
  OpenFile* f = file(args[0]);
  if (!f || f->kind == FileKind::kStdout || f->kind == FileKind::kStderr) return failure(kEbadf);
  if (f->kind == FileKind::kStdin) return returning(args[2]);  // end of file
  const uint32_t left = static_cast<uint32_t>(kFeatureFile.size()) - f->position_bytes;
  const uint32_t n = std::min(args[2], left);
  if (uint64_t{args[1]} + n > (1ull << 32) ||
      (n && !write_(args[1], kFeatureFile.data() + f->position_bytes, n)))
    return bad_access("SYS_READ", "buffer", args[1], args[2]);
  f->position_bytes += n;
  return returning(args[2] - n);
}

SemihostingResult Semihosting::istty(uint32_t block) {
  uint32_t handle = 0;
  if (!read_words(block, &handle, 1)) return bad_access("SYS_ISTTY", "parameter block", block, 4);
  const OpenFile* f = file(handle);
  if (!f) return failure(kEbadf);
  return returning(f->kind == FileKind::kFeatures ? 0 : 1);
}

SemihostingResult Semihosting::seek(uint32_t block) {
  uint32_t args[2];  // handle, absolute position
  if (!read_words(block, args, 2)) return bad_access("SYS_SEEK", "parameter block", block, 8);
  OpenFile* f = file(args[0]);
  if (!f) return failure(kEbadf);
  if (f->kind != FileKind::kFeatures) return failure(kEspipe);
  if (args[1] > kFeatureFile.size()) return failure(kEinval);
  f->position_bytes = args[1];
  return returning(0);
}

SemihostingResult Semihosting::flen(uint32_t block) {
  uint32_t handle = 0;
  if (!read_words(block, &handle, 1)) return bad_access("SYS_FLEN", "parameter block", block, 4);
  const OpenFile* f = file(handle);
  if (!f) return failure(kEbadf);
  return returning(f->kind == FileKind::kFeatures ? static_cast<uint32_t>(kFeatureFile.size()) : 0);
}

SemihostingResult Semihosting::get_cmdline(uint32_t block) {
  uint32_t args[2];  // buffer address, buffer length
  if (!read_words(block, args, 2))
    return bad_access("SYS_GET_CMDLINE", "parameter block", block, 8);
  if (args[1] == 0) return failure(kEinval);  // no room for the NUL
  const uint8_t nul = 0;
  const uint32_t zero = 0;
  if (!write_(args[0], &nul, 1)) return bad_access("SYS_GET_CMDLINE", "buffer", args[0], 1);
  if (!write_(block + 4, &zero, 4))  // the command line's length, without the NUL
    return bad_access("SYS_GET_CMDLINE", "parameter block", block, 8);
  return returning(0);
}

SemihostingResult Semihosting::heapinfo(uint32_t parameter) {
  // r1 holds the address of a word that holds the address of the four-word block (spec 6.8).
  uint32_t block = 0;
  if (!read_words(parameter, &block, 1))
    return bad_access("SYS_HEAPINFO", "block pointer", parameter, 4);
  const uint32_t words[4] = {heap_info_.heap_base_address, heap_info_.heap_limit_address,
                             heap_info_.stack_base_address, heap_info_.stack_limit_address};
  std::array<uint8_t, 16> bytes{};
  for (size_t i = 0; i < 16; ++i) bytes[i] = static_cast<uint8_t>(words[i / 4] >> (8 * (i % 4)));
  if (uint64_t{block} + 16 > (1ull << 32) || !write_(block, bytes.data(), bytes.size()))
    return bad_access("SYS_HEAPINFO", "block", block, 16);
  return returning(0);
}

SemihostingResult Semihosting::exit(uint32_t parameter, bool extended) {
  uint32_t reason = parameter;
  uint32_t subcode = 0;
  if (extended || reason < kFirstStoppedReason || reason > kLastStoppedReason) {
    uint32_t args[2];  // reason, subcode
    if (!read_words(parameter, args, 2))
      return bad_access(extended ? "SYS_EXIT_EXTENDED" : "SYS_EXIT", "parameter block", parameter,
                        8);
    reason = args[0];
    subcode = args[1];
  }
  SemihostingResult r;
  r.exit = true;
  r.exit_code = reason == kAdpStoppedApplicationExit ? static_cast<int>(subcode) : 1;
  return r;
}

}  // namespace fathom::sim
