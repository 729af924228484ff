// streams_events: runtime features beyond plain malloc/copy/launch.
//   - __constant__ coefficients set with cudaMemcpyToSymbol and read by a kernel;
//   - a __device__ counter located with cudaGetSymbolAddress, initialised through that pointer
//     with cudaMemcpy, bumped by kernels, read back with cudaMemcpyFromSymbol and via the pointer;
//   - two streams (cudaStreamCreate), each doing cudaMemcpyAsync H2D, a kernel launch on the
//     stream and cudaMemcpyAsync D2H on pinned host buffers (cudaMallocHost / cudaFreeHost),
//     then cudaStreamSynchronize;
//   - events (cudaEventCreate / Record / Synchronize / ElapsedTime) around the stream work;
//     the elapsed time must be finite and > 0;
//   - a cudaMallocManaged buffer written by the host, modified by a kernel and read by the host
//     after cudaDeviceSynchronize;
//   - cudaOccupancyMaxActiveBlocksPerMultiprocessor must report at least one block.

#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "sample_helpers.h"

static const char* kName = "streams_events";

#define NUM_STREAMS 2

// Per stream s: out = in * c_coeffs[2 * s] + c_coeffs[2 * s + 1].
__constant__ int c_coeffs[2 * NUM_STREAMS];
// Number of blocks that ran transformKernel, on top of a host-provided initial value.
__device__ int g_blockCount;

__global__ void transformKernel(const int* in, int* out, int n, int streamIdx) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * c_coeffs[2 * streamIdx] + c_coeffs[2 * streamIdx + 1];
  if (threadIdx.x == 0) atomicAdd(&g_blockCount, 1);
}

__global__ void managedKernel(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * 3 + 1;
}

