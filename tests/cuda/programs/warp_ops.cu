// warp_ops: warp shuffles, votes, reductions and atomics against host-computed references.
//
// - Shuffles: __shfl_sync, __shfl_up_sync, __shfl_down_sync and __shfl_xor_sync at widths 1, 2,
//   4, 8, 16 and 32 with lane arguments in and out of range (33, 37: the PTX ISA takes b[4:0],
//   CUDA documents srcLane modulo width), the width and lane given at run time (registers), plus
//   a double shuffled as two halves. The reference is the PTX ISA's shfl.sync pseudo-code with
//   the c operand nvcc passes: ((32 - width) << 8) | 0x1f, and (32 - width) << 8 for .up.
// - Votes: __ballot_sync, __any_sync, __all_sync and __activemask, in converged code and in a
//   branch taken by lanes 0-19.
// - Reductions: a warp sum with __shfl_down_sync (offsets 16..1, lane 0 holds the sum) and a
//   butterfly sum over segments of 8 lanes with __shfl_xor_sync (every lane holds its segment's).
// - Atomics on global and shared memory: atomicAdd/Sub/Min/Max/And/Or/Xor/Exch/CAS on int and
//   unsigned, atomicInc/Dec on unsigned, atomicAdd/Min/Max/And/Or/Xor/Exch/CAS on unsigned long
//   long, atomicMin/Max on long long, atomicAdd/Exch on float and atomicAdd on double; final
//   values and, for add and exchange, the values returned (a permutation of what was there).
//
// Prints "PASSED warp_ops" only when every check holds; otherwise the first failures and a count.

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "sample_helpers.h"

static const char* kName = "warp_ops";

// ---------------------------------------------------------------------------------------------
// Shuffles
enum { kIdx = 0, kUp = 1, kDown = 2, kXor = 3 };
static const int kWidths[] = {1, 2, 4, 8, 16, 32};
static const int kNumWidths = 6;
// Per mode: lane (idx), delta (up, down) or lane mask (xor); 33 and 37 are out of range.
static const int kArgs[4][6] = {{0, 1, 5, 31, 33, 37},
                                {0, 1, 3, 16, 31, 33},
                                {0, 1, 3, 16, 31, 33},
                                {0, 1, 3, 16, 31, 33}};
static const int kNumArgs = 6;
static const int kShflChecks = 4 * kNumWidths * kNumArgs;
static const int kShflBlocks = 2, kShflThreads = 64;

__constant__ int cWidths[kNumWidths];
__constant__ int cArgs[4][kNumArgs];

__device__ __host__ inline int shflValue(int gtid) { return 1000 + gtid * 7; }

__global__ void shuffles(int* out, double* outD) {
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int nthreads = gridDim.x * blockDim.x;
  const int v = shflValue(gtid);
  int k = 0;
  for (int mode = 0; mode < 4; ++mode)
    for (int w = 0; w < kNumWidths; ++w)
      for (int a = 0; a < kNumArgs; ++a, ++k) {
        const int width = cWidths[w], arg = cArgs[mode][a];
        int r;
        if (mode == kIdx)
          r = __shfl_sync(0xffffffffu, v, arg, width);
        else if (mode == kUp)
          r = __shfl_up_sync(0xffffffffu, v, static_cast<unsigned>(arg), width);
        else if (mode == kDown)
          r = __shfl_down_sync(0xffffffffu, v, static_cast<unsigned>(arg), width);
        else
          r = __shfl_xor_sync(0xffffffffu, v, arg, width);
        out[k * nthreads + gtid] = r;
      }
  // A double travels as two 32-bit shuffles.
  const double d = 0.5 + shflValue(gtid);
  outD[gtid] = __shfl_sync(0xffffffffu, d, 37);
}

// PTX ISA shfl.sync: the lane whose value `lane` receives (its own when out of its segment).
static int shflSource(int mode, int lane, int arg, int width) {
  const unsigned c = ((32u - width) << 8) | (mode == kUp ? 0u : 0x1fu);
  const int bval = arg & 31, cval = c & 31, segmask = (c >> 8) & 31;
  const int maxLane = (lane & segmask) | (cval & ~segmask);
  const int minLane = lane & segmask;
  int j;
  bool pval;
  switch (mode) {
    case kUp: j = lane - bval; pval = j >= maxLane; break;
    case kDown: j = lane + bval; pval = j <= maxLane; break;
    case kXor: j = lane ^ bval; pval = j <= maxLane; break;
    default: j = minLane | (bval & ~segmask); pval = j <= maxLane; break;
  }
  return pval ? j : lane;
}

