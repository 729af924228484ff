// tsp host driver: travelling-salesman hill climbing with a global lock on the best solution
// (seed 000 sec. V, Fig. 6b; paper: 76 cities, 3000 climbers). Cities are random points with
// rounded Euclidean distances. Every climber's generator is seeded by its number, so the CPU
// replays each climber exactly. Validation, independent of the order in which climbers take
// the lock: every climber's final tour and length equal the CPU replay, the global best tour
// is a permutation whose recomputed length is the reported best, and that best is the minimum
// over all climbers; the lock is free.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

std::uint32_t next_random(std::uint32_t& x) {  // xorshift32, as in tsp.cu
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  return x;
}

int tour_length(const std::vector<int>& dist, const int* t, int n) {
  int len = 0;
  for (int i = 0; i < n; ++i) len += dist[static_cast<std::size_t>(t[i] * n + t[(i + 1) % n])];
  return len;
}

// The climber of tsp.cu, step for step.
std::vector<int> climb(const std::vector<int>& dist, int n, std::uint32_t seed, int c) {
  std::uint32_t x = seed ^ (static_cast<std::uint32_t>(c) + 1u) * 0x9E3779B9u;
  if (x == 0) x = 1;
  std::vector<int> t(static_cast<std::size_t>(n));
  std::iota(t.begin(), t.end(), 0);
  for (int i = n - 1; i > 0; --i)
    std::swap(t[static_cast<std::size_t>(i)],
              t[next_random(x) % static_cast<std::uint32_t>(i + 1)]);
  auto d = [&](int a, int b) { return dist[static_cast<std::size_t>(a * n + b)]; };
  for (;;) {
    int best = 0, bi = -1, bj = -1;
    for (int i = 0; i + 2 < n; ++i)
      for (int j = i + 2; j < n; ++j) {
        if (i == 0 && j == n - 1) continue;
        const int a = t[static_cast<std::size_t>(i)], b = t[static_cast<std::size_t>(i + 1)];
        const int cc = t[static_cast<std::size_t>(j)], dd = t[static_cast<std::size_t>((j + 1) % n)];
        const int delta = d(a, cc) + d(b, dd) - d(a, b) - d(cc, dd);
        if (delta < best) {
          best = delta;
          bi = i;
          bj = j;
        }
      }
    if (bi < 0) break;
    std::reverse(t.begin() + bi + 1, t.begin() + bj + 1);
  }
  return t;
}

class Tsp final : public Workload {
 public:
  std::string name() const override { return "tsp"; }
  std::string description() const override {
    return "TSP 2-opt hill climbing, global lock on the best tour, lanes serialized (seed 000 "
           "Fig. 6b)";
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // Paper: 76 cities, 3000 climbers (seed 000 sec. V); 15 CTAs x 256 threads hold them all.
    return {{"cities", "cities", 10, 32, 76, 4, 4096},
            {"climbers", "hill climbers (random restarts)", 64, 512, 3000, 1, 1 << 24},
            {"ctas", "CTAs in the grid", 1, 2, 15, 1, 1 << 16},
            {"threads", "threads per CTA", 64, 128, 256, 32, 1024},
            {"seed", "city and climber generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = static_cast<int>(ctx.param("cities"));
    const int climbers = static_cast<int>(ctx.param("climbers"));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto seed = static_cast<std::uint32_t>(ctx.param("seed"));
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> coord(0, 999);
    std::vector<int> cx(static_cast<std::size_t>(n)), cy(cx.size());
    for (int i = 0; i < n; ++i) {
      cx[static_cast<std::size_t>(i)] = coord(rng);
      cy[static_cast<std::size_t>(i)] = coord(rng);
    }
    std::vector<int> dist(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b) {
        const double dx = cx[static_cast<std::size_t>(a)] - cx[static_cast<std::size_t>(b)];
        const double dy = cy[static_cast<std::size_t>(a)] - cy[static_cast<std::size_t>(b)];
        dist[static_cast<std::size_t>(a * n + b)] = static_cast<int>(std::lround(std::sqrt(dx * dx + dy * dy)));
      }

    auto& dev = ctx.device();
    const auto tour_cells = static_cast<std::size_t>(climbers) * static_cast<std::size_t>(n);
    Addr ddist = dev.upload(dist, "distances");
    Addr dtours = dev.malloc(tour_cells * sizeof(int), "climber tours");
    Addr dlen = dev.upload(std::vector<int>(static_cast<std::size_t>(climbers), -1), "climber lengths");
    Addr dbest = dev.upload(std::vector<int>{INT32_MAX}, "best length");
    Addr dbest_tour = dev.upload(std::vector<int>(static_cast<std::size_t>(n), -1), "best tour");
    Addr dmutex = dev.upload(std::vector<int>{0}, "global lock");
    int m = ctx.load("tsp/tsp.ptx");
    if (!ctx.launch(m, "tsp", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs().add(ddist).add(n).add(climbers).add(seed).add(dtours)
                        .add(dlen).add(dbest).add(dbest_tour).add(dmutex)))
      return {};

    auto tours = dev.download<int>(dtours, tour_cells);
    auto lens = dev.download<int>(dlen, static_cast<std::size_t>(climbers));
    const int best = dev.download<int>(dbest, 1)[0];
    auto best_tour = dev.download<int>(dbest_tour, static_cast<std::size_t>(n));
    if (dev.download<int>(dmutex, 1)[0] != 0) return {false, "the global lock is still held"};
    int min_len = INT32_MAX;
    for (int c = 0; c < climbers; ++c) {
      const std::vector<int> want = climb(dist, n, seed, c);
      const int* got = &tours[static_cast<std::size_t>(c) * static_cast<std::size_t>(n)];
      if (!std::equal(want.begin(), want.end(), got))
        return {false, fmt::format("climber {} ended on a different tour than the CPU replay", c)};
      const int len = tour_length(dist, want.data(), n);
      if (lens[static_cast<std::size_t>(c)] != len)
        return {false, fmt::format("climber {} reports length {}, expected {}", c,
                                   lens[static_cast<std::size_t>(c)], len)};
      min_len = std::min(min_len, len);
    }
    std::vector<int> sorted = best_tour;
    std::sort(sorted.begin(), sorted.end());
    for (int i = 0; i < n; ++i)
      if (sorted[static_cast<std::size_t>(i)] != i)
        return {false, "the best tour is not a permutation of the cities"};
    const int recomputed = tour_length(dist, best_tour.data(), n);
    if (recomputed != best)
      return {false, fmt::format("best tour has length {}, reported {}", recomputed, best)};
    if (best != min_len)
      return {false, fmt::format("best length {} is not the minimum {} over climbers", best, min_len)};
    return {true, fmt::format("{} cities, {} climbers, best tour length {} (min over climbers, "
                              "recomputed)", n, climbers, best)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_tsp() { return std::make_unique<Tsp>(); }

}  // namespace simtsync::workloads
