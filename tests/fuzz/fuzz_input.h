// Shared by the libFuzzer targets: the fuzz input as PTX text, and the one outcome a malformed
// input may have. A target returns normally or throws simtsync::Error (a diagnosed input, the
// exit code the tool would give); anything else (a sanitizer report, another exception, a
// timeout, running out of memory) is a finding.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "common/error.h"
#include "ptx/parser.h"

namespace simtsync::fuzz {

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

// Runs `body` and swallows the diagnosed errors; every other exception escapes to libFuzzer,
// which reports it as a crash with the input that caused it.
template <class Body>
void diagnosed_ok(Body&& body) {
  try {
    body();
  } catch (const Error&) {
  }
}

// The common first stage: the input checked (.version first) and parsed as a module named
// fuzz.ptx, then `body(module)`; diagnosed errors from either are swallowed.
template <class Body>
void with_module(const std::uint8_t* data, std::size_t size, Body&& body) {
  diagnosed_ok([&] {
    const std::string_view text = as_text(data, size);
    ptx::check_module_header(text, "fuzz.ptx");
    const ptx::Module m = ptx::parse_module(text, "fuzz.ptx");
    body(m);
  });
}

}  // namespace simtsync::fuzz
