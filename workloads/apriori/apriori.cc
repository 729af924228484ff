// apriori host driver: association-rule mining with a lock-protected hash tree (seed 004 ch. 2,
// sec. 6.5.2). The host generates a database of sorted records (random noise items plus planted
// patterns), then runs the levels of the algorithm: level k's candidate k-itemsets go into the
// hash tree (apriori_insert, locks per node), every record counts the candidates it contains
// (apriori_count), candidates below the minimum support are dropped, and the frequent ones are
// joined and pruned into level k+1's candidates (AprioriGen, on the host).
// Validation: after every insertion the tree holds every candidate exactly once, in the leaf its
// items hash to, with every lock free; at the end the frequent itemsets and their supports equal
// those of an independent CPU run of Apriori (direct counting) on the same database.
// apriori_lockinst inserts with the lock instructions of seed 004 ch. 4 instead
// (apriori_lockinst.cu: simtsync_lock per node, lock words -1 when free, on the lock_stack
// reconvergence unit); everything else is the same.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

constexpr int kFanout = 8;   // as in apriori.cu
constexpr int kMaxLen = 16;  // as in apriori.cu

using Itemset = std::vector<int>;
using Frequent = std::map<Itemset, int>;  // itemset -> support

std::size_t u(int i) { return static_cast<std::size_t>(i); }

bool contains(const std::vector<int>& record, const Itemset& set) {
  return std::includes(record.begin(), record.end(), set.begin(), set.end());
}

// AprioriGen: join frequent k-itemsets sharing their first k-1 items, keep a (k+1)-candidate
// only if all its k-subsets are frequent.
std::vector<Itemset> generate(const std::vector<Itemset>& frequent) {
  std::set<Itemset> have(frequent.begin(), frequent.end());
  std::vector<Itemset> out;
  for (std::size_t a = 0; a < frequent.size(); ++a)
    for (std::size_t b = a + 1; b < frequent.size(); ++b) {
      const Itemset& x = frequent[a];
      const Itemset& y = frequent[b];
      if (!std::equal(x.begin(), x.end() - 1, y.begin())) break;  // sorted: no more partners
      Itemset c = x;
      c.push_back(y.back());
      bool ok = true;
      for (std::size_t drop = 0; drop + 2 < c.size() && ok; ++drop) {
        Itemset sub;
        for (std::size_t i = 0; i < c.size(); ++i)
          if (i != drop) sub.push_back(c[i]);
        ok = have.count(sub) > 0;
      }
      if (ok) out.push_back(std::move(c));
    }
  return out;
}

class Apriori final : public Workload {
 public:
  explicit Apriori(bool lockinst) : lockinst_(lockinst) {}
  std::string name() const override { return lockinst_ ? "apriori_lockinst" : "apriori"; }
  std::string description() const override {
    return lockinst_ ? "Apriori, hash-tree insertion with the lock instructions (seed 004 ch. 4)"
                     : "Apriori association-rule mining, lock-protected hash-tree insertion "
                       "(seed 004 ch. 2)";
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<std::pair<std::string, std::string>> config_defaults() const override {
    if (!lockinst_) return {};
    return {{"sm.reconvergence.impl", "lock_stack"}};
  }
  std::vector<ParamSpec> params() const override {
    // The thesis gives no input size; default and paper are ours (see README).
    return {{"records", "database records", 128, 2048, 10000, 1, 1 << 22},
            {"items", "distinct items", 24, 64, 100, 2, 1 << 16},
            {"min_support", "minimum support, per mille of the records", 60, 20, 10, 1, 1000},
            {"threshold", "candidates a leaf holds before it is rehashed", 4, 4, 4, 1, 1 << 16},
            {"ctas", "CTAs in the grid", 1, 4, 15, 1, 1 << 16},
            {"threads", "threads per CTA", 64, 128, 256, 32, 1024},
            {"seed", "database generator seed", 1, 1, 1, 0, INT32_MAX}};
  }

  Validation run(WorkloadContext& ctx) const override {
    const int nrec = static_cast<int>(ctx.param("records"));
    const int nitems = static_cast<int>(ctx.param("items"));
    const int threshold = static_cast<int>(ctx.param("threshold"));
    const int minsup = std::max<int>(1, static_cast<int>(ctx.param("min_support") * nrec / 1000));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));

