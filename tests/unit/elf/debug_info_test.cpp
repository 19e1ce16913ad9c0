// elf::DebugInfo over the simulator test firmware (tests/fixtures/firmware, built with -g by
// tests/CMakeLists.txt): function symbols with their declarations, line lookups and inlined
// frames, the fallback for an image without DWARF, and the errors for files that are not
// 32-bit ARM images. Expected lines are looked up in the fixture's source, not hard-coded.
#include "elf/debug_info.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "util/subprocess.h"
#include "../test_paths.h"

namespace fathom::elf {
namespace {

namespace fs = std::filesystem;

const std::string kFirmwareDir = FATHOM_TEST_FIRMWARE_DIR;

fs::path fixture_elf() { return fs::path(kFirmwareDir) / "sim_fixture.elf"; }

fs::path fixture_source() {
  return fs::path(FATHOM_TEST_DATA_DIR).parent_path() / "fixtures" / "firmware" / "sim_fixture.c";
}

// The 1-based line of sim_fixture.c that contains `text`, or 0.
uint32_t source_line(const std::string& text) {
  std::ifstream in(fixture_source());
  std::string line;
  for (uint32_t n = 1; std::getline(in, line); ++n)
    if (line.find(text) != std::string::npos) return n;
  return 0;
}

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

class DebugInfoFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kFirmwareDir.empty()) GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time";
    ASSERT_TRUE(fs::exists(fixture_elf())) << fixture_elf() << " is missing";
  }
};

TEST_F(DebugInfoFixture, FunctionHasNameEntrySizeAndDeclaration) {
  auto info = DebugInfo::open(fixture_elf());
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_TRUE(info->has_dwarf());

  const FunctionInfo* f = nullptr;
  for (const auto& fn : info->functions())
    if (fn.name == "fault_write_flash") f = &fn;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->entry_address % 2, 0u) << "the Thumb bit must be cleared";
  EXPECT_GT(f->size_bytes, 0u);
  EXPECT_TRUE(ends_with(f->declaration.file, "sim_fixture.c")) << f->declaration.file;
  const uint32_t declared = source_line("void fault_write_flash(void)");
  ASSERT_NE(declared, 0u);
  EXPECT_EQ(f->declaration.line, declared);

  // Every address inside it, and no address past its end, belongs to it.
  EXPECT_EQ(info->function_at(f->entry_address), f);
  EXPECT_EQ(info->function_at(f->entry_address + f->size_bytes - 1), f);
  EXPECT_EQ(info->function_at(f->entry_address + 1), f);  // a Thumb-bit address too
  EXPECT_NE(info->function_at(f->entry_address + f->size_bytes), f);
  EXPECT_EQ(info->function_at(0x30000000u), nullptr);  // unmapped
}

TEST_F(DebugInfoFixture, LineAtAnAddressInsideAFunction) {
  auto info = DebugInfo::open(fixture_elf());
  ASSERT_TRUE(info) << info.error().message;
  const FunctionInfo* f = nullptr;
  for (const auto& fn : info->functions())
    if (fn.name == "fault_write_flash") f = &fn;
  ASSERT_NE(f, nullptr);
  // Its one statement: the store to flash, on the line after the declaration.
  const uint32_t store = source_line("*(volatile uint32_t *)(uintptr_t)&fixture_mode = 0xDEADBEEFu");
  ASSERT_NE(store, 0u);
  bool found_store = false;
  for (uint32_t a = f->entry_address; a < f->entry_address + f->size_bytes; a += 2) {
    const SourcePosition pos = info->line_at(a);
    ASSERT_TRUE(pos.known()) << "no line for " << a;
    EXPECT_TRUE(ends_with(pos.file, "sim_fixture.c")) << pos.file;
    EXPECT_GE(pos.line, f->declaration.line);
    EXPECT_LE(pos.line, store + 1);  // the closing brace at most
    found_store = found_store || pos.line == store;
  }
  EXPECT_TRUE(found_store);
  // Cached and uncached answers agree.
  EXPECT_EQ(info->line_at(f->entry_address), info->line_at(f->entry_address));
  // Far outside any code: unknown.
  EXPECT_EQ(info->line_at(0x30000000u), SourcePosition{});
}

