// libFuzzer target: PTX the parser accepts, decoded for execution (operands resolved to register
// slots, variables mapped into global memory). The decoder must diagnose, never index past what
// the parser guarantees.
#include "func/global_memory.h"
#include "func/program.h"
#include "fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::with_module(data, size, [](const ptx::Module& m) {
    func::GlobalMemory mem;
    const func::Program program(m, mem);
    (void)program.total_regs();
  });
  return 0;
}
