#include "util/subprocess.h"

#include <gtest/gtest.h>

namespace fathom::util {
namespace {

TEST(RunProcess, CapturesBothStreamsAndExitCode) {
  auto out = run_process({"sh", "-c", "echo to-out; echo to-err >&2; exit 3"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->exit_code, 3);
  EXPECT_EQ(out->stdout_text, "to-out\n");
  EXPECT_EQ(out->stderr_text, "to-err\n");
}

TEST(RunProcess, AChildPastItsTimeoutIsKilled) {
  // `exec sleep` so that the killed process is the one holding the pipes.
  auto out = run_process({"sh", "-c", "echo started; exec sleep 600"},
                         {.timeout = std::chrono::milliseconds(200)});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_TRUE(out->timed_out);
  EXPECT_EQ(out->exit_code, 128 + 9);
  EXPECT_EQ(out->stdout_text, "started\n");
}

TEST(RunProcess, AChildWithinItsTimeoutIsNotKilled) {
  auto out = run_process({"sh", "-c", "exit 4"}, {.timeout = std::chrono::minutes(10)});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_FALSE(out->timed_out);
  EXPECT_EQ(out->exit_code, 4);
}

TEST(RunProcess, ArgumentsAreNotInterpretedByAShell) {
  auto out = run_process({"printf", "%s|", "a b", "$HOME", "*"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->stdout_text, "a b|$HOME|*|");
}

TEST(RunProcess, LargeOutputOnBothStreamsDoesNotDeadlock) {
  // 1 MiB on each stream: far beyond a pipe buffer, so both must be drained together.
  auto out = run_process({"sh", "-c", "head -c 1048576 /dev/zero; head -c 1048576 /dev/zero >&2"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->stdout_text.size(), 1048576u);
  EXPECT_EQ(out->stderr_text.size(), 1048576u);
}

TEST(RunProcess, RunsInTheGivenWorkingDirectory) {
  auto out = run_process({"pwd"}, {.working_directory = "/"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->stdout_text, "/\n");
}

TEST(RunProcess, StdinIsEmpty) {
  auto out = run_process({"cat"});
  ASSERT_TRUE(out) << out.error().message;
  EXPECT_EQ(out->exit_code, 0);
  EXPECT_EQ(out->stdout_text, "");
}

TEST(RunProcess, MissingProgramIsAnError) {
  auto out = run_process({"fathom-no-such-program-xyz"});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("fathom-no-such-program-xyz"), std::string::npos);
}

TEST(RunProcess, MissingWorkingDirectoryIsAnError) {
  auto out = run_process({"true"}, {.working_directory = "/nonexistent/dir"});
  ASSERT_FALSE(out);
  EXPECT_NE(out.error().message.find("/nonexistent/dir"), std::string::npos);
}

TEST(RunProcess, EmptyCommandIsAnError) { EXPECT_FALSE(run_process({})); }

TEST(LastLine, SkipsTrailingBlankLines) {
  EXPECT_EQ(last_line("W: warning\nE: the real problem\n\n  \n"), "E: the real problem");
  EXPECT_EQ(last_line("only"), "only");
  EXPECT_EQ(last_line("a\r\nb\r\n"), "b");
  EXPECT_EQ(last_line(""), "");
  EXPECT_EQ(last_line("\n\n"), "");
}

}  // namespace
}  // namespace fathom::util
