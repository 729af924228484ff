// bh host drivers: Barnes-Hut n-body (seed 000 sec. V: 30,000 bodies; kernels TB, SM, ST, FC),
// after the kernel structure of Burtscher and Pingali (bh.cu). The full pipeline `bh` runs
// `steps` time steps of bounding box, tree building, summarization, sort, force calculation
// and integration. Each phase is also a workload of its own that runs the phases before it
// first and validates its own output: bh_tb, bh_sm, bh_st_simt (Fig. 6c), bh_st_mimd (the
// CPU-style wait, which SIMT-deadlocks under the IPDOM stack) and bh_fc. bh_tb_mimd and
// bh_sm_mimd are tree building and summarization written as for a CPU (bh_tb_mimd.cu: a spin
// lock on the child slot; bh_sm_mimd.cu: a spin on every child's mass), the MIMD forms of seed
// 003's BH-TB and BH-SM; both SIMT-deadlock under the IPDOM stack. bh_tb_lockinst is
// bh_tb with the lock instructions of seed 004 (Example 18, bh_tb_lockinst.cu; lock words in an
// array of their own, one per child slot, -1 when free, on the lock_stack reconvergence unit);
// it also reports how many critical sections ran and how many inserted nothing (Fig. 7.2).
// bh_tb_trylock is the same with the try-lock instruction of seed 004 sec. 9.2.2
// (bh_tb_trylock.cu: a failed try re-traverses, as the original's atomicCAS does).
//
// Validation runs the same algorithm on the CPU (bh_cpu.h). The octree does not depend on the
// order of insertion, so the GPU tree is compared with the CPU tree node by node (shape, cell
// centres, masses, centres of mass, body counts), the sort order exactly, accelerations and
// final positions/velocities within a relative tolerance (the GPU contracts multiply-adds).
#include <fmt/format.h>

#include <cmath>
#include <random>

#include "bh/bh_cpu.h"
#include "framework/workload.h"

namespace simtsync::workloads {
namespace {

using bh::Tree;

struct DevGlobals {  // layout of BhGlobals in bh.cuh
  std::int32_t bottom;
  std::int32_t maxdepth;
  std::uint32_t blkcnt;
  std::int32_t error;
  float radius;
};

enum class Stage { kTreeBuild, kSummarize, kSort, kForce, kAll };

constexpr float kTheta = 0.5f;             // opening angle (Burtscher and Pingali)
constexpr float kEpsSq = 0.05f * 0.05f;    // softening
constexpr float kDt = 0.025f;              // time step

class BarnesHut final : public Workload {
 public:
  BarnesHut(std::string name, Stage stage, bool mimd, bool lockinst = false, bool trylock = false)
      : name_(std::move(name)),
        stage_(stage),
        mimd_(mimd),
        lockinst_(lockinst || trylock),
        trylock_(trylock) {}

  std::string name() const override { return name_; }
  std::string description() const override {
    switch (stage_) {
      case Stage::kTreeBuild:
        if (trylock_)
          return "Barnes-Hut tree building TB with the try-lock instruction (seed 004 sec. "
                 "9.2.2): a failed try re-traverses";
        if (lockinst_)
          return "Barnes-Hut tree building TB with the lock instructions (seed 004 Example 18)";
        return mimd_ ? "Barnes-Hut tree building TB, CPU-style spin lock: SIMT-deadlocks under "
                       "the IPDOM stack"
                     : "Barnes-Hut tree building TB: try-lock insertion, throttling barrier";
      case Stage::kSummarize:
        return mimd_ ? "Barnes-Hut summarization SM, CPU-style wait: SIMT-deadlocks under the "
                       "IPDOM stack (after BB, TB)"
                     : "Barnes-Hut summarization SM: cells wait for their children (after BB, TB)";
      case Stage::kSort:
        return mimd_ ? "Barnes-Hut sort ST, CPU-style wait: SIMT-deadlocks under the IPDOM stack"
                     : "Barnes-Hut sort ST: wait and signal (seed 000 Fig. 6c; after BB, TB, SM)";
      case Stage::kForce:
        return "Barnes-Hut force calculation FC (after BB, TB, SM, ST)";
      default:
        return "Barnes-Hut n-body: BB, TB, SM, ST, FC, integration per time step (seed 000 sec. V)";
    }
  }
  std::string suite() const override { return "synchronization"; }
  std::vector<std::pair<std::string, std::string>> config_defaults() const override {
    if (!lockinst_) return {};
    return {{"sm.reconvergence.impl", "lock_stack"}};
  }
  std::vector<ParamSpec> params() const override {
    // Paper: 30,000 bodies (seed 000 sec. V); 15 CTAs (one per GTX480 SM) of 256 threads.
    std::vector<ParamSpec> p = {
        {"bodies", "bodies", 128, 4096, 30000, 2, 1 << 24},
        {"ctas", "CTAs of every kernel", 2, 15, 15, 1, 1 << 16},
        {"threads", "threads per CTA (a power of two)", 64, 256, 256, 32, 256},
        {"seed", "body generator seed", 1, 1, 1, 0, INT32_MAX}};
    if (stage_ == Stage::kAll) p.push_back({"steps", "time steps", 1, 2, 2, 1, 1 << 20});
    if (trylock_)
      p.push_back({"attempts", "tries of each simtsync_try_lock before it fails (1: one attempt)",
                   1, 1, 1, 1, 1 << 20});
    return p;
  }

