// ht_mimd host driver: the hash-table insertion of `ht` with the MIMD lock loop (ht_mimd.cu).
// Under the IPDOM stack it must SIMT-deadlock (the runner exits 3 naming the spin loop); under
// a scheduler with forward progress (independent thread scheduling) it validates like `ht`:
// every key exactly once, in the bucket its hash names, every lock free.
#include <fmt/format.h>

#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

struct DevEntry {  // layout of `struct Entry` in ht_mimd.cu
  std::uint32_t key;
  std::uint32_t value;
  std::uint64_t next;
};

class HashTableMimd final : public Workload {
 public:
  std::string name() const override { return "ht_mimd"; }
  std::string description() const override {
    return "ht with the MIMD lock loop: SIMT-deadlocks under the IPDOM stack";
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // The sizes of `ht`; 16 buckets at test size so that warp-mates always share a lock.
    return {{"ctas", "CTAs in the grid", 2, 120, 157, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
            {"buckets", "hash-table buckets (fewer = more contention)", 16, 1024, 1024, 1, 1 << 24},
            {"per_thread", "insertions per thread", 2, 4, 80, 1, 1 << 16},
            {"seed", "key generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto buckets = static_cast<std::uint32_t>(ctx.param("buckets"));
    const auto per = static_cast<std::uint32_t>(ctx.param("per_thread"));
    const std::size_t total = std::size_t{ctas} * threads * per;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::vector<std::uint32_t> keys(total);
    for (auto& k : keys) k = rng();

    auto& dev = ctx.device();
    Addr pool = dev.malloc(total * sizeof(DevEntry), "entry pool");
    Addr heads = dev.upload(std::vector<std::uint64_t>(buckets, 0), "bucket heads");
    Addr locks = dev.upload(std::vector<std::int32_t>(buckets, 0), "bucket locks");
    Addr dkeys = dev.upload(keys, "keys");
    int m = ctx.load("ht/ht_mimd.ptx");
    if (!ctx.launch(m, "ht_insert_mimd", {ctas, 1, 1}, {threads, 1, 1},
                    func::KernelArgs()
                        .add(pool)
                        .add(heads)
                        .add(locks)
                        .add(dkeys)
                        .add(static_cast<int>(buckets))
                        .add(static_cast<int>(per))))
      return {};

    auto entries = dev.download<DevEntry>(pool, total);
    auto head = dev.download<std::uint64_t>(heads, buckets);
    auto lock = dev.download<std::int32_t>(locks, buckets);
    std::vector<char> linked(total, 0);
    std::size_t found = 0;
    for (std::uint32_t b = 0; b < buckets; ++b) {
      if (lock[b] != 0) return {false, fmt::format("lock of bucket {} is still held", b)};
      for (std::uint64_t p = head[b]; p != 0;) {
        const std::uint64_t off = p - pool;
        if (p < pool || off % sizeof(DevEntry) != 0 || off / sizeof(DevEntry) >= total)
          return {false, fmt::format("bucket {} links to {:#x}, outside the entry pool", b, p)};
        const std::size_t i = off / sizeof(DevEntry);
        if (linked[i]) return {false, fmt::format("entry {} is linked twice", i)};
        linked[i] = 1;
        if (entries[i].key != keys[i] || entries[i].value != i || keys[i] % buckets != b)
          return {false,
                  fmt::format("entry {} (key {}) is wrong or in bucket {}", i, entries[i].key, b)};
        ++found;
        p = entries[i].next;
      }
    }
    if (found != total) return {false, fmt::format("{} of {} keys are in the table", found, total)};
    return {true, fmt::format("{} keys, each present exactly once in its bucket", total)};
  }
};

}  // namespace

std::unique_ptr<Workload> make_ht_mimd() {
  return std::make_unique<HashTableMimd>();
}

}  // namespace simtsync::workloads
