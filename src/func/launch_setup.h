// Launch bookkeeping shared by the functional runner and the timing model: the launch shape,
// creating a CTA and its warps in their initial state (thread ids, reconvergence unit at the
// kernel entry, zeroed shared memory and registers) and destroying them when it completes.
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

// Starts a launch's tables: every CTA index and global warp id exists, none is created.
void begin_grid(const LaunchInfo& li, CtaTable& ctas, WarpTable& warps);

// Creates the launch's next CTA (index ctas.created()) and its warps in their initial state.
// `regs`: zeroed storage for the registers of the CTA's warps (warps_per_cta * total_regs *
// warp_size words, warp-major), or nullptr for each warp to allocate its own. The timing model
// creates a CTA when it is dispatched, the functional mode while it has room for more resident
// CTAs, and both destroy it when it completes, so resident CTAs, not the grid, set the memory.
Cta& create_cta(const Program& prog, const LaunchInfo& li, CtaTable& ctas, WarpTable& warps,
                std::uint64_t* regs = nullptr);

// Destroys a completed CTA and its warps.
void destroy_cta(std::size_t cta, CtaTable& ctas, WarpTable& warps);

// Creates every CTA of the grid (begin_grid, then create_cta for each).
void create_grid(const Program& prog, const LaunchInfo& li, CtaTable& ctas, WarpTable& warps);

}  // namespace simtsync::func
