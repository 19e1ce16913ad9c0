#pragma once
// Arm semihosting ("Semihosting for AArch32 and AArch64", version 2), the console of firmware
// built with newlib's rdimon (`--specs=rdimon.specs`): the firmware executes `BKPT 0xAB` with
// the operation number in r0 and a parameter (usually the address of a parameter block) in r1,
// and the host serves the call and puts the result in r0.
//
// This class serves one call at a time and knows nothing about the CPU: guest memory goes
// through the two callbacks given to the constructor. It serves what newlib's rdimon needs to
// start, print and exit, deterministically and without touching host files:
//   - ":tt" opens the console (mode 0-3 stdin, 4-7 stdout, 8-11 stderr). Writes to stdout and
//     stderr are appended to console(); reads from stdin return end of file.
//   - ":semihosting-features" is the read-only feature file of spec section 4.3, advertising
//     SH_EXT_EXIT_EXTENDED and SH_EXT_STDOUT_STDERR. Without it a 32-bit newlib reports every
//     exit as a plain ApplicationExit and the exit status is lost.
//   - Any other path fails (r0 = -1, errno ENOENT).
//   - SYS_TIME is always 0 and SYS_CLOCK counts simulated cycles, so runs repeat exactly.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace fathom::sim {

// Reads `length` bytes of guest memory at `address` into `out`; false if any byte is not
// readable.
using GuestRead = std::function<bool(uint32_t address, void* out, size_t length)>;
// Writes `length` bytes from `data` to guest memory at `address`; false if any byte is not
// writable.
using GuestWrite = std::function<bool(uint32_t address, const void* data, size_t length)>;

// What SYS_HEAPINFO reports (all guest addresses). newlib's crt0 sets SP to
// `stack_base_address` when it is non-zero and starts the heap at `heap_base_address`.
struct SemihostingHeapInfo {
  uint32_t heap_base_address = 0;
  uint32_t heap_limit_address = 0;
  uint32_t stack_base_address = 0;   // the initial stack pointer (the top; the stack grows down)
  uint32_t stack_limit_address = 0;  // the lowest stack address
};

// A heap and stack layout for a RAM region [`ram_origin`, `ram_origin` + `ram_length_bytes`):
// the stack takes the top `stack_bytes` of RAM, the heap runs from `end_address` (the ELF's
// `end`/`__end__` symbol, the first free byte after .bss; nullopt or outside the RAM region
// means the bottom of RAM) up to the stack. Addresses are 8-byte aligned (AAPCS).
SemihostingHeapInfo semihosting_heap_info(uint32_t ram_origin, uint32_t ram_length_bytes,
                                          uint32_t stack_bytes,
                                          std::optional<uint32_t> end_address);

// The outcome of one semihosting call.
struct SemihostingResult {
  uint32_t r0 = 0;    // the value to put in r0 before resuming after the BKPT
  bool exit = false;  // SYS_EXIT / SYS_EXIT_EXTENDED: the program ended; do not resume
  int exit_code = 0;  // when `exit`: the status (0 for a normal ApplicationExit)
  std::string error;  // non-empty: the call could not be served (unknown operation, a guest
                      // pointer outside memory); stop the machine with this as the fault
};

class Semihosting {
 public:
  static constexpr uint16_t kTrapInstruction = 0xBEAB;  // BKPT 0xAB, Thumb (spec 2.1.1)
  static constexpr size_t kMaxStringBytes = 64 * 1024;  // longest string or transfer served
  static constexpr size_t kMaxOpenFiles = 16;

  // Operation numbers (spec chapter 6).
  static constexpr uint32_t kSysOpen = 0x01;
  static constexpr uint32_t kSysClose = 0x02;
  static constexpr uint32_t kSysWritec = 0x03;
  static constexpr uint32_t kSysWrite0 = 0x04;
  static constexpr uint32_t kSysWrite = 0x05;
  static constexpr uint32_t kSysRead = 0x06;
  static constexpr uint32_t kSysIstty = 0x09;
  static constexpr uint32_t kSysSeek = 0x0A;
  static constexpr uint32_t kSysFlen = 0x0C;
  static constexpr uint32_t kSysClock = 0x10;
  static constexpr uint32_t kSysTime = 0x11;
  static constexpr uint32_t kSysErrno = 0x13;
  static constexpr uint32_t kSysGetCmdline = 0x15;
  static constexpr uint32_t kSysHeapinfo = 0x16;
  static constexpr uint32_t kSysExit = 0x18;
  static constexpr uint32_t kSysExitExtended = 0x20;

  static constexpr uint32_t kAdpStoppedApplicationExit = 0x20026;

  // `clock_hz` converts cycles to SYS_CLOCK's centiseconds (0: SYS_CLOCK fails).
  Semihosting(GuestRead read, GuestWrite write, SemihostingHeapInfo heap_info, uint64_t clock_hz);

  // Serves operation `operation` (r0 at the BKPT) with parameter `parameter` (r1).
  // `now_cycles` is the simulated cycle count, for SYS_CLOCK.
  SemihostingResult call(uint32_t operation, uint32_t parameter, uint64_t now_cycles);

  // Everything written to stdout and stderr (and by SYS_WRITEC/SYS_WRITE0) so far.
  const std::string& console() const { return console_; }
  // console() so far, and empties it (a paused machine collects it at every stop).
  std::string take_console() { return std::exchange(console_, {}); }

  // Back to the state before the first call: console empty, no open files, errno 0.
  void reset();

 private:
  enum class FileKind { kStdin, kStdout, kStderr, kFeatures };
  struct OpenFile {
    FileKind kind;
    uint32_t position_bytes = 0;  // read position (feature file only)
  };

  SemihostingResult open(uint32_t block);
  SemihostingResult close(uint32_t block);
  SemihostingResult write0(uint32_t address);
  SemihostingResult write(uint32_t block);
  SemihostingResult read(uint32_t block);
  SemihostingResult istty(uint32_t block);
  SemihostingResult seek(uint32_t block);
  SemihostingResult flen(uint32_t block);
  SemihostingResult get_cmdline(uint32_t block);
  SemihostingResult heapinfo(uint32_t parameter);
  SemihostingResult exit(uint32_t parameter, bool extended);

  // Reads `count` 32-bit words of a parameter block at `address` into `words`.
  bool read_words(uint32_t address, uint32_t* words, size_t count) const;
  // The open file for guest handle `handle`, or nullptr.
  OpenFile* file(uint32_t handle);
  // A failed call: r0 = -1 and errno `error_number`.
  SemihostingResult failure(uint32_t error_number);

  GuestRead read_;
  GuestWrite write_;
  SemihostingHeapInfo heap_info_;
  uint64_t clock_hz_;
  std::string console_;
  std::vector<std::optional<OpenFile>> files_;  // guest handle = index + 1
  uint32_t errno_ = 0;
};

}  // namespace fathom::sim