TEST_F(DebugInfoFixture, InlinedCallHasFunctionAndCallSite) {
  auto info = DebugInfo::open(fixture_elf());
  ASSERT_TRUE(info) << info.error().message;
  // GCC inlines the static print_u32 into report (-O2); the call is "print_u32(cycles);".
  const FunctionInfo* report = nullptr;
  for (const auto& fn : info->functions())
    if (fn.name == "report") report = &fn;
  ASSERT_NE(report, nullptr);
  const uint32_t call_line = source_line("print_u32(cycles);");
  ASSERT_NE(call_line, 0u);
  size_t inlined = 0;
  for (uint32_t a = report->entry_address; a < report->entry_address + report->size_bytes;
       a += 2) {
    const auto chain = info->inline_chain(a);
    if (chain.empty()) continue;
    ++inlined;
    EXPECT_EQ(chain.front().function, "print_u32");
    EXPECT_EQ(chain.front().call_site.line, call_line);
    EXPECT_TRUE(ends_with(chain.front().call_site.file, "sim_fixture.c"))
        << chain.front().call_site.file;
  }
  EXPECT_GT(inlined, 0u) << "no address of report() lies in inlined code";
  EXPECT_TRUE(info->inline_chain(report->entry_address).empty());
}

TEST_F(DebugInfoFixture, WithoutDwarfUsesTheSymbolTable) {
  const fs::path stripped = fs::temp_directory_path() /
                            ("fathom_debug_info_test_" + std::to_string(::getpid()) + ".elf");
  auto out = util::run_process(
      {"arm-none-eabi-objcopy", "--strip-debug", fixture_elf().string(), stripped.string()});
  if (!out || out->exit_code != 0) GTEST_SKIP() << "arm-none-eabi-objcopy is not usable";
  auto info = DebugInfo::open(stripped);
  fs::remove(stripped);
  ASSERT_TRUE(info) << info.error().message;
  EXPECT_FALSE(info->has_dwarf());
  const FunctionInfo* f = nullptr;
  for (const auto& fn : info->functions())
    if (fn.name == "fault_write_flash") f = &fn;
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(info->function_at(f->entry_address + 2), f);
  EXPECT_EQ(f->declaration, SourcePosition{});
  EXPECT_EQ(info->line_at(f->entry_address), SourcePosition{});
  EXPECT_TRUE(info->inline_chain(f->entry_address).empty());
}

TEST(DebugInfoErrors, MissingFile) {
  auto info = DebugInfo::open("/nonexistent/fathom/image.elf");
  ASSERT_FALSE(info);
  EXPECT_NE(info.error().message.find("/nonexistent/fathom/image.elf"), std::string::npos);
}

TEST(DebugInfoErrors, NotAnElfFile) {
  const fs::path path = fs::temp_directory_path() /
                        ("fathom_debug_info_text_" + std::to_string(::getpid()) + ".elf");
  std::ofstream(path) << "this is not an ELF file\n";
  auto info = DebugInfo::open(path);
  fs::remove(path);
  ASSERT_FALSE(info);
  EXPECT_NE(info.error().message.find("not an ELF file"), std::string::npos)
      << info.error().message;
}

TEST(DebugInfoErrors, HostExecutableIsNotA32BitArmImage) {
  // This test program: a 64-bit x86-64 (or at least host) ELF.
  auto info = DebugInfo::open("/proc/self/exe");
  ASSERT_FALSE(info);
  EXPECT_NE(info.error().message.find("not a 32-bit"), std::string::npos)
      << info.error().message;
}

}  // namespace
}  // namespace fathom::elf
