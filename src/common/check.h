// Internal invariants. A failed CHECK is a simulator bug, never a user error.
#pragma once

#include <cstdio>
#include <cstdlib>

#define SIMTSYNC_CHECK(cond)                                                               \
  do {                                                                                     \
    if (!(cond)) {                                                                         \
      std::fprintf(stderr, "%s:%d: internal error: CHECK(%s) failed\n", __FILE__, __LINE__, \
                   #cond);                                                                 \
      std::abort();                                                                        \
    }                                                                                      \
  } while (0)
