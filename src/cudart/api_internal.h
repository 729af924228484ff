// What the C entry points of the simulator's CUDA runtime share (api*.cc): the runtime lock and
// the thread's last error, stream and event handles, and `guarded`, which runs a call under the
// lock and turns a Failure into the CUDA error it carries. Compiled against the toolkit's
// cuda_runtime_api.h, as every api*.cc is.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdio>
#include <mutex>
#include <set>

#include "common/error.h"
#include "common/host_memory.h"
#include "cudart/runtime.h"

namespace simtsync::cudart {

extern std::recursive_mutex g_lock;
extern thread_local cudaError_t t_last;

// Streams and events: handles the program passes back. Work never overlaps, so a stream is a
// name and an event a point of simulated time.
struct Stream {
  int id;
};
struct Event {
  bool recorded = false;
  double ms = 0;
};
extern std::set<const void*> g_streams;
extern std::set<const void*> g_events;

cudaError_t fail(const char* api, const Failure& f);
Err from_exit_code(ExitCode c);

template <typename F>
cudaError_t guarded(const char* api, F&& f) {
  std::lock_guard<std::recursive_mutex> lock(g_lock);
  try {
    f(runtime());
    return cudaSuccess;
  } catch (const Failure& e) {
    return fail(api, e);
  } catch (const Error& e) {
    return fail(api, Failure{from_exit_code(e.code()), e.what()});
  } catch (const std::bad_alloc& e) {  // over sim.host_memory_budget_mb, or out of host memory
    return fail(api, Failure{Err::kMemoryAllocation, out_of_host_memory(e)});
  } catch (const std::exception& e) {
    return fail(api, Failure{Err::kUnknown, e.what()});
  }
}

inline void need(bool ok, const char* what) {
  if (!ok) throw Failure{Err::kInvalidValue, what, false};
}

inline void need_device(int device) {
  if (device != 0) throw Failure{Err::kInvalidDevice, "the simulator has device 0 only", false};
}

inline CopyKind kind_of(cudaMemcpyKind k) {
  return static_cast<CopyKind>(static_cast<int>(k));
}

inline void check_stream(cudaStream_t s) {
  if (s && s != cudaStreamLegacy && s != cudaStreamPerThread && !g_streams.count(s))
    throw Failure{Err::kInvalidResourceHandle, "not a stream of this runtime", false};
}

inline Event& event_of(cudaEvent_t e) {
  if (!e || !g_events.count(e))
    throw Failure{Err::kInvalidResourceHandle, "not an event of this runtime", false};
  return *reinterpret_cast<Event*>(e);
}

inline LaunchConfig config_of(dim3 g, dim3 b, size_t shared, cudaStream_t s) {
  return LaunchConfig{Dim3{g.x, g.y, g.z}, Dim3{b.x, b.y, b.z}, shared, s};
}

}  // namespace simtsync::cudart

// --default-stream per-thread: nvcc's code and the headers call the _ptds/_ptsz forms. Work
// never overlaps here, so the per-thread default stream is the default stream and each form is
// its base function (an alias: it must stand in the file that defines the base).
#define SIMTSYNC_PER_THREAD_FORM(form, base) \
  extern "C" decltype(base) form __attribute__((alias(#base)));
