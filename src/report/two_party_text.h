#pragma once
// The text section for operations that run two parties in one image (a TLS handshake's client
// and server, docs/TLS.md): an operation whose primitive share has both a "client" and a
// "server" group. Shared by the table and markdown writers.
#include <string>
#include <vector>

#include "model/run_result.h"

namespace fathom::report {

// One block per such operation and image, timed and with its KAT passed: a heading line
// ("<operation> in <configuration> on <board>: <median> cycles (<ms>)"), then each side's cycles
// and share, the other groups' shares largest first ("under: bignum 96.7%, ..."), the bytes of
// each direction and flight, and each side's peak stack and heap.
// Shares come from the simulator's call path (profile/primitive_share.h): cycles are the
// median times the share. Bytes and per-side memory are the operation's BYTES records with the
// names the TLS workloads report (client_to_server, flight<N>_<side>, <side>_peak_stack, ...);
// lines whose figures the operation does not report are left out.
std::vector<std::string> two_party_lines(const model::RunResult& run);

}  // namespace fathom::report
