// elf::attribute_sizes on a small map file written in the shape GNU ld 2.40 prints (wrapped
// long section names, fill, COMMON, output sections without inputs, debug sections after
// OUTPUT), and attribute_image_size on the simulator test firmware's real map
// (tests/CMakeLists.txt links it with -Wl,-Map).
#include "elf/size_attribution.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>

#include "elf/elf_image.h"
#include "../test_paths.h"

namespace fathom::elf {
namespace {

// Sizes: .text 0x200, .rodata 0x100, .ARM.exidx 0x8, .data 0x8, .bss 0x40.
constexpr std::string_view kMap = R"(Archive member included to satisfy reference by file (symbol)

/usr/lib/arm-none-eabi/lib/thumb/libc_nano.a(libc_a-memcpy.o)
                              obj/firmware_harness_fathom_harness_c.o (memcpy)

Discarded input sections

 .text          0x00000000        0x0 obj/firmware_harness_fathom_harness_c.o
 .text.unused   0x00000000       0x99 obj/firmware_harness_fathom_harness_c.o

Memory Configuration

Name             Origin             Length             Attributes
FLASH            0x00000000         0x00100000         xr
RAM              0x20000000         0x00040000         xrw
*default*        0x00000000         0xffffffff

Linker script and memory map

LOAD obj/firmware_harness_fathom_harness_c.o
START GROUP
LOAD /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a
END GROUP
                0x00008000                __fathom_stack_bytes = 0x8000

.text           0x00000000      0x200
 *(.vectors)
 .vectors       0x00000000       0x40 obj/firmware_boards_sim-m33____common_cortex_m_startup_c.o
                0x00000000                fathom_vectors
 *(.text .text.*)
 .text.main     0x00000040       0x60 obj/firmware_harness_fathom_harness_c.o
                0x00000040                main
 .text.mbedtls_sha256_update_with_a_long_name
                0x000000a0       0x80 /cache/lib-mbedtls-0123/libmbedtls.a(library_sha256_c.o)
                0x000000a0                mbedtls_sha256_update_with_a_long_name
 .text.mbedtls_hardware_poll
                0x00000120       0x10 obj/firmware_libs_mbedtls_entropy_hardware_alt_c.o
 .text.sha256_run
                0x00000130       0x20 obj/firmware_workloads_mbedtls_sha256_c.o
 *fill*         0x00000150        0x4 
 .text          0x00000154       0x30 /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a(_udivsi3.o)
 .text.memcpy   0x00000184       0x20 /usr/lib/arm-none-eabi/lib/thumb/libc_nano.a(libc_a-memcpy.o)
 .text          0x000001a4       0x14 /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/crtbegin.o

.rodata         0x00000200      0x100
 *(.rodata .rodata.*)
 .rodata.K      0x00000200       0xf0 /cache/lib-mbedtls-0123/libmbedtls.a(library_sha256_c.o)
                0x000002f0                        __start_fathom_ops = .

.ARM.extab
 *(.ARM.extab* .gnu.linkonce.armextab.*)

.ARM.exidx      0x00000300        0x8
 .ARM.exidx     0x00000300        0x8 /usr/lib/gcc/arm-none-eabi/12.2.1/thumb/libgcc.a(_udivmoddi4.o)

.stack          0x20000000     0x8000
 *fill*         0x20000000     0x8000 

.data           0x20008000        0x8 load address 0x00000308
 .data.brk      0x20008000        0x4 obj/firmware_boards_sim-m33____common_cortex_m_startup_c.o
 .data          0x20008004        0x4 /usr/lib/arm-none-eabi/lib/thumb/libc_nano.a(lib_a-impure.o)

.bss            0x20008008       0x40 load address 0x00000310
 .bss.state     0x20008008       0x20 obj/firmware_harness_fathom_harness_c.o
 COMMON         0x20008028       0x10 /cache/lib-mbedtls-0123/libmbedtls.a(library_platform_c.o)
OUTPUT(image.elf elf32-littlearm)
LOAD linker stubs

.debug_info     0x00000000     0x1000
 .debug_info    0x00000000     0x1000 obj/firmware_harness_fathom_harness_c.o
)";

std::vector<OutputSection> sections() {
  return {{".text", 0x200, SectionKind::kText},
          {".rodata", 0x100, SectionKind::kRodata},
          {".ARM.exidx", 0x8, SectionKind::kRodata},
          {".data", 0x8, SectionKind::kData},
          {".bss", 0x40, SectionKind::kBss}};
}

SizeBreakdown sum_of_components(const SizeAttribution& a) {
  SizeBreakdown sum;
  for (const auto& c : a.components) sum += c.size;
  return sum;
}

SizeBreakdown sizes(uint64_t text, uint64_t rodata, uint64_t data, uint64_t bss) {
  SizeBreakdown b;
  b.text_bytes = text;
  b.rodata_bytes = rodata;
  b.data_bytes = data;
  b.bss_bytes = bss;
  return b;
}

TEST(SizeAttribution, ComponentsOfASyntheticMap) {
  auto a = attribute_sizes(kMap, "image.map", sections());
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(a->total, sizes(0x200, 0x108, 0x8, 0x40));
  EXPECT_EQ(sum_of_components(*a), a->total);

  auto size_of = [&](const std::string& name) {
    const ComponentSize* c = a->find(name);
    return c ? c->size : SizeBreakdown{};
  };
  EXPECT_EQ(size_of("startup"), sizes(0x40, 0, 4, 0));
  EXPECT_EQ(size_of("harness"), sizes(0x60, 0, 0, 0x20));
  // The library archive plus its glue in firmware/libs/mbedtls.
  EXPECT_EQ(size_of("mbedtls"), sizes(0x80 + 0x10, 0xf0, 0, 0x10));
  EXPECT_EQ(size_of("workloads"), sizes(0x20, 0, 0, 0));
  EXPECT_EQ(size_of("libgcc"), sizes(0x30 + 0x14, 0x8, 0, 0));  // libgcc.a and crtbegin.o
  EXPECT_EQ(size_of("libc"), sizes(0x20, 0, 4, 0));
  // Fill, the end of .rodata after the last input and the unlisted end of .bss.
  EXPECT_EQ(size_of("other"), sizes(0x200 - 0x1b4, 0x10, 0, 0x10));
  EXPECT_EQ(a->find("libm"), nullptr);  // nothing from it: not listed
  EXPECT_EQ(a->stack_reserve_bytes, 0u);

  // Largest flash first.
  for (size_t i = 1; i < a->components.size(); ++i)
    EXPECT_GE(a->components[i - 1].size.flash_bytes(), a->components[i].size.flash_bytes());
}

TEST(SizeAttribution, ParsesWrappedNamesAndSkipsTheDiscardedPart) {
  auto inputs = parse_map_file(kMap, "image.map");
  ASSERT_TRUE(inputs) << inputs.error().message;
  const MapInputSection* wrapped = nullptr;
  for (const auto& in : *inputs) {
    EXPECT_NE(in.name, ".text.unused") << "a discarded section was read";
    if (in.name == ".text.mbedtls_sha256_update_with_a_long_name") wrapped = &in;
  }
  ASSERT_NE(wrapped, nullptr);
  EXPECT_EQ(wrapped->output_section, ".text");
  EXPECT_EQ(wrapped->address, 0xa0u);
  EXPECT_EQ(wrapped->size_bytes, 0x80u);
  EXPECT_EQ(wrapped->file, "/cache/lib-mbedtls-0123/libmbedtls.a(library_sha256_c.o)");
  EXPECT_EQ(inputs->back().output_section, ".debug_info");
}

TEST(SizeAttribution, MalformedNumberNamesTheLine) {
  std::string map(kMap);
  const std::string good = " .text.main     0x00000040       0x60";
  const size_t at = map.find(good);
  ASSERT_NE(at, std::string::npos);
  map.replace(at, good.size(), " .text.main     0x00000040       0x6z");
  const size_t line = 1 + static_cast<size_t>(std::count(map.begin(), map.begin() + at, '\n'));
  auto a = attribute_sizes(map, "image.map", sections());
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("image.map:" + std::to_string(line) + ":"), std::string::npos)
      << a.error().message;
  EXPECT_NE(a.error().message.find("'0x6z'"), std::string::npos) << a.error().message;
}