  Validation run(WorkloadContext& ctx) const override {
    const int nbodies = static_cast<int>(ctx.param("bodies"));
    const auto ctas = static_cast<std::uint32_t>(ctx.param("ctas"));
    const auto threads = static_cast<std::uint32_t>(ctx.param("threads"));
    const int steps = stage_ == Stage::kAll ? static_cast<int>(ctx.param("steps")) : 1;
    if ((threads & (threads - 1)) != 0)
      return {false, fmt::format("threads = {} is not a power of two (the bounding-box "
                                 "reduction needs one)", threads)};
    const int nnodes = bh::nodes_for(nbodies);
    const auto nodes = static_cast<std::size_t>(nnodes) + 1;
    const auto nb = static_cast<std::size_t>(nbodies);

    // Bodies uniformly in the unit ball, small random velocities, equal masses.
    bh::Bodies b;
    std::mt19937 rng(static_cast<std::uint32_t>(ctx.param("seed")));
    std::uniform_real_distribution<float> unit(-1.0f, 1.0f), vel(-0.1f, 0.1f);
    while (b.px.size() < nb) {
      const float x = unit(rng), y = unit(rng), z = unit(rng);
      if (x * x + y * y + z * z > 1.0f) continue;
      b.px.push_back(x); b.py.push_back(y); b.pz.push_back(z);
      b.vx.push_back(vel(rng)); b.vy.push_back(vel(rng)); b.vz.push_back(vel(rng));
      b.mass.push_back(1.0f / static_cast<float>(nbodies));
    }

    auto& dev = ctx.device();
    auto padded = [&](const std::vector<float>& v) {
      std::vector<float> out(nodes, 0.0f);
      std::copy(v.begin(), v.end(), out.begin());
      return out;
    };
    Addr px = dev.upload(padded(b.px), "node x"), py = dev.upload(padded(b.py), "node y"),
         pz = dev.upload(padded(b.pz), "node z"), mass = dev.upload(padded(b.mass), "node mass");
    Addr vx = dev.upload(b.vx, "velocity x"), vy = dev.upload(b.vy, "velocity y"),
         vz = dev.upload(b.vz, "velocity z");
    Addr ax = dev.malloc(nb * 4, "acceleration x"), ay = dev.malloc(nb * 4, "acceleration y"),
         az = dev.malloc(nb * 4, "acceleration z");
    Addr child = dev.upload(std::vector<std::int32_t>(nodes * 8, -1), "children");
    Addr count = dev.upload(std::vector<std::int32_t>(nodes, 0), "body counts");
    Addr start = dev.upload(std::vector<std::int32_t>(nodes, -1), "sort starts");
    Addr sort = dev.upload(std::vector<std::int32_t>(nodes, -1), "sorted bodies");
    Addr bbox = dev.malloc(6 * 4 * std::size_t{ctas}, "per-CTA bounding boxes");
    Addr g = dev.upload(std::vector<DevGlobals>{{0, 0, 0, 0, 0.0f}}, "globals");
    // bh_tb_lockinst: one lock word per child slot (-1 free) and the critical-section counts
    // (all, and those that inserted nothing).
    Addr locks = 0, sections = 0;
    if (lockinst_) {
      locks = dev.upload(std::vector<std::int32_t>(nodes * 8, -1), "child-slot locks");
      sections = dev.upload(std::vector<std::int32_t>(3, 0), "critical-section counts");
    }
    const int m = ctx.load("bh/bh.ptx");
    const Dim3 grid{ctas, 1, 1}, block{threads, 1, 1};
    auto args = [&] { return func::KernelArgs().add(nbodies).add(nnodes); };

    for (int step = 0; step < steps; ++step) {
      if (!ctx.launch(m, "bh_bb", grid, block,
                      args().add(px).add(py).add(pz).add(mass).add(child).add(start).add(bbox)
                          .add(g)))
        return {};
      if (lockinst_) {
        // A module of its own, loaded after the last bh.ptx kernel (see the sort below).
        func::KernelArgs a =
            args().add(px).add(py).add(pz).add(mass).add(child).add(start).add(g).add(locks).add(
                sections);
        if (trylock_) a.add(static_cast<int>(ctx.param("attempts")));
        const char* kernel = trylock_ ? "bh_tb_trylock" : "bh_tb_lockinst";
        if (!ctx.launch(ctx.load(fmt::format("bh/{}.ptx", kernel)), kernel, grid, block, a))
          return {};
        break;  // tree building only
      }
      // The MIMD kernels (bh_tb_mimd, bh_sm_mimd, bh_st_mimd) live in modules of their own,
      // each loaded only when its phase comes, and that phase is the workload's last: a second
      // module's parameter buffers are placed at the first one's addresses (func::Program
      // starts every module at kModuleVarBase), so no kernel of bh.ptx may be launched after
      // it is loaded.
      const bool tb_mimd = mimd_ && stage_ == Stage::kTreeBuild;
      const int tm = tb_mimd ? ctx.load("bh/bh_tb_mimd.ptx") : m;
      if (!ctx.launch(tm, tb_mimd ? "bh_tb_mimd" : "bh_tb", grid, block,
                      args().add(px).add(py).add(pz).add(mass).add(child).add(start).add(g)))
        return {};
      if (stage_ == Stage::kTreeBuild) break;
      const bool sm_mimd = mimd_ && stage_ == Stage::kSummarize;
      const int mm = sm_mimd ? ctx.load("bh/bh_sm_mimd.ptx") : m;
      if (!ctx.launch(mm, sm_mimd ? "bh_sm_mimd" : "bh_sm", grid, block,
                      args().add(px).add(py).add(pz).add(mass).add(child).add(count).add(g)))
        return {};
      if (stage_ == Stage::kSummarize) break;
      const int sm = mimd_ ? ctx.load("bh/bh_st_mimd.ptx") : m;
      if (!ctx.launch(sm, mimd_ ? "bh_st_mimd" : "bh_st", grid, block,
                      args().add(child).add(count).add(start).add(sort).add(g)))
        return {};
      if (stage_ == Stage::kSort) break;
      if (!ctx.launch(m, "bh_fc", grid, block,
                      args().add(px).add(py).add(pz).add(mass).add(child).add(sort).add(ax)
                          .add(ay).add(az).add(kTheta).add(kEpsSq).add(g)))
        return {};
      if (stage_ == Stage::kForce) break;
      if (!ctx.launch(m, "bh_int", grid, block,
                      func::KernelArgs().add(nbodies).add(px).add(py).add(pz).add(vx).add(vy)
                          .add(vz).add(ax).add(ay).add(az).add(kDt)))
        return {};
      const DevGlobals gg = dev.download<DevGlobals>(g, 1)[0];
      if (gg.error != 0)
        return {false, fmt::format("step {}: {}", step,
                                   gg.error == 1 ? "out of cells" : "traversal stack overflow")};
    }

    const DevGlobals gg = dev.download<DevGlobals>(g, 1)[0];
    if (gg.error != 0)
      return {false, gg.error == 1 ? "tree building ran out of cells"
                                   : "force calculation overflowed its stack"};
    if (stage_ == Stage::kAll) return validate_pipeline(dev, b, steps, px, py, pz, vx, vy, vz);

    // One phase: the CPU runs the same phases on the same bodies.
    Tree want = bh::make_tree(b);
    bh::bounding_box(want);
    bh::build(want);
    if (want.out_of_cells) return {false, "the CPU reference ran out of cells"};
    Tree got = want;
    got.bottom = gg.bottom;
    got.radius = gg.radius;
    got.px = dev.download<float>(px, nodes);
    got.py = dev.download<float>(py, nodes);
    got.pz = dev.download<float>(pz, nodes);
    got.mass = dev.download<float>(mass, nodes);
    got.child = dev.download<std::int32_t>(child, nodes * 8);
    got.count = dev.download<std::int32_t>(count, nodes);
    got.start = dev.download<std::int32_t>(start, nodes);
    got.sort = dev.download<std::int32_t>(sort, nodes);
    const int cells = nnodes - want.bottom + 1;
    if (gg.radius != want.radius)
      return {false, fmt::format("bounding box radius {}, expected {}", gg.radius, want.radius)};
    if (stage_ == Stage::kTreeBuild) {
      std::string diff = bh::compare_trees(got, want, false, 1e-6f);
      if (!diff.empty()) return {false, diff};
      if (lockinst_)
        return validate_lockinst(ctx, nbodies, cells, gg.maxdepth, locks, sections, trylock_);
      return {true, fmt::format("{} bodies, {} cells, octree equals the CPU octree (depth {})",
                                nbodies, cells, gg.maxdepth)};
    }
    bh::summarize(want);
    std::string diff = bh::compare_trees(got, want, true, 1e-5f);
    if (!diff.empty()) return {false, diff};
    if (stage_ == Stage::kSummarize)
      return {true, fmt::format("{} bodies, {} cells summarized: masses, centres of mass and "
                                "counts equal the CPU's", nbodies, cells)};
    bh::sort_bodies(want);
    for (std::size_t k = 0; k < nb; ++k)
      if (got.sort[k] != want.sort[k])
        return {false, fmt::format("sorted position {} holds body {}, expected {}", k,
                                   got.sort[k], want.sort[k])};
    if (stage_ == Stage::kSort)
      return {true, fmt::format("{} bodies in {} cells, sort order equals the CPU's", nbodies,
                                cells)};
    std::vector<float> wx, wy, wz;
    bh::forces(want, kTheta, kEpsSq, wx, wy, wz);
    auto gx = dev.download<float>(ax, nb), gy = dev.download<float>(ay, nb),
         gz = dev.download<float>(az, nb);
    double worst = 0;
    for (std::size_t i = 0; i < nb; ++i) {
      const double mag = std::sqrt(double{wx[i]} * wx[i] + double{wy[i]} * wy[i] + double{wz[i]} * wz[i]);
      const double err = std::sqrt(std::pow(gx[i] - wx[i], 2) + std::pow(gy[i] - wy[i], 2) +
                                   std::pow(gz[i] - wz[i], 2)) / std::max(mag, 1e-6);
      worst = std::max(worst, err);
      if (err > 1e-4)
        return {false, fmt::format("body {}: acceleration ({}, {}, {}), expected ({}, {}, {})", i,
                                   gx[i], gy[i], gz[i], wx[i], wy[i], wz[i])};
    }
    return {true, fmt::format("{} bodies, accelerations equal the CPU's (max relative error "
                              "{:.1e})", nbodies, worst)};
  }

