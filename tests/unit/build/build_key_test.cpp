#include "build/build_key.h"
#include "build/ninja_file.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "util/sha256.h"

namespace fathom::build {
namespace {
namespace fs = std::filesystem;

class BuildKeyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("fathom-build-key-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
            "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "harness");
    write("harness/fathom_harness.c", "int main(void) { return 0; }\n");
    write("harness/fathom_harness.h", "#pragma once\n");
    write("board.toml", "name = \"sim-m33\"\n");
  }
  void TearDown() override { fs::remove_all(dir_); }

  void write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary | std::ios::trunc) << text;
  }

  BuildKeyInputs inputs() const {
    BuildKeyInputs in;
    in.toolchain_version = "arm-none-eabi-gcc (15:12.2.rel1-1) 12.2.1 20221205";
    in.flags = {{"image cflags", {"-mcpu=cortex-m33", "-O2", "-DFATHOM_CONFIG_NAME=\"a\""}}};
    in.generated_files = {{"memory.ld", "MEMORY { FLASH : ORIGIN = 0 }\n"}};
    in.library_source_identity = "sha256:" + std::string(64, 'a');
    in.files = files_below(dir_);
    return in;
  }

  std::string key(const BuildKeyInputs& in) const {
    auto k = build_key(in);
    EXPECT_TRUE(k.has_value()) << (k ? "" : k.error().message);
    return k ? *k : "";
  }

  fs::path dir_;
};

TEST_F(BuildKeyTest, SameInputsGiveTheSameKey) {
  const std::string first = key(inputs());
  EXPECT_EQ(first.size(), 64u);
  EXPECT_EQ(key(inputs()), first);
  // Rewriting a file with the same bytes (a new mtime) changes nothing: the key is content.
  write("harness/fathom_harness.c", "int main(void) { return 0; }\n");
  EXPECT_EQ(key(inputs()), first);
  // The order files are listed in does not matter.
  auto reversed = inputs();
  std::reverse(reversed.files.begin(), reversed.files.end());
  EXPECT_EQ(key(reversed), first);
}

TEST_F(BuildKeyTest, AFlagChangesTheKey) {
  const std::string base = key(inputs());
  auto changed = inputs();
  changed.flags[0].second[1] = "-O3";
  EXPECT_NE(key(changed), base);
  auto added = inputs();
  added.flags[0].second.push_back("-DFATHOM_LIBC=picolibc");
  EXPECT_NE(key(added), base);
  // Moving text between flags is a different command line, so a different key.
  auto split = inputs();
  split.flags[0].second = {"-mcpu=cortex-m33 -O2", "-DFATHOM_CONFIG_NAME=\"a\""};
  EXPECT_NE(key(split), base);
}

TEST_F(BuildKeyTest, AFirmwareFileByteChangesTheKey) {
  const std::string base = key(inputs());
  write("harness/fathom_harness.c", "int main(void) { return 1; }\n");
  EXPECT_NE(key(inputs()), base);
}

TEST_F(BuildKeyTest, ANewFirmwareFileChangesTheKey) {
  const std::string base = key(inputs());
  write("harness/extra.h", "#define X 1\n");
  EXPECT_NE(key(inputs()), base);
}

TEST_F(BuildKeyTest, TheToolchainVersionChangesTheKey) {
  const std::string base = key(inputs());
  auto other = inputs();
  other.toolchain_version = "arm-none-eabi-gcc (15:13.2.rel1-2) 13.2.1 20231009";
  EXPECT_NE(key(other), base);
}

TEST_F(BuildKeyTest, GeneratedFilesAndSourceIdentityChangeTheKey) {
  const std::string base = key(inputs());
  auto header = inputs();
  header.generated_files[0].second += "__fathom_stack_bytes = 0x2000;\n";
  EXPECT_NE(key(header), base);
  auto source = inputs();
  source.library_source_identity = "sha256:" + std::string(64, 'b');
  EXPECT_NE(key(source), base);
}

TEST_F(BuildKeyTest, AnUnreadableFileIsAnErrorNamingIt) {
  auto in = inputs();
  in.files.push_back(dir_ / "missing.c");
  auto k = build_key(in);
  ASSERT_FALSE(k.has_value());
  EXPECT_NE(k.error().message.find("missing.c"), std::string::npos) << k.error().message;
}

