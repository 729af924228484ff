#!/usr/bin/env python3
"""Writes a large synthetic PTX kernel for measuring how analysis cost scales with size.

gen_big_ptx.py KIND BYTES OUT
  KIND straight: one basic block of loads (each thread its own element, so the values are
       divergent), arithmetic and stores, every value in a fresh register (the shape of fully
       unrolled nvcc output);
  KIND branchy: the same with an if-then on a loaded value (setp, guarded forward branch,
       label: a divergent branch) every few instructions, so the blocks are many and small.
  The shapes of issue 46 (each a way compilers write code that a per-node bit set of all
  definitions, or a walk of nested structure per level, makes quadratic):
  KIND accum: one accumulator register redefined on every line (`add.s32 %r1, %r1, 3`), as
       unrolled reductions do; one basic block.
  KIND branches: guarded forward branches on a divergent value, one per `if`
       (`setp; @%p1 bra L; add.s32 %r1, %r1, K; L:`): the accumulator is updated under each.
  KIND nested_ifs: `if`s nested inside each other (each level tests a divergent value, adds to
       the accumulator and opens the next level; the labels close in reverse order).
  KIND nested_loops: counted loops nested inside each other (each level a header, the next
       level, a latch that counts down and branches back), one accumulator.
  KIND live_across: a bank of registers defined at the top and read at the bottom, with
       if-thens (that define other registers) between: definitions live across many blocks.
  KIND spin_loops: sequential spin loops, each `while (atomicCAS(lock_i, 0, 1) != 0);` with the
       unlock after it: every loop is a candidate of Algorithm 1.
"""
import sys

HEAD = (".version 9.0\n.target sm_75\n.address_size 64\n\n"
        ".visible .entry big(.param .u64 a, .param .u64 b)\n{{\n"
        ".reg .pred %p<4>;\n.reg .b32 %r<{nregs}>;\n.reg .b64 %rd<{nrd}>;\n"
        "ld.param.u64 %rd3, [a];\nld.param.u64 %rd2, [b];\n"
        "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd4, %r0, 4;\nadd.s64 %rd1, %rd3, %rd4;\n")


class Body:
    def __init__(self, size):
        self.lines, self.nbytes, self.size = [], 0, size

    def add(self, *lines):
        for line in lines:
            self.lines.append(line)
            self.nbytes += len(line) + 1

    def full(self, reserve=0):
        return self.nbytes + reserve >= self.size


def straight_or_branchy(kind, size):
    b, r, i = Body(size), 1, 0
    while not b.full():
        off = 4 * (i % 1024)
        lines = [
            f"ld.global.u32 %r{r}, [%rd1+{off}];",
            f"add.s32 %r{r + 1}, %r{r}, %r{max(1, r - 2)};",
            f"st.global.u32 [%rd2+{off}], %r{r + 1};",
        ]
        if kind == "branchy":
            lines = [f"setp.gt.s32 %p1, %r{max(1, r - 1)}, {i % 97};",
                     f"@%p1 bra $L_{i};"] + lines + [f"$L_{i}:"]
        r += 2
        i += 1
        b.add(*lines)
    return b.lines, r + 2, 5


def accum(size):
    b = Body(size)
    b.add("ld.global.u32 %r1, [%rd1];")
    while not b.full(40):
        b.add("add.s32 %r1, %r1, 3;")
    b.add("st.global.u32 [%rd2], %r1;")
    return b.lines, 4, 5


def branches(size):
    b, i = Body(size), 0
    b.add("ld.global.u32 %r1, [%rd1];", "ld.global.u32 %r2, [%rd1+4];")
    while not b.full(40):
        b.add(f"setp.gt.s32 %p1, %r2, {i % 97};", f"@%p1 bra $L_{i};",
              f"add.s32 %r1, %r1, {i % 89 + 1};", f"$L_{i}:")
        i += 1
    b.add("st.global.u32 [%rd2], %r1;")
    return b.lines, 4, 5


def nested_ifs(size):
    b, depth = Body(size), 0
    b.add("ld.global.u32 %r1, [%rd1];", "ld.global.u32 %r2, [%rd1+4];")
    # Each level costs its opening lines now and its label later.
    while not b.full(40 + 12 * depth):
        b.add(f"setp.gt.s32 %p1, %r2, {depth % 97};", f"@%p1 bra $E_{depth};",
              f"add.s32 %r1, %r1, {depth % 89 + 1};")
        depth += 1
    for d in reversed(range(depth)):
        b.add(f"$E_{d}:")
    b.add("st.global.u32 [%rd2], %r1;")
    return b.lines, 4, 5


def nested_loops(size):
    b, depth = Body(size), 0
    b.add("ld.global.u32 %r1, [%rd1];")
    # Per level: `mov` counter and header label now, latch (sub, setp, bra) later.
    per_level_later = 80
    while not b.full(40 + per_level_later * depth):
        b.add(f"mov.u32 %r{depth + 3}, 2;", f"$H_{depth}:")
        depth += 1
    b.add("add.s32 %r1, %r1, 1;")
    for d in reversed(range(depth)):
        b.add(f"sub.s32 %r{d + 3}, %r{d + 3}, 1;", f"setp.ne.s32 %p1, %r{d + 3}, 0;",
              f"@%p1 bra $H_{d};")
    b.add("st.global.u32 [%rd2], %r1;")
    return b.lines, depth + 4, 5


def live_across(size):
    b, bank, i = Body(size), 64, 0
    for k in range(bank):
        b.add(f"ld.global.u32 %r{k + 3}, [%rd1+{4 * k}];")
    r = bank + 3
    while not b.full(40 + 40 * bank):
        b.add(f"setp.gt.s32 %p1, %r{3 + i % bank}, {i % 97};", f"@%p1 bra $L_{i};",
              f"add.s32 %r{r}, %r{3 + (i + 1) % bank}, {i % 89};",
              f"st.global.u32 [%rd2+{4 * (i % 1024)}], %r{r};", f"$L_{i}:")
        r += 1
        i += 1
    for k in range(bank):
        b.add(f"st.global.u32 [%rd2+{4 * k}], %r{k + 3};")
    return b.lines, r + 1, 5


def spin_loops(size):
    b, i = Body(size), 0
    while not b.full(40):
        off = 4 * (i % 4096)
        b.add(f"$S_{i}:", f"atom.global.cas.b32 %r1, [%rd3+{off}], 0, 1;",
              "setp.ne.s32 %p1, %r1, 0;", f"@%p1 bra $S_{i};",
              f"atom.global.exch.b32 %r2, [%rd3+{off}], 0;")
        i += 1
    return b.lines, 4, 5


def main():
    kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    gens = {"accum": accum, "branches": branches, "nested_ifs": nested_ifs,
            "nested_loops": nested_loops, "live_across": live_across, "spin_loops": spin_loops}
    if kind in ("straight", "branchy"):
        lines, nregs, nrd = straight_or_branchy(kind, size)
    elif kind in gens:
        lines, nregs, nrd = gens[kind](size)
    else:
        sys.exit(f"gen_big_ptx.py: unknown kind '{kind}' (straight, branchy, "
                 + ", ".join(gens) + ")")
    with open(out, "w") as f:
        f.write(HEAD.format(nregs=nregs, nrd=nrd) + "\n".join(lines) + "\nret;\n}\n")


if __name__ == "__main__":
    main()
