#include "cudart/runtime.h"

#include <cxxabi.h>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>

#include "common/error.h"
#include "common/range.h"
#include "ptx/parser.h"
#include "stats/exec_report.h"
#include "timing/gpu/kernel_resources.h"

namespace simtsync::cudart {
namespace {

// Host-visible allocations are placed from here up (MAP_FIXED_NOREPLACE), far from the
// simulated heap (kHeapBase), module variables and the shared/local windows, and above
// AddressSanitizer's shadow memory (which ends at 0x10007fff7fff).
constexpr std::uintptr_t kHostVisibleBase = 0x0000'2000'0000'0000ULL;

Addr addr_of(const void* p) {
  return reinterpret_cast<Addr>(p);
}
void* ptr_of(Addr a) {
  return reinterpret_cast<void*>(a);
}

std::string demangled(const std::string& name) {
  int status = 0;
  char* d = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || !d) return name;
  std::string s(d);
  std::free(d);
  return s;
}

const char* env(const char* name) {
  const char* v = std::getenv(name);
  return v && *v ? v : nullptr;
}

unsigned parse_threads(const std::string& where, const std::string& v) {
  try {
    std::size_t used = 0;
    const unsigned long n = std::stoul(v, &used);
    if (used == v.size() && n >= 1 && n <= 256) return static_cast<unsigned>(n);
  } catch (const std::exception&) {
  }
  throw usage_error(fmt::format("{}: '{}' is not a thread count in [1, 256]", where, v));
}

bool parse_flag(const std::string& where, const std::string& v) {
  if (v == "1" || v == "true") return true;
  if (v == "0" || v == "false") return false;
  throw usage_error(fmt::format("{}: '{}' is not a boolean (true/false)", where, v));
}

// "k=v;k=v" or one per line.
void add_sets(const std::string& where, const std::string& text,
              std::vector<std::pair<std::string, std::string>>& out) {
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find_first_of(";\n", start);
    if (end == std::string::npos) end = text.size();
    std::string item = text.substr(start, end - start);
    item.erase(0, item.find_first_not_of(" \t"));
    item.erase(item.find_last_not_of(" \t\r") + 1);
    if (!item.empty()) {
      const auto eq = item.find('=');
      if (eq == std::string::npos || eq == 0)
        throw usage_error(fmt::format("{}: '{}' is not KEY=VALUE", where, item));
      out.emplace_back(item.substr(0, eq), item.substr(eq + 1));
    }
    start = end + 1;
  }
}

// Runs of more than 200 characters without a space or quote (a huge SIMTSYNC_SET value echoed
// by the error naming it) cut to 80 characters, as `simtsync` does (tools/output_file.h).
std::string shorten_long_values(const std::string& message) {
  constexpr std::size_t kLong = 200, kKeep = 80;
  std::string out;
  for (std::size_t i = 0; i < message.size();) {
    const std::size_t end = message.find_first_of(" \t\n'\":,", i);
    const std::size_t stop = end == std::string::npos ? message.size() : end;
    out += stop - i > kLong
               ? message.substr(i, kKeep) + fmt::format("...({} more characters)", stop - i - kKeep)
               : message.substr(i, stop - i);
    if (stop < message.size()) out += message[stop];
    i = stop + 1;
  }
  return out;
}

}  // namespace