    // The database: each record is noise items plus, often, one or two planted patterns.
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_int_distribution<int> item(0, nitems - 1), pick(0, 9), plen(2, 5), noise(1, 5);
    std::vector<Itemset> patterns(8);
    for (auto& p : patterns) {
      std::set<int> s;
      const int want = std::min(plen(rng), nitems);
      while (static_cast<int>(s.size()) < want) s.insert(item(rng));
      p.assign(s.begin(), s.end());
    }
    std::vector<std::vector<int>> db(u(nrec));
    std::vector<int> flat, start = {0};
    for (auto& rec : db) {
      std::set<int> s;
      for (int i = noise(rng); i > 0; --i) s.insert(item(rng));
      for (int t = 0; t < 2; ++t)
        if (pick(rng) < 6)
          for (int x : patterns[u(pick(rng) % 8)]) s.insert(x);
      while (static_cast<int>(s.size()) > kMaxLen) s.erase(std::prev(s.end()));
      rec.assign(s.begin(), s.end());
      flat.insert(flat.end(), rec.begin(), rec.end());
      start.push_back(static_cast<int>(flat.size()));
    }

    // The CPU run: the same levels, counting by scanning the database.
    Frequent want;
    {
      std::vector<Itemset> cand;
      for (int i = 0; i < nitems; ++i) cand.push_back({i});
      while (!cand.empty()) {
        std::vector<Itemset> freq;
        for (const auto& c : cand) {
          int sup = 0;
          for (const auto& rec : db) sup += contains(rec, c);
          if (sup >= minsup) {
            want[c] = sup;
            freq.push_back(c);
          }
        }
        if (freq.empty() || static_cast<int>(freq[0].size()) >= kMaxLen) break;
        cand = generate(freq);
      }
    }

    auto& dev = ctx.device();
    Addr drec = dev.upload(flat, "records");
    Addr dstart = dev.upload(start, "record starts");
    // The lock-instruction module holds apriori_count too (it includes apriori.cu).
    const int m = ctx.load(lockinst_ ? "apriori/apriori_lockinst.ptx" : "apriori/apriori.ptx");
    const char* insert = lockinst_ ? "apriori_insert_lockinst" : "apriori_insert";
    // A free lock word: 0 for the atomicCAS locks, -1 (SIMTSYNC_LOCK_FREE) for the lock
    // instructions.
    const int lock_free = lockinst_ ? -1 : 0;
    Frequent got;
    std::vector<Itemset> cand;
    for (int i = 0; i < nitems; ++i) cand.push_back({i});
    int levels = 0;
    std::size_t candidates = 0;
    while (!cand.empty()) {
      const int k = static_cast<int>(cand[0].size());
      const int ncand = static_cast<int>(cand.size());
      candidates += cand.size();
      std::vector<int> items;
      for (const auto& c : cand) items.insert(items.end(), c.begin(), c.end());
      // Every rehash adds kFanout nodes; a rehashed leaf held >= threshold candidates.
      // Internal nodes of one depth have disjoint subtrees of >= threshold candidates.
      const int max_nodes = 1 + kFanout * (k * (ncand / threshold + 1) + 1);
      std::vector<int> leaf(u(max_nodes), 1), zero(u(max_nodes), 0), none(u(max_nodes), -1);
      Addr ditems = dev.upload(items, "candidate items");
      Addr dleaf = dev.upload(leaf, "node leaf flags"),
           dlock = dev.upload(std::vector<int>(u(max_nodes), lock_free), "node locks"),
           ddepth = dev.upload(zero, "node depths"), dhead = dev.upload(none, "leaf lists"),
           dsize = dev.upload(zero, "leaf sizes");
      Addr dchildren = dev.upload(std::vector<int>(u(max_nodes) * kFanout, -1), "node children");
      Addr dnext = dev.upload(std::vector<int>(u(ncand), -1), "candidate links");
      Addr dcount = dev.upload(std::vector<int>{1}, "node pool counter");
      Addr doverflow = dev.upload(std::vector<int>{0}, "pool overflow");
      Addr dsupport = dev.upload(std::vector<int>(u(ncand), 0), "supports");
      if (!ctx.launch(m, insert, {ctas, 1, 1}, {threads, 1, 1},
                      func::KernelArgs()
                          .add(ditems)
                          .add(ncand)
                          .add(k)
                          .add(threshold)
                          .add(dleaf)
                          .add(dlock)
                          .add(ddepth)
                          .add(dhead)
                          .add(dsize)
                          .add(dchildren)
                          .add(dnext)
                          .add(dcount)
                          .add(max_nodes)
                          .add(doverflow)))
        return {};
      if (dev.download<int>(doverflow, 1)[0] != 0)
        return {false, fmt::format("level {}: the hash-tree node pool overflowed", k)};
      std::string bad = check_tree(dev, lock_free, cand, dleaf, dlock, ddepth, dhead, dsize,
                                   dchildren, dnext, dev.download<int>(dcount, 1)[0]);
      if (!bad.empty()) return {false, fmt::format("level {}: {}", k, bad)};
      if (!ctx.launch(m, "apriori_count", {ctas, 1, 1}, {threads, 1, 1},
                      func::KernelArgs().add(drec).add(dstart).add(nrec).add(ditems).add(k)
                          .add(dleaf).add(ddepth).add(dhead).add(dchildren).add(dnext)
                          .add(dsupport)))
        return {};
      auto support = dev.download<int>(dsupport, u(ncand));
      std::vector<Itemset> freq;
      for (int c = 0; c < ncand; ++c)
        if (support[u(c)] >= minsup) {
          got[cand[u(c)]] = support[u(c)];
          freq.push_back(cand[u(c)]);
        }
      ++levels;
      for (Addr a : {ditems, dleaf, dlock, ddepth, dhead, dsize, dchildren, dnext, dcount,
                     doverflow, dsupport})
        dev.free(a);
      if (freq.empty() || k >= kMaxLen) break;
      cand = generate(freq);
    }

