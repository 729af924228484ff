#!/usr/bin/env python3
"""Writes a large synthetic PTX kernel for measuring how analysis cost scales with size.

gen_big_ptx.py KIND BYTES OUT
  KIND straight: one basic block of loads (each thread its own element, so the values are
       divergent), arithmetic and stores, every value in a fresh register (the shape of fully
       unrolled nvcc output);
  KIND branchy: the same with an if-then on a loaded value (setp, guarded forward branch,
       label: a divergent branch) every few instructions, so the blocks are many and small.
"""
import sys


def main():
    kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    body = []
    nbytes = 0
    r = 1
    i = 0
    while nbytes < size:
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
        for line in lines:
            body.append(line)
            nbytes += len(line) + 1
    head = (".version 9.0\n.target sm_75\n.address_size 64\n\n"
            ".visible .entry big(.param .u64 a, .param .u64 b)\n{\n"
            f".reg .pred %p<2>;\n.reg .b32 %r<{r + 2}>;\n.reg .b64 %rd<5>;\n"
            "ld.param.u64 %rd3, [a];\nld.param.u64 %rd2, [b];\n"
            "mov.u32 %r0, %tid.x;\nmul.wide.u32 %rd4, %r0, 4;\nadd.s64 %rd1, %rd3, %rd4;\n")
    with open(out, "w") as f:
        f.write(head + "\n".join(body) + "\nret;\n}\n")


if __name__ == "__main__":
    main()
