# Counts the SASS instructions of one kernel in a sm_75 cubin without a disassembler: Turing
# encodes every instruction in 16 bytes with the opcode in the low 12 bits; trailing NOPs
# (0x918, alignment padding) and the end-of-kernel BRA-to-self (0x947) are not counted.
import subprocess, sys, re
cubin, kernel = sys.argv[1], sys.argv[2]
out = subprocess.run(['readelf', '-SW', cubin], capture_output=True, text=True).stdout
for line in out.splitlines():
    m = re.search(r'\]\s+\.text\.(\S+)\s+PROGBITS\s+\S+\s+(\S+)\s+(\S+)', line)
    if m and m.group(1) == kernel:
        off, size = int(m.group(2), 16), int(m.group(3), 16)
        data = open(cubin, 'rb').read()[off:off + size]
        ops = [int.from_bytes(data[i:i + 8], 'little') & 0xfff for i in range(0, size, 16)]
        while ops and ops[-1] == 0x918: ops.pop()
        if ops and ops[-1] == 0x947: ops.pop()
        print(len(ops))
        break
