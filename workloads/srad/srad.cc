// srad host driver: SRAD with one thread per pixel on a 1D grid; the host loop and
// validation are srad::drive.
#include "refutil/ref_util.h"
#include "srad2/srad_ref.h"

namespace simtsync::workloads {
namespace {

class Srad final : public Workload {
 public:
  std::string name() const override { return "srad"; }
  std::string description() const override {
    return "speckle reducing anisotropic diffusion in global memory, no barriers (Rodinia "
           "srad_v1)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"rows", "image rows", 32, 256, 502, 4, 1 << 14},
            {"cols", "image columns", 32, 256, 458, 4, 1 << 14},
            {"iterations", "diffusion iterations", 2, 4, 10, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int rows = ref::i32(ctx, "rows"), cols = ref::i32(ctx, "cols");
    return srad::drive(ctx, "srad/srad.ptx", "srad_coef", "srad_update",
                       {ref::ceil_div(std::uint64_t(rows) * cols, 256), 1, 1}, {256, 1, 1});
  }
};

}  // namespace

std::unique_ptr<Workload> make_srad() {
  return std::make_unique<Srad>();
}

}  // namespace simtsync::workloads
