#include "sim/it_result.h"

#include "sim/it_block.h"

namespace fathom::sim {
namespace {

uint16_t halfword(std::span<const uint8_t> code, size_t at) {
  return static_cast<uint16_t>(code[at] | code[at + 1] << 8);
}

// ThumbExpandImm (Arm ARM v7-M A5.3.2) of a 12-bit i:imm3:imm8.
uint32_t thumb_expand_imm(uint32_t imm12) {
  const uint32_t imm8 = imm12 & 0xFF;
  if ((imm12 >> 10) == 0) {
    switch ((imm12 >> 8) & 3) {
      case 0: return imm8;
      case 1: return imm8 << 16 | imm8;
      case 2: return imm8 << 24 | imm8 << 8;
      default: return imm8 * 0x01010101u;
    }
  }
  const uint32_t unrotated = 0x80 | (imm12 & 0x7F);
  const uint32_t rotation = imm12 >> 7;  // 8..31
  return unrotated >> rotation | unrotated << (32 - rotation);
}

}  // namespace

std::optional<RegisterWrite> decode_register_write(std::span<const uint8_t> code) {
  if (code.size() < 2) return std::nullopt;
  const uint16_t hw1 = halfword(code, 0);
  auto u8 = [](uint32_t v) { return static_cast<uint8_t>(v); };
  if ((hw1 & 0xF800) == 0x2000)  // MOV T1: 00100 Rd imm8
    return RegisterWrite{u8(hw1 >> 8 & 7), kNoBase, hw1 & 0xFFu, 2};
  if ((hw1 & 0xFF00) == 0x4600)  // MOV T1 (register): 01000110 D Rm Rd
    return RegisterWrite{u8((hw1 >> 4 & 8) | (hw1 & 7)), u8(hw1 >> 3 & 0xF), 0, 2};
  if ((hw1 & 0xFC00) == 0x1C00) {  // ADD/SUB T1 (immediate): 000111 op imm3 Rn Rd
    const uint32_t imm3 = hw1 >> 6 & 7;
    return RegisterWrite{u8(hw1 & 7), u8(hw1 >> 3 & 7), (hw1 & 0x200) ? 0u - imm3 : imm3, 2};
  }
  if (code.size() < 4 || ((hw1 & 0xF800) != 0xF000 && hw1 != 0xEA4F)) return std::nullopt;
  const uint16_t hw2 = halfword(code, 2);
  if (hw2 & 0x8000) return std::nullopt;
  const uint32_t i = hw1 >> 10 & 1, imm3 = hw2 >> 12 & 7, imm8 = hw2 & 0xFF;
  const uint8_t rd = u8(hw2 >> 8 & 0xF), rn = u8(hw1 & 0xF);
  const uint32_t imm12 = i << 11 | imm3 << 8 | imm8;
  if (hw1 == 0xEA4F)  // MOV.W T3 (register): 11101010010 S=0 1111, 0 000 Rd 00 00 Rm
    return (hw2 & 0x70F0) == 0 ? std::optional<RegisterWrite>{{rd, u8(hw2 & 0xF), 0, 4}}
                               : std::nullopt;
  if ((hw1 & 0xFBFF) == 0xF04F)  // MOV.W T2: 11110 i 0 0010 S=0 1111, 0 imm3 Rd imm8
    return RegisterWrite{rd, kNoBase, thumb_expand_imm(imm12), 4};
  if ((hw1 & 0xFBF0) == 0xF240)  // MOVW T3: 11110 i 10 0100 imm4, 0 imm3 Rd imm8
    return RegisterWrite{rd, kNoBase, (hw1 & 0xFu) << 12 | imm12, 4};
  if (rn == 15) return std::nullopt;  // ADR / CMP-like encodings
  switch (hw1 & 0xFBF0) {
    case 0xF100: return RegisterWrite{rd, rn, thumb_expand_imm(imm12), 4};       // ADD.W T3
    case 0xF1A0: return RegisterWrite{rd, rn, 0u - thumb_expand_imm(imm12), 4};  // SUB.W T3
    case 0xF200: return RegisterWrite{rd, rn, imm12, 4};                         // ADDW T4
    case 0xF2A0: return RegisterWrite{rd, rn, 0u - imm12, 4};                    // SUBW T4
    default: return std::nullopt;
  }
}

std::optional<ItResult> it_result(uint8_t firstcond_mask, std::span<const uint8_t> after) {
  // Two instructions, exactly one of which executes whatever the flags (ITE, or ITT AL-like
  // encodings excluded by the check itself).
  ItResult r;
  bool have_then = false, have_else = false;
  for (uint32_t f = 0; f < 16; ++f) {
    ItBlock it;
    it.start(firstcond_mask, f << 28);
    const bool first = it.next_executes();
    if (!it.active()) return std::nullopt;  // one instruction only
    const bool second = it.next_executes();
    if (it.active() || first == second) return std::nullopt;
    if (first && !have_then) r.then_flags = f << 28, have_then = true;
    if (second && !have_else) r.else_flags = f << 28, have_else = true;
  }
  if (!have_then || !have_else) return std::nullopt;
  const auto a = decode_register_write(after);
  if (!a || a->size_bytes > after.size()) return std::nullopt;
  const auto b = decode_register_write(after.subspan(a->size_bytes));
  if (!b || a->rd != b->rd || a->rd > 12 || a->base != b->base || a->offset == b->offset)
    return std::nullopt;
  if (a->base != kNoBase && (a->base > 12 || a->base == a->rd)) return std::nullopt;
  r.rd = a->rd;
  r.base = a->base;
  r.then_value = a->offset;
  r.else_value = b->offset;
  r.bytes = static_cast<uint8_t>(a->size_bytes + b->size_bytes);
  return r;
}

std::optional<Comparison> decode_compare(std::span<const uint8_t> code) {
  if (code.size() < 2) return std::nullopt;
  const uint16_t hw1 = halfword(code, 0);
  auto u8 = [](uint32_t v) { return static_cast<uint8_t>(v); };
  if ((hw1 & 0xF800) == 0x2800)  // CMP T1 (immediate): 00101 Rn imm8
    return Comparison{u8(hw1 >> 8 & 7), kNoBase, hw1 & 0xFFu, 2};
  if ((hw1 & 0xFFC0) == 0x4280)  // CMP T1 (register): 0100001010 Rm Rn
    return Comparison{u8(hw1 & 7), u8(hw1 >> 3 & 7), 0, 2};
  if ((hw1 & 0xFF00) == 0x4500)  // CMP T2 (register): 01000101 N Rm Rn
    return Comparison{u8((hw1 >> 4 & 8) | (hw1 & 7)), u8(hw1 >> 3 & 0xF), 0, 2};
  if (code.size() < 4) return std::nullopt;
  const uint16_t hw2 = halfword(code, 2);
  // CMP.W T2 (immediate): 11110 i 0 1101 1 Rn, 0 imm3 1111 imm8
  if ((hw1 & 0xFBF0) == 0xF1B0 && (hw2 & 0x8F00) == 0x0F00) {
    const uint32_t imm12 = (hw1 >> 10 & 1u) << 11 | (hw2 >> 12 & 7u) << 8 | (hw2 & 0xFFu);
    return Comparison{u8(hw1 & 0xF), kNoBase, thumb_expand_imm(imm12), 4};
  }
  // CMP.W T3 (register): 111010111011 Rn, 0 imm3 1111 imm2 type Rm, without a shift
  if ((hw1 & 0xFFF0) == 0xEBB0 && (hw2 & 0xFFF0) == 0x0F00)
    return Comparison{u8(hw1 & 0xF), u8(hw2 & 0xF), 0, 4};
  return std::nullopt;
}

std::optional<Comparison> decode_register_compare(std::span<const uint8_t> code) {
  const auto c = decode_compare(code);
  if (!c || c->rm == kNoBase) return std::nullopt;
  return c;
}

std::optional<ItResult> compared_move_result(uint8_t firstcond_mask,
                                             std::span<const uint8_t> before,
                                             std::span<const uint8_t> after) {
  // One instruction, executed under the flags a CMP of equal values leaves (Z and C set).
  constexpr uint32_t kEqual = 0x6u << 28;
  ItBlock it;
  it.start(firstcond_mask, kEqual);
  if (!it.next_executes() || it.active()) return std::nullopt;
  ItResult r;
  r.then_flags = kEqual;
  bool fails = false;
  for (uint32_t f = 0; f < 16 && !fails; ++f) {
    it.start(firstcond_mask, f << 28);
    if (!it.next_executes()) r.else_flags = f << 28, fails = true;
  }
  if (!fails) return std::nullopt;  // AL
  const auto move = decode_register_write(after);
  if (!move || move->size_bytes > after.size() || move->offset != 0 || move->base == kNoBase ||
      move->rd > 12 || move->base > 12 || move->rd == move->base)
    return std::nullopt;
  auto compares_them = [&](size_t size) -> bool {
    if (before.size() < size) return false;
    const auto c = decode_register_compare(before.subspan(before.size() - size));
    return c && c->size_bytes == size &&
           ((c->rn == move->rd && c->rm == move->base) ||
            (c->rn == move->base && c->rm == move->rd));
  };
  if (compares_them(2)) {
    r.compare_bytes = 2;
  } else if (compares_them(4)) {
    r.compare_bytes = 4;
  } else {
    return std::nullopt;
  }
  r.rd = move->rd;
  r.base = move->base;
  r.then_value = 0;
  r.else_when_different = true;
  r.bytes = move->size_bytes;
  return r;
}

}  // namespace fathom::sim
