#pragma once
// SHA-256 (FIPS 180-4) digests as lower-case hex, computed with OpenSSL's libcrypto.
#include <filesystem>
#include <string>
#include <string_view>

#include "util/error.h"

namespace fathom::util {

// The SHA-256 of `data` as 64 lower-case hex digits.
std::string sha256_hex(std::string_view data);

// The SHA-256 of the whole file at `path`, read in chunks (constant memory), as 64 lower-case
// hex digits. Fails if the file cannot be opened or read.
Result<std::string> sha256_file(const std::filesystem::path& path);

// True if `text` is exactly 64 lower-case hex digits.
bool is_sha256_hex(std::string_view text);

}  // namespace fathom::util
