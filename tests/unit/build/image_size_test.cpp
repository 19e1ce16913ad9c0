// build::image_size on the simulator's fixture firmware (linked with firmware/boards/common's
// script, like every image): .rodata is flash even though the linker marks it writable (it
// holds .init_array and the operation table), .data counts in both, .bss in RAM only.
#include <gtest/gtest.h>

#include <map>

#include "build/image_builder.h"
#include "elf/elf_image.h"
#include "suite/board_loader.h"
#include "util/source_dir.h"
#include "../test_paths.h"

namespace fathom::build {
namespace {

TEST(ImageSize, SectionsCountWhereTheBoardPutsThem) {
  const std::string dir = FATHOM_TEST_FIRMWARE_DIR;
  if (dir.empty()) GTEST_SKIP() << "no Arm toolchain at configure time: no test firmware";
  auto image = elf::ElfImage::load(dir + "/sim_fixture.elf");
  ASSERT_TRUE(image) << image.error().message;
  auto board = suite::load_board(std::string(fathom::util::source_dir()) + "/firmware/boards", "sim-m33");
  ASSERT_TRUE(board) << board.error().message;

  std::map<std::string, const elf::Section*> by_name;
  for (const auto& s : image->sections()) by_name[s.name] = &s;
  ASSERT_TRUE(by_name.count(".text") && by_name.count(".rodata") && by_name.count(".data") &&
              by_name.count(".bss"));
  ASSERT_GT(by_name[".rodata"]->size_bytes, 0u);
  uint64_t flash = 0;
  for (const auto& s : image->sections())
    if (s.allocated && s.has_file_data && s.name != ".stack") flash += s.size_bytes;
  const uint64_t ram = by_name[".data"]->size_bytes + by_name[".bss"]->size_bytes;

  const model::ImageSize size = image_size(*image, *board);
  EXPECT_EQ(size.flash_bytes, flash);
  EXPECT_EQ(size.ram_bytes, ram);
}

}  // namespace
}  // namespace fathom::build