int main() {
  const int n = 2048;  // elements per stream
  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  const int initialCount = 100;
  const int hCoeffs[2 * NUM_STREAMS] = {3, -7, -2, 11};

  // Occupancy query.
  int maxBlocksPerSm = 0;
  CHECK_CUDA(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&maxBlocksPerSm, transformKernel, threads, 0));
  printf("occupancy: %d blocks of %d threads per SM\n", maxBlocksPerSm, threads);
  if (maxBlocksPerSm < 1) {
    printf("FAILED %s: occupancy %d < 1\n", kName, maxBlocksPerSm);
    return 1;
  }

  // Symbols: constant coefficients and the device counter.
  CHECK_CUDA(cudaMemcpyToSymbol(c_coeffs, hCoeffs, sizeof(hCoeffs)));
  int* dBlockCount = nullptr;
  CHECK_CUDA(cudaGetSymbolAddress(reinterpret_cast<void**>(&dBlockCount), g_blockCount));
  if (dBlockCount == nullptr) {
    printf("FAILED %s: cudaGetSymbolAddress returned a null pointer\n", kName);
    return 1;
  }
  CHECK_CUDA(cudaMemcpy(dBlockCount, &initialCount, sizeof(int), cudaMemcpyHostToDevice));

  // Streams, pinned host buffers and device buffers.
  cudaStream_t streams[NUM_STREAMS];
  int* hIn[NUM_STREAMS];
  int* hOut[NUM_STREAMS];
  int* dIn[NUM_STREAMS];
  int* dOut[NUM_STREAMS];
  uint32_t seed = 99u;
  for (int s = 0; s < NUM_STREAMS; ++s) {
    CHECK_CUDA(cudaStreamCreate(&streams[s]));
    CHECK_CUDA(cudaMallocHost(&hIn[s], n * sizeof(int)));
    CHECK_CUDA(cudaMallocHost(&hOut[s], n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dIn[s], n * sizeof(int)));
    CHECK_CUDA(cudaMalloc(&dOut[s], n * sizeof(int)));
    for (int i = 0; i < n; ++i) {
      hIn[s][i] = static_cast<int>(lcgNext(&seed) >> 22) - 512;
      hOut[s][i] = 0;
    }
  }

  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));

  // Events on the legacy default stream bracket the work of both (blocking) streams.
  CHECK_CUDA(cudaEventRecord(start, 0));
  for (int s = 0; s < NUM_STREAMS; ++s) {
    CHECK_CUDA(
        cudaMemcpyAsync(dIn[s], hIn[s], n * sizeof(int), cudaMemcpyHostToDevice, streams[s]));
    transformKernel<<<blocks, threads, 0, streams[s]>>>(dIn[s], dOut[s], n, s);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(
        cudaMemcpyAsync(hOut[s], dOut[s], n * sizeof(int), cudaMemcpyDeviceToHost, streams[s]));
  }
  CHECK_CUDA(cudaEventRecord(stop, 0));
  CHECK_CUDA(cudaEventSynchronize(stop));
  for (int s = 0; s < NUM_STREAMS; ++s) CHECK_CUDA(cudaStreamSynchronize(streams[s]));

  float elapsedMs = 0.0f;
  CHECK_CUDA(cudaEventElapsedTime(&elapsedMs, start, stop));
  printf("elapsed time: %.6f ms\n", elapsedMs);

  int result = 0;
  if (!std::isfinite(elapsedMs) || !(elapsedMs > 0.0f)) {
    printf("FAILED %s: elapsed time %f is not finite and positive\n", kName, elapsedMs);
    result = 1;
  }
  for (int s = 0; s < NUM_STREAMS && result == 0; ++s) {
    for (int i = 0; i < n; ++i) {
      int expected = hIn[s][i] * hCoeffs[2 * s] + hCoeffs[2 * s + 1];
      if (hOut[s][i] != expected) {
        printf("FAILED %s: stream %d out[%d] = %d, expected %d\n", kName, s, i, hOut[s][i],
               expected);
        result = 1;
        break;
      }
    }
  }

  // The device counter, read both through the symbol and through its address.
  int countViaSymbol = -1, countViaAddress = -1;
  CHECK_CUDA(cudaMemcpyFromSymbol(&countViaSymbol, g_blockCount, sizeof(int)));
  CHECK_CUDA(cudaMemcpy(&countViaAddress, dBlockCount, sizeof(int), cudaMemcpyDeviceToHost));
  const int expectedCount = initialCount + NUM_STREAMS * blocks;
  if (result == 0 && countViaSymbol != expectedCount) {
    printf("FAILED %s: g_blockCount via symbol = %d, expected %d\n", kName, countViaSymbol,
           expectedCount);
    result = 1;
  }
  if (result == 0 && countViaAddress != expectedCount) {
    printf("FAILED %s: g_blockCount via address = %d, expected %d\n", kName, countViaAddress,
           expectedCount);
    result = 1;
  }

  // Managed memory: host writes, kernel modifies, host reads after synchronizing.
  const int m = 1000;
  int* managed = nullptr;
  CHECK_CUDA(cudaMallocManaged(&managed, m * sizeof(int)));
  for (int i = 0; i < m; ++i) managed[i] = i - 500;
  managedKernel<<<(m + threads - 1) / threads, threads>>>(managed, m);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int i = 0; i < m && result == 0; ++i) {
    int expected = (i - 500) * 3 + 1;
    if (managed[i] != expected) {
      printf("FAILED %s: managed[%d] = %d, expected %d\n", kName, i, managed[i], expected);
      result = 1;
    }
  }

  CHECK_CUDA(cudaFree(managed));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  for (int s = 0; s < NUM_STREAMS; ++s) {
    CHECK_CUDA(cudaStreamDestroy(streams[s]));
    CHECK_CUDA(cudaFreeHost(hIn[s]));
    CHECK_CUDA(cudaFreeHost(hOut[s]));
    CHECK_CUDA(cudaFree(dIn[s]));
    CHECK_CUDA(cudaFree(dOut[s]));
  }
  if (result == 0) printf("PASSED %s\n", kName);
  return result;
}