// ---------------------------------------------------------------------------------------------
// Votes and reductions
static const int kVoteBlocks = 2, kVoteThreads = 64;
static const int kVoteFields = 9;

__global__ void votes(unsigned* out) {
  const int gtid = blockIdx.x * blockDim.x + threadIdx.x;
  const int lane = threadIdx.x % 32;
  unsigned* o = out + gtid * kVoteFields;
  o[0] = __ballot_sync(0xffffffffu, lane % 3 == 0);
  o[1] = __any_sync(0xffffffffu, lane == 17);
  o[2] = __any_sync(0xffffffffu, lane > 40);
  o[3] = __all_sync(0xffffffffu, lane < 32);
  o[4] = __all_sync(0xffffffffu, lane != 5);
  o[5] = __activemask();
  if (lane < 20) {
    o[6] = __activemask();
    o[7] = __ballot_sync(0x000fffffu, lane & 1);
  } else {
    o[6] = 0xdeadu;
    o[7] = __all_sync(0xfff00000u, lane >= 20);
  }
  // Warp sum with shuffle-down (lane 0 ends with it) and segment sums of 8 with a butterfly.
  int sum = gtid + 1;
  for (int off = 16; off > 0; off /= 2) sum += __shfl_down_sync(0xffffffffu, sum, off);
  int seg = gtid + 1;
  for (int m = 1; m < 8; m *= 2) seg += __shfl_xor_sync(0xffffffffu, seg, m, 8);
  o[8] = lane == 0 ? static_cast<unsigned>(sum) : static_cast<unsigned>(seg);
}

// ---------------------------------------------------------------------------------------------
// Atomics
static const int kAtomBlocks = 4, kAtomThreads = 96;  // 3 warps per block
static const int kAtomN = kAtomBlocks * kAtomThreads;

struct Atom {
  int i[9];  // add, sub, min, max, and, or, xor, exch, cas-increment
  unsigned u[11];  // add, sub, min, max, and, or, xor, exch, cas-increment, inc, dec
  unsigned long long ull[8];  // add, min, max, and, or, xor, exch, cas-increment
  long long ll[2];            // min, max
  float f[2];                 // add, exch
  double d;                   // add
};

__device__ __host__ inline unsigned mix(unsigned t) { return t * 2654435761u + 12345u; }
__device__ __host__ inline unsigned long long mix64(unsigned t) {
  return (static_cast<unsigned long long>(mix(t)) << 29) ^ (static_cast<unsigned long long>(t) << 3);
}