TEST(SizeAttribution, OverlongNumberIsMalformed) {
  std::string map(kMap);
  const std::string good = "0x20008028       0x10";
  const size_t at = map.find(good);
  ASSERT_NE(at, std::string::npos);
  map.replace(at, good.size(), "0x20008028       0x100000000000000000");
  auto a = attribute_sizes(map, "image.map", sections());
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("malformed number"), std::string::npos) << a.error().message;
}

TEST(SizeAttribution, MapOfAnotherLinkIsAnError) {
  auto small = sections();
  small[0].size_bytes = 0x100;  // the map puts 0x1b4 bytes into .text
  auto a = attribute_sizes(kMap, "image.map", small);
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find(".text"), std::string::npos) << a.error().message;
}

TEST(SizeAttribution, MergedStringsAreCountedOnce) {
  // GNU ld lists a mergeable string section at its size before merging, and one merged into an
  // earlier one at that one's address: the PQClean and TLS images' maps put more bytes into
  // .rodata than the image has when these are summed. Here the two objects' strings merge
  // into 0x10 bytes (.rodata.K starts right after them).
  std::string map(kMap);
  const std::string k = " .rodata.K      0x00000200       0xf0";
  const size_t at = map.find(k);
  ASSERT_NE(at, std::string::npos);
  map.replace(at, k.size(),
              " .rodata.str1.4\n"
              "                0x00000200        0xc obj/firmware_workloads_mbedtls_sha256_c.o\n"
              " .rodata.str1.4\n"
              "                0x00000200       0x14 obj/firmware_harness_fathom_harness_c.o\n"
              " .rodata.K      0x00000210       0xf0");
  auto a = attribute_sizes(map, "image.map", sections());
  ASSERT_TRUE(a) << a.error().message;
  EXPECT_EQ(sum_of_components(*a), a->total);
  auto rodata_of = [&](const std::string& name) {
    const ComponentSize* c = a->find(name);
    return c ? c->size.rodata_bytes : 0;
  };
  EXPECT_EQ(rodata_of("workloads"), 0xcu);  // placed first
  EXPECT_EQ(rodata_of("harness"), 0x4u);    // what its strings add, up to .rodata.K
  EXPECT_EQ(rodata_of("mbedtls"), 0xf0u);
  EXPECT_EQ(rodata_of("libgcc"), 0x8u);     // .ARM.exidx
  EXPECT_EQ(rodata_of("other"), 0u);        // every byte of .rodata is an input's
}

