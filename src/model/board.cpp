#include "model/board.h"

#include <array>
#include <utility>

namespace fathom::model {
namespace {

constexpr std::array<std::pair<TargetKind, std::string_view>, 3> kTargetNames = {{
    {TargetKind::kSim, "sim"}, {TargetKind::kQemu, "qemu"}, {TargetKind::kSerial, "serial"}}};
constexpr std::array<std::pair<ConsoleKind, std::string_view>, 3> kConsoleNames = {{
    {ConsoleKind::kSim, "sim"}, {ConsoleKind::kCmsdkUart, "cmsdk-uart"},
    {ConsoleKind::kBoardUart, "uart"}}};
constexpr std::array<std::pair<CycleCounterKind, std::string_view>, 1> kCycleCounterNames = {{
    {CycleCounterKind::kDwt, "dwt"}}};

template <typename Enum, size_t N>
std::string_view name_of(const std::array<std::pair<Enum, std::string_view>, N>& table, Enum e) {
  for (const auto& [value, name] : table)
    if (value == e) return name;
  return "?";
}

template <typename Enum, size_t N>
std::optional<Enum> value_of(const std::array<std::pair<Enum, std::string_view>, N>& table,
                             std::string_view text) {
  for (const auto& [value, name] : table)
    if (name == text) return value;
  return std::nullopt;
}

}  // namespace

std::string_view to_string(TargetKind kind) { return name_of(kTargetNames, kind); }
std::optional<TargetKind> parse_target_kind(std::string_view text) {
  return value_of(kTargetNames, text);
}
std::string_view to_string(ConsoleKind kind) { return name_of(kConsoleNames, kind); }
std::optional<ConsoleKind> parse_console_kind(std::string_view text) {
  return value_of(kConsoleNames, text);
}
std::string_view to_string(CycleCounterKind kind) { return name_of(kCycleCounterNames, kind); }
std::optional<CycleCounterKind> parse_cycle_counter_kind(std::string_view text) {
  return value_of(kCycleCounterNames, text);
}

}  // namespace fathom::model
