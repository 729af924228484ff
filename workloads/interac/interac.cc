// interac host driver: parallel bank transactions with ordered nested locks (seed 004 sec.
// 6.5.3, Example 19). Accounts are {lock, balance} pairs. The thesis gives no input size; ours
// follow ATM (seed 000 sec. V). Validation, independent of the order of transactions: every
// final balance equals the initial balance plus the amounts received minus the amounts sent,
// the total is conserved, every lock is free. interac_lockinst runs the same transactions with
// the lock instructions of seed 004 (Example 20, interac_lockinst.cu): lock words -1 when free,
// on the lock_stack reconvergence unit.
#include <fmt/format.h>

#include <random>

#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

struct DevAccount {  // layout of `struct Account` in interac.cu
  std::int32_t lock;
  std::int32_t balance;
};

class Interac final : public Workload {
 public:
  explicit Interac(bool lockinst) : lockinst_(lockinst) {}
  std::string name() const override { return lockinst_ ? "interac_lockinst" : "interac"; }
  std::string description() const override {
    return lockinst_
               ? "bank transactions, nested lock instructions in account order (seed 004 Ex. 20)"
               : "bank transactions, first lock kept while the second is retried (seed 004 Ex. "
                 "19)";
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<std::pair<std::string, std::string>> config_defaults() const override {
    if (!lockinst_) return {};
    return {{"sm.reconvergence.impl", "lock_stack"}};
  }
  std::vector<ParamSpec> params() const override {
    // Default: 24 CTAs. With 96 (the paper grid) the timing model makes no progress under LRR
    // for 100 M cycles, as atm's paper grid does (README); 24 CTAs take 342 K cycles.
    return {{"ctas", "CTAs in the grid", 2, 24, 96, 1, 1 << 20},
            {"threads", "threads per CTA", 64, 256, 256, 1, 1024},
            {"per_thread", "transactions per thread", 2, 5, 5, 1, 1 << 16},
            {"accounts", "bank accounts (fewer = more contention)", 64, 1000, 1000, 2, 1 << 26},
            {"seed", "transaction generator seed", 1, 1, 1, 0, INT32_MAX}};
  }
  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const auto per = static_cast<std::uint32_t>(ctx.param("per_thread"));
    const auto accounts = static_cast<std::int32_t>(ctx.param("accounts"));
    const std::size_t total = std::size_t{ctas} * threads * per;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_int_distribution<std::int32_t> acct(0, accounts - 1), other(1, accounts - 1),
        amt(1, 100), init(1000, 100000);
    std::vector<DevAccount> acc(static_cast<std::size_t>(accounts));
    std::vector<std::int64_t> expect(acc.size());
    std::int64_t sum0 = 0;
    // A free lock word: 0 for the atomicCAS locks, -1 (SIMTSYNC_LOCK_FREE) for the lock
    // instructions.
    const std::int32_t lock_free = lockinst_ ? -1 : 0;
    for (std::size_t i = 0; i < acc.size(); ++i) {
      acc[i] = {lock_free, init(rng)};
      expect[i] = acc[i].balance;
      sum0 += acc[i].balance;
    }
    std::vector<std::int32_t> from(total), to(total), amount(total);
    for (std::size_t t = 0; t < total; ++t) {
      from[t] = acct(rng);
      to[t] = (from[t] + other(rng)) % accounts;
      amount[t] = amt(rng);
      expect[static_cast<std::size_t>(from[t])] -= amount[t];
      expect[static_cast<std::size_t>(to[t])] += amount[t];
    }

    auto& dev = ctx.device();
    Addr dacc = dev.upload(acc, "accounts");
    Addr dfrom = dev.upload(from, "source accounts");
    Addr dto = dev.upload(to, "destination accounts");
    Addr damt = dev.upload(amount, "amounts");
    const std::string kernel = name();  // also the name of its .cu file
    int m = ctx.load(fmt::format("interac/{}.ptx", kernel));
    if (!ctx.launch(
            m, kernel, {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(dacc).add(dfrom).add(dto).add(damt).add(static_cast<int>(per))))
      return {};

    auto got = dev.download<DevAccount>(dacc, acc.size());
    std::int64_t sum1 = 0;
    for (const auto& a : got) sum1 += a.balance;
    if (sum1 != sum0)
      return {false, fmt::format("total money is {}, expected {} (not conserved)", sum1, sum0)};
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (got[i].lock != lock_free)
        return {false, fmt::format("lock of account {} is still held", i)};
      if (got[i].balance != expect[i])
        return {false,
                fmt::format("account {} holds {}, expected {}", i, got[i].balance, expect[i])};
    }
    return {true, fmt::format("{} transactions on {} accounts, every balance exact, total {} "
                              "conserved",
                              total, accounts, sum0)};
  }

 private:
  bool lockinst_;
};

}  // namespace

std::unique_ptr<Workload> make_interac() {
  return std::make_unique<Interac>(false);
}
std::unique_ptr<Workload> make_interac_lockinst() {
  return std::make_unique<Interac>(true);
}

}  // namespace simtsync::workloads
