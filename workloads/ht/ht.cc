// ht, ht_mimd and ht_lockinst host driver: chained hash-table insertion (seed 000 Fig. 1a).
// Every thread inserts `per_thread` keys into `buckets` chains, each guarded by a spin lock.
// Validation walks every chain: each key must be present exactly once, in the bucket its hash
// names, every lock free. ht uses the SIMT-compliant lock (ht.cu); ht_mimd the MIMD lock loop
// (ht_mimd.cu), which must SIMT-deadlock under the IPDOM stack and validates under
// forward-progress scheduling; ht_lockinst the lock instructions of seed 004 (ht_lockinst.cu,
// lock words -1 when free, run on the lock_stack reconvergence unit); ht_trylock its try-lock
// instruction (sec. 9.2.2, ht_trylock.cu); ht_backoff_fixed,
// ht_backoff_exp and ht_nanosleep ht's lock with a software back-off after each failed attempt
// (seed 000 Fig. 3; framework/backoff.h).
#include <fmt/format.h>

#include <random>

#include "framework/backoff.h"
#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

struct DevEntry {  // layout of `struct Entry` in ht.cu and ht_mimd.cu
  std::uint32_t key;
  std::uint32_t value;
  std::uint64_t next;
};

// What distinguishes the two variants.
struct Variant {
  const char* name;
  const char* description;
  const char* ptx;
  const char* kernel;
  std::int64_t test_ctas;
  std::int64_t test_buckets;
  // The value of a free lock word: 0 for the atomicCAS locks, -1 (SIMTSYNC_LOCK_FREE) for the
  // lock instructions, which also need the lock_stack reconvergence unit.
  std::int32_t lock_free = 0;
  Backoff backoff = Backoff::kNone;  // software back-off: more kernel arguments and parameters
  bool trylock = false;  // the try-lock instruction: an `attempts` parameter and argument
};

class HashTable final : public Workload {
 public:
  explicit HashTable(Variant v) : v_(v) {}
  std::string name() const override { return v_.name; }
  std::string description() const override { return v_.description; }
  std::string suite() const override { return "synchronization"; }
  std::vector<std::pair<std::string, std::string>> config_defaults() const override {
    if (v_.lock_free == 0) return {};
    return {{"sm.reconvergence.impl", "lock_stack"}};
  }
  std::vector<ParamSpec> params() const override {
    // Default: the launch shape of seed 000 Fig. 1 (120 CTAs x 256 threads); paper: 3.2M
    // insertions by 40K threads into 1024 buckets (seed 000 sec. V).
    std::vector<ParamSpec> p = {{"ctas", "CTAs in the grid", v_.test_ctas, 120, 157, 1, 1 << 20},
                                {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
                                {"buckets", "hash-table buckets (fewer = more contention)",
                                 v_.test_buckets, 1024, 1024, 1, 1 << 24},
                                {"per_thread", "insertions per thread", 2, 4, 80, 1, 1 << 16},
                                {"seed", "key generator seed", 1, 1, 1, 0, INT32_MAX}};
    for (ParamSpec& b : backoff_params(v_.backoff)) p.push_back(std::move(b));
    if (v_.trylock)
      p.push_back({"attempts", "tries of each simtsync_try_lock before it fails (1: one attempt)",
                   1, 1, 1, 1, 1 << 20});
    return p;
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
    Addr locks = dev.upload(std::vector<std::int32_t>(buckets, v_.lock_free), "bucket locks");
    Addr dkeys = dev.upload(keys, "keys");
    int m = ctx.load(v_.ptx);
    func::KernelArgs args;
    args.add(pool)
        .add(heads)
        .add(locks)
        .add(dkeys)
        .add(static_cast<int>(buckets))
        .add(static_cast<int>(per));
    add_backoff_args(args, v_.backoff, ctx);
    if (v_.trylock) args.add(static_cast<int>(ctx.param("attempts")));
    if (!ctx.launch(m, v_.kernel, {ctas, 1, 1}, {threads, 1, 1}, args)) return {};

    auto entries = dev.download<DevEntry>(pool, total);
    auto head = dev.download<std::uint64_t>(heads, buckets);
    auto lock = dev.download<std::int32_t>(locks, buckets);
    std::vector<char> seen(total, 0);
    std::size_t found = 0;
    for (std::uint32_t b = 0; b < buckets; ++b) {
      if (lock[b] != v_.lock_free)
        return {false, fmt::format("lock of bucket {} is still held", b)};
      std::uint64_t p = head[b];
      while (p != 0) {
        if (p < pool || (p - pool) % sizeof(DevEntry) != 0 ||
            (p - pool) / sizeof(DevEntry) >= total)
          return {false, fmt::format("bucket {} links to {:#x}, outside the entry pool", b, p)};
        std::size_t i = (p - pool) / sizeof(DevEntry);
        if (seen[i]) return {false, fmt::format("entry {} is linked twice (a lost update)", i)};
        seen[i] = 1;
        const DevEntry& e = entries[i];
        if (e.key != keys[i] || e.value != i)
          return {false, fmt::format("entry {} holds key {} value {}, expected {} {}", i, e.key,
                                     e.value, keys[i], i)};
        if (e.key % buckets != b)
          return {false,
                  fmt::format("key {} is in bucket {}, hashes to {}", e.key, b, e.key % buckets)};
        ++found;
        p = e.next;
      }
    }
    if (found != total) return {false, fmt::format("{} of {} keys are in the table", found, total)};
    return {true, fmt::format("{} keys, each present exactly once in its bucket", total)};
  }

 private:
  Variant v_;
};

}  // namespace

