#include "target/command_template.h"

#include <gtest/gtest.h>

namespace fathom::target {
namespace {

CommandFiles files() {
  CommandFiles f;
  f.elf = "/w/app.params.elf";
  f.hex = "/w/app.params.hex";
  f.port = "/dev/ttyACM0";
  return f;
}

TEST(CommandTemplate, ReplacesPlaceholdersInsideArguments) {
  auto argv = expand_command({"openocd", "-f", "board/st_nucleo_l4.cfg", "-c",
                              "program {elf} verify reset exit", "--port={port}"},
                             files(), "flash");
  ASSERT_TRUE(argv) << argv.error().message;
  EXPECT_EQ(*argv, (std::vector<std::string>{"openocd", "-f", "board/st_nucleo_l4.cfg", "-c",
                                             "program /w/app.params.elf verify reset exit",
                                             "--port=/dev/ttyACM0"}));
}

TEST(CommandTemplate, SeveralPlaceholdersInOneArgument) {
  auto argv = expand_command({"x{hex}:{elf}"}, files(), "flash");
  ASSERT_TRUE(argv);
  EXPECT_EQ((*argv)[0], "x/w/app.params.hex:/w/app.params.elf");
}

TEST(CommandTemplate, UnknownPlaceholderIsAUsageError) {
  auto argv = expand_command({"nrfjprog", "--program", "{file}"}, files(), "flash");
  ASSERT_FALSE(argv);
  EXPECT_TRUE(argv.error().is_usage);
  EXPECT_NE(argv.error().message.find("unknown placeholder {file}"), std::string::npos)
      << argv.error().message;
}

TEST(CommandTemplate, UnclosedBraceAndEmptyTemplateAreErrors) {
  EXPECT_FALSE(expand_command({"prog", "{elf"}, files(), "flash"));
  EXPECT_FALSE(expand_command({}, files(), "reset"));
}

TEST(CommandTemplate, APlaceholderWithoutItsFileIsAnError) {
  auto argv = expand_command({"picotool", "load", "{bin}"}, files(), "flash");
  ASSERT_FALSE(argv);
  EXPECT_NE(argv.error().message.find("{bin}"), std::string::npos);
}

TEST(CommandTemplate, TemplateUsesFindsPlaceholders) {
  EXPECT_TRUE(template_uses({"a", "--file={hex}"}, "hex"));
  EXPECT_FALSE(template_uses({"a", "{elf}"}, "hex"));
}

TEST(CommandTemplate, CommandLineQuotesArgumentsWithSpaces) {
  EXPECT_EQ(command_line({"openocd", "-c", "program x reset"}), "openocd -c 'program x reset'");
}

}  // namespace
}  // namespace fathom::target
