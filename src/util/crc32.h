#pragma once
// CRC-32/ISO-HDLC, the checksum of zlib's crc32(): reflected polynomial 0xEDB88320, initial
// value and final xor 0xFFFFFFFF. crc32("123456789") == 0xcbf43926.
#include <cstdint>
#include <string_view>

namespace fathom::util {

// CRC-32 of `bytes`, continuing from `crc`, the CRC of everything before them (0 to start), so
// that crc32(b, crc32(a)) == crc32(a + b) — the same contract as zlib's crc32(crc, buf, len).
uint32_t crc32(std::string_view bytes, uint32_t crc = 0);

}  // namespace fathom::util