RuntimeOptions RuntimeOptions::from_environment() {
  RuntimeOptions o;
  o.source = "defaults";
  if (std::filesystem::exists("simtsync.yaml")) {
    o.source = "simtsync.yaml";
    YAML::Node y;
    try {
      y = YAML::LoadFile("simtsync.yaml");
    } catch (const YAML::Exception& e) {
      throw usage_error(fmt::format("simtsync.yaml:{}: {}", e.mark.line + 1, e.msg));
    }
    if (y && !y.IsNull() && !y.IsMap()) throw usage_error("simtsync.yaml: expected a map of keys");
    if (y.IsMap()) {
      for (const auto& kv : y) {
        const std::string k = kv.first.as<std::string>();
        const std::string where =
            fmt::format("simtsync.yaml:{}: key '{}'", kv.first.Mark().line + 1, k);
        if (k == "set") {
          if (!kv.second.IsMap()) throw usage_error(where + ": expected a map KEY: VALUE");
          for (const auto& s : kv.second)
            o.sim.sets.emplace_back(s.first.as<std::string>(), s.second.as<std::string>());
          continue;
        }
        if (!kv.second.IsScalar()) throw usage_error(where + ": expected a value");
        const std::string v = kv.second.as<std::string>();
        if (k == "config")
          o.sim.config = v;
        else if (k == "mode")
          o.sim.mode = v;
        else if (k == "threads")
          o.sim.threads = parse_threads(where, v);
        else if (k == "json")
          o.json_path = v;
        else if (k == "quiet")
          o.quiet = parse_flag(where, v);
        else
          throw usage_error(where + " is unknown (config, mode, set, threads, json, quiet)");
      }
    }
  }
  if (const char* v = env("SIMTSYNC_CONFIG")) o.sim.config = v, o.source = "environment";
  if (const char* v = env("SIMTSYNC_MODE")) o.sim.mode = v;
  if (const char* v = env("SIMTSYNC_THREADS")) o.sim.threads = parse_threads("SIMTSYNC_THREADS", v);
  if (const char* v = env("SIMTSYNC_JSON")) o.json_path = v;
  if (const char* v = env("SIMTSYNC_OUTCOME")) o.outcome_path = v;
  if (const char* v = env("SIMTSYNC_TRACE")) o.trace_path = v;
  if (const char* v = env("SIMTSYNC_TRACE_WINDOW")) o.trace_window = v;
  if (const char* v = env("SIMTSYNC_QUIET")) o.quiet = parse_flag("SIMTSYNC_QUIET", v);
  if (const char* v = env("SIMTSYNC_SET")) add_sets("SIMTSYNC_SET", v, o.sim.sets);
  return o;
}

Runtime::Runtime(const RuntimeOptions& o)
    : sim_(o.sim),
      opts_(o),
      gp_(gpu::gpu_params_from(sim_.config())),
      regs_(gp_.registers_per_thread) {
  const config::Config& c = sim_.config();
  info_.name = "simtsync " + c.name();
  info_.num_sms = gp_.num_sms;
  info_.warp_size = sim_.warp_size();
  info_.core_clock_mhz = gp_.core_clock_mhz;
  info_.max_threads_per_sm = gp_.sm.max_threads;
  info_.max_warps_per_sm = gp_.sm.max_warps;
  info_.max_ctas_per_sm = gp_.sm.max_ctas;
  info_.registers_per_sm = gp_.sm.registers;
  info_.shared_per_sm = gp_.sm.shared_bytes;
  info_.partitions = static_cast<unsigned>(c.get_int("mem.partitions"));
  info_.l2_bytes = static_cast<unsigned>(c.get_int("mem.l2.size_bytes")) * info_.partitions;
  info_.memory_clock_khz = static_cast<unsigned>(
      c.get_float("clock.dram_mhz") * static_cast<double>(c.get_int("mem.dram.data_rate")) * 500.0);
  info_.bus_width_bits =
      info_.partitions * static_cast<unsigned>(c.get_int("mem.dram.bus_bytes")) * 8;
  info_.l1_caches_global = c.get_bool("mem.l1.enabled");
  report_outcome({"start", std::to_string(getpid()), c.name(), sim_.mode()});
  if (!opts_.trace_path.empty()) {
    if (!sim_.timing()) throw usage_error("--trace needs the timing mode");
    tracer_ = trace::attach_tracer(opts_.trace_path, opts_.trace_window, *sim_.timing());
  }
}

void Runtime::close_trace() {
  if (!tracer_) return;
  try {
    tracer_->close(fmt::format("exec ({}, {} mode)", sim_.config().name(), sim_.mode()));
  } catch (const Error& e) {
    std::fprintf(stderr, "simtsync cudart: %s\n", e.what());
    report_outcome({"json", e.what()});
  }
}

