// libFuzzer target: the PTX front end. Whatever the parser accepts must print, and the printed
// text must parse again to a module that prints the same (the printer's round-trip contract).
#include <cstdlib>

#include "fuzz_input.h"
#include "ptx/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::with_module(data, size, [](const ptx::Module& m) {
    const std::string once = ptx::print_module(m);
    const std::string twice = ptx::print_module(ptx::parse_module(once, "printed.ptx"));
    if (once != twice) std::abort();  // printing is not a fixed point: a printer/parser bug
  });
  return 0;
}
