// bfs host driver: BFS from node 0 of a random graph (each node gets 1..2*degree-1 random
// out-edges); every node's level (-1: unreachable) must equal a CPU BFS.
#include <queue>

#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

class Bfs final : public Workload {
 public:
  std::string name() const override { return "bfs"; }
  std::string description() const override {
    return "level-synchronous breadth-first search, data-dependent edge loops (Rodinia bfs)";
  }
  std::string suite() const override { return "synchronization-free"; }
  std::vector<ParamSpec> params() const override {
    return {{"nodes", "graph nodes", 2048, 65536, 1000000, 2, 1 << 24},
            {"degree", "mean out-degree", 4, 6, 6, 1, 1 << 10},
            {"threads", "threads per CTA", 256, 256, 512, 32, 1024},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "nodes"), deg = ref::i32(ctx, "degree");
    const auto threads = ref::u32(ctx, "threads");
    auto rng = ref::rng_of(ctx);
    std::uniform_int_distribution<int> dd(1, 2 * deg - 1), node(0, n - 1);
    std::vector<int> start(n), degree(n), edges;
    for (int v = 0; v < n; ++v) {
      start[v] = int(edges.size());
      for (int e = dd(rng); e > 0; --e) edges.push_back(node(rng));
      degree[v] = int(edges.size()) - start[v];
    }
    std::vector<std::uint8_t> frontier(n, 0), visited(n, 0);
    std::vector<int> cost(n, -1);
    frontier[0] = visited[0] = 1, cost[0] = 0;
    auto& dev = ctx.device();
    Addr ds = dev.upload(start), dd_ = dev.upload(degree), de = dev.upload(edges);
    Addr df = dev.upload(frontier), dnext = dev.upload(std::vector<std::uint8_t>(n, 0));
    Addr dv = dev.upload(visited), dc = dev.upload(cost), dmore = dev.malloc(4);
    int m = ctx.load("bfs/bfs.ptx");
    const Dim3 grid{ref::ceil_div(n, threads), 1, 1}, block{threads, 1, 1};
    int levels = 0;
    for (int more = 1; more; ++levels) {
      more = 0;
      dev.copy_to_device(dmore, &more, 4);
      if (!ctx.launch(
              m, "bfs_expand", grid, block,
              func::KernelArgs().add(ds).add(dd_).add(de).add(df).add(dnext).add(dv).add(dc).add(
                  n)))
        return {};
      if (!ctx.launch(m, "bfs_commit", grid, block,
                      func::KernelArgs().add(df).add(dnext).add(dv).add(dmore).add(n)))
        return {};
      more = dev.download<int>(dmore, 1)[0];
    }
    std::vector<int> want(n, -1);
    std::queue<int> q;
    q.push(0), want[0] = 0;
    while (!q.empty()) {
      const int v = q.front();
      q.pop();
      for (int e = start[v]; e < start[v] + degree[v]; ++e)
        if (want[edges[e]] < 0) want[edges[e]] = want[v] + 1, q.push(edges[e]);
    }
    auto v = ref::compare_exact("levels", dev.download<int>(dc, n), want);
    if (v.ok) v.message += fmt::format(" ({} level launches)", levels);
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_bfs() {
  return std::make_unique<Bfs>();
}

}  // namespace simtsync::workloads
