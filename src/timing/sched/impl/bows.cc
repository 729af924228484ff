// BOWS, back-off warp spinning (seed 000 sec. III, Fig. 4, 5 and 8), as a wrapper over a base
// issue policy (sm.warp_scheduler.base: LRR, GTO with or without age rotation, GLRR,
// two-level, CAWA).
//
// A warp that executes a spin-inducing branch (SIB) and takes it (at least one active lane goes
// round the spin loop again) enters the backed-off state and goes to the back of the priority
// order. When it next issues it leaves that state, and its pending back-off delay is loaded
// with the delay limit and counts down every cycle; a warp that executed a SIB cannot issue
// until that delay is zero. The order BOWS offers is therefore: the base policy's order of the
// warps that are not backed off (with GTO as the base: the last issued warp if ready, else the
// oldest: Fig. 8 (1) and (2)), then the backed-off warps whose delay is zero, in the order they
// backed off (the backed-off queue, (3)); backed-off warps whose delay is still running are
// held back (their cycles are `held` stalls when nothing else is offered) and the SM is told
// when the first of them may go (next_event).
//
// SIBs come from the workloads' annotations (ExecInst::spin_mark, sib_source=annotation) or
// from DDOS (timing/sched/ddos.h, sib_source=ddos: a backward branch the SM's SIB prediction
// table confirms). The delay limit is fixed (adaptive_delay=false) or set per SM by Fig. 5's
// window algorithm; docs/policies.md states how Table II's printed values are read.
#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <memory>

#include "common/error.h"
#include "func/program.h"
#include "timing/sched/i_warp_scheduler.h"
#include "timing/sched/ddos.h"

namespace simtsync::sched {

#define SCHEDULER(name, factory, declare, desc) void declare(config::PluginDecl&);
#include "timing/sched/schedulers.def"
#undef SCHEDULER

namespace {

// The policies BOWS may wrap (seed 000 evaluates GTO, LRR and CAWA; the issue adds GLRR and
// two-level). Their keys and statistics are declared as BOWS's own, in this order after BOWS's
// and DDOS's statistics.
struct BaseCandidate {
  const char* name;
  config::DeclareFn declare;
};
constexpr BaseCandidate kBases[] = {{"gto", declare_gto},
                                    {"lrr", declare_lrr},
                                    {"glrr", declare_glrr},
                                    {"two_level", declare_two_level},
                                    {"cawa", declare_cawa}};

// BOWS's own statistics, in declaration order.
enum BowsStat : unsigned {
  kSibInstructions,
  kBackoffs,
  kBackoffExits,
  kCyclesNormal,
  kCyclesDelayed,
  kCyclesReady,
  kDelayWindows,
  kDelayIncreases,
  kDelayDecreases,
  kDelayLimitMax,
  kBowsStatCount
};

struct BowsParams {
  bool ddos = true;
  std::uint64_t delay = 1000;
  bool adaptive = true;
  std::uint64_t window = 1000, step = 250, min = 1000, max = 10000;
  double frac1 = 0.005, frac2 = 0.8;
};

// The back-off delay limit of one SM (Fig. 5), shared by its BOWS schedulers: every scheduler
// reports the instructions it issued and whether each was a SIB; at the end of every window of
// `window` cycles the limit for the next window is computed from the window's counts. Windows
// in which the SM issued nothing carry no evidence and change nothing (the SM was stalled or
// asleep; the previous window's ratio stays the reference).
class DelayLimit final : public ISharedUnit {
 public:
  DelayLimit(const BowsParams& p, std::uint64_t* counters, std::vector<PolicyRecord>* records)
      : p_(p), counters_(counters), records_(records), limit_(initial(p)) {
    if (counters_) counters_[kDelayLimitMax] = limit_;
    if (records_ && p_.adaptive) records_->push_back(record(0));
  }

  std::uint64_t limit(Cycle now) {
    roll(now);
    return limit_;
  }
  void note(Cycle now, bool sib) {
    roll(now);
    ++total_;
    sib_ += sib ? 1 : 0;
  }
  void finish(Cycle now) override { roll(now); }

