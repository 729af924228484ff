// PCs as numbers for the reconvergence units' tests: P(i) is instruction i of a function at 0.
#pragma once

#include "common/types.h"

namespace simtsync::simt::test_pcs {

constexpr Pc P(int i) {
  return static_cast<Pc>(i) * kInstSize;
}

}  // namespace simtsync::simt::test_pcs
