// srad2 host driver: SRAD on 16x16 tiles; the host loop and validation are srad::drive.
#include "refutil/ref_util.h"
#include "srad2/srad_ref.h"

namespace simtsync::workloads {
namespace {

class Srad2 final : public Workload {
 public:
  std::string name() const override { return "srad2"; }
  std::string description() const override {
    return "speckle reducing anisotropic diffusion, 16x16 shared-memory tiles with halos (seed "
           "002 Table 2, Rodinia srad_v2)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps (16x16 threads) per CTA.
    return {{"rows", "image rows (multiple of 16)", 32, 256, 512, 16, 1 << 14},
            {"cols", "image columns (multiple of 16)", 32, 256, 512, 16, 1 << 14},
            {"iterations", "diffusion iterations", 2, 4, 10, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int rows = ref::i32(ctx, "rows"), cols = ref::i32(ctx, "cols");
    if (rows % 16 || cols % 16) return {false, "rows and cols must be multiples of 16"};
    return srad::drive(ctx, "srad2/srad2.ptx", "srad2_coef", "srad2_update",
                       {std::uint32_t(cols / 16), std::uint32_t(rows / 16), 1}, {16, 16, 1});
  }
};

}  // namespace

std::unique_ptr<Workload> make_srad2() {
  return std::make_unique<Srad2>();
}

}  // namespace simtsync::workloads
