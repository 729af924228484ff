// bt host driver: builds a B+ tree (ORDER 256, nodes filled with `fill` entries) over n
// distinct keys bottom-up, looks up `queries` keys (half present, half random) and compares every
// result with a std::map lookup.
#include <map>

#include "refutil/ref_util.h"

namespace simtsync::workloads {
namespace {

constexpr int kOrder = 256;
struct BNode {  // layout of `struct BNode` in bt.cu
  std::int32_t keys[kOrder];
  std::int32_t ptrs[kOrder];
  std::int32_t nkeys;
  std::int32_t pad[3];
};

class BPlusTree final : public Workload {
 public:
  std::string name() const override { return "bt"; }
  std::string description() const override {
    return "B+ tree search, one thread per key slot, a barrier per level (seed 002 Table 2, "
           "Rodinia b+tree)";
  }
  std::string suite() const override { return "barrier-intensive"; }
  std::vector<ParamSpec> params() const override {
    // Seed 002 Table 2: 5 CTAs per SM, 8 warps per CTA (one thread per key slot of a node).
    return {{"keys", "keys in the tree", 4000, 200000, 1000000, 1, 1 << 24},
            {"fill", "entries per node", 100, 128, 200, 2, kOrder - 1},
            {"queries", "lookups (half of them present keys)", 32, 3000, 10000, 1, 1 << 24},
            {"ctas", "CTAs in the grid", 8, 75, 75, 1, 1 << 16},
            ref::seed_param()};
  }
  Validation run(WorkloadContext& ctx) const override {
    const int n = ref::i32(ctx, "keys"), fill = ref::i32(ctx, "fill");
    const int nq = ref::i32(ctx, "queries");
    auto rng = ref::rng_of(ctx);
    std::uniform_int_distribution<int> kd(0, 4 * n);
    std::map<int, int> records;
    while (int(records.size()) < n) records.emplace(kd(rng), int(records.size()));
    // Leaves, then inner levels until one node remains; `low` is each node's smallest key.
    std::vector<BNode> tree;
    std::vector<int> level, low;
    for (auto it = records.begin(); it != records.end();) {
      BNode nd{};
      low.push_back(it->first);
      for (; it != records.end() && nd.nkeys < fill; ++it, ++nd.nkeys)
        nd.keys[nd.nkeys] = it->first, nd.ptrs[nd.nkeys] = it->second;
      level.push_back(int(tree.size()));
      tree.push_back(nd);
    }
    int height = 0;
    while (level.size() > 1) {
      std::vector<int> up, uplow;
      for (std::size_t c = 0; c < level.size();) {
        BNode nd{};
        uplow.push_back(low[c]);
        for (int k = 0; c < level.size() && k < fill; ++k, ++c) {
          if (k > 0) nd.keys[nd.nkeys++] = low[c];
          nd.ptrs[k] = level[c];
        }
        up.push_back(int(tree.size()));
        tree.push_back(nd);
      }
      level = std::move(up), low = std::move(uplow);
      ++height;
    }
    std::vector<int> queries(nq);
    std::vector<int> all_keys;
    for (const auto& kv : records) all_keys.push_back(kv.first);
    std::uniform_int_distribution<int> pick(0, n - 1);
    for (int i = 0; i < nq; ++i) queries[i] = i % 2 ? kd(rng) : all_keys[pick(rng)];
    auto& dev = ctx.device();
    Addr dtree = dev.upload(tree, "tree"), dq = dev.upload(queries, "queries");
    Addr dres = dev.malloc(std::size_t(nq) * 4, "results");
    int m = ctx.load("bt/bt.ptx");
    if (!ctx.launch(
            m, "bt_find", {ref::u32(ctx, "ctas"), 1, 1}, {kOrder, 1, 1},
            func::KernelArgs().add(dtree).add(level[0]).add(height).add(dq).add(nq).add(dres)))
      return {};
    auto got = dev.download<int>(dres, nq);
    std::vector<int> want(nq);
    for (int i = 0; i < nq; ++i) {
      auto it = records.find(queries[i]);
      want[i] = it == records.end() ? -1 : it->second;
    }
    auto v = ref::compare_exact("lookup results", got, want);
    if (v.ok) v.message += fmt::format(" (tree of {} nodes, {} inner levels)", tree.size(), height);
    return v;
  }
};

}  // namespace

std::unique_ptr<Workload> make_bt() {
  return std::make_unique<BPlusTree>();
}

}  // namespace simtsync::workloads
