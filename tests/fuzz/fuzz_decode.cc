// libFuzzer target: PTX the parser accepts, decoded for execution (operands resolved to register
// slots, variables mapped into global memory). The decoder must diagnose, never index past what
// the parser guarantees.
#include "func/global_memory.h"
#include "func/program.h"
#include "fuzz_input.h"
#include "ptx/parser.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::diagnosed_ok([&] {
    const std::string_view text = fuzz::as_text(data, size);
    ptx::check_module_header(text, "fuzz.ptx");
    const ptx::Module m = ptx::parse_module(text, "fuzz.ptx");
    func::GlobalMemory mem;
    const func::Program program(m, mem);
    (void)program.total_regs();
  });
  return 0;
}
