// Streams and events, in program order and simulated time (see api.cc).
#include "cudart/api_internal.h"

using simtsync::cudart::CopyKind;
using simtsync::cudart::Err;
using simtsync::cudart::Failure;
using simtsync::cudart::guarded;
using simtsync::cudart::need;
using simtsync::cudart::need_device;
using simtsync::cudart::Runtime;

extern "C" {

// ---- Streams and events ----

cudaError_t CUDARTAPI cudaStreamCreate(cudaStream_t* pStream) {
  return guarded("cudaStreamCreate", [&](Runtime&) {
    need(pStream != nullptr, "null pStream");
    auto* s = new simtsync::cudart::Stream{static_cast<int>(simtsync::cudart::g_streams.size())};
    *pStream = reinterpret_cast<cudaStream_t>(s);
    simtsync::cudart::g_streams.insert(*pStream);
  });
}

cudaError_t CUDARTAPI cudaStreamCreateWithFlags(cudaStream_t* pStream, unsigned int flags) {
  return cudaStreamCreate(pStream);
}

cudaError_t CUDARTAPI cudaStreamCreateWithPriority(cudaStream_t* pStream, unsigned int flags,
                                                   int priority) {
  return cudaStreamCreate(pStream);
}

cudaError_t CUDARTAPI cudaStreamDestroy(cudaStream_t stream) {
  return guarded("cudaStreamDestroy", [&](Runtime&) {
    if (!simtsync::cudart::g_streams.erase(stream))
      throw Failure{Err::kInvalidResourceHandle, "not a stream of this runtime", false};
    delete reinterpret_cast<simtsync::cudart::Stream*>(stream);
  });
}

cudaError_t CUDARTAPI cudaStreamSynchronize(cudaStream_t stream) {
  return guarded("cudaStreamSynchronize", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    if (rt.sticky()) throw Failure{rt.sticky()->code, rt.sticky()->message, false};
  });
}

cudaError_t CUDARTAPI cudaStreamQuery(cudaStream_t stream) {
  return guarded("cudaStreamQuery", [&](Runtime&) { simtsync::cudart::check_stream(stream); });
}

cudaError_t CUDARTAPI cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                          unsigned int flags) {
  return guarded("cudaStreamWaitEvent", [&](Runtime&) {
    simtsync::cudart::check_stream(stream);
    simtsync::cudart::event_of(event);
  });
}

cudaError_t CUDARTAPI cudaEventCreate(cudaEvent_t* event) {
  return guarded("cudaEventCreate", [&](Runtime&) {
    need(event != nullptr, "null event");
    *event = reinterpret_cast<cudaEvent_t>(new simtsync::cudart::Event);
    simtsync::cudart::g_events.insert(*event);
  });
}

cudaError_t CUDARTAPI cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  return cudaEventCreate(event);
}

cudaError_t CUDARTAPI cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  return guarded("cudaEventRecord", [&](Runtime& rt) {
    simtsync::cudart::check_stream(stream);
    auto& e = simtsync::cudart::event_of(event);
    e.recorded = true;
    e.ms = rt.now_ms();
  });
}

cudaError_t CUDARTAPI cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                               unsigned int flags) {
  return cudaEventRecord(event, stream);
}

cudaError_t CUDARTAPI cudaEventSynchronize(cudaEvent_t event) {
  return guarded("cudaEventSynchronize", [&](Runtime&) { simtsync::cudart::event_of(event); });
}

cudaError_t CUDARTAPI cudaEventQuery(cudaEvent_t event) {
  return guarded("cudaEventQuery", [&](Runtime&) { simtsync::cudart::event_of(event); });
}

cudaError_t CUDARTAPI cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  return guarded("cudaEventElapsedTime", [&](Runtime&) {
    need(ms != nullptr, "null ms");
    const auto& a = simtsync::cudart::event_of(start);
    const auto& b = simtsync::cudart::event_of(end);
    if (!a.recorded || !b.recorded)
      throw Failure{Err::kInvalidResourceHandle, "event not recorded", false};
    *ms = static_cast<float>(b.ms - a.ms);
  });
}

cudaError_t CUDARTAPI cudaEventDestroy(cudaEvent_t event) {
  return guarded("cudaEventDestroy", [&](Runtime&) {
    simtsync::cudart::event_of(event);
    simtsync::cudart::g_events.erase(event);
    delete reinterpret_cast<simtsync::cudart::Event*>(event);
  });
}

}  // extern "C"

SIMTSYNC_PER_THREAD_FORM(cudaEventRecordWithFlags_ptsz, cudaEventRecordWithFlags)
SIMTSYNC_PER_THREAD_FORM(cudaEventRecord_ptsz, cudaEventRecord)
SIMTSYNC_PER_THREAD_FORM(cudaStreamQuery_ptsz, cudaStreamQuery)
SIMTSYNC_PER_THREAD_FORM(cudaStreamSynchronize_ptsz, cudaStreamSynchronize)
SIMTSYNC_PER_THREAD_FORM(cudaStreamWaitEvent_ptsz, cudaStreamWaitEvent)
#undef SIMTSYNC_PER_THREAD_FORM
