// Launch bookkeeping shared by the functional runner and the timing model: the launch shape,
// CTA and warp objects, and putting one CTA into its initial state (thread ids, reconvergence
// unit at the kernel entry, zeroed shared memory and registers).
#pragma once

#include <vector>

#include "func/cta.h"
#include "func/executor.h"
#include "func/warp.h"

namespace simtsync::func {

LaunchInfo make_launch_info(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                            unsigned warp_size, std::uint32_t dynamic_shared);

// Zeroed storage for the registers of every warp of a launch, in one mapping that asks for
// transparent huge pages: with tens of thousands of resident warps, first-touch page faults
// otherwise dominate the functional mode.
class RegisterArena {
 public:
  explicit RegisterArena(std::size_t words);
  ~RegisterArena();
  RegisterArena(const RegisterArena&) = delete;
  RegisterArena& operator=(const RegisterArena&) = delete;
  std::uint64_t* data() { return data_; }

 private:
  std::uint64_t* data_ = nullptr;
  std::size_t bytes_ = 0;
  bool mapped_ = false;
  std::vector<std::uint64_t> fallback_;
};

// Creates every CTA and warp object of the grid. With `allocate` false, warps get their
// register and shared storage only when setup_cta() runs (the timing model dispatches CTAs
// over time and frees them when they complete).
void create_grid(const Program& prog, const LaunchInfo& li, bool allocate, std::vector<Cta>& ctas,
                 std::vector<Warp>& warps, RegisterArena* arena = nullptr);

// Puts CTA `c` into its initial state (allocating storage if needed).
void setup_cta(const Program& prog, const LaunchInfo& li, Cta& c, std::vector<Warp>& warps);

// Frees the storage of a completed CTA.
void release_cta(Cta& c, std::vector<Warp>& warps);

}  // namespace simtsync::func
