// ss host driver: cosine similarity of every pair of ndocs sparse non-negative feature vectors
// of length dim, compared with a double-precision CPU computation.
#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class SimilarityScore final : public Workload {
 public:
  std::string name() const override { return "ss"; }
  std::string description() const override {
    return "pairwise cosine similarity of documents, 16x16 shared-memory tiles (seed 002 "
           "Table 2, Mars)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 6 CTAs per SM, 8 warps (16x16 threads) per CTA.
    return {{"docs", "documents (multiple of 16)", 32, 192, 512, 16, 1 << 14},
            {"dim", "features per document (multiple of 16)", 64, 256, 512, 16, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int nd = ref::i32(ctx, "docs"), dim = ref::i32(ctx, "dim");
    if (nd % 16 || dim % 16) return {false, "docs and dim must be multiples of 16"};
    auto rng = ref::rng_of(ctx);
    auto docs = ref::uniform_floats(std::size_t(nd) * dim, 0.0f, 1.0f, rng);
    std::bernoulli_distribution zero(0.7);
    for (auto& x : docs)
      if (zero(rng)) x = 0.0f;
    auto& dev = ctx.device();
    Addr dd = dev.upload(docs, "documents");
    Addr ds = dev.malloc(std::size_t(nd) * nd * 4, "similarities");
    int m = ctx.load("ss/ss.ptx");
    const auto t = std::uint32_t(nd / 16);
    if (!ctx.launch(m, "ss", {t, t, 1}, {16, 16, 1},
                    func::KernelArgs().add(dd).add(nd).add(dim).add(ds)))
      return {};
    auto got = dev.download<float>(ds, std::size_t(nd) * nd);
    std::vector<double> norm(nd), want(got.size());
    for (int i = 0; i < nd; ++i) {
      for (int f = 0; f < dim; ++f) norm[i] += double(docs[i * dim + f]) * docs[i * dim + f];
      norm[i] = std::sqrt(norm[i]);
    }
    for (int i = 0; i < nd; ++i)
      for (int j = 0; j < nd; ++j) {
        double dot = 0;
        for (int f = 0; f < dim; ++f) dot += double(docs[i * dim + f]) * docs[j * dim + f];
        const double den = norm[i] * norm[j];
        want[std::size_t(i) * nd + j] = den > 0 ? dot / den : 0.0;
      }
    return ref::compare_close("similarities", got, want, 1e-5, 1e-4);
  }
};

}  // namespace

std::unique_ptr<Workload> make_ss() {
  return std::make_unique<SimilarityScore>();
}

}  // namespace simtsync::workloads
