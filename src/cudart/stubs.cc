// Weak definitions of the whole CUDA 13 runtime API (exports.def): a program that calls a
// function the simulator's runtime does not implement gets cudaErrorNotSupported and a message
// naming the call, never an unresolved symbol or a crash. Each stub ignores its arguments
// (harmless in the x86-64 calling convention) and returns an int in the cudaError_t register.
// api.cc's strong definitions win at link time. The functions that return something other than
// cudaError_t (cudaGetErrorString, cudaCreateChannelDesc, the __cuda registration calls) are
// all defined in api.cc.
namespace simtsync::cudart {
int unsupported_call(const char* name);
}

#define SIMTSYNC_CUDART_EXPORT(name)                  \
  extern "C" __attribute__((weak)) int name() {       \
    return simtsync::cudart::unsupported_call(#name); \
  }
#include "cudart/exports.def"
#undef SIMTSYNC_CUDART_EXPORT