__device__ void atomicsOn(Atom* a, int t, int* oldAdd, unsigned* oldExch) {
  const unsigned m = mix(t);
  oldAdd[t] = atomicAdd(&a->i[0], 1);
  atomicSub(&a->i[1], t % 5);
  atomicMin(&a->i[2], static_cast<int>(m));
  atomicMax(&a->i[3], static_cast<int>(m));
  atomicAnd(&a->i[4], ~(1 << (t % 31)));
  atomicOr(&a->i[5], 1 << (t % 29));
  atomicXor(&a->i[6], static_cast<int>(m));
  atomicExch(&a->i[7], t);
  for (int old = a->i[8];;) {
    const int seen = atomicCAS(&a->i[8], old, old + 1);
    if (seen == old) break;
    old = seen;
  }
  atomicAdd(&a->u[0], m % 1000u);
  atomicSub(&a->u[1], static_cast<unsigned>(t % 7));
  atomicMin(&a->u[2], m);
  atomicMax(&a->u[3], m);
  atomicAnd(&a->u[4], ~(1u << (t % 32)));
  atomicOr(&a->u[5], 1u << (t % 17));
  atomicXor(&a->u[6], m);
  oldExch[t] = atomicExch(&a->u[7], static_cast<unsigned>(t));
  for (unsigned old = a->u[8];;) {
    const unsigned seen = atomicCAS(&a->u[8], old, old + 2);
    if (seen == old) break;
    old = seen;
  }
  atomicInc(&a->u[9], 100u);  // wraps to 0 after 100
  atomicDec(&a->u[10], 50u);  // from 0 (or above 50) back to 50
  const unsigned long long m64 = mix64(t);
  atomicAdd(&a->ull[0], m64 >> 8);
  atomicMin(&a->ull[1], m64);
  atomicMax(&a->ull[2], m64);
  atomicAnd(&a->ull[3], ~(1ull << (t % 64)));
  atomicOr(&a->ull[4], 1ull << (t % 61));
  atomicXor(&a->ull[5], m64);
  atomicExch(&a->ull[6], m64);
  for (unsigned long long old = a->ull[7];;) {
    const unsigned long long seen = atomicCAS(&a->ull[7], old, old + (1ull << 32));
    if (seen == old) break;
    old = seen;
  }
  atomicMin(&a->ll[0], static_cast<long long>(m64) - (1ll << 50));
  atomicMax(&a->ll[1], static_cast<long long>(m64) - (1ll << 50));
  atomicAdd(&a->f[0], static_cast<float>(t % 9));  // small integers: any order sums exactly
  atomicExch(&a->f[1], static_cast<float>(t));
  atomicAdd(&a->d, 0.25 * (t % 13));
}

static void initAtom(Atom* a) {
  memset(a, 0, sizeof *a);
  a->i[2] = 0x7fffffff;
  a->i[3] = -0x7fffffff - 1;
  a->i[4] = -1;
  a->i[7] = -1;
  a->u[1] = 100000u;
  a->u[2] = 0xffffffffu;
  a->u[4] = 0xffffffffu;
  a->u[7] = 0xffffffffu;
  a->u[10] = 7u;
  a->ull[1] = ~0ull;
  a->ull[3] = ~0ull;
  a->ll[0] = 0x7fffffffffffffffll;
  a->ll[1] = -0x7fffffffffffffffll - 1;
  a->f[1] = -1.0f;
}

__global__ void globalAtomics(Atom* a, int* oldAdd, unsigned* oldExch) {
  atomicsOn(a, blockIdx.x * blockDim.x + threadIdx.x, oldAdd, oldExch);
}

// The same on shared memory: each block works on its own copy (initialised from `init`), then
// writes it out; the host checks each block's copy against the block's threads.
__global__ void sharedAtomics(const Atom* init, Atom* perBlock, int* oldAdd, unsigned* oldExch) {
  __shared__ Atom s;
  if (threadIdx.x == 0) s = *init;
  __syncthreads();
  atomicsOn(&s, blockIdx.x * blockDim.x + threadIdx.x, oldAdd, oldExch);
  __syncthreads();
  if (threadIdx.x == 0) perBlock[blockIdx.x] = s;
}

// What `atomicsOn` leaves in `a` after threads [t0, t1) ran it, in any order.
static void referenceAtoms(Atom* a, int t0, int t1) {
  initAtom(a);
  for (int t = t0; t < t1; ++t) {
    const unsigned m = mix(t);
    a->i[0] += 1;
    a->i[1] -= t % 5;
    a->i[2] = std::min(a->i[2], static_cast<int>(m));
    a->i[3] = std::max(a->i[3], static_cast<int>(m));
    a->i[4] &= ~(1 << (t % 31));
    a->i[5] |= 1 << (t % 29);
    a->i[6] ^= static_cast<int>(m);
    a->i[8] += 1;
    a->u[0] += m % 1000u;
    a->u[1] -= static_cast<unsigned>(t % 7);
    a->u[2] = std::min(a->u[2], m);
    a->u[3] = std::max(a->u[3], m);
    a->u[4] &= ~(1u << (t % 32));
    a->u[5] |= 1u << (t % 17);
    a->u[6] ^= m;
    a->u[8] += 2;
    a->u[9] = a->u[9] >= 100u ? 0u : a->u[9] + 1;
    a->u[10] = (a->u[10] == 0 || a->u[10] > 50u) ? 50u : a->u[10] - 1;
    const unsigned long long m64 = mix64(t);
    a->ull[0] += m64 >> 8;
    a->ull[1] = std::min(a->ull[1], m64);
    a->ull[2] = std::max(a->ull[2], m64);
    a->ull[3] &= ~(1ull << (t % 64));
    a->ull[4] |= 1ull << (t % 61);
    a->ull[5] ^= m64;
    a->ull[7] += 1ull << 32;
    a->ll[0] = std::min(a->ll[0], static_cast<long long>(m64) - (1ll << 50));
    a->ll[1] = std::max(a->ll[1], static_cast<long long>(m64) - (1ll << 50));
    a->f[0] += static_cast<float>(t % 9);
    a->d += 0.25 * (t % 13);
  }
}