 private:
  static std::uint64_t initial(const BowsParams& p) {
    return p.adaptive ? std::clamp(p.delay, p.min, p.max) : p.delay;
  }
  void count(BowsStat s, std::uint64_t n = 1) {
    if (counters_) counters_[s] += n;
  }
  PolicyRecord record(Cycle at) const {
    return {"bows_delay_limit",
            {{"cycle", static_cast<double>(at)}, {"limit", static_cast<double>(limit_)}}};
  }
  void roll(Cycle now) {
    if (!p_.adaptive) return;
    const std::uint64_t w = now / p_.window;
    if (w == window_) return;
    close(window_);
    window_ = w;
  }
  // Fig. 5 at the end of window `w`.
  void close(std::uint64_t w) {
    if (total_ == 0) return;
    count(kDelayWindows);
    const double inf = std::numeric_limits<double>::infinity();
    const double ratio =
        sib_ ? static_cast<double>(total_) / static_cast<double>(sib_) : inf;  // Total/SIB
    auto next = static_cast<std::int64_t>(limit_);
    const auto step = static_cast<std::int64_t>(p_.step);
    if (static_cast<double>(sib_) > p_.frac1 * static_cast<double>(total_)) next += step;
    if (have_prev_ && ratio < p_.frac2 * prev_ratio_) next -= 2 * step;
    next = std::clamp(next, static_cast<std::int64_t>(p_.min), static_cast<std::int64_t>(p_.max));
    prev_ratio_ = ratio;
    have_prev_ = true;
    total_ = sib_ = 0;
    const auto n = static_cast<std::uint64_t>(next);
    if (n == limit_) return;
    count(n > limit_ ? kDelayIncreases : kDelayDecreases);
    limit_ = n;
    if (counters_) counters_[kDelayLimitMax] = std::max(counters_[kDelayLimitMax], limit_);
    if (records_) records_->push_back(record((w + 1) * p_.window));
  }

  BowsParams p_;
  std::uint64_t* counters_;
  std::vector<PolicyRecord>* records_;
  std::uint64_t limit_;
  std::uint64_t window_ = 0;
  std::uint64_t total_ = 0, sib_ = 0;
  double prev_ratio_ = 0;
  bool have_prev_ = false;
};

class Bows final : public IWarpScheduler {
 public:
  // own_ddos / own_delay: the units this policy created because the SM has no SharedUnits
  // (unit tests); empty otherwise.
  Bows(const PolicyContext& ctx, const BowsParams& p, std::unique_ptr<IWarpScheduler> base,
       spin::Ddos* ddos, DelayLimit& delay, std::unique_ptr<ISharedUnit> own_ddos,
       std::unique_ptr<ISharedUnit> own_delay)
      : p_(p),
        sched_(ctx.sched),
        nsched_(std::max(1u, ctx.num_schedulers)),
        counters_(ctx.counters),
        base_(std::move(base)),
        own_ddos_(std::move(own_ddos)),
        own_delay_(std::move(own_delay)),
        ddos_(ddos),
        delay_(delay) {
    st_.resize(ctx.warps ? ctx.warps->num_slots() : 64);
  }

  void order(std::span<const SchedWarp> warps, std::uint64_t version, Cycle now,
             std::vector<int>& out) override {
    base_->order(warps, version, now, base_order_);
    // The warps change only with `version` (IWarpScheduler::order): a warp that turns live
    // comes with a new version, and one that leaves (drop) is no longer valid.
    if (version != seen_version_ || warps.data() != seen_warps_ ||
        slot_of_.size() != warps.size()) {
      seen_version_ = version;
      seen_warps_ = warps.data();
      slot_of_.assign(warps.size(), -1);
      for (size_t i = 0; i < warps.size(); ++i) {
        const int slot = warps[i].warp_id;
        slot_of_[i] = slot;
        if (warps[i].valid && !at(slot).alive) start(slot, now);
      }
    }
    // Same base order, same warps, no warp backed off or left since, and no held warp's delay
    // ended: the order last written into `out` is still there (it was rebuilt every cycle, a
    // third of a BOWS run's issue stage, issue 48).
    if (&out == memo_out_ && out.size() == memo_size_ && gen_ == memo_gen_ &&
        version == memo_version_ && now < held_until_ && base_order_ == memo_base_)
      return;
    out.clear();
    for (int i : base_order_)
      if (!at(slot_of_[static_cast<size_t>(i)]).backed_off) out.push_back(i);
    held_until_ = kNever;
    for (int slot : queue_) {
      const int i = index_of(slot);
      if (i < 0 || !warps[static_cast<size_t>(i)].valid) continue;
      const Cycle ready = at(slot).ready_at;
      if (now >= ready)
        out.push_back(i);
      else
        held_until_ = std::min(held_until_, ready);
    }
    memo_out_ = &out;
    memo_size_ = out.size();
    memo_gen_ = gen_;
    memo_version_ = version;
    memo_base_ = base_order_;
  }

