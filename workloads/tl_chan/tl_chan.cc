// tl_chan host drivers: the producer-consumer channels of seed 001 (Listings 5-9, Fig. 8-9) on
// one computation, a stencil of dependent values (chan_common.cuh): each CTA computes a
// rows x cols grid, row 0 its input, every other cell a mix of the three cells above it (columns
// wrap), one thread per cell, each value passed to its three consumers through a channel.
//   chan_atomic             shared channel per producer, atomic spin lock (Listings 5, 7)
//   chan_shared             shared channel per producer, its lock bit (Fig. 8, Listings 6, 8)
//   chan_private            a channel per producer-consumer pair, lock bits (Fig. 9, Listing 6)
//   chan_warp_bit           one lock bit per producer warp, shared by its consumer warps
//                           (sec. 4.5, Listing 9)
//   chan_intra_warp         chan_shared with the lane-major mapping: producer and consumer in one
//                           warp (Listing 8's critical section)
//   chan_intra_warp_atomic  chan_atomic with the lane-major mapping (Listing 7)
// Validation is exact: every cell equals the CPU's; it does not depend on the firing order.
#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <random>

#include "common/error.h"
#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

enum class Scheme { kAtomic, kShared, kPrivate, kWarpBit };

// chan_common.cuh's chan_mix.
std::uint32_t chan_mix(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t r,
                       std::uint32_t col) {
  std::uint32_t x = a + 3u * b + 5u * c;
  x ^= x >> 15;
  x *= 0x2c1b3c6du;
  return x ^ (r * 64u + col);
}

class Channels final : public Workload {
 public:
  Channels(std::string name, Scheme scheme, bool lane_major)
      : name_(std::move(name)), scheme_(scheme), lane_major_(lane_major) {}

