// The host memory a simulation may use (sim.host_memory_budget_mb) and the error for going
// over it. An estimate above the budget is refused before anything is allocated: a config with
// huge caches is a usage error (exit 2) naming the figure and the keys; a launch throws
// HostMemoryError, a std::bad_alloc with a message, so that every path that already turns
// std::bad_alloc into a message and an exit code (exit 2 for simtsync, cudaErrorMemoryAllocation
// for the CUDA runtime) handles both the same way.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <new>
#include <string>
#include <utility>

namespace simtsync {

class HostMemoryError : public std::bad_alloc {
 public:
  explicit HostMemoryError(std::string what) : what_(std::move(what)) {}
  const char* what() const noexcept override { return what_.c_str(); }

 private:
  std::string what_;
};

// This machine's physical memory in bytes (0 when unknown).
inline std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0
             ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size)
             : 0;
}

// The budget in bytes for sim.host_memory_budget_mb = `mb` (0: three quarters of physical
// memory; no limit when that is unknown).
inline std::uint64_t host_memory_budget(std::uint64_t mb) {
  if (mb > 0) return mb > (~std::uint64_t{0} >> 20) ? ~std::uint64_t{0} : mb << 20;
  const std::uint64_t phys = physical_memory_bytes();
  return phys ? phys / 4 * 3 : ~std::uint64_t{0};
}

// The message for a std::bad_alloc that no estimate foresaw.
inline std::string out_of_host_memory(const std::bad_alloc& e) {
  if (dynamic_cast<const HostMemoryError*>(&e)) return e.what();
  return std::string("out of host memory (") + e.what() +
         "): the config, launch or workload needs more memory than this machine has; lower "
         "their sizes";
}

}  // namespace simtsync