std::unique_ptr<Workload> make_ht() {
  return std::make_unique<HashTable>(
      Variant{"ht", "chained hash-table insertion, one spin lock per bucket (seed 000 Fig. 1a)",
              "ht/ht.ptx", "ht_insert", 4, 64});
}

// 16 buckets at test size so that warp-mates always share a lock.
std::unique_ptr<Workload> make_ht_mimd() {
  return std::make_unique<HashTable>(
      Variant{"ht_mimd", "ht with the MIMD lock loop: SIMT-deadlocks under the IPDOM stack",
              "ht/ht_mimd.ptx", "ht_insert_mimd", 2, 16});
}

// The lock instructions of seed 004 ch. 4 (simtsync_lock / simtsync_unlock), ht's sizes.
std::unique_ptr<Workload> make_ht_lockinst() {
  return std::make_unique<HashTable>(
      Variant{"ht_lockinst", "ht with the lock instructions of seed 004 (lock_stack unit)",
              "ht/ht_lockinst.ptx", "ht_insert_lockinst", 4, 64, -1});
}

// The try-lock instruction of seed 004 sec. 9.2.2 (simtsync_try_lock, `attempts` tries), ht's
// sizes.
std::unique_ptr<Workload> make_ht_trylock() {
  Variant v{"ht_trylock",
            "ht with the try-lock instruction of seed 004 sec. 9.2.2 (lock_stack unit): a failed "
            "try goes round the insertion loop",
            "ht/ht_trylock.ptx",
            "ht_insert_trylock",
            4,
            64,
            -1};
  v.trylock = true;
  return std::make_unique<HashTable>(v);
}

// ht with a software back-off after each failed lock attempt (seed 000 Fig. 3), ht's sizes.
std::unique_ptr<Workload> make_ht_backoff_fixed() {
  return std::make_unique<HashTable>(
      Variant{"ht_backoff_fixed",
              "ht with a fixed clock64() back-off after a failed lock attempt (seed 000 Fig. 3; "
              "OpenMP's omp_set_lock with delay_per_cta=1000)",
              "ht/ht_backoff_fixed.ptx", "ht_backoff_fixed", 4, 64, 0, Backoff::kFixed});
}
std::unique_ptr<Workload> make_ht_backoff_exp() {
  return std::make_unique<HashTable>(
      Variant{"ht_backoff_exp",
              "ht with an exponential clock64() back-off after a failed lock attempt (seed 000 "
              "Fig. 3)",
              "ht/ht_backoff_exp.ptx", "ht_backoff_exp", 4, 64, 0, Backoff::kExp});
}
std::unique_ptr<Workload> make_ht_nanosleep() {
  return std::make_unique<HashTable>(
      Variant{"ht_nanosleep",
              "ht with an exponential nanosleep back-off after a failed lock attempt (CUDA "
              "Programming Guide's mutex)",
              "ht/ht_nanosleep.ptx", "ht_nanosleep", 4, 64, 0, Backoff::kNanosleep});
}

}  // namespace simtsync::workloads