    for (const auto& [set, sup] : want) {
      auto it = got.find(set);
      if (it == got.end())
        return {false, fmt::format("frequent itemset {{{}}} (support {}) is missing",
                                   fmt::join(set, ","), sup)};
      if (it->second != sup)
        return {false, fmt::format("itemset {{{}}} has support {}, expected {}",
                                   fmt::join(set, ","), it->second, sup)};
    }
    if (got.size() != want.size())
      return {false, fmt::format("{} frequent itemsets, expected {}", got.size(), want.size())};
    std::size_t largest = 0;
    for (const auto& [set, sup] : want) largest = std::max(largest, set.size());
    return {true, fmt::format("{} records, {} levels, {} candidates, {} frequent itemsets (up to "
                              "{} items) equal the CPU run", nrec, levels, candidates,
                              want.size(), largest)};
  }

 private:
  // Every candidate is in exactly one leaf, the leaf its items hash to; lists and sizes agree;
  // every lock is free.
  static std::string check_tree(func::Device& dev, int lock_free, const std::vector<Itemset>& cand,
                                Addr dleaf, Addr dlock, Addr ddepth, Addr dhead, Addr dsize,
                                Addr dchildren, Addr dnext, int nodes) {
    auto leaf = dev.download<int>(dleaf, u(nodes)), lock = dev.download<int>(dlock, u(nodes)),
         depth = dev.download<int>(ddepth, u(nodes)), head = dev.download<int>(dhead, u(nodes)),
         size = dev.download<int>(dsize, u(nodes));
    auto children = dev.download<int>(dchildren, u(nodes) * kFanout);
    auto next = dev.download<int>(dnext, cand.size());
    std::vector<int> seen(cand.size(), 0);
    struct Visit { int node; std::vector<int> hashes; };
    std::vector<Visit> todo = {{0, {}}};
    while (!todo.empty()) {
      Visit v = std::move(todo.back());
      todo.pop_back();
      const int n = v.node;
      if (n <= 0 && !v.hashes.empty()) return fmt::format("a child link is {}", n);
      if (n >= nodes) return fmt::format("node {} is outside the pool", n);
      if (lock[u(n)] != lock_free) return fmt::format("the lock of node {} is still held", n);
      if (depth[u(n)] != static_cast<int>(v.hashes.size()))
        return fmt::format("node {} has depth {}, expected {}", n, depth[u(n)], v.hashes.size());
      if (!leaf[u(n)]) {
        for (int h = 0; h < kFanout; ++h) {
          Visit c{children[u(n) * kFanout + u(h)], v.hashes};
          c.hashes.push_back(h);
          todo.push_back(std::move(c));
        }
        continue;
      }
      int len = 0;
      for (int s = head[u(n)]; s >= 0; s = next[u(s)]) {
        if (s >= static_cast<int>(cand.size()) || seen[u(s)]++)
          return fmt::format("candidate {} is linked twice or is no candidate", s);
        ++len;
        for (std::size_t j = 0; j < v.hashes.size(); ++j)
          if (cand[u(s)][j] % kFanout != v.hashes[j])
            return fmt::format("candidate {} sits in a leaf its items do not hash to", s);
      }
      if (len != size[u(n)])
        return fmt::format("leaf {} lists {} candidates, its size says {}", n, len, size[u(n)]);
    }
    for (std::size_t s = 0; s < cand.size(); ++s)
      if (!seen[s]) return fmt::format("candidate {} of {} is not in the tree", s, cand.size());
    return "";
  }

  bool lockinst_;
};

}  // namespace

std::unique_ptr<Workload> make_apriori() {
  return std::make_unique<Apriori>(false);
}
std::unique_ptr<Workload> make_apriori_lockinst() {
  return std::make_unique<Apriori>(true);
}

}  // namespace simtsync::workloads