  void issued(int index, Cycle now) override {
    base_->issued(index, now);
    if (index >= 0 && static_cast<size_t>(index) < slot_of_.size())
      leave_backoff(slot_of_[static_cast<size_t>(index)], now);
  }
  void long_latency(int index, Cycle now) override { base_->long_latency(index, now); }
  bool nothing_ready(Cycle now) override { return base_->nothing_ready(now); }
  Cycle next_event(Cycle now) const override {
    const Cycle b = base_->next_event(now);
    return held_until_ > now ? std::min(b, held_until_) : b;
  }
  std::string name() const override { return "bows"; }

  void on_issue(const sm::IssueEvent& e) override {
    if (!mine(e.slot)) return;
    // Issuing is what ends the backed-off state; a one-instruction spin loop's SIB both ends
    // it and starts it again.
    leave_backoff(e.slot, e.now);
    const bool sib = e.branch && (ddos_ ? e.backward && ddos_->is_sib(e.pc)
                                        : e.inst != nullptr && e.inst->spin_mark);
    delay_.note(e.now, sib);
    if (!sib) return;
    count(kSibInstructions);
    if (e.taken == 0) return;  // every lane left the spin loop: no iteration to back off
    WarpState& w = at(e.slot);
    if (!w.alive) start(e.slot, e.now);
    if (w.backed_off) return;
    close(e.slot, e.now);
    w.backed_off = true;
    ++gen_;
    w.since_issue = e.now;
    queue_.push_back(e.slot);
    count(kBackoffs);
  }
  void on_cta_launch(const sm::CtaEvent& e) override {
    for (int slot : e.slots)
      if (mine(slot)) {
        drop(slot, e.now);
        start(slot, e.now);
      }
  }
  void on_warp_exit(const sm::WarpExitEvent& e) override {
    if (mine(e.slot)) drop(e.slot, e.now);
  }

 private:
  struct WarpState {
    bool alive = false;
    bool backed_off = false;
    Cycle since = 0;        // start of the current state interval (statistics)
    Cycle since_issue = 0;  // when it backed off (it leaves on a later issue)
    Cycle ready_at = 0;     // its pending back-off delay reaches zero
  };

  bool mine(int slot) const {
    return slot >= 0 && static_cast<unsigned>(slot) % nsched_ == static_cast<unsigned>(sched_);
  }
  int index_of(int slot) const {
    return static_cast<unsigned>(slot) % nsched_ == static_cast<unsigned>(sched_)
               ? static_cast<int>(static_cast<unsigned>(slot) / nsched_)
               : -1;
  }
  WarpState& at(int slot) {
    if (static_cast<size_t>(slot) >= st_.size()) st_.resize(static_cast<size_t>(slot) + 1);
    return st_[static_cast<size_t>(slot)];
  }
  void count(BowsStat s, std::uint64_t n = 1) {
    if (counters_ && n) counters_[s] += n;
  }
  void start(int slot, Cycle now) {
    at(slot) = WarpState{true, false, now, 0, 0};
    ++gen_;
  }
  // Charges the warp's cycles since `since` to its state (Fig. 11's distribution): a
  // backed-off warp is delayed until its pending delay reaches zero and ready after.
  void close(int slot, Cycle now) {
    WarpState& w = at(slot);
    if (!w.alive || now <= w.since) {
      w.since = std::max(w.since, now);
      return;
    }
    const Cycle d = now - w.since;
    if (!w.backed_off) {
      count(kCyclesNormal, d);
    } else {
      const Cycle delayed = w.ready_at > w.since ? std::min(d, w.ready_at - w.since) : 0;
      count(kCyclesDelayed, delayed);
      count(kCyclesReady, d - delayed);
    }
    w.since = now;
  }
  void leave_backoff(int slot, Cycle now) {
    if (!mine(slot)) return;
    WarpState& w = at(slot);
    if (!w.backed_off || w.since_issue >= now) return;
    close(slot, now);
    w.backed_off = false;
    w.ready_at = now + delay_.limit(now);
    std::erase(queue_, slot);
    count(kBackoffExits);
    ++gen_;
  }
  void drop(int slot, Cycle now) {
    WarpState& w = at(slot);
    close(slot, now);
    if (w.backed_off) std::erase(queue_, slot);
    w = WarpState{};
    ++gen_;
  }