TEST(SizeAttribution, TextWithoutAMemoryMapIsAnError) {
  auto a = attribute_sizes("just some text\n.text 0x0 0x10 a.o\n", "notes.txt", sections());
  ASSERT_FALSE(a);
  EXPECT_NE(a.error().message.find("not a GNU ld map file"), std::string::npos);
  // Truncated in the middle of a wrapped line: no crash, nothing attributed past it.
  std::string truncated(kMap.substr(0, kMap.find(".text.mbedtls_sha256_update") + 10));
  auto t = attribute_sizes(truncated, "image.map", sections());
  ASSERT_TRUE(t) << t.error().message;
  EXPECT_EQ(sum_of_components(*t), t->total);
}

TEST(SizeAttribution, ComponentNames) {
  const std::vector<std::string> libs = {"mbedtls", "pqclean"};
  EXPECT_EQ(component_of("obj/firmware_harness_fathom_heap_c.o", libs), "harness");
  EXPECT_EQ(component_of("/repo/firmware/harness/fathom_heap.o", libs), "harness");
  EXPECT_EQ(component_of("obj/firmware_boards_sim-m33____common_sim_console_c.o", libs),
            "startup");
  EXPECT_EQ(component_of("obj/firmware_workloads_pqclean_mlkem_c.o", libs), "workloads");
  EXPECT_EQ(component_of("obj/firmware_libs_pqclean_randombytes_c.o", libs), "pqclean");
  EXPECT_EQ(component_of("/b/libmbedcrypto.a(aes.o)", libs), "mbedcrypto");
  EXPECT_EQ(component_of("/usr/lib/libc_nano.a(lib_a-memcpy.o)", libs), "libc");
  EXPECT_EQ(component_of("/usr/lib/libnosys.a(sbrk.o)", libs), "libc");
  EXPECT_EQ(component_of("/usr/lib/crt0.o", libs), "libc");
  EXPECT_EQ(component_of("/usr/lib/libgcc.a(_udivsi3.o)", libs), "libgcc");
  EXPECT_EQ(component_of("/usr/lib/crtend.o", libs), "libgcc");
  EXPECT_EQ(component_of("/usr/lib/libm.a(s_sin.o)", libs), "libm");
  EXPECT_EQ(component_of("/tmp/ccAbc123.o", libs), "other");
  EXPECT_EQ(component_of("linker stubs", libs), "other");
  EXPECT_EQ(component_of("(weird)", libs), "other");
}

// The real map of the test firmware: the components add up to the image's own sections.
TEST(SizeAttribution, FixtureFirmwareMap) {
  const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
  if (dir.empty()) GTEST_SKIP() << "arm-none-eabi-gcc was not found at configure time";
  auto image = ElfImage::load(dir + "/sim_fixture.elf");
  ASSERT_TRUE(image) << image.error().message;
  auto a = attribute_image_size(std::filesystem::path(dir) / "sim_fixture.map", *image);
  ASSERT_TRUE(a) << a.error().message;

  SizeBreakdown expected;  // from the section headers alone
  for (const auto& s : image->sections()) {
    if (!s.allocated || s.name == ".stack") continue;
    if (s.executable)
      expected.text_bytes += s.size_bytes;
    else if (!s.has_file_data)
      expected.bss_bytes += s.size_bytes;
    else if (s.name == ".data")
      expected.data_bytes += s.size_bytes;
    else
      expected.rodata_bytes += s.size_bytes;
  }
  EXPECT_EQ(a->total, expected);
  EXPECT_EQ(sum_of_components(*a), a->total);
  EXPECT_GT(a->total.text_bytes, 0u);
  // memcpy/memset/strlen come from newlib's libc_nano.a.
  ASSERT_NE(a->find("libc"), nullptr);
  EXPECT_GT(a->find("libc")->size.text_bytes, 0u);
  EXPECT_EQ(a->stack_reserve_bytes, 0x8000u);  // tests/fixtures/firmware/memory.ld
  const Symbol* heap_start = image->find_symbol("__heap_start");
  const Symbol* heap_end = image->find_symbol("__heap_end");
  ASSERT_TRUE(heap_start && heap_end);
  EXPECT_EQ(a->heap_reserve_bytes, heap_end->address - heap_start->address);
  EXPECT_GT(a->heap_reserve_bytes, 0u);
}

}  // namespace
}  // namespace fathom::elf
