#include "func/launch_setup.h"

#include <sys/mman.h>

#include "common/error.h"
#include "ptx/ir.h"
#include "simt/registry.h"

namespace simtsync::func {

RegisterArena::RegisterArena(std::size_t words) : bytes_(words * sizeof(std::uint64_t)) {
  if (bytes_ >= (std::size_t{2} << 20)) {
    void* p = ::mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p != MAP_FAILED) {
      ::madvise(p, bytes_, MADV_HUGEPAGE);  // a hint; correctness does not depend on it
      data_ = static_cast<std::uint64_t*>(p);
      mapped_ = true;
      return;
    }
  }
  fallback_.assign(words, 0);
  data_ = fallback_.data();
}

RegisterArena::~RegisterArena() {
  if (mapped_) ::munmap(data_, bytes_);
}

LaunchInfo make_launch_info(const DecodedFunction& kernel, Dim3 grid, Dim3 block,
                            unsigned warp_size, std::uint32_t dynamic_shared) {
  // The kernel's .maxntid/.reqntid (issue 45: they used to be ignored).
  if (kernel.ir)
    if (auto why = ptx::block_shape_problem(*kernel.ir, block.x, block.y, block.z))
      throw usage_error(*why);
  LaunchInfo li;
  li.kernel = &kernel;
  li.grid = grid;
  li.block = block;
  li.warp_size = warp_size;
  li.dynamic_shared = dynamic_shared;
  li.warps_per_cta = static_cast<unsigned>((block.count() + warp_size - 1) / warp_size);
  return li;
}

namespace {

// Puts a new CTA and its warps into the initial state (allocating registers if needed).
void setup_cta(const Program& prog, const LaunchInfo& li, Cta& cta, WarpTable& warps) {
  const DecodedFunction& kernel = *li.kernel;
  const int kernel_index = static_cast<int>(&kernel - &prog.functions().front());
  const std::uint64_t threads = li.block.count();
  const unsigned ws = li.warp_size;
  static const simt::UnitChoice kDefaultUnit = simt::reconvergence_choice("ipdom_stack");
  const simt::UnitChoice& unit = li.reconvergence ? *li.reconvergence : kDefaultUnit;
  cta.shared.assign(kernel.static_shared + li.dynamic_shared, 0);
  cta.live_warps = 0;
  for (int wid : cta.warps) {
    Warp& w = warps[static_cast<size_t>(wid)];
    if (!w.has_registers()) {
      auto& spare = warps.spare_registers;
      w.allocate(prog.total_regs(), spare.empty() ? nullptr : &spare.back());
      if (!spare.empty()) spare.pop_back();
    }
    w.function = kernel_index;
    w.kernel_function = kernel_index;
    w.threads = 0;
    const unsigned wi = static_cast<unsigned>(w.warp_in_cta);
    for (unsigned l = 0; l < ws; ++l) {
      std::uint64_t t = std::uint64_t{wi} * ws + l;
      if (t >= threads) break;
      w.threads |= LaneMask{1} << l;
      w.tid[0][l] = static_cast<std::uint32_t>(t % li.block.x);
      w.tid[1][l] = static_cast<std::uint32_t>((t / li.block.x) % li.block.y);
      w.tid[2][l] = static_cast<std::uint32_t>(t / (std::uint64_t{li.block.x} * li.block.y));
    }
    w.simt = unit.create(kernel.base_pc, w.threads);
    ++cta.live_warps;
  }
}

}  // namespace

void begin_grid(const LaunchInfo& li, CtaTable& ctas, WarpTable& warps) {
  ctas.reset(li.grid.count());
  warps.reset(li.grid.count() * li.warps_per_cta);
}

Cta& create_cta(const Program& prog, const LaunchInfo& li, CtaTable& ctas, WarpTable& warps,
                std::uint64_t* regs) {
  const Dim3 grid = li.grid;
  const std::uint64_t c = ctas.created();
  Cta& cta = ctas.create();
  cta.index = static_cast<int>(c);
  cta.ctaid = Dim3{static_cast<std::uint32_t>(c % grid.x),
                   static_cast<std::uint32_t>((c / grid.x) % grid.y),
                   static_cast<std::uint32_t>(c / (std::uint64_t{grid.x} * grid.y))};
  SIMTSYNC_CHECK(warps.created() == c * li.warps_per_cta);
  const std::size_t words = std::size_t{prog.total_regs()} * li.warp_size;
  for (unsigned wi = 0; wi < li.warps_per_cta; ++wi) {
    const std::size_t id = warps.created();
    Warp& w = warps.create(li.warp_size, 0);
    w.global_id = static_cast<int>(id);
    w.age = id;
    w.cta = cta.index;
    w.warp_in_cta = static_cast<int>(wi);
    cta.warps.push_back(w.global_id);
    if (regs) w.attach(regs + wi * words);
  }
  setup_cta(prog, li, cta, warps);
  return cta;
}

void destroy_cta(std::size_t cta, CtaTable& ctas, WarpTable& warps) {
  for (int wid : ctas[cta].warps) {
    std::vector<std::uint64_t> regs = warps[static_cast<std::size_t>(wid)].take_registers();
    if (regs.capacity() != 0) warps.spare_registers.push_back(std::move(regs));
    warps.destroy(static_cast<std::size_t>(wid));
  }
  ctas.destroy(cta);
}

void create_grid(const Program& prog, const LaunchInfo& li, CtaTable& ctas, WarpTable& warps) {
  begin_grid(li, ctas, warps);
  while (ctas.created() < ctas.size()) create_cta(prog, li, ctas, warps);
}

}  // namespace simtsync::func
