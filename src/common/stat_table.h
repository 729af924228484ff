// Statistics declared once per component: a table of the counters of a plain stats struct
// (name, description, how to sum, where the counter lives). Model code only increments the
// struct's fields; summing over SMs and launches, the text table, JSON and CSV all follow from
// the table (src/stats/declared.h). A counter array (per unit, per stall reason) is one row
// with labels.
#pragma once

#include <cstdint>
#include <span>

namespace simtsync {

// How a counter combines over schedulers, SMs and launches.
enum class StatSum : std::uint8_t { kAdd, kMax };

template <class T>
struct StatField {
  const char* name;
  const char* description;
  StatSum sum;
  unsigned count;             // 1: a scalar; otherwise an array with `labels`
  const char* const* labels;  // count names (arrays only)
  std::uint64_t* (*at)(T&);   // the first counter
  bool shown = false;         // also a row of the run's text table (SIMTSYNC_STAT_SHOWN)
};

// How a derived value shows as a row of the run's text table (kHidden: JSON and CSV only).
enum class StatShow : std::uint8_t { kHidden, kCount, kFixed1, kFixed3, kPercent };

// A value derived from a struct's counters after they are summed (a rate, an average): declared
// once beside the counters, it follows them into JSON and CSV, and into the text table when
// `show` says how. A dotted name ("avg_latency.l1") nests one level in JSON.
template <class T>
struct StatDerived {
  const char* name;
  const char* description;
  double (*value)(const T&);
  StatShow show = StatShow::kHidden;
};

// a / b, 0 when b is 0.
inline double stat_ratio(std::uint64_t a, std::uint64_t b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

// Adds (or maxes) every declared counter of `from` into `into`.
template <class T>
void accumulate(T& into, const T& from, std::span<const StatField<T>> decl) {
  for (const auto& f : decl) {
    std::uint64_t* a = f.at(into);
    const std::uint64_t* b = f.at(const_cast<T&>(from));
    for (unsigned i = 0; i < f.count; ++i)
      a[i] = f.sum == StatSum::kAdd ? a[i] + b[i] : (a[i] > b[i] ? a[i] : b[i]);
  }
}

}  // namespace simtsync

// Table rows: STAT(Struct, field, description) for a scalar counter, STAT_SHOWN for one that is
// also a row of the text table, STAT_MAX for one that keeps the maximum,
// STAT_ARRAY(Struct, field, labels, description) for an array (STAT_ARRAY_SHOWN: in the table).
// clang-format off
#define SIMTSYNC_STAT(T, f, desc)                                      \
  ::simtsync::StatField<T> { #f, desc, ::simtsync::StatSum::kAdd, 1, nullptr, \
                             [](T& s) { return &s.f; } }
#define SIMTSYNC_STAT_SHOWN(T, f, desc)                                \
  ::simtsync::StatField<T> { #f, desc, ::simtsync::StatSum::kAdd, 1, nullptr, \
                             [](T& s) { return &s.f; }, true }
#define SIMTSYNC_STAT_MAX(T, f, desc)                                  \
  ::simtsync::StatField<T> { #f, desc, ::simtsync::StatSum::kMax, 1, nullptr, \
                             [](T& s) { return &s.f; } }
#define SIMTSYNC_STAT_ARRAY(T, f, labels, desc)                                                 \
  ::simtsync::StatField<T> {                                                                    \
    #f, desc, ::simtsync::StatSum::kAdd, static_cast<unsigned>(std::size(labels)), labels,      \
        [](T& s) { return &s.f[0]; }                                                            \
  }
#define SIMTSYNC_STAT_ARRAY_SHOWN(T, f, labels, desc)                                           \
  ::simtsync::StatField<T> {                                                                    \
    #f, desc, ::simtsync::StatSum::kAdd, static_cast<unsigned>(std::size(labels)), labels,      \
        [](T& s) { return &s.f[0]; }, true                                                      \
  }
// clang-format on
