// nw host drivers: Needleman-Wunsch alignment scores (seed 001 sec. 6; seed 000 sec. V NW1/NW2).
// The grid is (n+1) x (n+1) with n = 31 x tiles (seed 001 Table 3: 31x31 ... 1984x1984); row 0
// and column 0 hold the gap penalties, every other cell
//   S(i,j) = max(S(i-1,j-1) + p(i,j), S(i-1,j) - penalty, S(i,j-1) - penalty)
// with p(i,j) the substitution score of two random sequences. Variants:
//   nw      lock-based dataflow tiles (nw.cu): every nw1 launch, then every nw2 launch
//   nw1     only the nw1 launches (upper-left triangle of tiles)
//   nw2     the nw2 launches (lower-right triangle) after the upper-left triangle, which the
//           data-parallel nw_dp1 computes (the prerequisite; cheap, so the statistics are NW2's)
//   nw_dp   data-parallel wavefront tiles (nw_dp.cu), both triangles
//   nw_tiny dataflow tiles synchronized with the shared-memory lock bits (nw_tiny.cu, seed 001
//           Listing 15), both triangles: every nw_tiny1 launch, then every nw_tiny2 launch
// Validation: every computed cell equals the CPU dynamic program exactly (the result does not
// depend on the order in which actors fire); cells the run does not own keep their sentinel.
#include <fmt/format.h>

#include <algorithm>
#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

constexpr int kCells = 31;  // cells per tile side (a 32x32 CTA with its halo)
constexpr std::int32_t kUntouched = -0x3fffffff;

enum class Part { kBoth, kFirst, kSecond };
// How the cells of a tile wait for each other: atomic spin locks (nw.cu), a data-parallel
// wavefront (nw_dp.cu), lock bits (nw_tiny.cu).
enum class Sync { kAtomicLock, kDataParallel, kTinyLock };

class NeedlemanWunsch final : public Workload {
 public:
  NeedlemanWunsch(std::string name, Sync sync, Part part)
      : name_(std::move(name)), dataflow_(sync != Sync::kDataParallel), sync_(sync), part_(part) {}

  std::string name() const override { return name_; }
  std::string description() const override {
    if (!dataflow_)
      return "Needleman-Wunsch, data-parallel wavefront per tile (seed 001 Fig. 6)";
    if (sync_ == Sync::kTinyLock)
      return "Needleman-Wunsch dataflow tiles synchronized with shared-memory lock bits, NW1 "
             "then NW2 (seed 001 Listing 15, tiny-lock)";
    switch (part_) {
      case Part::kFirst:
        return "Needleman-Wunsch lock-based dataflow, kernel NW1 only (upper-left tiles)";
      case Part::kSecond:
        return "Needleman-Wunsch lock-based dataflow, kernel NW2 (upper-left tiles first, "
               "data-parallel)";
      default:
        return "Needleman-Wunsch lock-based dataflow tiles, NW1 then NW2 (seed 001 Listing 14, "
               "seed 000 sec. V)";
    }
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // Paper: seed 001 Table 3 runs 31x31 ... 1984x1984 (1 ... 64 tiles per side).
    // Test: one tile (31x31; NW2 then has no tile), two for nw2, the data-parallel and the
    // tiny-lock versions (both kernels run).
    const std::int64_t test_tiles = part_ == Part::kSecond || sync_ != Sync::kAtomicLock ? 2 : 1;
    return {{"tiles", "tiles of 31x31 cells per grid side (grid = 31 x tiles)", test_tiles, 4, 64,
             part_ == Part::kSecond ? 2 : 1, 256},
            {"penalty", "gap penalty k", 10, 10, 10, 0, 1000},
            {"seed", "sequence generator seed", 1, 1, 1, 0, INT32_MAX}};
  }

  Validation run(WorkloadContext& ctx) const override {
    const int tiles = static_cast<int>(ctx.param("tiles"));
    const int penalty = static_cast<int>(ctx.param("penalty"));
    const int n = kCells * tiles, stride = n + 1;
    const auto cells = static_cast<std::size_t>(stride) * static_cast<std::size_t>(stride);
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    // A symmetric substitution table over 24 symbols in the range of BLOSUM62.
    int sub[24][24];
    std::uniform_int_distribution<int> same(4, 11), diff(-4, 2), sym(0, 23);
    for (int a = 0; a < 24; ++a)
      for (int b = 0; b <= a; ++b) sub[a][b] = sub[b][a] = a == b ? same(rng) : diff(rng);
    std::vector<int> s1(static_cast<std::size_t>(n) + 1), s2(s1.size());
    for (int i = 1; i <= n; ++i) s1[static_cast<std::size_t>(i)] = sym(rng);
    for (int j = 1; j <= n; ++j) s2[static_cast<std::size_t>(j)] = sym(rng);
    auto at = [stride](int i, int j) {
      return static_cast<std::size_t>(i) * static_cast<std::size_t>(stride) +
             static_cast<std::size_t>(j);
    };
    std::vector<std::int32_t> ref(cells, 0), score(cells, kUntouched);
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j)
        ref[at(i, j)] = sub[s1[static_cast<std::size_t>(i)]][s2[static_cast<std::size_t>(j)]];
    for (int i = 0; i <= n; ++i) score[at(i, 0)] = score[at(0, i)] = -i * penalty;
    std::vector<std::int32_t> expect = score;
    for (int i = 1; i <= n; ++i)
      for (int j = 1; j <= n; ++j)
        expect[at(i, j)] = std::max({expect[at(i - 1, j - 1)] + ref[at(i, j)],
                                     expect[at(i - 1, j)] - penalty,
                                     expect[at(i, j - 1)] - penalty});

