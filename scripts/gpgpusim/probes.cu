// Component probes for the GPGPU-Sim correlation (issue 44): small kernels, each exposing one
// part of the timing model, that run unchanged on GPGPU-Sim 4.2 and under `simtsync exec`.
// They read no clock (GPGPU-Sim aborts on %clock64): each is launched at two sizes N and 2N,
// and the difference of the kernel's cycles divided by N is the cost of one step, with every
// fixed cost (launch, cold instruction cache, warm-up pass) cancelled.
//
//   probes PROBE N        (PROBE: see kProbes below; prints "probe PROBE N units")
//
// Built by scripts/gpgpusim/probes.py with GPGPU-Sim's CUDA 11.8 nvcc, like build_workloads.sh.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <cuda_runtime.h>

#define CHECK(x)                                                                       \
  do {                                                                                 \
    cudaError_t e_ = (x);                                                              \
    if (e_ != cudaSuccess) {                                                           \
      std::fprintf(stderr, "probes: %s: %s\n", #x, cudaGetErrorString(e_));            \
      std::exit(1);                                                                    \
    }                                                                                  \
  } while (0)

// Nothing: launch, CTA start and the first instruction fetches.
__global__ void empty_kernel() {}

// One store of a kernel parameter: the empty kernel plus a parameter read (constant bank) and a
// store.
__global__ void param_store(unsigned* out, unsigned v) { out[threadIdx.x] = v; }

// One warp, a chain of dependent integer adds (16 per loop trip): ALU latency.
__global__ void alu_chain(unsigned n, unsigned* out) {
  unsigned x = threadIdx.x;
  for (unsigned i = 0; i < n; ++i) {
#pragma unroll
    for (int k = 0; k < 16; ++k) asm volatile("add.u32 %0, %0, 1;" : "+r"(x));
  }
  out[threadIdx.x] = x;
}

// One thread, a pointer chase through global memory: a warm-up pass over the ring, then n
// dependent loads. The ring's size and stride choose the level that serves them; cg loads
// (ld.global.cg) skip the L1.
template <bool kCg>
__global__ void chase(const unsigned* ring, unsigned ring_len, unsigned n, unsigned* out) {
  unsigned j = 0;
  for (unsigned i = 0; i < ring_len; ++i) j = kCg ? __ldcg(ring + j) : ring[j];
  for (unsigned i = 0; i < n; ++i) j = kCg ? __ldcg(ring + j) : ring[j];
  out[0] = j;
}

// One thread, a pointer chase through shared memory (a ring of 32 words, stride 1 word).
__global__ void shared_chase(unsigned n, unsigned* out) {
  __shared__ unsigned s[32];
  for (int i = 0; i < 32; ++i) s[i] = (i + 1) % 32;
  __syncthreads();
  unsigned j = 0;
  for (unsigned i = 0; i < n; ++i) j = s[j];
  out[0] = j;
}

// Many warps of independent adds: the issue rate of a busy SM (8 independent chains per thread).
__global__ void issue_rate(unsigned n, unsigned* out) {
  unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5, g = a + 6,
           h = a + 7;
  for (unsigned i = 0; i < n; ++i) {
    asm volatile(
        "add.u32 %0, %0, 1;\n\tadd.u32 %1, %1, 1;\n\tadd.u32 %2, %2, 1;\n\tadd.u32 %3, %3, 1;\n\t"
        "add.u32 %4, %4, 1;\n\tadd.u32 %5, %5, 1;\n\tadd.u32 %6, %6, 1;\n\tadd.u32 %7, %7, 1;"
        : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = a + b + c + d + e + f + g + h;
}

// One CTA of 1024 threads, n barriers in a row.
__global__ void barrier_loop(unsigned n, unsigned* out) {
  unsigned x = threadIdx.x;
  for (unsigned i = 0; i < n; ++i) {
    x = x * 3 + 1;
    __syncthreads();
  }
  out[threadIdx.x] = x;
}

// Atomic adds to one word: `blocks` CTAs of `threads` threads, each thread n times.
__global__ void atomic_same(unsigned n, unsigned* word) {
  for (unsigned i = 0; i < n; ++i) atomicAdd(word, 1u);
}

// One thread, a chain of dependent atomics (adding 0 to zeroed words; the next address depends on
// the value returned): the latency of one atomic round trip.
__global__ void atomic_chain(unsigned* words, unsigned n, unsigned* out) {
  unsigned j = threadIdx.x;
  for (unsigned i = 0; i < n; ++i) j = atomicAdd(words + (j & 31) * 32, 0u) + j + 1;
  out[threadIdx.x] = j;
}

// One thread, straight-line code of K x 8 independent adds (64 bytes of instructions per group of
// 8, so 2 groups per 128-byte I-cache line): every line is a cold instruction-cache miss.
template <int K>
__global__ void straight(unsigned* out) {
  unsigned a = threadIdx.x, b = a + 1, c = a + 2, d = a + 3, e = a + 4, f = a + 5, g = a + 6,
           h = a + 7;
#pragma unroll
  for (int i = 0; i < K; ++i) {
    asm volatile(
        "add.u32 %0, %0, 1;\n\tadd.u32 %1, %1, 1;\n\tadd.u32 %2, %2, 1;\n\tadd.u32 %3, %3, 1;\n\t"
        "add.u32 %4, %4, 1;\n\tadd.u32 %5, %5, 1;\n\tadd.u32 %6, %6, 1;\n\tadd.u32 %7, %7, 1;"
        : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
  }
  out[threadIdx.x] = a + b + c + d + e + f + g + h;
}

// Streaming reads: every thread of a full grid sums n 128-byte-coalesced words.
__global__ void stream_read(const unsigned* a, unsigned n, unsigned* out) {
  unsigned stride = gridDim.x * blockDim.x, s = 0;
  for (unsigned i = 0; i < n; ++i) s += a[i * stride + blockIdx.x * blockDim.x + threadIdx.x];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

namespace {

unsigned* ring_buffer(unsigned entries, unsigned stride_words, size_t* words_out) {
  size_t words = static_cast<size_t>(entries) * stride_words;
  std::vector<unsigned> h(words, 0);
  for (unsigned i = 0; i < entries; ++i)
    h[static_cast<size_t>(i) * stride_words] = ((i + 1) % entries) * stride_words;
  unsigned* d = nullptr;
  CHECK(cudaMalloc(&d, words * sizeof(unsigned)));
  CHECK(cudaMemcpy(d, h.data(), words * sizeof(unsigned), cudaMemcpyHostToDevice));
  *words_out = words;
  return d;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: probes PROBE N\n");
    return 2;
  }
  const char* p = argv[1];
  unsigned n = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  unsigned* out = nullptr;
  CHECK(cudaMalloc(&out, 1 << 22));
  CHECK(cudaMemset(out, 0, 1 << 22));
  size_t words = 0;
  unsigned units = n;  // what one step is: printed so the script divides by it
  if (!std::strcmp(p, "empty")) {
    empty_kernel<<<1, 1>>>();
  } else if (!std::strcmp(p, "param")) {
    param_store<<<1, 1>>>(out, n);
  } else if (!std::strcmp(p, "alu")) {
    alu_chain<<<1, 32>>>(n, out);
    units = 16 * n;
  } else if (!std::strcmp(p, "l1")) {  // 16 lines of 128 B: L1 hits after the warm-up pass
    unsigned* r = ring_buffer(16, 32, &words);
    chase<false><<<1, 1>>>(r, 16, n, out);
  } else if (!std::strcmp(p, "l2")) {  // the same ring read with ld.global.cg: L2 hits
    unsigned* r = ring_buffer(16, 32, &words);
    chase<true><<<1, 1>>>(r, 16, n, out);
  } else if (!std::strcmp(p, "dram")) {  // n distinct lines 4 KB + 128 B apart, no warm-up
    unsigned* r = ring_buffer(n + 1, 1056, &words);
    chase<true><<<1, 1>>>(r, 0, n, out);
  } else if (!std::strcmp(p, "straight")) {  // n = 32 or 64: 16 or 32 cold 128-byte lines
    if (n == 32)
      straight<32><<<1, 1>>>(out);
    else if (n == 64)
      straight<64><<<1, 1>>>(out);
    else
      return 2;
    units = 8 * n;
  } else if (!std::strcmp(p, "dram_seq")) {  // n distinct lines 128 B apart (DRAM row hits)
    unsigned* r = ring_buffer(n + 1, 32, &words);
    chase<true><<<1, 1>>>(r, 0, n, out);
  } else if (!std::strcmp(p, "shared")) {
    shared_chase<<<1, 1>>>(n, out);
  } else if (!std::strcmp(p, "issue")) {  // 8 warps per CTA, one CTA per SM (up to 80 SMs)
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    issue_rate<<<sms, 256>>>(n, out);
    units = 8 * n;  // per warp: divide by the warps of one SM
  } else if (!std::strcmp(p, "barrier")) {
    barrier_loop<<<1, 1024>>>(n, out);
  } else if (!std::strcmp(p, "atomic_warp")) {  // one warp, 32 lanes on one word
    atomic_same<<<1, 32>>>(n, out);
  } else if (!std::strcmp(p, "atomic_chain")) {
    atomic_chain<<<1, 1>>>(out, n, out + 4096);
  } else if (!std::strcmp(p, "atomic_sms")) {  // a warp on each SM, all on one word
    int sms = 0;
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    atomic_same<<<sms, 32>>>(n, out);
  } else if (!std::strcmp(p, "stream")) {  // 15 CTAs x 256 threads x n x 4 B
    unsigned* a = nullptr;
    size_t bytes = static_cast<size_t>(n) * 15 * 256 * 4;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMemset(a, 1, bytes));
    stream_read<<<15, 256>>>(a, n, out);
  } else {
    std::fprintf(stderr, "probes: unknown probe %s\n", p);
    return 2;
  }
  CHECK(cudaGetLastError());
  CHECK(cudaDeviceSynchronize());
  std::printf("probe %s %u %u\n", p, n, units);
  return 0;
}
