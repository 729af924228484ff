// Issue 50 item 5: what the CUDA samples' findCudaDevice() and deviceQuery ask before any kernel
// runs. cudaChooseDevice picks the device; cudaDeviceGetAttribute answers every attribute of
// CUDA 13's cudaDeviceAttr (compute mode, memory clock and async engine count included, which
// programs check with checkCudaErrors and exit on); cudaGetDeviceProperties agrees with the
// attributes field by field; a number that is not an attribute is cudaErrorInvalidValue.
// argv: the expected SM count, memory clock (kHz) and bus width (bits) of the configuration.
#include <cstring>

#include "sample_helpers.h"

static const char* kName = "device_query";

static int failures = 0;
static void expect(bool ok, const char* what, long long got, long long want) {
  if (!ok) {
    printf("mismatch: %s: got %lld, expected %lld\n", what, got, want);
    ++failures;
  }
}

static int attr(cudaDeviceAttr a) {
  int v = -12345;
  CHECK_CUDA(cudaDeviceGetAttribute(&v, a, 0));
  return v;
}

int main(int argc, char** argv) {
  if (argc != 4) {
    printf("usage: device_query SMS MEMORY_CLOCK_KHZ BUS_WIDTH_BITS\n");
    return 2;
  }
  // findCudaDevice(): choose the device, then check its compute mode.
  cudaDeviceProp want;
  memset(&want, 0, sizeof want);
  want.major = 7;
  int dev = -1;
  CHECK_CUDA(cudaChooseDevice(&dev, &want));
  expect(dev == 0, "cudaChooseDevice", dev, 0);
  CHECK_CUDA(cudaSetDevice(dev));
  expect(attr(cudaDevAttrComputeMode) == cudaComputeModeDefault, "compute mode",
         attr(cudaDevAttrComputeMode), cudaComputeModeDefault);

  // Every attribute CUDA 13 defines (1..147 without the gaps and Reserved* values) answers.
  int answered = 0;
  for (int a = 1; a <= 160; ++a) {
    int v = 0;
    const cudaError_t e = cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(a), 0);
    if (e == cudaSuccess) {
      ++answered;
    } else if (e != cudaErrorInvalidValue) {
      printf("attribute %d: %s\n", a, cudaGetErrorString(e));
      ++failures;
    }
  }
  expect(answered == 124, "attributes answered", answered, 124);
  int v = 0;
  expect(cudaDeviceGetAttribute(&v, static_cast<cudaDeviceAttr>(92), 0) == cudaErrorInvalidValue,
         "Reserved92 is invalid", 0, 0);
  cudaGetLastError();

  cudaDeviceProp p;
  CHECK_CUDA(cudaGetDeviceProperties(&p, 0));
  const long long sms = atoll(argv[1]), mclk = atoll(argv[2]), bus = atoll(argv[3]);
  expect(p.multiProcessorCount == sms, "multiProcessorCount", p.multiProcessorCount, sms);
  expect(attr(cudaDevAttrMemoryClockRate) == mclk, "memory clock", attr(cudaDevAttrMemoryClockRate),
         mclk);
  expect(p.memoryBusWidth == bus, "memoryBusWidth", p.memoryBusWidth, bus);
  expect(p.asyncEngineCount >= 1, "asyncEngineCount", p.asyncEngineCount, 2);
  expect(attr(cudaDevAttrClockRate) > 0, "clock rate", attr(cudaDevAttrClockRate), 1);
  // The properties are the attributes.
  struct Pair {
    const char* name;
    long long prop;
    cudaDeviceAttr a;
  } pairs[] = {
      {"sharedMemPerBlock", (long long)p.sharedMemPerBlock, cudaDevAttrMaxSharedMemoryPerBlock},
      {"sharedMemPerBlockOptin", (long long)p.sharedMemPerBlockOptin,
       cudaDevAttrMaxSharedMemoryPerBlockOptin},
      {"regsPerBlock", p.regsPerBlock, cudaDevAttrMaxRegistersPerBlock},
      {"warpSize", p.warpSize, cudaDevAttrWarpSize},
      {"maxThreadsPerBlock", p.maxThreadsPerBlock, cudaDevAttrMaxThreadsPerBlock},
      {"major", p.major, cudaDevAttrComputeCapabilityMajor},
      {"minor", p.minor, cudaDevAttrComputeCapabilityMinor},
      {"asyncEngineCount", p.asyncEngineCount, cudaDevAttrAsyncEngineCount},
      {"l2CacheSize", p.l2CacheSize, cudaDevAttrL2CacheSize},
      {"maxThreadsPerMultiProcessor", p.maxThreadsPerMultiProcessor,
       cudaDevAttrMaxThreadsPerMultiProcessor},
      {"maxBlocksPerMultiProcessor", p.maxBlocksPerMultiProcessor,
       cudaDevAttrMaxBlocksPerMultiprocessor},
      {"concurrentKernels", p.concurrentKernels, cudaDevAttrConcurrentKernels},
      {"managedMemory", p.managedMemory, cudaDevAttrManagedMemory},
      {"globalL1CacheSupported", p.globalL1CacheSupported, cudaDevAttrGlobalL1CacheSupported},
  };
  for (const Pair& q : pairs) expect(q.prop == attr(q.a), q.name, q.prop, attr(q.a));
  expect(p.sharedMemPerBlock <= p.sharedMemPerBlockOptin, "sharedMemPerBlock <= optin",
         (long long)p.sharedMemPerBlock, (long long)p.sharedMemPerBlockOptin);

  char bus_id[32];
  CHECK_CUDA(cudaDeviceGetPCIBusId(bus_id, sizeof bus_id, 0));
  int again = -1;
  CHECK_CUDA(cudaDeviceGetByPCIBusId(&again, bus_id));
  expect(again == 0, "cudaDeviceGetByPCIBusId", again, 0);
  int peer = -1;
  CHECK_CUDA(cudaDeviceCanAccessPeer(&peer, 0, 0));
  expect(peer == 0, "cudaDeviceCanAccessPeer", peer, 0);
  expect(cudaSetDevice(1) == cudaErrorInvalidDevice, "cudaSetDevice(1)", 0, 0);
  cudaGetLastError();

  printf("%s: %s, %d SMs, %d kHz memory, %d-bit bus, compute %d.%d, %d attributes\n", kName, p.name,
         p.multiProcessorCount, attr(cudaDevAttrMemoryClockRate), p.memoryBusWidth, p.major,
         p.minor, answered);
  if (failures) {
    printf("FAILED %s: %d mismatches\n", kName, failures);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
