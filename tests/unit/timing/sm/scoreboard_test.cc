// Scoreboard tests on hand-built decoded instructions.
#include "timing/sm/scoreboard.h"

#include <gtest/gtest.h>

namespace simtsync::sm {
namespace {

using func::ExecInst;
using func::kNoReg;
using func::MemRef;
using func::Src;

// add r3 <- r1, r2 (r2 an immediate when imm is set)
ExecInst alu(std::uint32_t d, std::uint32_t a, std::uint32_t b, bool imm = false) {
  ExecInst in;
  in.op = ptx::Opcode::kAdd;
  in.ndst = 1;
  in.dst[0] = d;
  in.nsrc = 2;
  in.src[0].kind = Src::Kind::kReg;
  in.src[0].reg = a;
  in.src[1].kind = imm ? Src::Kind::kImm : Src::Kind::kReg;
  in.src[1].reg = b;
  in.src[1].imm = b;
  return in;
}

TEST(Scoreboard, EmptyHasNoHazard) {
  Scoreboard sb;
  EXPECT_TRUE(sb.empty());
  EXPECT_FALSE(sb.hazard(alu(3, 1, 2)));
}

TEST(Scoreboard, HazardOnASource) {
  Scoreboard sb;
  sb.reserve(2);
  EXPECT_TRUE(sb.pending(2));
  EXPECT_TRUE(sb.hazard(alu(3, 1, 2)));
  EXPECT_TRUE(sb.hazard(alu(3, 2, 1)));
  EXPECT_FALSE(sb.hazard(alu(3, 1, 4)));
  // An immediate whose value equals a pending register number is not a register read.
  EXPECT_FALSE(sb.hazard(alu(3, 1, 2, /*imm=*/true)));
}

TEST(Scoreboard, HazardOnADestination) {
  Scoreboard sb;
  sb.reserve(3);
  EXPECT_TRUE(sb.hazard(alu(3, 1, 2)));  // write after write
  ExecInst two = alu(5, 1, 2);
  two.ndst = 2;
  two.dst[1] = 3;
  EXPECT_TRUE(sb.hazard(two));
  two.ndst = 1;  // the second destination is not part of the instruction any more
  EXPECT_FALSE(sb.hazard(two));
}

TEST(Scoreboard, HazardOnTheGuardPredicate) {
  Scoreboard sb;
  sb.reserve(40);
  ExecInst in = alu(3, 1, 2);
  EXPECT_FALSE(sb.hazard(in));
  in.guard = 40;
  EXPECT_TRUE(sb.hazard(in));
  in.guard_negate = true;
  EXPECT_TRUE(sb.hazard(in));
}

TEST(Scoreboard, HazardOnTheAddressRegister) {
  Scoreboard sb;
  sb.reserve(7);
  ExecInst ld;
  ld.op = ptx::Opcode::kLd;
  ld.ndst = 1;
  ld.dst[0] = 8;
  ld.mem.base = MemRef::Base::kReg;
  ld.mem.reg = 7;
  EXPECT_TRUE(sb.hazard(ld));
  ld.mem.base = MemRef::Base::kAbsolute;  // the register field is then meaningless
  EXPECT_FALSE(sb.hazard(ld));
  ld.mem.base = MemRef::Base::kReg;
  ld.mem.reg = 6;
  EXPECT_FALSE(sb.hazard(ld));
}

TEST(Scoreboard, ReleaseClearsOneWriteAtATime) {
  Scoreboard sb;
  sb.reserve(2);
  sb.reserve(2);  // two writes in flight
  sb.reserve(5);
  sb.release(2);
  EXPECT_TRUE(sb.pending(2));
  EXPECT_TRUE(sb.hazard(alu(3, 2, 1)));
  sb.release(2);
  EXPECT_FALSE(sb.pending(2));
  EXPECT_FALSE(sb.hazard(alu(3, 2, 1)));
  EXPECT_TRUE(sb.pending(5));
  sb.release(9);  // not pending: no effect
  EXPECT_TRUE(sb.pending(5));
  sb.release(5);
  EXPECT_TRUE(sb.empty());
}

TEST(Scoreboard, SinkDestinationsAreNeverReserved) {
  Scoreboard sb;
  sb.reserve(kNoReg);
  EXPECT_TRUE(sb.empty());
  EXPECT_FALSE(sb.pending(kNoReg));
}

TEST(Scoreboard, ClearDropsEverything) {
  Scoreboard sb;
  sb.reserve(1);
  sb.reserve(2);
  sb.clear();
  EXPECT_TRUE(sb.empty());
  EXPECT_FALSE(sb.hazard(alu(1, 2, 3)));
}

}  // namespace
}  // namespace simtsync::sm
