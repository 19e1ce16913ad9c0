#pragma once
// The command-line front end: one file per subcommand, each registered here.
//
// Exit codes (docs/CLI.md): 0 success; 1 runtime failure (a KAT failed, an image faulted, a
// source could not be fetched); 2 usage or input error (unknown flag, suite, configuration or
// operation; malformed suite file); 3 `compare` found a regression above a --fail-above gate;
// 4 `ct` found a timing leak.
namespace fathom::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;
// `fathom compare --fail-above`: a figure got worse beyond the gate (docs/CLI.md).
inline constexpr int kExitRegression = 3;
// `fathom ct`: an operation's cycles differ between variants of its secret (docs/CT.md).
inline constexpr int kExitLeak = 4;

int run(int argc, char** argv);

}  // namespace fathom::cli
