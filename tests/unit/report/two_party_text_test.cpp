// The section for two parties in one image (report/two_party_text.h): each side's cycles from
// its share, the other groups, bytes per direction and flight, per-side memory; only for a timed
// operation whose KAT passed and whose share has both sides.
#include "report/two_party_text.h"

#include <gtest/gtest.h>

#include <string>

#include "run_fixture.h"

namespace fathom::report {
namespace {

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

model::RunResult handshake_run() {
  model::RunResult run = fixture::make_run(1);
  auto op = fixture::passed_op("tls13_handshake_p256_aes128", {1'000'000, 1'000'000});
  op.primitive_share = {{"client", 0.7}, {"server", 0.25}, {"bignum", 0.9},
                        {"chain verify", 0.24}, {"Finished", 0.0004}};
  op.object_bytes = {{"client_to_server", 302},  {"server_to_client", 906},
                     {"flight1_client", 227},    {"flight2_server", 906},
                     {"flight3_client", 75},     {"client_peak_stack", 3032},
                     {"server_peak_stack", 3080}, {"client_peak_heap", 19748},
                     {"server_peak_heap", 17900}};
  run.images[0].operations.push_back(op);
  return run;
}

TEST(TwoPartyText, SplitsTheMedianBySideAndListsGroupsBytesAndMemory) {
  const std::string text = joined(two_party_lines(handshake_run()));
  EXPECT_NE(text.find("  tls13_handshake_p256_aes128 in mbedtls on sim-m33: 1,000,000 cycles "
                      "(7.812 ms)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    client 700,000 cycles (70.0%), server 250,000 (25.0%)"),
            std::string::npos)
      << text;
  // Largest first; a group under 0.1% of the cycles is left out.
  EXPECT_NE(text.find("    under: bignum 90.0%, chain verify 24.0% (groups nest"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("Finished"), std::string::npos) << text;
  EXPECT_NE(text.find("    bytes: client to server 302, server to client 906; flights: client "
                      "227, server 906, client 75"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("    peak stack: client 3,032, server 3,080 B; peak heap: client 19,748, "
                      "server 17,900 B"),
            std::string::npos)
      << text;
  // Operations without both sides are not in the section.
  EXPECT_EQ(text.find("sha256_1k"), std::string::npos) << text;
}

TEST(TwoPartyText, LeavesOutFailedAndOneSidedOperations) {
  model::RunResult run = handshake_run();
  run.images[0].operations.back().kat = model::KatStatus::kFailed;
  EXPECT_TRUE(two_party_lines(run).empty());
  run = handshake_run();
  run.images[0].operations.back().primitive_share.erase("server");
  EXPECT_TRUE(two_party_lines(run).empty());
  // And the run table carries the section when there is one.
  EXPECT_NE(fixture::wide_table(handshake_run()).find("two parties in one image"),
            std::string::npos);
}

}  // namespace
}  // namespace fathom::report
