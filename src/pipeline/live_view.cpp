#include "pipeline/live_view.h"

#include <fmt/core.h>

#include <algorithm>
#include <cmath>

namespace fathom::pipeline {
namespace {

std::string millions(uint64_t n) { return fmt::format("{:.1f} M", static_cast<double>(n) / 1e6); }

std::string duration(double seconds) {
  const auto s = static_cast<uint64_t>(std::llround(std::max(0.0, seconds)));
  if (s >= 3600) return fmt::format("{}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60);
  return fmt::format("{}:{:02}", s / 60, s % 60);
}

}  // namespace

std::string live_line(const std::string& label, const std::string& activity, uint64_t done,
                      std::optional<uint64_t> expected, double elapsed_seconds) {
  std::string out = label + ": " + (activity.empty() ? "starting" : activity);
  if (!expected) return out + fmt::format(", {} instructions", millions(done));
  out += fmt::format(", {} of {} instructions", millions(done), millions(*expected));
  if (done >= *expected) return out + " (longer than the last run)";
  out += fmt::format(" ({}%)", done * 100 / *expected);
  if (done == 0 || elapsed_seconds <= 0) return out;
  const double rate = static_cast<double>(done) / elapsed_seconds;
  return out + ", ETA " + duration(static_cast<double>(*expected - done) / rate);
}

void LiveImages::add(LiveImage* image) {
  std::function<void()> listener;
  {
    std::lock_guard lock(mutex_);
    images_.push_back(image);
    listener = listener_;
  }
  if (listener) listener();
}

void LiveImages::on_add(std::function<void()> listener) {
  std::lock_guard lock(mutex_);
  listener_ = std::move(listener);
}

void LiveImages::remove(LiveImage* image) {
  std::lock_guard lock(mutex_);
  images_.erase(std::remove(images_.begin(), images_.end(), image), images_.end());
}

void LiveImages::draw(util::Progress& progress) {
  std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  for (LiveImage* image : images_)
    progress.set_line(image->line_key,
                      live_line(image->label, image->meter.activity(), image->meter.instructions(),
                                image->expected,
                                std::chrono::duration<double>(now - image->start).count()));
}

LiveTicker::LiveTicker(util::Progress& progress, LiveImages& images) {
  if (!progress.live()) return;
  images_ = &images;
  images.on_add([this] {
    {
      std::lock_guard lock(mutex_);
      redraw_ = true;
    }
    wake_.notify_all();
  });
  thread_ = std::thread([this, &progress, &images] {
    std::unique_lock lock(mutex_);
    while (!stopping_) {
      wake_.wait_for(lock, std::chrono::milliseconds(500), [this] { return stopping_ || redraw_; });
      if (stopping_) break;
      redraw_ = false;
      lock.unlock();
      images.draw(progress);
      lock.lock();
    }
  });
}

void LiveTicker::stop() {
  if (images_ != nullptr) {
    images_->on_add(nullptr);
    images_ = nullptr;
  }
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

}  // namespace fathom::pipeline