void Runtime::report_outcome(const std::vector<std::string>& fields) const {
  if (opts_.outcome_path.empty()) return;
  std::string line;
  for (const auto& f : fields) {
    std::string one = f;  // one line, TAB-separated: no TAB or newline inside a field
    std::replace_if(
        one.begin(), one.end(), [](char ch) { return ch == '\t' || ch == '\n'; }, ' ');
    line += (line.empty() ? "" : "\t") + one;
  }
  line += "\n";
  const int fd = ::open(opts_.outcome_path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC);
  if (fd < 0) return;  // exec removed it: nobody is listening
  ssize_t done = 0;
  while (done < static_cast<ssize_t>(line.size())) {
    const ssize_t w = ::write(fd, line.data() + done, line.size() - static_cast<std::size_t>(done));
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) break;
    done += w;
  }
  ::close(fd);
}

Runtime::~Runtime() {
  for (const auto& [a, r] : host_ranges_) munmap(ptr_of(a), r.size);
}

void Runtime::check_sticky() const {
  if (sticky_) throw Failure{sticky_->code, sticky_->message, false};
}

void** Runtime::register_fatbin(const void* wrapper) {
  auto m = std::make_unique<Module>();
  m->ptx_name = fmt::format("fatbin{}", modules_.size());
  try {
    m->entries = parse_fatbin_wrapper(wrapper);
  } catch (const Error& e) {
    m->load_error = Failure{Err::kInvalidPtx, e.what()};
  }
  modules_.push_back(std::move(m));
  return reinterpret_cast<void**>(modules_.back().get());
}

void Runtime::register_function(void** handle, const void* host_fn, const std::string& name) {
  kernels_[host_fn] = Kernel{reinterpret_cast<Module*>(handle), name};
}

void Runtime::register_var(void** handle, const void* host_var, const std::string& name,
                           std::size_t size, bool constant) {
  symbols_[host_var] = Symbol{reinterpret_cast<Module*>(handle), name, size, constant};
}

void Runtime::register_managed_var(void** handle, void** host_ptr, const std::string& name,
                                   std::size_t size) {
  if (!host_ptr) throw Failure{Err::kInvalidValue, "__managed__ variable without a host pointer"};
  void* p = malloc_host(size);  // host memory the simulated GPU maps too (never freed)
  *host_ptr = p;
  managed_vars_.push_back(
      ManagedVar{reinterpret_cast<Module*>(handle), name, size, reinterpret_cast<Addr>(p)});
}

void Runtime::fatbin_end(void** handle) {
  for (auto& v : managed_vars_)
    if (v.module == reinterpret_cast<Module*>(handle)) bind_managed(v);
}

bool Runtime::bind_managed(ManagedVar& v) {
  if (v.device) return true;
  try {
    const func::Program& p = load(*v.module);
    v.device = p.global_address(v.name);
  } catch (const Failure&) {
    return false;  // the module does not load: a launch from it reports why
  }
  if (!v.device) return false;
  sim_.device().memory().read(v.device, ptr_of(v.host), v.size);  // the initial value
  return true;
}

void Runtime::unregister_fatbin(void** handle) {
  (void)handle;  // modules stay loaded until exit: a launch may still name their kernels
}

LaunchConfig Runtime::pop_config() {
  if (configs_.empty())
    throw Failure{Err::kInvalidConfiguration, "kernel launch without a launch configuration"};
  LaunchConfig c = configs_.back();
  configs_.pop_back();
  return c;
}

