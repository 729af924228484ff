// libFuzzer target: the SSDE transform (`simtsync transform`). Its output must be PTX the parser
// accepts again.
#include <cstdlib>

#include "fuzz_input.h"
#include "ptx/printer.h"
#include "transform/ssde.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::with_module(data, size, [](const ptx::Module& m) {
    const transform::SsdeResult r = transform::ssde(m, {});
    const std::string out = ptx::print_module(r.module);
    try {
      (void)ptx::parse_module(out, "transformed.ptx");
    } catch (const Error&) {
      std::abort();  // the transform wrote PTX the parser rejects: a transform bug
    }
  });
  return 0;
}
