#include "profile/primitive_share.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

namespace fathom::profile {
namespace {

TEST(FunctionMatches, ExactNamesAndGlobs) {
  EXPECT_TRUE(function_matches("KeccakF1600_StatePermute", "KeccakF1600_StatePermute"));
  EXPECT_FALSE(function_matches("KeccakF1600_StatePermute", "KeccakF1600_StatePermuteX"));
  EXPECT_TRUE(function_matches("mbedtls_sha256*", "mbedtls_sha256"));
  EXPECT_TRUE(function_matches("mbedtls_sha256*", "mbedtls_sha256_update"));
  EXPECT_FALSE(function_matches("mbedtls_sha256*", "mbedtls_sha512_update"));
  EXPECT_TRUE(function_matches("PQCLEAN_MLKEM*_CLEAN_ntt", "PQCLEAN_MLKEM512_CLEAN_ntt"));
  EXPECT_FALSE(function_matches("PQCLEAN_MLKEM*_CLEAN_ntt", "PQCLEAN_MLKEM512_CLEAN_invntt"));
  EXPECT_TRUE(function_matches("mbedtls_sha?", "mbedtls_sha3"));
  EXPECT_FALSE(function_matches("mbedtls_sha?", "mbedtls_sha"));
  EXPECT_FALSE(function_matches("*", ""));
}

TEST(FunctionMatches, GccCloneSuffixesAreTheSameFunction) {
  EXPECT_TRUE(function_matches("ecp_mod_koblitz", "ecp_mod_koblitz.constprop.0"));
  EXPECT_TRUE(function_matches("mbedtls_entropy_func", "mbedtls_entropy_func.part.0"));
  EXPECT_TRUE(function_matches("keccak_absorb", "keccak_absorb.constprop.2"));
  EXPECT_TRUE(function_matches("mbedtls_mpi_*", "mbedtls_mpi_core_cond_swap.part.0"));
  EXPECT_FALSE(function_matches("ecp_mod", "ecp_mod_koblitz.constprop.0"));
  EXPECT_FALSE(function_matches("part", ".part.0"));
}

// A call tree with a group nested in itself, a group reached by two paths, one group under
// another, recursion through a non-group function, a clone suffix and an unnamed frame.
//
//   op_run                                   1000
//   +- mbedtls_sha256_update                  300  SHA-2
//   |  +- mbedtls_internal_sha256_process     250  SHA-2 (nested: counted once)
//   +- helper                                 400
//   |  +- mbedtls_mpi_mul_mpi                 150  bignum
//   |  |  +- mbedtls_mpi_core_mla             100  bignum (nested)
//   |  +- mbedtls_mpi_exp_mod.part.0          200  bignum
//   |     +- helper                           120  (recursion)
//   |        +- mbedtls_mpi_exp_mod.part.0     80  bignum (recursion: counted once)
//   +- mbedtls_internal_sha256_process         50  SHA-2 (second path)
//   +- <frame 7, no name>                      30
//   +- mbedtls_ctr_drbg_random                100  RNG
//      +- mbedtls_sha256_update                60  SHA-2 under RNG: counts for both
struct Fixture {
  std::vector<std::string> names = {"op_run",
                                    "mbedtls_sha256_update",
                                    "mbedtls_internal_sha256_process",
                                    "mbedtls_mpi_mul_mpi",
                                    "mbedtls_mpi_core_mla",
                                    "helper",
                                    "mbedtls_mpi_exp_mod.part.0",
                                    "",
                                    "mbedtls_ctr_drbg_random"};
  Profile profile;
  PrimitiveGroups groups = {
      {"SHA-2", {"mbedtls_sha256*", "mbedtls_internal_sha256_process"}},
      {"bignum", {"mbedtls_mpi_*"}},
      {"RNG", {"mbedtls_ctr_drbg_*"}},
      {"AES", {"mbedtls_aes_*"}},
      {"helpers", {"helper"}},
  };

