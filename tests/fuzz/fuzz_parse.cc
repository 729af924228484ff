// libFuzzer target: the PTX front end. Whatever the parser accepts must print, and the printed
// text must parse again to a module that prints the same (the printer's round-trip contract).
#include <cstdlib>

#include "fuzz_input.h"
#include "ptx/parser.h"
#include "ptx/printer.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace simtsync;
  fuzz::diagnosed_ok([&] {
    const std::string_view text = fuzz::as_text(data, size);
    ptx::check_module_header(text, "fuzz.ptx");
    const ptx::Module m = ptx::parse_module(text, "fuzz.ptx");
    const std::string once = ptx::print_module(m);
    const std::string twice = ptx::print_module(ptx::parse_module(once, "printed.ptx"));
    if (once != twice) std::abort();  // printing is not a fixed point: a printer/parser bug
  });
  return 0;
}