TEST_F(BuildKeyTest, FilesBelowSkipsHiddenEntries) {
  fs::create_directories(dir_ / ".git");
  write(".git/HEAD", "ref\n");
  write(".swap", "x");
  const auto files = files_below(dir_);
  EXPECT_EQ(files.size(), 3u);
  for (const auto& f : files) EXPECT_EQ(f.string().find("/."), std::string::npos) << f;
  EXPECT_TRUE(files_below(dir_ / "absent").empty());
}

TEST_F(BuildKeyTest, RelocateReplacesARootOnlyAtAPathBoundary) {
  const std::vector<RelocatableRoot> roots = {{"/work/main/", "<fathom>"}};
  EXPECT_EQ(relocate("-I/work/main/firmware/harness -ffile-prefix-map=/work/main/=", roots),
            "-I<fathom>/firmware/harness -ffile-prefix-map=<fathom>/=");
  EXPECT_EQ(relocate("/work/main", roots), "<fathom>");
  // A sibling whose name starts with the root's is another directory.
  EXPECT_EQ(relocate("/work/main2/firmware /work/mainline", roots),
            "/work/main2/firmware /work/mainline");
  EXPECT_EQ(relocate("no path here", roots), "no path here");
  // "/" and an empty root would match every path: they are left alone.
  EXPECT_EQ(relocate("/work/main/x", {{"/", "<r>"}, {"", "<e>"}}), "/work/main/x");
}

// The inputs of a build at `root`: flags and a generated build.ninja that name it, its files.
BuildKeyInputs at_root(const BuildKeyInputs& base, const fs::path& root) {
  BuildKeyInputs in = base;
  in.flags.push_back({"library cflags", {"-I" + (root / "harness").string(),
                                         "-ffile-prefix-map=" + root.string() + "/="}});
  NinjaFile n;
  n.variable("cflags", NinjaFile::shell_arg("-I" + (root / "harness").string()));
  n.build({"x.o"}, "cc", {(root / "harness" / "fathom_harness.c").string()});
  in.generated_files.push_back({"build.ninja", n.text()});
  in.files = files_below(root);
  in.roots = {{root, "<fathom>"}};
  return in;
}

TEST_F(BuildKeyTest, TheSameTreeAtTwoPlacesGivesTheSameKey) {
  // A second checkout of the same files elsewhere, named in flags and generated files too.
  const fs::path other = dir_.string() + "-clone";
  fs::remove_all(other);
  fs::copy(dir_, other, fs::copy_options::recursive);
  const std::string here = key(at_root(inputs(), dir_));
  EXPECT_EQ(key(at_root(inputs(), other)), here);
  // Without the roots, the paths are in the key.
  BuildKeyInputs fixed_here = at_root(inputs(), dir_), fixed_other = at_root(inputs(), other);
  fixed_here.roots.clear();
  fixed_other.roots.clear();
  EXPECT_NE(key(fixed_here), key(fixed_other));
  // Content still counts: a changed byte in the clone changes its key.
  std::ofstream(other / "harness" / "fathom_harness.h", std::ios::binary | std::ios::trunc)
      << "#pragma once\n#define X 1\n";
  EXPECT_NE(key(at_root(inputs(), other)), here);
  fs::remove_all(other);
}

TEST_F(BuildKeyTest, ACheckoutWhosePathNinjaEscapesGivesTheSameKey) {
  // ninja spells ':' and ' ' as "$:" and "$ " in build lines, and shell_arg() quotes an
  // argument with a space or "'" in it: a CI checkout under such a path once missed every image.
  const fs::path other = dir_.string() + "-ci:run 2-it's-$x";
  fs::remove_all(other);
  fs::copy(dir_, other, fs::copy_options::recursive);
  const BuildKeyInputs there = at_root(inputs(), other);
  ASSERT_NE(there.generated_files.back().second.find("$:"), std::string::npos);
  EXPECT_EQ(key(there), key(at_root(inputs(), dir_)));
  fs::remove_all(other);
}