const func::Program& Runtime::load(Module& m) {
  if (m.device_module >= 0) return sim_.device().program(m.device_module);
  if (m.load_error) throw *m.load_error;
  const auto ptx = ptx_entries(m.entries);
  if (ptx.empty()) {
    m.load_error = Failure{Err::kNoKernelImageForDevice, no_ptx_message(m.entries)};
    throw *m.load_error;
  }
  std::string first_error;
  for (const FatbinEntry* e : ptx) {
    const std::string name = fmt::format("{}.compute_{}.ptx", m.ptx_name, e->arch);
    try {
      ptx::Module mod = ptx::parse_module(e->payload, name);
      if (sim_.module_hook()) mod = sim_.module_hook()(mod);
      m.device_module = sim_.device().load_module(std::move(mod));
      m.ptx_name = name;
      return sim_.device().program(m.device_module);
    } catch (const Error& err) {
      if (first_error.empty()) first_error = err.what();
    }
  }
  m.load_error = Failure{Err::kInvalidPtx, first_error};
  throw *m.load_error;
}

const Runtime::Kernel& Runtime::kernel_of(const void* host_fn) {
  auto it = kernels_.find(host_fn);
  if (it == kernels_.end())
    throw Failure{Err::kInvalidDeviceFunction,
                  fmt::format("no kernel is registered for host function {}", host_fn)};
  return it->second;
}

const Runtime::Symbol& Runtime::symbol_of(const void* sym) {
  auto it = symbols_.find(sym);
  if (it == symbols_.end())
    throw Failure{Err::kInvalidSymbol,
                  fmt::format("no __device__ or __constant__ variable is registered at {}", sym)};
  return it->second;
}

Addr Runtime::symbol_device_address(const Symbol& s) {
  const func::Program& p = load(*s.module);
  const Addr a = p.global_address(s.name);
  if (a == 0)
    throw Failure{Err::kInvalidSymbol,
                  fmt::format("variable '{}' is not in the module's PTX", s.name)};
  return a;
}

void Runtime::sync_host_to_device() {
  func::GlobalMemory& mem = sim_.device().memory();
  for (const auto& [a, r] : host_ranges_) mem.write(a, ptr_of(a), r.size);
  // __managed__ variables: kernels use the module's variable, the host its host copy.
  for (auto& v : managed_vars_)
    if (bind_managed(v)) mem.write(v.device, ptr_of(v.host), v.size);
}

void Runtime::sync_device_to_host() {
  const func::GlobalMemory& mem = sim_.device().memory();
  for (const auto& [a, r] : host_ranges_) mem.read(a, ptr_of(a), r.size);
  for (const auto& v : managed_vars_)
    if (v.device) mem.read(v.device, ptr_of(v.host), v.size);
}