  Fixture() {
    profile.total_cycles = 1000;
    // {frame, parent, inclusive cycles}
    const std::vector<std::tuple<uint32_t, int32_t, uint64_t>> tree = {
        {0, -1, 1000}, {1, 0, 300}, {2, 1, 250}, {5, 0, 400}, {3, 3, 150}, {4, 4, 100}, {6, 3, 200},
        {5, 6, 120},   {6, 7, 80},  {2, 0, 50},  {7, 0, 30},  {8, 0, 100}, {1, 11, 60}};
    for (const auto& [frame, parent, cycles] : tree) {
      CallNode n;
      n.frame = frame;
      n.parent = parent;
      n.calls = 1;
      n.inclusive_cycles = cycles;
      if (parent >= 0)
        profile.nodes[static_cast<size_t>(parent)].children.push_back(
            static_cast<uint32_t>(profile.nodes.size()));
      profile.nodes.push_back(n);
    }
  }
};

TEST(PrimitiveShare, CountsEachCycleOncePerGroupThroughNestingAndRecursion) {
  Fixture f;
  const auto share = primitive_share(f.profile, f.names, f.groups);
  ASSERT_EQ(share.size(), 5u);
  EXPECT_DOUBLE_EQ(share.at("SHA-2"), 0.41);   // 300 + 50 + 60
  EXPECT_DOUBLE_EQ(share.at("bignum"), 0.35);  // 150 + 200
  EXPECT_DOUBLE_EQ(share.at("RNG"), 0.10);
  EXPECT_DOUBLE_EQ(share.at("AES"), 0.0);       // defined, never ran: present as 0
  EXPECT_DOUBLE_EQ(share.at("helpers"), 0.40);  // the inner helper is inside the outer one
}

TEST(PrimitiveCalls, CountsOutermostEntriesOnly) {
  Fixture f;
  // Node 1 (sha256_update) entered 3 times, its nested process 7 times: SHA-2 counts the
  // outermost entries only (3 + the second path's 1 + the one under RNG).
  f.profile.nodes[1].calls = 3;
  f.profile.nodes[2].calls = 7;
  f.profile.nodes[6].calls = 2;  // mbedtls_mpi_exp_mod.part.0 under helper, twice
  const auto calls = primitive_calls(f.profile, f.names, f.groups);
  EXPECT_EQ(calls.at("SHA-2"), 3u + 1u + 1u);
  EXPECT_EQ(calls.at("bignum"), 1u + 2u);  // mul_mpi once, exp_mod twice; nested ones not
  EXPECT_EQ(calls.at("RNG"), 1u);
  EXPECT_EQ(calls.at("AES"), 0u);
  EXPECT_EQ(calls.at("helpers"), 1u);  // the recursive inner helper is not an outermost call
  const auto cycles = primitive_cycles(f.profile, f.names, f.groups);
  EXPECT_EQ(cycles.at("SHA-2"), 410u);
  EXPECT_EQ(cycles.at("bignum"), 350u);
}

TEST(PrimitiveShare, DoesNotDependOnNodeOrder) {
  Fixture f;
  // Reverse the node array (children before parents) and remap the indices.
  Profile reversed = f.profile;
  const auto n = static_cast<int32_t>(f.profile.nodes.size());
  std::reverse(reversed.nodes.begin(), reversed.nodes.end());
  for (auto& node : reversed.nodes) {
    if (node.parent >= 0) node.parent = n - 1 - node.parent;
    for (auto& c : node.children) c = static_cast<uint32_t>(n - 1) - c;
  }
  EXPECT_EQ(primitive_share(reversed, f.names, f.groups),
            primitive_share(f.profile, f.names, f.groups));
}

TEST(PrimitiveShare, RootInTheGroupIsTheWholeProfile) {
  Fixture f;
  const auto share = primitive_share(f.profile, f.names, {{"everything", {"op_*"}}});
  EXPECT_DOUBLE_EQ(share.at("everything"), 1.0);
}

TEST(PrimitiveShare, EmptyProfileAndMissingNamesGiveZero) {
  Fixture f;
  Profile empty;
  const auto none = primitive_share(empty, f.names, f.groups);
  ASSERT_EQ(none.size(), f.groups.size());
  for (const auto& [group, share] : none) EXPECT_EQ(share, 0.0) << group;
  // No names at all: frames cannot be matched.
  const auto unnamed = primitive_share(f.profile, {}, f.groups);
  for (const auto& [group, share] : unnamed) EXPECT_EQ(share, 0.0) << group;
  EXPECT_TRUE(primitive_share(f.profile, f.names, {}).empty());
}

TEST(PrimitiveShare, DamagedParentLinksNeitherHangNorOverflow) {
  Fixture f;
  // A parent loop (1 <-> 2), a parent out of range and a self-parent.
  f.profile.nodes[1].parent = 2;
  f.profile.nodes[3].parent = 1000;
  f.profile.nodes[10].parent = 10;
  const auto share = primitive_share(f.profile, f.names, f.groups);
  for (const auto& [group, s] : share) {
    EXPECT_GE(s, 0.0) << group;
    EXPECT_LE(s, 1.0) << group;
  }
  // Node 1 and 2 are both SHA-2 and now one cycle: whichever is cut to a root carries its
  // own inclusive cycles, the other nests under it.
  EXPECT_GT(share.at("SHA-2"), 0.0);
}

TEST(PrimitiveShare, ClampsInconsistentTotals) {
  Fixture f;
  f.profile.total_cycles = 100;  // smaller than the group's cycles: a damaged profile
  EXPECT_DOUBLE_EQ(primitive_share(f.profile, f.names, f.groups).at("SHA-2"), 1.0);
}

}  // namespace
}  // namespace fathom::profile
