#pragma once
// Shell-style wildcard matching of a whole name: '*' any run of characters (also empty), '?' any
// one character, everything else itself. No character classes, no escapes.
#include <string_view>

namespace fathom::util {

bool glob_match(std::string_view pattern, std::string_view name);

}  // namespace fathom::util
