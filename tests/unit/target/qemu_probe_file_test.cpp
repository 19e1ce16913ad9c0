#include "target/qemu_probe_file.h"

#include <gtest/gtest.h>

namespace fathom::target {
namespace {

TEST(QemuProbeFile, ReadsProbesAndTotals) {
  auto p = parse_qemu_probes("fathom-qemu-probes 1\nprobe 10 0\nprobe 13 0\nprobe 900 57\n"
                             "total 12345 400\n");
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->probes.size(), 3u);
  EXPECT_EQ(p->probes[2].instructions, 900u);
  EXPECT_EQ(p->probes[2].console_offset, 57u);
  EXPECT_EQ(p->total_instructions, 12345u);
  EXPECT_EQ(p->console_bytes, 400u);
}

TEST(QemuProbeFile, NoProbesIsValid) {
  auto p = parse_qemu_probes("fathom-qemu-probes 1\ntotal 7 0\n");
  ASSERT_TRUE(p) << p.error().message;
  EXPECT_TRUE(p->probes.empty());
  EXPECT_EQ(p->total_instructions, 7u);
}

void expect_error(const std::string& text, const std::string& fragment) {
  auto p = parse_qemu_probes(text);
  ASSERT_FALSE(p) << "accepted: " << text;
  EXPECT_NE(p.error().message.find(fragment), std::string::npos) << p.error().message;
}

TEST(QemuProbeFile, RejectsDamagedFiles) {
  expect_error("", "empty");
  expect_error("fathom-qemu-probes 3\ntotal 1 1\n", "header");
  expect_error("fathom-qemu-probes 1\nprobe 10 0\n", "no total line");
  expect_error("fathom-qemu-probes 1\nprobe 10\ntotal 20 0\n", "line 2");
  expect_error("fathom-qemu-probes 1\nprobe 10 x\ntotal 20 0\n", "line 2");
  expect_error("fathom-qemu-probes 1\nprobe -1 0\ntotal 20 0\n", "line 2");
  expect_error("fathom-qemu-probes 1\nprobe 20 0\nprobe 10 0\ntotal 30 0\n", "backwards");
  expect_error("fathom-qemu-probes 1\nprobe 20 5\nprobe 30 4\ntotal 30 5\n", "backwards");
  expect_error("fathom-qemu-probes 1\nprobe 20 5\ntotal 10 5\n", "below the last probe");
  expect_error("fathom-qemu-probes 1\ntotal 10 5\nprobe 20 5\n", "after the total");
  expect_error("fathom-qemu-probes 1\nerror out of memory for probes\ntotal 1 1\n",
               "plugin reported an error");
  expect_error("fathom-qemu-probes 1\nprobe 1 2 3\ntotal 1 2\n", "line 2");
  expect_error("fathom-qemu-probes 1\nstat blocks 3\ntotal 1 2\n", "line 2");
  // Version 2 (the engine) has three numbers per probe and total.
  expect_error("fathom-qemu-probes 2\nprobe 1 2\ntotal 1 2 3\n", "line 2");
  expect_error("fathom-qemu-probes 2\nprobe 1 2 3\ntotal 1 2\n", "line 3");
  expect_error("fathom-qemu-probes 2\nprobe 1 2 4294967296\ntotal 1 2 3\n", "32 bits");
  expect_error("fathom-qemu-probes 2\nstat blocks\ntotal 1 2 3\n", "stat <name> <value>");
}

TEST(QemuProbeFile, VersionTwoCarriesCycles) {
  auto p = parse_qemu_probes("fathom-qemu-probes 2\nprobe 10 0 2827\nprobe 11 0 2829\n"
                             "stat model cortex-m33/2 ws=0\nstat unplaced 0\n"
                             "total 12345 400 99999\n");
  ASSERT_TRUE(p) << p.error().message;
  ASSERT_EQ(p->probes.size(), 2u);
  EXPECT_EQ(p->probes[1].instructions, 11u);
  EXPECT_EQ(p->probes[1].cyccnt, 2829u);
  EXPECT_EQ(p->total_cycles, 99999u);
  ASSERT_EQ(p->stats.size(), 2u);
  EXPECT_EQ(p->stats[0].first, "model");
  EXPECT_EQ(p->stats[0].second, "cortex-m33/2 ws=0");
  // The engine's memory watch: one line per operation execution.
  auto w = parse_qemu_probes("fathom-qemu-probes 2\nwatch sha256_1k 268435800 1 872 268436000 0 "
                             "2136 3192 2\ntotal 1 0 2\n");
  ASSERT_TRUE(w) << w.error().message;
  ASSERT_EQ(w->executions.size(), 1u);
  EXPECT_EQ(w->executions[0].operation, "sha256_1k");
  EXPECT_TRUE(w->executions[0].returned);
  EXPECT_EQ(w->executions[0].peak_stack_bytes, 872u);
  EXPECT_EQ(w->executions[0].heap_peak_bytes, 3192u);
  EXPECT_EQ(w->executions[0].allocations, 2u);
  expect_error("fathom-qemu-probes 2\nwatch sha256_1k 1 2 872 1 0 0 0 2\ntotal 1 0 2\n",
               "returned 0|1");
  expect_error("fathom-qemu-probes 2\nwatch sha256_1k 1 1 872\ntotal 1 0 2\n", "watch");
  expect_error("fathom-qemu-probes 1\nwatch a 1 1 1 1 1 1 1 1\ntotal 1 0\n", "line 2");

  // The engine's primitive-share tracker: tab-separated, hex floats.
  auto sh = parse_qemu_probes("fathom-qemu-probes 2\nshare\tecdh_p256_keygen\tbignum\t0x1.f8p-1\t"
                              "0x1.94ap+12\nshare\tecdh_p256_keygen\tSHA 2\t0\t0\ntotal 1 0 2\n");
  ASSERT_TRUE(sh) << sh.error().message;
  EXPECT_EQ(sh->shares.at("ecdh_p256_keygen").at("bignum").first, 0.984375);
  EXPECT_EQ(sh->shares.at("ecdh_p256_keygen").at("bignum").second, 6474.0);
  EXPECT_EQ(sh->shares.at("ecdh_p256_keygen").at("SHA 2").first, 0.0);
  expect_error("fathom-qemu-probes 2\nshare\top\tg\t1.5\t0\ntotal 1 0 2\n", "share 0..1");
  expect_error("fathom-qemu-probes 2\nshare\top\tg\t0.5\ntotal 1 0 2\n", "share");
  expect_error("fathom-qemu-probes 2\nshare\top\tg\tnan\t0\ntotal 1 0 2\n", "share");

  // Version 1 has no cycles.
  auto v1 = parse_qemu_probes("fathom-qemu-probes 1\nprobe 10 0\ntotal 12 0\n");
  ASSERT_TRUE(v1);
  EXPECT_FALSE(v1->probes[0].cyccnt);
  EXPECT_FALSE(v1->total_cycles);
}

}  // namespace
}  // namespace fathom::target