  BowsParams p_;
  int sched_;
  unsigned nsched_;
  std::uint64_t* counters_;
  std::unique_ptr<IWarpScheduler> base_;
  std::unique_ptr<ISharedUnit> own_ddos_, own_delay_;
  spin::Ddos* ddos_;
  DelayLimit& delay_;
  std::vector<WarpState> st_;    // by SM warp slot
  std::vector<int> slot_of_;     // order index -> SM warp slot
  std::uint64_t seen_version_ = ~std::uint64_t{0};  // the warps slot_of_ was built from
  const SchedWarp* seen_warps_ = nullptr;
  std::vector<int> base_order_;  // the base policy's order (its own memo lives on it)
  std::vector<int> queue_;       // backed-off warps, in the order they backed off
  Cycle held_until_ = kNever;    // first pending delay to end among the warps held back
  // What the order last written into `out` was built from (order() keeps it when unchanged):
  // gen_ counts changes of the warps' back-off states and delays.
  std::uint64_t gen_ = 0, memo_gen_ = ~std::uint64_t{0}, memo_version_ = 0;
  const std::vector<int>* memo_out_ = nullptr;
  size_t memo_size_ = 0;
  std::vector<int> memo_base_;
};

// A shared unit created on first use: the SM's when there is one, else the caller's own.
template <class T, class... Args>
T& shared_or_own(const PolicyContext& ctx, const std::string& name,
                 std::unique_ptr<ISharedUnit>& own, bool& created, Args&&... args) {
  created = false;
  if (ctx.shared) {
    created = !ctx.shared->has(name);
    return ctx.shared->get<T>(name, std::forward<Args>(args)...);
  }
  created = true;
  own = std::make_unique<T>(std::forward<Args>(args)...);
  return static_cast<T&>(*own);
}

}  // namespace

std::unique_ptr<IWarpScheduler> make_bows(const PolicyContext& ctx, const config::PluginParams& p) {
  BowsParams bp;
  bp.ddos = p.get_string("sib_source") == "ddos";
  bp.delay = static_cast<std::uint64_t>(p.get_int("backoff_delay"));
  bp.adaptive = p.get_bool("adaptive_delay");
  bp.window = static_cast<std::uint64_t>(p.get_int("delay_window"));
  bp.step = static_cast<std::uint64_t>(p.get_int("delay_step"));
  bp.min = static_cast<std::uint64_t>(p.get_int("delay_min"));
  bp.max = static_cast<std::uint64_t>(p.get_int("delay_max"));
  bp.frac1 = p.get_float("delay_frac1");
  bp.frac2 = p.get_float("delay_frac2");
  if (bp.adaptive && bp.min > bp.max)
    throw usage_error(fmt::format(
        "{0}.delay_min ({1}) is larger than {0}.delay_max ({2}): the adaptive back-off delay "
        "limit needs min <= max",
        kSchedulerPrefix, bp.min, bp.max));

  // The base policy, with its statistics after BOWS's and DDOS's.
  const std::string& base = p.get_string("base");
  std::uint64_t* base_counters =
      ctx.counters ? ctx.counters + kBowsStatCount + spin::ddos_stat_count() : nullptr;
  bool found = false;
  for (const BaseCandidate& c : kBases) {
    if (base == c.name) {
      found = true;
      break;
    }
    if (base_counters) base_counters += scheduler_stats(c.name).size();
  }
  if (!found)
    throw usage_error(fmt::format("{}.base: unknown policy '{}'", kSchedulerPrefix, base));
  PolicyContext bctx = ctx;
  bctx.counters = base_counters;
  auto inner = make_scheduler(SchedulerParams{base, p}, bctx);

  std::unique_ptr<ISharedUnit> own_ddos, own_delay;
  bool ddos_created = false, delay_created = false;
  spin::Ddos* ddos = nullptr;
  if (bp.ddos) {
    ddos = &shared_or_own<spin::Ddos>(ctx, "ddos", own_ddos, ddos_created, spin::ddos_params(p),
                                      ctx.warps ? ctx.warps->num_slots() : 64u,
                                      ctx.counters ? ctx.counters + kBowsStatCount : nullptr,
                                      ctx.records);
    // DDOS hears an instruction before BOWS asks it about the branch.
    if (ddos_created && ctx.events) ctx.events->subscribe(ddos);
  }
  DelayLimit& delay = shared_or_own<DelayLimit>(ctx, "bows_delay_limit", own_delay, delay_created,
                                                bp, ctx.counters, ctx.records);
  auto bows = std::make_unique<Bows>(ctx, bp, std::move(inner), ddos, delay, std::move(own_ddos),
                                     std::move(own_delay));
  if (ctx.events) ctx.events->subscribe(bows.get());
  return bows;
}

void declare_bows(config::PluginDecl& d) {
  std::vector<std::string> bases;
  for (const BaseCandidate& c : kBases) bases.emplace_back(c.name);
  d.add_choice("base", "gto", bases, "bows: the issue policy BOWS modifies",
               "seed 000 Table II: GTO (+ age rotation every 50,000 cycles), LRR, CAWA")
      .add_choice("sib_source", "ddos", {"ddos", "annotation"},
                  "bows: where spin-inducing branches come from: DDOS's SIB prediction table, "
                  "or the workloads' SIMTSYNC_SPIN_LOOP marks (programmer annotation)",
                  "seed 000 sec. III (annotation) and IV (DDOS); its evaluation uses DDOS")
      .add_int("backoff_delay", 1000, 0, 1'000'000,
               "bows: back-off delay limit in cycles (adaptive_delay: the starting limit, "
               "clamped to [delay_min, delay_max])",
               "seed 000 Fig. 10-12 sweep 0, 500, 1000, 3000, 5000")
      .add_bool("adaptive_delay", true,
                "bows: set the delay limit per SM every delay_window cycles (Fig. 5)",
                "seed 000 sec. III-A2; its evaluation uses the adaptive limit")
      .add_int("delay_window", 1000, 1, 1'000'000'000, "bows: adaptive window T in cycles",
               "seed 000 Table II: 1000 cycles")
      .add_int("delay_step", 250, 0, 1'000'000, "bows: adaptive delay step in cycles",
               "seed 000 Table II: 250 cycles")
      .add_int("delay_min", 1000, 0, 1'000'000, "bows: lowest adaptive delay limit (cycles)",
               "seed 000 Table II: 1000 cycles")
      .add_int("delay_max", 10000, 0, 1'000'000, "bows: highest adaptive delay limit (cycles)",
               "seed 000 Table II prints 1000 (= the minimum, which would make the adaptive "
               "scheme a no-op); sec. VI-E sizes the pending-delay counter (14 bits) for "
               "delays up to 10,000 cycles: read as 10000")
      .add_float("delay_frac1", 0.005, 0, 1,
                 "bows: raise the limit by a step when SIBs exceed this fraction of the "
                 "window's instructions",
                 "seed 000 Table II prints FRAC1 0.5; a SIB is one instruction of a spin "
                 "iteration of several, so SIBs never reach half the instructions and the "
                 "limit could never rise; the text asks only for a non-negligible ratio: read "
                 "as 0.5%")
      .add_float("delay_frac2", 0.8, 0, 100,
                 "bows: lower the limit by two steps when Total/SIB falls below this fraction "
                 "of the previous window's",
                 "seed 000 Table II: FRAC2 0.8")
      .stat("sib_instructions", "bows: spin-inducing branches executed")
      .stat("backoffs", "bows: times a warp took a SIB and entered the backed-off state")
      .stat("backoff_exits", "bows: times a backed-off warp issued and left the state")
      .stat("warp_cycles_not_backed_off",
            "bows: warp-cycles of live warps not in the backed-off state (Fig. 11)")
      .stat("warp_cycles_backed_off_delayed",
            "bows: warp-cycles backed off with the pending delay still running (held back)")
      .stat("warp_cycles_backed_off_ready",
            "bows: warp-cycles backed off with the delay at zero (offered last)")
      .stat("delay_windows", "bows: adaptive windows with instructions (per SM)")
      .stat("delay_increases", "bows: adaptive delay-limit increases (per SM)")
      .stat("delay_decreases", "bows: adaptive delay-limit decreases (per SM)")
      .stat("delay_limit_max", "bows: largest delay limit reached (cycles)", StatSum::kMax);
  spin::declare_ddos(d);
  for (const BaseCandidate& c : kBases) c.declare(d);
}

}  // namespace simtsync::sched