void Runtime::launch(const void* host_fn, const LaunchConfig& c, void** args) {
  check_sticky();
  const Kernel& k = kernel_of(host_fn);
  const func::Program& prog = load(*k.module);
  const func::DecodedFunction* df = prog.kernel(k.name);
  if (!df)
    throw Failure{Err::kInvalidDeviceFunction,
                  fmt::format("kernel '{}' is not in {}", k.name, k.module->ptx_name)};
  const std::string shown = demangled(k.name);
  // CUDA's limits (cudaDeviceProp::maxGridSize, maxThreadsDim, maxThreadsPerBlock), checked
  // before anything is estimated or built: grid.x = 2^31 is a bad configuration, not a lack of
  // memory.
  const std::uint64_t max_block = std::min(1024u, info_.max_threads_per_sm);
  if (c.grid.count() == 0 || c.block.count() == 0 || c.block.count() > max_block ||
      c.grid.x > 2147483647u || c.grid.y > 65535 || c.grid.z > 65535 || c.block.x > 1024 ||
      c.block.y > 1024 || c.block.z > 64)
    throw Failure{
        Err::kInvalidConfiguration,
        fmt::format("{}: invalid launch configuration grid ({},{},{}) block ({},{},{})", shown,
                    c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z)};
  // The kernel's .maxntid/.reqntid (__launch_bounds__): a block that breaks them never runs.
  if (auto why = ptx::block_shape_problem(*df->ir, c.block.x, c.block.y, c.block.z))
    throw Failure{why->find(".maxntid") != std::string::npos ? Err::kLaunchOutOfResources
                                                             : Err::kInvalidValue,
                  fmt::format("{}: {}", shown, *why)};
  // Static (the kernel's .shared variables) and dynamic shared memory together; written so the
  // sum cannot wrap.
  if (c.shared > info_.shared_per_sm || df->static_shared > info_.shared_per_sm - c.shared)
    throw Failure{Err::kInvalidValue,
                  fmt::format("{}: {} bytes of static and {} bytes of dynamic shared memory, the "
                              "SM has {}",
                              shown, df->static_shared, c.shared, info_.shared_per_sm)};
  func::KernelArgs ka;
  for (std::size_t i = 0; i < df->param_sizes.size(); ++i) {
    if (!args || !args[i])
      throw Failure{Err::kInvalidValue, fmt::format("{}: argument {} is missing", shown, i)};
    ka.add_bytes(args[i], df->param_sizes[i]);
  }
  sync_host_to_device();
  LaunchRecord rec{shown, c.grid, c.block, c.shared, 0, 0, 0, "ok"};
  func::LaunchResult r;
  try {
    r = sim_.device().launch(k.module->device_module, k.name, c.grid, c.block, ka,
                             static_cast<std::uint32_t>(c.shared));
  } catch (const Error& e) {
    rec.outcome = "fault";
    launches_.push_back(rec);
    std::string msg = fmt::format("kernel {}: {}", shown, e.what());
    switch (e.code()) {
      case ExitCode::kKernelFault:
        exit_code_ = 5;
        sticky_ =
            Failure{msg.find("device-side assertion") != std::string::npos ? Err::kAssert
                    : msg.find("trap instruction") != std::string::npos    ? Err::kLaunchFailure
                                                                           : Err::kIllegalAddress,
                    msg};
        break;
      case ExitCode::kDeadlock:
        exit_code_ = 3;
        watchdog_report_ = std::string(e.what()) + "\n";
        sticky_ = Failure{Err::kLaunchTimeout, msg};
        break;
      case ExitCode::kUnsupported:
        exit_code_ = 4;
        sticky_ = Failure{Err::kIllegalInstruction, msg};
        break;
      default:
        throw Failure{Err::kLaunchFailure, msg};
    }
    // Before any way the program may end (exit, _exit, abort, a signal): exec reads it there.
    report_outcome({"launch", std::to_string(exit_code_), "0", "0", shown, msg});
    throw *sticky_;
  }
  sync_device_to_host();
  if (!r.printf_output.empty()) {  // the device's printf buffer, flushed when the kernel ends
    std::fflush(stdout);
    std::fwrite(r.printf_output.data(), 1, r.printf_output.size(), stdout);
    std::fflush(stdout);
  }
  rec.cycles = r.cycles;
  rec.warp_instructions = r.stats.warp_instructions;
  rec.seconds = r.seconds;
  if (info_.core_clock_mhz > 0)
    now_ms_ += static_cast<double>(r.cycles) / (info_.core_clock_mhz * 1000.0);
  if (!r.completed) {
    rec.outcome = "deadlock";
    launches_.push_back(rec);
    exit_code_ = 3;
    watchdog_report_ = r.watchdog_report;
    std::fputs(r.watchdog_report.c_str(), stderr);
    sticky_ = Failure{
        Err::kLaunchTimeout,
        fmt::format("the simulator's watchdog stopped kernel {}: {}", shown, r.watchdog_reason)};
    report_outcome({"launch", "3", std::to_string(r.cycles),
                    std::to_string(r.stats.warp_instructions), shown, sticky_->message});
    throw *sticky_;
  }
  launches_.push_back(rec);
  report_outcome({"launch", "0", std::to_string(r.cycles),
                  std::to_string(r.stats.warp_instructions), shown, ""});
  if (!opts_.quiet)
    std::fprintf(stderr,
                 "simtsync: %s grid (%u,%u,%u) block (%u,%u,%u): %llu cycles, %llu warp "
                 "instructions\n",
                 shown.c_str(), c.grid.x, c.grid.y, c.grid.z, c.block.x, c.block.y, c.block.z,
                 static_cast<unsigned long long>(r.cycles),
                 static_cast<unsigned long long>(r.stats.warp_instructions));
}