  std::string name() const override { return name_; }
  std::string description() const override {
    const char* where = lane_major_ ? "producer and consumer in one warp"
                                    : "producers and consumers in different warps";
    switch (scheme_) {
      case Scheme::kAtomic:
        return fmt::format(
            "stencil through shared channels with atomic spin locks (seed 001 Listing 5, "
            "Listing 7's critical section), {}",
            where);
      case Scheme::kShared:
        return fmt::format(
            "stencil through shared channels on lock bits (seed 001 Fig. 8, "
            "Listing 8's critical section), {}",
            where);
      case Scheme::kPrivate:
        return "stencil through private channels on lock bits, 3 per producer (seed 001 Fig. 9)";
      default:
        return "stencil through warp-shared lock bits shared by consumer warps (seed 001 "
               "Listing 9)";
    }
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<ParamSpec> params() const override {
    // Row-major: test 4 x 64 (256 threads), default 6 x 64 (chan_private's 3 x 5 x 64 = 960
    // channels is the most that fits 1024 lock bits with 64 columns), paper 32 x 32 (a 32x32
    // CTA of 1024 threads, as seed 001's NW). Lane-major: one warp per column, test 32 x 8,
    // default 32 x 12, paper 32 x 32 (the same grid as the row-major paper size).
    // Default and paper: 15 CTAs (one per SM of gtx480 and of the seed's GTX 570).
    const bool priv = scheme_ == Scheme::kPrivate;
    std::vector<ParamSpec> p;
    p.push_back({"ctas", "independent CTAs, each one grid", 1, 15, 15, 1, 1 << 20});
    if (lane_major_) {
      p.push_back({"rows", "rows of the grid (steps of the stencil; a warp is 32 rows)", 32, 32, 32,
                   2, 1024});
      p.push_back({"cols", "columns of the grid", 8, 12, 32, 1, 512});
    } else {
      p.push_back({"rows", "rows of the grid (steps of the stencil)", 4, 6, priv ? 6 : 32, 2, 512});
      p.push_back({"cols", "columns of the grid (a multiple of 32: a warp is 32 columns)", 64, 64,
                   priv ? 64 : 32, 32, 1024});
    }
    if (scheme_ == Scheme::kShared)
      p.push_back({"naive",
                   "1: Listing 6's waitlock loops instead of the critical section "
                   "(SIMD-deadlocks when producer and consumer share a warp)",
                   0, 0, 0, 0, 1});
    p.push_back({"seed", "input generator seed", 1, 1, 1, 0, INT32_MAX});
    return p;
  }

  Validation run(WorkloadContext& ctx) const override {
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const int rows = static_cast<int>(ctx.param("rows"));
    const int cols = static_cast<int>(ctx.param("cols"));
    const int naive = scheme_ == Scheme::kShared ? static_cast<int>(ctx.param("naive")) : 0;
    const auto threads = static_cast<std::uint32_t>(rows * cols);
    if (threads > 1024)
      throw usage_error(
          fmt::format("key 'workload.rows': rows x cols = {} x {} = {} threads, "
                      "more than 1024 per CTA",
                      rows, cols, threads));
    if (!lane_major_ && cols % 32 != 0)
      throw usage_error(fmt::format("key 'workload.cols': {} is not a multiple of 32", cols));
    // Lock bits one CTA uses; they must not alias (one bit per word address modulo the count).
    const unsigned lock_bits = ctx.device().options().lock_bits;
    const std::uint32_t words = scheme_ == Scheme::kPrivate  ? 3u * (threads - cols)
                                : scheme_ == Scheme::kAtomic ? 2u * threads
                                                             : threads;
    const std::uint32_t bits_used = scheme_ == Scheme::kAtomic    ? 0
                                    : scheme_ == Scheme::kWarpBit ? threads / 32
                                                                  : words;
    if (bits_used > lock_bits)
      throw usage_error(
          fmt::format("key 'workload.rows': {} x {} needs {} lock bits per CTA{}, more than "
                      "sm.shared.lock_bits = {} (words {} apart would share a bit)",
                      rows, cols, bits_used, scheme_ == Scheme::kPrivate ? " (3 per producer)" : "",
                      lock_bits, lock_bits));

    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::vector<std::uint32_t> in(std::size_t{ctas} * static_cast<std::size_t>(cols));
    for (auto& x : in) x = static_cast<std::uint32_t>(rng());
    auto& dev = ctx.device();
    Addr din = dev.upload(in, "inputs");
    Addr out = dev.malloc(std::size_t{ctas} * threads * sizeof(std::uint32_t), "grids");
    Addr phase = dev.malloc(std::size_t{ctas} * threads * 2 * sizeof(std::int64_t), "phase clocks");
    const auto shared = static_cast<std::uint32_t>(words * sizeof(std::int32_t));
    const int lm = lane_major_ ? 1 : 0;
    bool done = false;
    switch (scheme_) {
      case Scheme::kAtomic: {
        const int m = ctx.load("tl_chan/chan_atomic.ptx");
        done = ctx.launch(
            m, "chan_atomic", {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(din).add(out).add(rows).add(cols).add(lm).add(phase), shared);
        break;
      }
      case Scheme::kShared: {
        const int m = ctx.load("tl_chan/chan_shared.ptx");
        done = ctx.launch(
            m, "chan_shared", {ctas, 1, 1}, {threads, 1, 1},
            func::KernelArgs().add(din).add(out).add(rows).add(cols).add(lm).add(naive).add(phase),
            shared);
        break;
      }
      case Scheme::kPrivate: {
        const int m = ctx.load("tl_chan/chan_private.ptx");
        done =
            ctx.launch(m, "chan_private", {ctas, 1, 1}, {threads, 1, 1},
                       func::KernelArgs().add(din).add(out).add(rows).add(cols).add(phase), shared);
        break;
      }
      case Scheme::kWarpBit: {
        const int m = ctx.load("tl_chan/chan_warp_bit.ptx");
        done =
            ctx.launch(m, "chan_warp_bit", {ctas, 1, 1}, {threads, 1, 1},
                       func::KernelArgs().add(din).add(out).add(rows).add(cols).add(phase), shared);
        break;
      }
    }
    if (!done) return {};

    const auto got = dev.download<std::uint32_t>(out, std::size_t{ctas} * threads);
    std::vector<std::uint32_t> grid(threads);
    const auto ucols = static_cast<std::uint32_t>(cols);
    for (std::uint32_t b = 0; b < ctas; ++b) {
      for (std::uint32_t c = 0; c < ucols; ++c) grid[c] = in[std::size_t{b} * ucols + c];
      for (std::uint32_t r = 1; r < static_cast<std::uint32_t>(rows); ++r)
        for (std::uint32_t c = 0; c < ucols; ++c) {
          const std::uint32_t* up = &grid[(r - 1) * ucols];
          grid[r * ucols + c] =
              chan_mix(up[(c + ucols - 1) % ucols], up[c], up[(c + 1) % ucols], r, c);
        }
      for (std::uint32_t i = 0; i < threads; ++i)
        if (got[std::size_t{b} * threads + i] != grid[i])
          return {false, fmt::format("CTA {} cell ({}, {}) is {:#x}, expected {:#x}", b, i / ucols,
                                     i % ucols, got[std::size_t{b} * threads + i], grid[i])};
    }
    // The phase after the __syncthreads per CTA: first start to last end (%clock64: core
    // cycles in the timing mode, executed warp instructions in the functional mode).
    const auto clocks = dev.download<std::int64_t>(phase, std::size_t{ctas} * threads * 2);
    double sum = 0;
    std::int64_t longest = 0;
    for (std::uint32_t b = 0; b < ctas; ++b) {
      std::int64_t lo = INT64_MAX, hi = INT64_MIN;
      for (std::uint32_t t = 0; t < threads; ++t) {
        lo = std::min(lo, clocks[(std::size_t{b} * threads + t) * 2]);
        hi = std::max(hi, clocks[(std::size_t{b} * threads + t) * 2 + 1]);
      }
      sum += static_cast<double>(hi - lo);
      longest = std::max(longest, hi - lo);
    }
    return {true, fmt::format("{} CTA(s) x {}x{} grid ({}), every cell exact; {} lock bits per "
                              "CTA; dataflow phase {:.0f} clock ticks per CTA on average, {} at "
                              "most",
                              ctas, rows, cols, lane_major_ ? "lane-major" : "row-major", bits_used,
                              sum / ctas, longest)};
  }

 private:
  std::string name_;
  Scheme scheme_;
  bool lane_major_;
};

}  // namespace

std::unique_ptr<Workload> make_chan_atomic() {
  return std::make_unique<Channels>("chan_atomic", Scheme::kAtomic, false);
}
std::unique_ptr<Workload> make_chan_shared() {
  return std::make_unique<Channels>("chan_shared", Scheme::kShared, false);
}
std::unique_ptr<Workload> make_chan_private() {
  return std::make_unique<Channels>("chan_private", Scheme::kPrivate, false);
}
std::unique_ptr<Workload> make_chan_warp_bit() {
  return std::make_unique<Channels>("chan_warp_bit", Scheme::kWarpBit, false);
}
std::unique_ptr<Workload> make_chan_intra_warp() {
  return std::make_unique<Channels>("chan_intra_warp", Scheme::kShared, true);
}
std::unique_ptr<Workload> make_chan_intra_warp_atomic() {
  return std::make_unique<Channels>("chan_intra_warp_atomic", Scheme::kAtomic, true);
}

}  // namespace simtsync::workloads