TEST_F(BuildKeyTest, TheTreeSortingBeforeOrAfterTheCacheGivesTheSameKey) {
  // An image's files come from the tree and from outside it (the build cache's generated
  // headers). A CI checkout under "/home/..." sorts before "/root/.cache", a clone under
  // "/tmp/..." after it: the files' order in the key must not follow where the tree lives.
  const fs::path cache = dir_.string() + "-m";
  const fs::path before = dir_.string() + "-a", after = dir_.string() + "-z";
  for (const fs::path& p : {cache, before, after}) fs::remove_all(p);
  fs::create_directories(cache);
  std::ofstream(cache / "fathom_user_config.h", std::ios::binary) << "#define A 1\n";
  fs::copy(dir_, before, fs::copy_options::recursive);
  fs::copy(dir_, after, fs::copy_options::recursive);
  auto with_cache = [&](const fs::path& root) {
    BuildKeyInputs in = at_root(inputs(), root);
    for (auto& f : files_below(cache)) in.files.push_back(f);
    return in;
  };
  EXPECT_EQ(key(with_cache(before)), key(with_cache(after)));
  for (const fs::path& p : {cache, before, after}) fs::remove_all(p);
}

// A firmware tree for firmware_key_files: a harness, two boards with a source each.
void write_tree(const fs::path& fw) {
  for (const char* d : {"harness", "boards/a", "boards/b", "boards/common"})
    fs::create_directories(fw / d);
  std::ofstream(fw / "harness" / "h.c", std::ios::binary) << "int h;\n";
  std::ofstream(fw / "boards" / "common" / "c.h", std::ios::binary) << "#define C 1\n";
  for (const char* b : {"a", "b"}) {
    std::ofstream(fw / "boards" / b / "board.toml", std::ios::binary) << "name = \"" << b << "\"\n";
    std::ofstream(fw / "boards" / b / "start.c", std::ios::binary) << "int s;\n";
  }
}

TEST_F(BuildKeyTest, FirmwareKeyFilesLeaveOutBoardDescriptions) {
  const fs::path fw = dir_ / "firmware";
  write_tree(fw);
  auto names = [&](const fs::path& root, const std::vector<fs::path>& files) {
    std::vector<std::string> out;
    for (const auto& f : files) out.push_back(f.lexically_relative(root).string());
    return out;
  };
  const auto files = firmware_key_files(fw, fw / "boards" / "a");
  EXPECT_EQ(names(fw, files),
            (std::vector<std::string>{"boards/a/start.c", "boards/b/start.c", "boards/common/c.h",
                                      "harness/h.c"}));
  // Another board's description, or this board's run-time settings, do not change the key...
  BuildKeyInputs in = inputs();
  in.files = files;
  const std::string before = key(in);
  std::ofstream(fw / "boards" / "a" / "board.toml", std::ios::app) << "[serial]\nport = \"/dev/x\"\n";
  std::ofstream(fw / "boards" / "b" / "board.toml", std::ios::app) << "clock_hz = 1\n";
  in.files = firmware_key_files(fw, fw / "boards" / "a");
  EXPECT_EQ(key(in), before);
  // ...a board's source does.
  std::ofstream(fw / "boards" / "b" / "start.c", std::ios::app) << "int t;\n";
  EXPECT_NE(key(in), before);

  // A board described outside the tree (--board FILE): its directory's files join, its
  // description does not.
  const fs::path mine = dir_ / "my-board";
  fs::create_directories(mine);
  std::ofstream(mine / "part.toml", std::ios::binary) << "name = \"mine\"\n";
  std::ofstream(mine / "part_start.c", std::ios::binary) << "int p;\n";
  const auto outside = names(dir_, firmware_key_files(fw, mine));
  EXPECT_EQ(std::count(outside.begin(), outside.end(), "my-board/part_start.c"), 1);
  EXPECT_EQ(std::count(outside.begin(), outside.end(), "my-board/part.toml"), 0);
}

