#pragma once
// The live view of `fathom run` on a terminal (util::Progress's lines): one line per image
// being measured, redrawn twice a second and whenever an image starts, with what its simulated machines run, the
// instructions executed so far and, when an earlier measurement of the same image and
// parameters left its instruction count (pipeline/instruction_estimate.h), the share done and an
// ETA at the image's own rate so far (so each image of a `-j` run has its own).
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "util/progress.h"
#include "util/run_meter.h"

namespace fathom::pipeline {

struct LiveImage {
  std::string label;                // "[2/5] mbedtls on sim-m33"
  std::string line_key;             // its util::Progress line
  std::optional<uint64_t> expected;  // instructions of the last measurement
  std::chrono::steady_clock::time_point start;
  util::RunMeter meter;
};

// "[2/5] mbedtls on sim-m33: ecdh_p256_shared, 123.4 M of 610.7 M instructions (20%), ETA 0:21";
// without `expected`, the instructions alone; past it, "longer than the last run" instead of
// an ETA.
std::string live_line(const std::string& label, const std::string& activity, uint64_t done,
                      std::optional<uint64_t> expected, double elapsed_seconds);

// The images being measured now.
class LiveImages {
 public:
  void add(LiveImage* image);
  void remove(LiveImage* image);
  // Draws every image's line into `progress` (under the registry's lock, so a removed image is
  // never drawn again).
  void draw(util::Progress& progress);
  // Called after each add() (the ticker's redraw); empty: nothing.
  void on_add(std::function<void()> listener);

 private:
  std::mutex mutex_;
  std::vector<LiveImage*> images_;
  std::function<void()> listener_;
};

// Registers an image for the scope of its measurement.
class LiveRegistration {
 public:
  LiveRegistration(LiveImages& images, LiveImage* image) : images_(images), image_(image) {
    images_.add(image_);
  }
  ~LiveRegistration() { images_.remove(image_); }
  LiveRegistration(const LiveRegistration&) = delete;
  LiveRegistration& operator=(const LiveRegistration&) = delete;

 private:
  LiveImages& images_;
  LiveImage* image_;
};

// Redraws the live images every 500 ms, and at once when an image starts, while `progress` is
// live (a terminal); does nothing otherwise. stop() (or the destructor) ends it.
class LiveTicker {
 public:
  LiveTicker(util::Progress& progress, LiveImages& images);
  ~LiveTicker() { stop(); }
  LiveTicker(const LiveTicker&) = delete;
  LiveTicker& operator=(const LiveTicker&) = delete;
  void stop();

 private:
  std::mutex mutex_;
  std::condition_variable wake_;
  bool stopping_ = false;
  bool redraw_ = false;  // an image started: draw now
  LiveImages* images_ = nullptr;
  std::thread thread_;
};

}  // namespace fathom::pipeline