FuncAttributes Runtime::attributes(const void* host_fn) {
  const Kernel& k = kernel_of(host_fn);
  const func::Program& prog = load(*k.module);
  const func::DecodedFunction* df = prog.kernel(k.name);
  if (!df) throw Failure{Err::kInvalidDeviceFunction, "kernel '" + k.name + "' not in its module"};
  FuncAttributes a;
  a.num_regs = regs_.of(prog.module(), k.name).registers;  // ptxas runs once per module
  a.static_shared = df->static_shared;
  a.local_bytes = df->frame_size;
  for (auto s : df->param_sizes) a.params_bytes += s;
  a.max_threads = std::min(1024u, info_.max_threads_per_sm);
  return a;
}

int Runtime::occupancy(const void* host_fn, unsigned block_threads, std::size_t dynamic_shared) {
  if (block_threads == 0) throw Failure{Err::kInvalidValue, "block size 0", false};
  const FuncAttributes a = attributes(host_fn);
  const gpu::CtaNeeds n = gpu::cta_needs(gp_, block_threads, info_.warp_size, a.num_regs,
                                         a.static_shared + static_cast<unsigned>(dynamic_shared));
  return static_cast<int>(gpu::ctas_per_sm(gp_, n));
}

void* Runtime::malloc(std::size_t bytes) {
  if (bytes > free_device_bytes())
    throw Failure{Err::kMemoryAllocation,
                  fmt::format("cudaMalloc of {} bytes: the simulated device has {} free", bytes,
                              free_device_bytes()),
                  false};
  const Addr a = sim_.device().malloc(std::max<std::size_t>(bytes, 1), "cudaMalloc buffer");
  device_allocs_[a] = bytes;
  device_used_ += bytes;
  return ptr_of(a);
}

void Runtime::free(void* p) {
  if (!p) return;
  const Addr a = addr_of(p);
  auto it = device_allocs_.find(a);
  if (it == device_allocs_.end()) {
    if (host_ranges_.count(a) && !host_ranges_.at(a).pinned) {
      free_host(p);  // cudaMallocManaged memory is freed with cudaFree
      return;
    }
    throw Failure{Err::kInvalidDevicePointer,
                  fmt::format("cudaFree({}): not a pointer cudaMalloc returned", p), false};
  }
  device_used_ -= it->second;
  device_allocs_.erase(it);
  sim_.device().free(a);
}

