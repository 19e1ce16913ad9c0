#pragma once
// How far one image's run has got, read while it runs (the progress line of `fathom run`):
// the instructions its simulated machines have executed so far and what each is doing. The
// machines write (sim::Machine::set_live_counter, once per translation block, relaxed); the
// progress display reads from another thread. Nothing here changes a measurement.
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace fathom::util {

class RunMeter {
 public:
  // A counter for one more machine; its address stays valid as long as the meter.
  std::atomic<uint64_t>* add_counter();
  // The instructions all machines executed so far (their counters' sum).
  uint64_t instructions() const;
  // What machine `machine` (0: the first) is doing now ("ecdh_p256_shared"); "" when idle.
  void set_activity(size_t machine, std::string what);
  // The machines' activities, by machine, joined with ", ".
  std::string activity() const;

 private:
  mutable std::mutex mutex_;
  std::deque<std::atomic<uint64_t>> counters_;
  std::map<size_t, std::string> activities_;
};

}  // namespace fathom::util
