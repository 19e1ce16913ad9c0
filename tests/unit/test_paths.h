#pragma once
// Paths the unit tests read at run time (the tree's test data, the test firmware the build
// makes), compiled into one file (test_paths.cpp) only: a path in every test's compile
// command would make a clone at another path miss ccache for every test file
// (tests/CMakeLists.txt).

namespace fathom::test {

const char* data_dir();         // tests/data
const char* firmware_dir();     // the test firmware's build directory; "" = no arm-none-eabi-gcc
const char* rdimon_firmware();  // its semihosting fixture; "" = none

}  // namespace fathom::test

#define FATHOM_TEST_DATA_DIR (::fathom::test::data_dir())
#define FATHOM_TEST_FIRMWARE_DIR (::fathom::test::firmware_dir())
#define FATHOM_TEST_RDIMON_FIRMWARE (::fathom::test::rdimon_firmware())
