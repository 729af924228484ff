#include "func/warp.h"

#include <cstring>

#include "common/error.h"

namespace simtsync::func {

void Warp::grow_local(std::uint64_t need) {
  // Stack overflow guard: 1 MiB of local memory per thread is far beyond any sane kernel.
  constexpr std::uint64_t kMaxLocal = 1 << 20;
  if (need > kMaxLocal)
    throw Error(ExitCode::kKernelFault,
                "local memory of a thread exceeds 1 MiB (runaway recursion?)");
  std::uint64_t stride = std::max<std::uint64_t>(256, local_stride_);
  while (stride < need) stride *= 2;
  std::vector<std::uint8_t> grown(stride * size_, 0);
  for (unsigned l = 0; l < size_ && local_stride_ > 0; ++l)
    std::memcpy(&grown[l * stride], &local_[l * local_stride_], local_stride_);
  local_.swap(grown);
  local_stride_ = stride;
}

}  // namespace simtsync::func
