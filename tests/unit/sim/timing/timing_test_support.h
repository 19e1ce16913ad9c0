#pragma once
// Helpers for the timing-model unit tests: boards with a chosen memory system, and traces of
// real Thumb encodings fed to a model as the machine would (each instruction with the address
// that executed after it). Encodings come from `arm-none-eabi-as -mcpu=cortex-m4 -mthumb`
// (FPU: `.fpu fpv4-sp-d16`) and were read back with `arm-none-eabi-objdump -d`; the assembly
// is beside each one.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "model/board.h"
#include "sim/instruction_decoder.h"
#include "sim/timing/core_timing_model.h"

namespace fathom::sim::timing::testing {

// One executed instruction: where it is, its halfwords, and for data-dependent instructions
// the values of its two operand registers before it ran.
struct Step {
  uint32_t address = 0;
  std::vector<uint16_t> halfwords;
  uint32_t first = 0;
  uint32_t second = 0;
};

inline constexpr uint32_t kFlashOrigin = 0x00000000;
inline constexpr uint32_t kRamOrigin = 0x20000000;
inline constexpr uint32_t kCode = 0x1000;  // word-aligned start of the test sequences

inline model::Board board(const std::string& core, uint32_t wait_states = 0,
                          bool prefetch = true, bool icache = false,
                          model::Multiplier multiplier = model::Multiplier::kFast) {
  model::Board b;
  b.name = "test-" + core;
  b.core = core;
  b.prefetch = prefetch;
  b.icache = icache;
  b.multiplier = multiplier;
  b.memory.push_back({"flash", model::MemoryKind::kFlash, kFlashOrigin, 0x100000, wait_states});
  b.memory.push_back({"sram", model::MemoryKind::kRam, kRamOrigin, 0x40000, 0});
  return b;
}

inline std::unique_ptr<CoreTimingModel> model_for(const model::Board& b) {
  auto m = make_timing_model(b);
  EXPECT_TRUE(m) << (m ? "" : m.error().message);
  return m ? std::move(*m) : nullptr;
}

inline Instruction decode(const Step& step) {
  static const InstructionDecoder decoder;
  std::vector<uint8_t> bytes;
  for (uint16_t h : step.halfwords) {
    bytes.push_back(static_cast<uint8_t>(h & 0xFF));
    bytes.push_back(static_cast<uint8_t>(h >> 8));
  }
  const Instruction insn = decoder.decode(step.address, bytes);
  EXPECT_TRUE(insn.valid) << std::hex << step.halfwords.front();
  return insn;
}

// Instructions laid out one after the other from `start` and executed in that order.
inline std::vector<Step> straight(uint32_t start, const std::vector<std::vector<uint16_t>>& code) {
  std::vector<Step> steps;
  uint32_t address = start;
  for (const auto& halfwords : code) {
    steps.push_back({address, halfwords, 0, 0});
    address += static_cast<uint32_t>(2 * halfwords.size());
  }
  return steps;
}

// Total cycles of `trace` on a fresh model for `b`. The last step falls through.
inline uint64_t cycles(const model::Board& b, const std::vector<Step>& trace) {
  auto m = model_for(b);
  if (!m) return 0;
  uint64_t total = 0;
  for (size_t i = 0; i < trace.size(); ++i) {
    const Instruction insn = decode(trace[i]);
    if (insn.needs_operand_values) m->set_operand_values(trace[i].first, trace[i].second);
    const uint32_t next = i + 1 < trace.size()
                              ? trace[i + 1].address
                              : trace[i].address + static_cast<uint32_t>(insn.size_bytes);
    total += m->cycles(insn, trace[i].address, next);
  }
  return total;
}

inline uint64_t cycles(const std::string& core, const std::vector<Step>& trace) {
  return cycles(board(core), trace);
}

// Encodings used by several tests.
namespace enc {
inline const std::vector<uint16_t> kLdrR0R1 = {0x6808};        // ldr r0, [r1]
inline const std::vector<uint16_t> kLdrR2R3 = {0x681A};        // ldr r2, [r3]
inline const std::vector<uint16_t> kLdrR4R5 = {0x682C};        // ldr r4, [r5]
inline const std::vector<uint16_t> kLdrR2R0 = {0x6802};        // ldr r2, [r0]
inline const std::vector<uint16_t> kLdrR5R6 = {0x6835};        // ldr r5, [r6]
inline const std::vector<uint16_t> kLdrR0R1R2 = {0x5888};      // ldr r0, [r1, r2]
inline const std::vector<uint16_t> kLdrLiteral = {0x4801};     // ldr r0, [pc, #4]
inline const std::vector<uint16_t> kStrR0R1 = {0x6008};        // str r0, [r1]
inline const std::vector<uint16_t> kStrR0R2 = {0x6010};        // str r0, [r2]
inline const std::vector<uint16_t> kStrR2R0 = {0x6002};        // str r2, [r0]
inline const std::vector<uint16_t> kStrR2R3R4 = {0x511A};      // str r2, [r3, r4]
inline const std::vector<uint16_t> kAddsR1Imm = {0x3104};      // adds r1, #4
inline const std::vector<uint16_t> kAddsR2R0 = {0x1C42};       // adds r2, r0, #1
inline const std::vector<uint16_t> kAddsR2R3 = {0x1C5A};       // adds r2, r3, #1
inline const std::vector<uint16_t> kAddsR1One = {0x3101};      // adds r1, #1
inline const std::vector<uint16_t> kMovR1R2 = {0x4611};        // mov r1, r2
inline const std::vector<uint16_t> kMovR3R1 = {0x460B};        // mov r3, r1
inline const std::vector<uint16_t> kLdrd = {0xE9D4, 0x2300};   // ldrd r2, r3, [r4]
inline const std::vector<uint16_t> kStrd = {0xE9C4, 0x2300};   // strd r2, r3, [r4]
inline const std::vector<uint16_t> kNop = {0xBF00};            // nop
inline const std::vector<uint16_t> kAddW = {0xF100, 0x0001};   // add.w r0, r0, #1
inline const std::vector<uint16_t> kAddWShift = {0xEB01, 0x0082};  // add.w r0, r1, r2, lsl #2
inline const std::vector<uint16_t> kCmpR0Imm = {0x2800};       // cmp r0, #0
inline const std::vector<uint16_t> kCmpR0R1 = {0x4288};        // cmp r0, r1
inline const std::vector<uint16_t> kCmpWR0R1 = {0xEBB0, 0x0F01};  // cmp.w r0, r1
inline const std::vector<uint16_t> kItEq = {0xBF08};           // it eq
inline const std::vector<uint16_t> kMoveqR0R1 = {0x4608};      // moveq r0, r1
inline const std::vector<uint16_t> kBN = {0xE002};             // b.n (target not decoded)
inline const std::vector<uint16_t> kBneN = {0xD101};           // bne.n (target not decoded)
inline const std::vector<uint16_t> kBl = {0xF000, 0xF802};     // bl (target not decoded)
inline const std::vector<uint16_t> kBxLr = {0x4770};           // bx lr
inline const std::vector<uint16_t> kPopR4Pc = {0xBD10};        // pop {r4, pc}
inline const std::vector<uint16_t> kPushR4Lr = {0xB510};       // push {r4, lr}
inline const std::vector<uint16_t> kLdmia4 = {0xC81E};         // ldmia r0!, {r1, r2, r3, r4}
inline const std::vector<uint16_t> kLdrPc = {0xF85D, 0xFB04};  // ldr.w pc, [sp], #4
inline const std::vector<uint16_t> kTbb = {0xE8DF, 0xF003};    // tbb [pc, r3]
inline const std::vector<uint16_t> kUdiv = {0xFBB1, 0xF0F2};   // udiv r0, r1, r2
inline const std::vector<uint16_t> kSdiv = {0xFB91, 0xF0F2};   // sdiv r0, r1, r2
inline const std::vector<uint16_t> kUmull = {0xFBA2, 0x0103};  // umull r0, r1, r2, r3
inline const std::vector<uint16_t> kUmlal = {0xFBE2, 0x0103};  // umlal r0, r1, r2, r3
inline const std::vector<uint16_t> kSmull = {0xFB82, 0x0103};  // smull r0, r1, r2, r3
inline const std::vector<uint16_t> kSmlal = {0xFBC2, 0x0103};  // smlal r0, r1, r2, r3
inline const std::vector<uint16_t> kUmaal = {0xFBE2, 0x0163};  // umaal r0, r1, r2, r3
inline const std::vector<uint16_t> kMulW = {0xFB01, 0xF002};   // mul.w r0, r1, r2
inline const std::vector<uint16_t> kMla1 = {0xFB01, 0x0002};   // mla r0, r1, r2, r0
inline const std::vector<uint16_t> kMla2 = {0xFB03, 0x0004};   // mla r0, r3, r4, r0
inline const std::vector<uint16_t> kMuls = {0x4348};           // muls r0, r1, r0
inline const std::vector<uint16_t> kVadd = {0xEE30, 0x0A81};   // vadd.f32 s0, s1, s2
inline const std::vector<uint16_t> kVmla = {0xEE00, 0x0A81};   // vmla.f32 s0, s1, s2
inline const std::vector<uint16_t> kVdiv = {0xEE80, 0x0A81};   // vdiv.f32 s0, s1, s2
inline const std::vector<uint16_t> kVsqrt = {0xEEB1, 0x0AE0};  // vsqrt.f32 s0, s1
inline const std::vector<uint16_t> kVldrS = {0xED90, 0x0A00};  // vldr s0, [r0]
inline const std::vector<uint16_t> kVldrD = {0xED90, 0x0B00};  // vldr d0, [r0]
inline const std::vector<uint16_t> kVstrS = {0xED80, 0x0A00};  // vstr s0, [r0]
inline const std::vector<uint16_t> kVmovToCore = {0xEE10, 0x0A10};  // vmov r0, s0
inline const std::vector<uint16_t> kVmovToFp = {0xEE00, 0x0A10};    // vmov s0, r0
inline const std::vector<uint16_t> kVmovImm = {0xEEB7, 0x0A00};     // vmov.f32 s0, #1.0
inline const std::vector<uint16_t> kVpushD8D9 = {0xED2D, 0x8B04};   // vpush {d8-d9}
inline const std::vector<uint16_t> kVmrs = {0xEEF1, 0xFA10};        // vmrs APSR_nzcv, fpscr
}  // namespace enc

}  // namespace fathom::sim::timing::testing