 private:
  Validation validate_pipeline(func::Device& dev, bh::Bodies b, int steps, Addr px, Addr py,
                               Addr pz, Addr vx, Addr vy, Addr vz) const {
    const auto nb = b.px.size();
    for (int s = 0; s < steps; ++s) {
      Tree t = bh::make_tree(b);
      bh::bounding_box(t);
      bh::build(t);
      if (t.out_of_cells) return {false, "the CPU reference ran out of cells"};
      bh::summarize(t);
      bh::sort_bodies(t);
      std::vector<float> ax, ay, az;
      bh::forces(t, kTheta, kEpsSq, ax, ay, az);
      bh::integrate(b, ax, ay, az, kDt);
    }
    const std::vector<float>* want[6] = {&b.px, &b.py, &b.pz, &b.vx, &b.vy, &b.vz};
    const Addr got_at[6] = {px, py, pz, vx, vy, vz};
    double worst[2] = {0, 0};
    for (int a = 0; a < 6; ++a) {
      auto got = dev.download<float>(got_at[a], nb);
      for (std::size_t i = 0; i < nb; ++i) {
        // Positions are within the unit ball, velocities around 0.1: absolute tolerances.
        const double err = std::fabs(double{got[i]} - (*want[a])[i]);
        worst[a / 3] = std::max(worst[a / 3], err);
        if (err > (a < 3 ? 1e-5 : 1e-4))
          return {false, fmt::format("body {}: {} {} is {}, the CPU run gives {}", i,
                                     a < 3 ? "position" : "velocity", "xyz"[a % 3], got[i],
                                     (*want[a])[i])};
      }
    }
    return {true, fmt::format("{} bodies, {} steps: positions and velocities equal the CPU run "
                              "(max difference {:.1e} / {:.1e})", nb, steps, worst[0], worst[1])};
  }