TEST_F(BuildKeyTest, AViewOfLinkedDirectoriesGivesTheTreesKey) {
  // FATHOM_HOME made of links to a tree's directories, plus a board of its own (as the serial
  // tests make it): an image of one of the tree's boards has the tree's key.
  const fs::path tree = dir_ / "tree", view = dir_ / "view";
  write_tree(tree / "firmware");
  fs::create_directories(view / "firmware" / "boards" / "mine");
  fs::create_directory_symlink(tree / "firmware" / "harness", view / "firmware" / "harness");
  for (const char* b : {"a", "b", "common"})
    fs::create_directory_symlink(tree / "firmware" / "boards" / b, view / "firmware" / "boards" / b);
  std::ofstream(view / "firmware" / "boards" / "mine" / "board.toml", std::ios::binary)
      << "name = \"mine\"\n[serial]\nport = \"" << view.string() << "/tty\"\n";
  auto key_at = [&](const fs::path& root) {
    BuildKeyInputs in = inputs();
    in.files = firmware_key_files(root / "firmware", root / "firmware" / "boards" / "a");
    in.roots = {{root, "<fathom>"}};
    return key(in);
  };
  EXPECT_EQ(key_at(view), key_at(tree));
}

TEST(NinjaFileUnquoted, GivesTheArgumentsAsTheToolsReceiveThem) {
  EXPECT_EQ(NinjaFile::unquoted(NinjaFile::path("/a:b c/$x.c")), "/a:b c/$x.c");
  EXPECT_EQ(NinjaFile::unquoted(NinjaFile::shell_arg("-I/it's a $dir")), "-I/it's a $dir");
  EXPECT_EQ(NinjaFile::unquoted(NinjaFile::shell_arg("-DNAME=\"sim\"")), "-DNAME=\"sim\"");
  // A build statement's paths are not shell-quoted: an "'" there is part of the path.
  EXPECT_EQ(NinjaFile::unquoted("build x.o: cc " + NinjaFile::path("/it's/x.c") + "\n"),
            "build x.o: cc /it's/x.c\n");
  // Variable references and plain words are left as they are.
  EXPECT_EQ(NinjaFile::unquoted("  command = $cc $cflags -c $in -o $out\n"),
            "  command = $cc $cflags -c $in -o $out\n");
}

TEST_F(BuildKeyTest, SourceTreeDigestFollowsContent) {
  auto a = source_tree_digest(dir_);
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(*source_tree_digest(dir_), *a);
  write("board.toml", "name = \"sim-m4\"\n");
  EXPECT_NE(*source_tree_digest(dir_), *a);
}

TEST_F(BuildKeyTest, ManifestVerifiesKeyAndElf) {
  write("image.elf", "\x7f" "ELF fake image");
  const fs::path elf = dir_ / "image.elf";
  const std::string k = key(inputs());
  const std::string elf_sha256 = *util::sha256_file(elf);
  EXPECT_FALSE(manifest_matches(dir_, k, elf));  // no manifest yet

  ASSERT_TRUE(write_manifest(dir_, {k, elf_sha256}));
  EXPECT_TRUE(manifest_matches(dir_, k, elf));
  auto read = read_manifest(dir_);
  ASSERT_TRUE(read.has_value());
  EXPECT_EQ(read->key, k);
  EXPECT_EQ(read->elf_sha256, elf_sha256);

  // Another key (a changed input) does not match.
  EXPECT_FALSE(manifest_matches(dir_, std::string(64, 'f'), elf));
  // A changed (truncated, edited) ELF does not match either.
  write("image.elf", "\x7f" "ELF");
  EXPECT_FALSE(manifest_matches(dir_, k, elf));
  write("image.elf", "\x7f" "ELF fake image");
  EXPECT_TRUE(manifest_matches(dir_, k, elf));

  remove_manifest(dir_);
  EXPECT_FALSE(manifest_matches(dir_, k, elf));
}

TEST_F(BuildKeyTest, AMalformedManifestIsIgnored) {
  write("image.elf", "x");
  for (const std::string& text : {std::string(""), std::string("garbage\n"),
                                 std::string("fathom image manifest 1\nkey abc\nelf_sha256 d\n")}) {
    write("image.manifest", text);
    EXPECT_FALSE(read_manifest(dir_).has_value()) << text;
    EXPECT_FALSE(manifest_matches(dir_, std::string(64, 'a'), dir_ / "image.elf"));
  }
}

}  // namespace
}  // namespace fathom::build
