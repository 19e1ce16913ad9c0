#pragma once
// The operations a fathom firmware image contains, read from its .fathom_ops registry
// (pointers between __start_fathom_ops and __stop_fathom_ops, each to a fathom_op whose first
// field points at the operation's name).
#include <string>
#include <vector>

#include "elf/elf_image.h"
#include "util/error.h"

namespace fathom::elf {

struct OperationEntry {
  std::string name;
  uint32_t run_address = 0;  // the operation's timed `run` function (Thumb bit clear)
};

// The registry's operations with their `run` functions, in registry order.
util::Result<std::vector<OperationEntry>> harness_operation_entries(const ElfImage& image);

// Operation names in registry order; an error if the image has no registry or it is damaged.
util::Result<std::vector<std::string>> harness_operations(const ElfImage& image);

}  // namespace fathom::elf