  // bh_tb_lockinst, after the tree compared equal: every lock is free again; the critical
  // sections (each thread's, summed by the kernel) go into the notes and the message.
  static Validation validate_lockinst(WorkloadContext& ctx, int nbodies, int cells, int depth,
                                      Addr locks, Addr sections, bool trylock) {
    auto& dev = ctx.device();
    const std::size_t slots = (static_cast<std::size_t>(bh::nodes_for(nbodies)) + 1) * 8;
    const auto lock = dev.download<std::int32_t>(locks, slots);
    for (std::size_t s = 0; s < slots; ++s)
      if (lock[s] != -1)
        return {false, fmt::format("the lock of child slot {} (cell {}, octant {}) is held by "
                                   "thread {}",
                                   s, s / 8, s % 8, lock[s])};
    const auto cs = dev.download<std::int32_t>(sections, 3);
    // Every body is inserted in exactly one critical section.
    if (cs[0] - cs[1] != nbodies)
      return {false, fmt::format("{} critical sections of which {} inserted nothing, but {} "
                                 "bodies",
                                 cs[0], cs[1], nbodies)};
    ctx.notes().push_back(fmt::format("critical_sections={}", cs[0]));
    ctx.notes().push_back(fmt::format("critical_sections_no_insert={}", cs[1]));
    if (trylock) ctx.notes().push_back(fmt::format("try_lock_failures={}", cs[2]));
    return {true,
            fmt::format("{} bodies, {} cells, octree equals the CPU octree (depth {}); {} "
                        "critical sections, {} inserted nothing ({:.1f}%)",
                        nbodies, cells, depth, cs[0], cs[1], 100.0 * cs[1] / std::max(cs[0], 1))};
  }

