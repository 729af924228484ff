// Small strong-ish types shared by every layer.
#pragma once

#include <cstdint>

namespace simtsync {

using Addr = std::uint64_t;   // device address (generic 64-bit space)
using Pc = std::uint64_t;     // instruction address; instructions are 8 bytes apart
using Cycle = std::uint64_t;

inline constexpr Pc kInstSize = 8;
// PC that stands for "past the end of the function" (the virtual exit node).
inline constexpr Pc kExitPc = ~Pc{0};
// "No event ever": a next_event() answer.
inline constexpr Cycle kNever = ~Cycle{0};

struct Dim3 {
  std::uint32_t x = 1, y = 1, z = 1;
  std::uint64_t count() const { return std::uint64_t{x} * y * z; }
  bool operator==(const Dim3&) const = default;
};

}  // namespace simtsync
