#include "func/device.h"

#include <fmt/format.h>

#include <chrono>
#include <utility>

#include "common/error.h"
#include "common/host_memory.h"
#include "func/functional_runner.h"
#include "func/launch_backend.h"

namespace simtsync::func {

Device::Device(DeviceOptions opts) : opts_(std::move(opts)) {
  if (!opts_.analysis_cache) opts_.analysis_cache = std::make_shared<AnalysisCache>();
  if (opts_.warp_size == 0 || opts_.warp_size > 64)
    throw usage_error(fmt::format("warp size {} is out of range [1, 64]", opts_.warp_size));
}

Device::~Device() = default;

Addr Device::malloc(std::uint64_t bytes, const std::string& what) {
  if (native_) return native_->malloc(bytes);
  return mem_.allocate(bytes, what);
}

void Device::free(Addr a) {
  if (native_) return native_->free(a);
  mem_.unmap(a);
}

void Device::copy_to_device(Addr dst, const void* src, std::uint64_t n) {
  if (native_) return native_->copy_to_device(dst, src, n);
  if (n && !mem_.valid(dst, n))
    throw usage_error(
        fmt::format("copy to device: [{:#x}, +{}) is not inside one allocation", dst, n));
  mem_.write(dst, src, n);
}

void Device::copy_to_host(void* dst, Addr src, std::uint64_t n) {
  if (native_) return native_->copy_to_host(dst, src, n);
  if (n && !mem_.valid(src, n))
    throw usage_error(
        fmt::format("copy to host: [{:#x}, +{}) is not inside one allocation", src, n));
  mem_.read(src, dst, n);
}

void Device::memset(Addr dst, std::uint8_t value, std::uint64_t n) {
  if (native_) return native_->memset(dst, value, n);
  if (n && !mem_.valid(dst, n))
    throw usage_error(fmt::format("memset: [{:#x}, +{}) is not inside one allocation", dst, n));
  mem_.fill(dst, value, n);  // no host buffer of n bytes; zeros on fresh pages cost nothing
}

void Device::check_host_memory(const Program& prog, const DecodedFunction& k, Dim3 grid, Dim3 block,
                               std::uint32_t dynamic_shared) const {
  // CTAs and warps exist only while resident (launch_table.h), but the watchdog keeps a few
  // words per warp of the whole grid. The functional mode's resident CTAs hold their warps,
  // registers and shared memory; the timing mode's are bounded by the GPU's occupancy.
  const unsigned wpc =
      static_cast<unsigned>((block.count() + opts_.warp_size - 1) / opts_.warp_size);
  const long double warps = static_cast<long double>(grid.count()) * wpc;
  long double bytes = warps * 48;
  const long double resident =
      backend_ ? 0.0L
               : static_cast<long double>(resident_ctas(
                     opts_.resident_warps,
                     LaunchInfo{&k, grid, block, opts_.warp_size, dynamic_shared, wpc}));
  bytes += resident * (wpc * (sizeof(Warp) + 64 + prog.total_regs() * opts_.warp_size * 8.0L) +
                       sizeof(Cta) + 64 + k.static_shared + dynamic_shared);
  if (bytes <= static_cast<long double>(opts_.host_memory_budget)) return;
  throw HostMemoryError(fmt::format(
      "launch of kernel '{}' with grid ({},{},{}) block ({},{},{}) needs about {} MiB of host "
      "memory ({} warps{}), more than sim.host_memory_budget_mb = {} MiB",
      k.name, grid.x, grid.y, grid.z, block.x, block.y, block.z,
      static_cast<std::uint64_t>(bytes / (1 << 20)), static_cast<std::uint64_t>(warps),
      backend_ ? ""
               : fmt::format("; {} CTAs resident at once with their registers and shared memory "
                             "(sim.functional_resident_warps = {})",
                             static_cast<std::uint64_t>(resident), opts_.resident_warps),
      opts_.host_memory_budget >> 20));
}

int Device::load_module(ptx::Module module) {
  modules_.push_back(std::make_unique<ptx::Module>(std::move(module)));
  // Only a unit with delayed reconvergence reads the analysis at decode (issue 46); the
  // watchdog asks for flagged loops when it reports.
  DecodeOptions d;
  d.safe_reconvergence = opts_.reconvergence.reads_safe_reconvergence();
  d.analysis_budget = opts_.analysis_budget;
  d.cache = opts_.analysis_cache;
  programs_.push_back(std::make_unique<Program>(*modules_.back(), mem_, std::move(d)));
  if (native_) native_modules_.push_back(native_->load_module(*modules_.back()));
  return static_cast<int>(programs_.size()) - 1;
}

LaunchResult Device::launch(int module, const std::string& kernel, Dim3 grid, Dim3 block,
                            const KernelArgs& args, std::uint32_t dynamic_shared) {
  const Program& prog = *programs_.at(static_cast<size_t>(module));
  const DecodedFunction* k = prog.kernel(kernel);
  if (!k) throw usage_error(fmt::format("no kernel '{}' in module {}", kernel, prog.module().path));
  if (args.values().size() != k->param_offsets.size())
    throw usage_error(fmt::format("kernel '{}' takes {} parameters, {} given", kernel,
                                  k->param_offsets.size(), args.values().size()));
  for (size_t i = 0; i < args.values().size(); ++i) {
    const auto& v = args.values()[i];
    if (v.size() != k->param_sizes[i])
      throw usage_error(fmt::format("kernel '{}' parameter {} is {} bytes, {} given", kernel, i,
                                    k->param_sizes[i], v.size()));
    mem_.write(k->param_buffer + k->param_offsets[i], v.data(), v.size());
  }
  if (grid.count() == 0 || block.count() == 0 || block.count() > 1024)
    throw usage_error(fmt::format("bad launch shape grid ({},{},{}) block ({},{},{})", grid.x,
                                  grid.y, grid.z, block.x, block.y, block.z));
  if (!native_) check_host_memory(prog, *k, grid, block, dynamic_shared);
  const auto t0 = std::chrono::steady_clock::now();
  LaunchResult r;
  if (native_) {
    r = native_->launch(native_modules_.at(static_cast<size_t>(module)), kernel, grid, block,
                        args.values(), dynamic_shared);
    native_ms_ += r.native_ms;
  } else if (backend_) {
    r = backend_->run(prog, mem_, *k, grid, block, dynamic_shared);
  } else {
    FunctionalRunner runner(prog, mem_, opts_);
    r = runner.run(*k, grid, block, dynamic_shared);
  }
  cycles_ += r.cycles;
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  sim_seconds_ += r.seconds;
  accumulate(totals_, r.stats);
  return r;
}

}  // namespace simtsync::func