// ---------------------------------------------------------------------------------------------
static int failures = 0;

static void fail(const char* what, long long index, long long got, long long want) {
  if (++failures <= 20)
    printf("FAILED %s: %s [%lld]: got %lld (0x%llx), expected %lld (0x%llx)\n", kName, what,
           index, got, static_cast<unsigned long long>(got), want,
           static_cast<unsigned long long>(want));
}

static void expectEq(const char* what, long long index, long long got, long long want) {
  if (got != want) fail(what, index, got, want);
}

static void checkShuffles() {
  const int n = kShflBlocks * kShflThreads;
  CHECK_CUDA(cudaMemcpyToSymbol(cWidths, kWidths, sizeof kWidths));
  CHECK_CUDA(cudaMemcpyToSymbol(cArgs, kArgs, sizeof kArgs));
  int* dOut = nullptr;
  double* dOutD = nullptr;
  CHECK_CUDA(cudaMalloc(&dOut, sizeof(int) * kShflChecks * n));
  CHECK_CUDA(cudaMalloc(&dOutD, sizeof(double) * n));
  shuffles<<<kShflBlocks, kShflThreads>>>(dOut, dOutD);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> out(kShflChecks * n);
  std::vector<double> outD(n);
  CHECK_CUDA(cudaMemcpy(out.data(), dOut, sizeof(int) * out.size(), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(outD.data(), dOutD, sizeof(double) * n, cudaMemcpyDeviceToHost));
  static const char* names[] = {"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                "__shfl_xor_sync"};
  int k = 0, wrong = 0;
  for (int mode = 0; mode < 4; ++mode)
    for (int w = 0; w < kNumWidths; ++w)
      for (int a = 0; a < kNumArgs; ++a, ++k)
        for (int t = 0; t < n; ++t) {
          const int lane = t % 32, warpBase = t - lane;
          const int want = shflValue(warpBase + shflSource(mode, lane, kArgs[mode][a], kWidths[w]));
          const int got = out[k * n + t];
          if (got != want) {
            ++wrong;
            if (failures < 20)
              printf("FAILED %s: %s(v, %d, width %d) in lane %d: got lane %d's value, expected "
                     "lane %d's\n",
                     kName, names[mode], kArgs[mode][a], kWidths[w], lane,
                     (got - 1000) / 7 - warpBase, (want - 1000) / 7 - warpBase);
            ++failures;
          }
        }
  if (wrong) printf("%s: %d of %d shuffle results wrong\n", kName, wrong, kShflChecks * n);
  for (int t = 0; t < n; ++t) {
    const double want = 0.5 + shflValue(t - t % 32 + 5);
    if (outD[t] != want) fail("__shfl_sync(double, 37)", t, static_cast<long long>(outD[t]),
                              static_cast<long long>(want));
  }
  CHECK_CUDA(cudaFree(dOut));
  CHECK_CUDA(cudaFree(dOutD));
}

static void checkVotes() {
  const int n = kVoteBlocks * kVoteThreads;
  unsigned* dOut = nullptr;
  CHECK_CUDA(cudaMalloc(&dOut, sizeof(unsigned) * kVoteFields * n));
  votes<<<kVoteBlocks, kVoteThreads>>>(dOut);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned> o(kVoteFields * n);
  CHECK_CUDA(cudaMemcpy(o.data(), dOut, sizeof(unsigned) * o.size(), cudaMemcpyDeviceToHost));
  unsigned ballot3 = 0, odd20 = 0;
  for (int l = 0; l < 32; ++l) {
    if (l % 3 == 0) ballot3 |= 1u << l;
    if (l < 20 && (l & 1)) odd20 |= 1u << l;
  }
  for (int t = 0; t < n; ++t) {
    const unsigned* r = &o[t * kVoteFields];
    const int lane = t % 32, warpBase = t - lane;
    expectEq("__ballot_sync(lane % 3 == 0)", t, r[0], ballot3);
    expectEq("__any_sync(lane == 17)", t, r[1], 1);
    expectEq("__any_sync(lane > 40)", t, r[2], 0);
    expectEq("__all_sync(lane < 32)", t, r[3], 1);
    expectEq("__all_sync(lane != 5)", t, r[4], 0);
    expectEq("__activemask() converged", t, r[5], 0xffffffffu);
    expectEq(lane < 20 ? "__activemask() in lanes 0-19" : "(else branch)", t, r[6],
             lane < 20 ? 0x000fffffu : 0xdeadu);
    expectEq(lane < 20 ? "__ballot_sync(0xfffff, lane & 1)" : "__all_sync(0xfff00000, true)", t,
             r[7], lane < 20 ? odd20 : 1u);
    long long want = 0;
    if (lane == 0) {
      for (int l = 0; l < 32; ++l) want += warpBase + l + 1;
      expectEq("warp sum (__shfl_down_sync)", t, r[8], want);
    } else {
      const int segBase = t - t % 8;
      for (int l = 0; l < 8; ++l) want += segBase + l + 1;
      expectEq("segment sum (__shfl_xor_sync, width 8)", t, r[8], want);
    }
  }
  CHECK_CUDA(cudaFree(dOut));
}

// Final values of one Atom against the reference of threads [t0, t1).
static void compareAtom(const char* where, const Atom& got, int t0, int t1) {
  Atom want;
  referenceAtoms(&want, t0, t1);
  char what[96];
  static const char* iNames[] = {"add", "sub", "min", "max", "and", "or", "xor", "exch", "cas"};
  static const char* uNames[] = {"add", "sub", "min", "max", "and", "or",
                                 "xor", "exch", "cas", "inc", "dec"};
  static const char* ullNames[] = {"add", "min", "max", "and", "or", "xor", "exch", "cas"};
  for (int k = 0; k < 9; ++k) {
    if (k == 7) continue;  // exchange: checked below
    snprintf(what, sizeof what, "%s atomic %s (int)", where, iNames[k]);
    expectEq(what, k, got.i[k], want.i[k]);
  }
  if (got.i[7] < t0 || got.i[7] >= t1) fail("atomicExch (int): final value", 7, got.i[7], t0);
  for (int k = 0; k < 11; ++k) {
    if (k == 7) continue;
    snprintf(what, sizeof what, "%s atomic %s (unsigned)", where, uNames[k]);
    expectEq(what, k, got.u[k], want.u[k]);
  }
  for (int k = 0; k < 8; ++k) {
    if (k == 6) continue;
    snprintf(what, sizeof what, "%s atomic %s (unsigned long long)", where, ullNames[k]);
    expectEq(what, k, static_cast<long long>(got.ull[k]), static_cast<long long>(want.ull[k]));
  }
  bool exch64 = false;
  for (int t = t0; t < t1; ++t) exch64 |= got.ull[6] == mix64(t);
  if (!exch64) fail("atomicExch (unsigned long long): final value", 6, got.ull[6], 0);
  snprintf(what, sizeof what, "%s atomicMin (long long)", where);
  expectEq(what, 0, got.ll[0], want.ll[0]);
  snprintf(what, sizeof what, "%s atomicMax (long long)", where);
  expectEq(what, 1, got.ll[1], want.ll[1]);
  snprintf(what, sizeof what, "%s atomicAdd (float)", where);
  expectEq(what, 0, static_cast<long long>(got.f[0]), static_cast<long long>(want.f[0]));
  if (got.f[0] != want.f[0]) fail("atomicAdd (float) exact", 0, 0, 0);
  if (got.f[1] != static_cast<float>(got.i[7]) && !(got.f[1] >= t0 && got.f[1] < t1))
    fail("atomicExch (float): final value", 1, static_cast<long long>(got.f[1]), t0);
  if (got.d != want.d)
    fail("atomicAdd (double) x4", 0, static_cast<long long>(got.d * 4), static_cast<long long>(want.d * 4));
}

// The values atomicAdd(&x, 1) returned are 0..count-1 (start at `base`), each once; those
// atomicExch returned plus the final value are the initial value and every thread's id.
static void compareReturns(const char* where, const std::vector<int>& oldAdd,
                           const std::vector<unsigned>& oldExch, unsigned finalExch, int t0,
                           int t1) {
  std::vector<int> adds(oldAdd.begin() + t0, oldAdd.begin() + t1);
  std::sort(adds.begin(), adds.end());
  for (int k = 0; k < t1 - t0; ++k)
    if (adds[k] != k) {
      fail(where, k, adds[k], k);
      break;
    }
  std::vector<unsigned> ex(oldExch.begin() + t0, oldExch.begin() + t1);
  ex.push_back(finalExch);
  std::sort(ex.begin(), ex.end());
  for (int k = 0; k < t1 - t0; ++k)
    if (ex[k] != static_cast<unsigned>(t0 + k)) {
      fail("values atomicExch returned", k, ex[k], t0 + k);
      break;
    }
  if (ex.back() != 0xffffffffu) fail("atomicExch: the initial value was returned", 0, ex.back(), -1);
}

static void checkAtomics() {
  Atom init;
  initAtom(&init);
  Atom *dA = nullptr, *dInit = nullptr, *dPerBlock = nullptr;
  int* dOldAdd = nullptr;
  unsigned* dOldExch = nullptr;
  CHECK_CUDA(cudaMalloc(&dA, sizeof(Atom)));
  CHECK_CUDA(cudaMalloc(&dInit, sizeof(Atom)));
  CHECK_CUDA(cudaMalloc(&dPerBlock, sizeof(Atom) * kAtomBlocks));
  CHECK_CUDA(cudaMalloc(&dOldAdd, sizeof(int) * kAtomN));
  CHECK_CUDA(cudaMalloc(&dOldExch, sizeof(unsigned) * kAtomN));
  CHECK_CUDA(cudaMemcpy(dA, &init, sizeof init, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dInit, &init, sizeof init, cudaMemcpyHostToDevice));
  std::vector<int> oldAdd(kAtomN);
  std::vector<unsigned> oldExch(kAtomN);

  globalAtomics<<<kAtomBlocks, kAtomThreads>>>(dA, dOldAdd, dOldExch);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  Atom got;
  CHECK_CUDA(cudaMemcpy(&got, dA, sizeof got, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(oldAdd.data(), dOldAdd, sizeof(int) * kAtomN, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(oldExch.data(), dOldExch, sizeof(unsigned) * kAtomN,
                        cudaMemcpyDeviceToHost));
  compareAtom("global", got, 0, kAtomN);
  compareReturns("values global atomicAdd returned", oldAdd, oldExch, got.u[7], 0, kAtomN);

  sharedAtomics<<<kAtomBlocks, kAtomThreads>>>(dInit, dPerBlock, dOldAdd, dOldExch);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<Atom> perBlock(kAtomBlocks);
  CHECK_CUDA(cudaMemcpy(perBlock.data(), dPerBlock, sizeof(Atom) * kAtomBlocks,
                        cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(oldAdd.data(), dOldAdd, sizeof(int) * kAtomN, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(oldExch.data(), dOldExch, sizeof(unsigned) * kAtomN,
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < kAtomBlocks; ++b) {
    const int t0 = b * kAtomThreads, t1 = t0 + kAtomThreads;
    compareAtom("shared", perBlock[b], t0, t1);
    compareReturns("values shared atomicAdd returned", oldAdd, oldExch, perBlock[b].u[7], t0, t1);
  }
  CHECK_CUDA(cudaFree(dA));
  CHECK_CUDA(cudaFree(dInit));
  CHECK_CUDA(cudaFree(dPerBlock));
  CHECK_CUDA(cudaFree(dOldAdd));
  CHECK_CUDA(cudaFree(dOldExch));
}

int main() {
  checkShuffles();
  checkVotes();
  checkAtomics();
  if (failures) {
    printf("FAILED %s: %d checks failed\n", kName, failures);
    return 1;
  }
  printf("PASSED %s\n", kName);
  return 0;
}
