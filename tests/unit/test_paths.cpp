#include "test_paths.h"

namespace fathom::test {

const char* data_dir() { return FATHOM_TEST_DATA_DIR_PATH; }
const char* firmware_dir() { return FATHOM_TEST_FIRMWARE_DIR_PATH; }
const char* rdimon_firmware() { return FATHOM_TEST_RDIMON_FIRMWARE_PATH; }

}  // namespace fathom::test
