#include "util/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <cstring>

extern char** environ;

namespace fathom::util {
namespace {

// Closes a file descriptor on scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }
  int get() const { return fd_; }
  void reset() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }
  int* out() { return &fd_; }

 private:
  int fd_;
};

bool make_pipe(Fd& read_end, Fd& write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  *read_end.out() = fds[0];
  *write_end.out() = fds[1];
  return true;
}

std::string describe(const std::vector<std::string>& argv) {
  return argv.empty() ? std::string("(empty command)") : argv.front();
}

}  // namespace

Result<ProcessOutput> run_process(const std::vector<std::string>& argv,
                                  const ProcessOptions& options) {
  if (argv.empty()) return fail("run_process: empty command line");
  if (!options.working_directory.empty() &&
      !std::filesystem::is_directory(options.working_directory)) {
    return fail("cannot run " + describe(argv) + ": working directory " +
                options.working_directory.string() + " does not exist");
  }

  Fd out_read, out_write, err_read, err_write;
  if (!make_pipe(out_read, out_write) || !make_pipe(err_read, err_write)) {
    return fail("cannot run " + describe(argv) + ": pipe: " + std::strerror(errno));
  }

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&actions, out_write.get(), STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_write.get(), STDERR_FILENO);
  if (!options.working_directory.empty()) {
    posix_spawn_file_actions_addchdir_np(&actions, options.working_directory.c_str());
  }

  std::vector<char*> c_argv;
  c_argv.reserve(argv.size() + 1);
  for (const auto& arg : argv) c_argv.push_back(const_cast<char*>(arg.c_str()));
  c_argv.push_back(nullptr);

  pid_t pid = 0;
  const int spawn_error =
      ::posix_spawnp(&pid, c_argv[0], &actions, nullptr, c_argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  out_write.reset();
  err_write.reset();
  if (spawn_error != 0) {
    return fail("cannot run " + describe(argv) + ": " + std::strerror(spawn_error) +
                (spawn_error == ENOENT ? " (is it installed? run scripts/setup.sh)" : ""));
  }

  // Drain both pipes together so a child that fills one of them never blocks.
  ProcessOutput output;
  std::array<pollfd, 2> fds{pollfd{out_read.get(), POLLIN, 0}, pollfd{err_read.get(), POLLIN, 0}};
  std::array<std::string*, 2> sinks{&output.stdout_text, &output.stderr_text};
  int open_streams = 2;
  char buffer[16384];
  using Clock = std::chrono::steady_clock;
  const auto deadline = options.timeout ? std::optional(Clock::now() + *options.timeout)
                                        : std::nullopt;
  while (open_streams > 0) {
    int wait_ms = -1;
    if (deadline && !output.timed_out) {
      const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline -
                                                                              Clock::now());
      if (left.count() <= 0) {
        ::kill(pid, SIGKILL);  // its pipes close when it dies; keep draining them
        output.timed_out = true;
      } else {
        wait_ms = static_cast<int>(std::min<long long>(left.count() + 1, 60'000));
      }
    }
    const int ready = ::poll(fds.data(), fds.size(), wait_ms);
    if (ready < 0) {
      if (errno == EINTR) continue;
      break;
    }
    if (ready == 0) continue;
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || fds[i].revents == 0) continue;
      const ssize_t n = ::read(fds[i].fd, buffer, sizeof buffer);
      if (n > 0) {
        sinks[i]->append(buffer, static_cast<std::size_t>(n));
      } else if (n == 0 || errno != EINTR) {
        fds[i].fd = -1;  // end of stream (or a read error: nothing more to get)
        --open_streams;
      }
    }
  }

  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return fail("waiting for " + describe(argv) + ": " + std::strerror(errno));
  }
  if (WIFEXITED(status)) {
    output.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    output.exit_code = 128 + WTERMSIG(status);
  }
  return output;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.size();
  while (end > 0) {
    const std::size_t newline = text.rfind('\n', end - 1);
    const std::size_t begin = newline == std::string::npos ? 0 : newline + 1;
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") != std::string::npos) return line;
    if (newline == std::string::npos) break;
    end = newline;
  }
  return "";
}

}  // namespace fathom::util