  std::string name_;
  Stage stage_;
  bool mimd_;
  bool lockinst_;  // bh_tb_lockinst or bh_tb_trylock
  bool trylock_;   // bh_tb_trylock
};

}  // namespace

std::unique_ptr<Workload> make_bh() {
  return std::make_unique<BarnesHut>("bh", Stage::kAll, false);
}
std::unique_ptr<Workload> make_bh_tb() {
  return std::make_unique<BarnesHut>("bh_tb", Stage::kTreeBuild, false);
}
std::unique_ptr<Workload> make_bh_tb_lockinst() {
  return std::make_unique<BarnesHut>("bh_tb_lockinst", Stage::kTreeBuild, false, true);
}
std::unique_ptr<Workload> make_bh_tb_trylock() {
  return std::make_unique<BarnesHut>("bh_tb_trylock", Stage::kTreeBuild, false, false, true);
}
std::unique_ptr<Workload> make_bh_tb_mimd() {
  return std::make_unique<BarnesHut>("bh_tb_mimd", Stage::kTreeBuild, true);
}
std::unique_ptr<Workload> make_bh_sm() {
  return std::make_unique<BarnesHut>("bh_sm", Stage::kSummarize, false);
}
std::unique_ptr<Workload> make_bh_sm_mimd() {
  return std::make_unique<BarnesHut>("bh_sm_mimd", Stage::kSummarize, true);
}
std::unique_ptr<Workload> make_bh_st_simt() {
  return std::make_unique<BarnesHut>("bh_st_simt", Stage::kSort, false);
}
std::unique_ptr<Workload> make_bh_st_mimd() {
  return std::make_unique<BarnesHut>("bh_st_mimd", Stage::kSort, true);
}
std::unique_ptr<Workload> make_bh_fc() {
  return std::make_unique<BarnesHut>("bh_fc", Stage::kForce, false);
}

}  // namespace simtsync::workloads