    auto& dev = ctx.device();
    Addr dscore = dev.upload(score, "score grid");
    Addr dref = dev.upload(ref, "substitution scores");
    // nw2's prerequisite, the upper-left triangle, is computed by the data-parallel kernel, so
    // that nearly all of nw2's statistics are NW2's own (the cells are the same).
    const bool dp_first = !dataflow_ || part_ == Part::kSecond;
    const bool dp_second = !dataflow_;
    const Dim3 df_block{32, 32, 1}, dp_block{32, 1, 1};
    const bool tiny = sync_ == Sync::kTinyLock;
    const char* df_ptx = tiny ? "nw/nw_tiny.ptx" : "nw/nw.ptx";
    const char* df1 = tiny ? "nw_tiny1" : "nw1";
    const char* df2 = tiny ? "nw_tiny2" : "nw2";
    int m = ctx.load(dp_first ? "nw/nw_dp.ptx" : df_ptx);
    for (int d = 1; d <= tiles; ++d)
      if (!ctx.launch(m, dp_first ? "nw_dp1" : df1, {static_cast<std::uint32_t>(d), 1, 1},
                      dp_first ? dp_block : df_block,
                      func::KernelArgs().add(dscore).add(dref).add(stride).add(penalty).add(d)))
        return {};
    // A second module is loaded only after the first module's last launch: func::Program
    // places every module's parameter buffers at the same addresses.
    if (dp_first != dp_second) m = ctx.load(df_ptx);
    if (part_ != Part::kFirst)
      for (int d = tiles - 1; d >= 1; --d)
        if (!ctx.launch(
                m, dp_second ? "nw_dp2" : df2, {static_cast<std::uint32_t>(d), 1, 1},
                dp_second ? dp_block : df_block,
                func::KernelArgs().add(dscore).add(dref).add(stride).add(penalty).add(d).add(
                    tiles)))
          return {};

    auto got = dev.download<std::int32_t>(dscore, cells);
    std::size_t checked = 0;
    for (int i = 0; i <= n; ++i)
      for (int j = 0; j <= n; ++j) {
        // Cells of tiles on anti-diagonals >= tiles belong to NW2.
        const bool owned = part_ != Part::kFirst || i == 0 || j == 0 ||
                           (i - 1) / kCells + (j - 1) / kCells < tiles;
        const std::int32_t want = owned ? expect[at(i, j)] : kUntouched;
        if (got[at(i, j)] != want)
          return {false, fmt::format("S({},{}) = {}, expected {}", i, j, got[at(i, j)], want)};
        checked += owned && i > 0 && j > 0;
      }
    return {true, fmt::format("{}x{} grid, {} cells equal the CPU dynamic program, score {}", n,
                              n, checked, got[at(n, n)] == kUntouched ? expect[at(n, n)] : got[at(n, n)])};
  }

 private:
  std::string name_;
  bool dataflow_;
  Sync sync_;
  Part part_;
};

}  // namespace

std::unique_ptr<Workload> make_nw() {
  return std::make_unique<NeedlemanWunsch>("nw", Sync::kAtomicLock, Part::kBoth);
}
std::unique_ptr<Workload> make_nw1() {
  return std::make_unique<NeedlemanWunsch>("nw1", Sync::kAtomicLock, Part::kFirst);
}
std::unique_ptr<Workload> make_nw2() {
  return std::make_unique<NeedlemanWunsch>("nw2", Sync::kAtomicLock, Part::kSecond);
}
std::unique_ptr<Workload> make_nw_dp() {
  return std::make_unique<NeedlemanWunsch>("nw_dp", Sync::kDataParallel, Part::kBoth);
}
std::unique_ptr<Workload> make_nw_tiny() {
  return std::make_unique<NeedlemanWunsch>("nw_tiny", Sync::kTinyLock, Part::kBoth);
}

}  // namespace simtsync::workloads