void* Runtime::malloc_host(std::size_t bytes) {
  // Host memory at an address the simulated GPU maps too (what a pinned buffer is under UVA).
  const std::size_t page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  const std::size_t size = (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
  Addr at = kHostVisibleBase;
  if (!host_ranges_.empty()) {
    const auto& last = *host_ranges_.rbegin();
    at = (last.first + last.second.size + page * 16 + page - 1) / page * page;
  }
  void* p = mmap(ptr_of(at), size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  if (p == MAP_FAILED || addr_of(p) != at) {
    if (p != MAP_FAILED) munmap(p, size);
    throw Failure{Err::kMemoryAllocation,
                  fmt::format("cannot map {} bytes of host-visible memory at {:#x}", size, at)};
  }
  sim_.device().memory().map(at, size, "host-visible allocation");
  host_ranges_[at] = HostRange{size, true};
  return p;
}

void Runtime::free_host(void* p) {
  if (!p) return;
  auto it = host_ranges_.find(addr_of(p));
  if (it == host_ranges_.end())
    throw Failure{Err::kInvalidValue,
                  fmt::format("{} was not returned by cudaMallocHost/cudaMallocManaged", p), false};
  munmap(p, it->second.size);
  sim_.device().memory().unmap(it->first);
  host_ranges_.erase(it);
}

void* Runtime::malloc_managed(std::size_t bytes) {
  void* p = malloc_host(bytes);
  host_ranges_[addr_of(p)].pinned = false;
  return p;
}

bool Runtime::is_host_visible(const void* p) const {
  const Addr a = addr_of(p);
  auto it = host_ranges_.upper_bound(a);
  if (it == host_ranges_.begin()) return false;
  --it;
  return range_within(a, 1, it->first, it->first + it->second.size);
}

int Runtime::host_visible_kind(const void* p) const {
  if (!is_host_visible(p)) return 0;
  auto it = --host_ranges_.upper_bound(addr_of(p));
  return it->second.pinned ? 1 : 2;
}

bool Runtime::is_device(const void* p, std::size_t n) const {
  if (is_host_visible(p)) return true;
  return sim_.device().memory().valid(addr_of(p), n);
}

std::size_t Runtime::free_device_bytes() const {
  return device_used_ >= kDeviceBytes ? 0 : kDeviceBytes - device_used_;
}

void Runtime::memcpy(void* dst, const void* src, std::size_t n, CopyKind kind) {
  check_sticky();
  if (n == 0) return;
  // No device allocation is at 0, and a null host pointer is not one to copy through.
  if (!dst || !src)
    throw Failure{Err::kInvalidValue, fmt::format("cudaMemcpy of {} bytes with a null {} pointer",
                                                  n, dst ? "source" : "destination")};
  // A host-visible pointer is accessed through its host view; the device copy is refreshed at
  // every launch.
  const bool dst_dev = !is_host_visible(dst) && is_device(dst, n);
  const bool src_dev = !is_host_visible(src) && is_device(src, n);
  auto expect = [&](bool ok, const char* what) {
    if (!ok)
      throw Failure{Err::kInvalidValue,
                    fmt::format("cudaMemcpy of {} bytes {}: {} is not {}", n,
                                kind == CopyKind::kHostToDevice   ? "host to device"
                                : kind == CopyKind::kDeviceToHost ? "device to host"
                                                                  : "device to device",
                                what[0] == 'd' ? dst : src, what + 2)};
  };
  switch (kind) {
    case CopyKind::kHostToDevice:
      expect(dst_dev || is_host_visible(dst), "d:a device allocation");
      break;
    case CopyKind::kDeviceToHost:
      expect(src_dev || is_host_visible(src), "s:a device allocation");
      break;
    case CopyKind::kDeviceToDevice:
      expect(dst_dev || is_host_visible(dst), "d:a device allocation");
      expect(src_dev || is_host_visible(src), "s:a device allocation");
      break;
    case CopyKind::kHostToHost:
    case CopyKind::kDefault:
      break;
    default:
      throw Failure{
          Err::kInvalidMemcpyDirection,
          fmt::format("cudaMemcpy kind {} is not a cudaMemcpyKind", static_cast<int>(kind)), false};
  }
  func::Device& d = sim_.device();
  if (src_dev && dst_dev) {
    std::vector<std::uint8_t> buf(n);
    d.copy_to_host(buf.data(), addr_of(src), n);
    d.copy_to_device(addr_of(dst), buf.data(), n);
  } else if (dst_dev) {
    d.copy_to_device(addr_of(dst), src, n);
  } else if (src_dev) {
    d.copy_to_host(dst, addr_of(src), n);
  } else {
    std::memmove(dst, src, n);
  }
}

void Runtime::memset(void* dst, int value, std::size_t n) {
  check_sticky();
  if (n == 0) return;
  if (is_host_visible(dst)) {
    std::memset(dst, value, n);
    return;
  }
  if (!is_device(dst, n))
    throw Failure{Err::kInvalidValue,
                  fmt::format("cudaMemset of {} bytes at {}: not a device allocation", n, dst),
                  false};
  sim_.device().memset(addr_of(dst), static_cast<std::uint8_t>(value), n);
}

void Runtime::copy_symbol(const void* symbol, std::size_t offset, void* other, std::size_t n,
                          bool to_symbol) {
  check_sticky();
  const Symbol& s = symbol_of(symbol);
  if (!range_within(offset, n, 0, s.size))
    throw Failure{Err::kInvalidValue,
                  fmt::format("copy of {} bytes at offset {} to variable '{}' of {} bytes", n,
                              offset, s.name, s.size),
                  false};
  const Addr a = symbol_device_address(s) + offset;
  if (n == 0) return;
  if (to_symbol)
    memcpy(ptr_of(a), other, n, CopyKind::kDefault);
  else
    memcpy(other, ptr_of(a), n, CopyKind::kDefault);
}

void* Runtime::symbol_address(const void* symbol) {
  return ptr_of(symbol_device_address(symbol_of(symbol)));
}

std::size_t Runtime::symbol_size(const void* symbol) {
  return symbol_of(symbol).size;
}

nlohmann::json Runtime::statistics() const {
  nlohmann::json j;
  const func::Device& d = sim_.device();
  j["program"] = "exec";
  j["config"] = sim_.config().name();
  j["mode"] = sim_.mode();
  j["settings_from"] = opts_.source;
  j["exit_code"] = exit_code_;
  j["cycles"] = d.cycles();
  j["warp_instructions"] = d.totals().warp_instructions;
  j["thread_instructions"] = d.totals().thread_instructions;
  j["sim_seconds"] = d.sim_seconds();
  j["simulated_ms"] = now_ms_;
  j["threads"] = opts_.sim.threads;
  if (!watchdog_report_.empty()) j["watchdog_report"] = watchdog_report_;
  if (sticky_) j["message"] = sticky_->message;
  nlohmann::json ls = nlohmann::json::array();
  for (const auto& l : launches_)
    ls.push_back({{"kernel", l.kernel},
                  {"grid", {l.grid.x, l.grid.y, l.grid.z}},
                  {"block", {l.block.x, l.block.y, l.block.z}},
                  {"dynamic_shared", l.shared},
                  {"cycles", l.cycles},
                  {"warp_instructions", l.warp_instructions},
                  {"seconds", l.seconds},
                  {"outcome", l.outcome}});
  j["launches"] = ls;
  j["stats"] = {{"func", stats::exec_stats_json(d.totals(), sim_.warp_size())}};
  if (sim_.has_timing()) j["stats"]["gpu"] = sim_.timing_json();
  return j;
}

void Runtime::write_statistics() {
  if (written_ || opts_.json_path.empty()) return;
  written_ = true;
  const std::string text = statistics().dump(2) + "\n";
  // Every step through the final close is checked: a full disk or /dev/full is a failure too.
  std::FILE* f = std::fopen(opts_.json_path.c_str(), "wb");
  int err = f ? 0 : errno;
  if (f) {
    errno = 0;
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = ok && std::fflush(f) == 0;
    if (!ok) err = errno ? errno : EIO;
    if (std::fclose(f) != 0 && ok) err = errno ? errno : EIO;
  }
  if (err == 0) return;
  const std::string msg =
      fmt::format("cannot write statistics to '{}': {}", opts_.json_path, std::strerror(err));
  std::fprintf(stderr, "simtsync cudart: %s\n", msg.c_str());
  report_outcome({"json", msg});
}

namespace {
std::once_flag g_once;
Runtime* g_runtime = nullptr;
}  // namespace

Runtime& runtime() {
  std::call_once(g_once, [] {
    try {
      g_runtime = new Runtime(RuntimeOptions::from_environment());
    } catch (const Error& e) {
      std::fprintf(stderr, "simtsync cudart: %s\n", shorten_long_values(e.what()).c_str());
      std::fflush(stderr);
      std::_Exit(static_cast<int>(e.code()));
    }
    std::atexit([] {
      g_runtime->write_statistics();
      g_runtime->close_trace();
    });
  });
  return *g_runtime;
}

bool runtime_started() {
  return g_runtime != nullptr;
}

}  // namespace simtsync::cudart
