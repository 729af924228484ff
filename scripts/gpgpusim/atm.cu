// GPGPU-Sim host for simtsync's atm_simt: the kernel is workloads/atm/atm_simt.cu itself
// (included below), the inputs are those of workloads/atm/atm.cc (mt19937 from the seed,
// the same distributions in the same order) and the check is the same: every balance exact,
// every lock free. Arguments: ctas threads per_thread accounts (default: the paper grid,
// 96 x 256 x 5 on 1000 accounts).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "atm/atm_simt.cu"

int main(int argc, char** argv) {
  const unsigned ctas = argc > 1 ? atoi(argv[1]) : 96;
  const unsigned threads = argc > 2 ? atoi(argv[2]) : 256;
  const int per = argc > 3 ? atoi(argv[3]) : 5;
  const int accounts = argc > 4 ? atoi(argv[4]) : 1000;
  const size_t total = (size_t)ctas * threads * per;
  std::mt19937 rng(1);
  std::uniform_int_distribution<int32_t> acct(0, accounts - 1), other(1, accounts - 1),
      amt(1, 100), init(1000, 100000);
  std::vector<int32_t> balance(accounts);
  for (auto& b : balance) b = init(rng);
  std::vector<int32_t> from(total), to(total), amount(total);
  std::vector<int64_t> expect(balance.begin(), balance.end());
  for (size_t t = 0; t < total; ++t) {
    from[t] = acct(rng);
    to[t] = (from[t] + other(rng)) % accounts;
    amount[t] = amt(rng);
    expect[from[t]] -= amount[t];
    expect[to[t]] += amount[t];
  }
  int *dbal, *dlocks, *dfrom, *dto, *damt;
  cudaMalloc(&dbal, accounts * 4);
  cudaMalloc(&dlocks, accounts * 4);
  cudaMalloc(&dfrom, total * 4);
  cudaMalloc(&dto, total * 4);
  cudaMalloc(&damt, total * 4);
  std::vector<int32_t> zero(accounts, 0);
  cudaMemcpy(dbal, balance.data(), accounts * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dlocks, zero.data(), accounts * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dfrom, from.data(), total * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dto, to.data(), total * 4, cudaMemcpyHostToDevice);
  cudaMemcpy(damt, amount.data(), total * 4, cudaMemcpyHostToDevice);
  atm_simt<<<ctas, threads>>>(dbal, dlocks, dfrom, dto, damt, per);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) { printf("CUDA error %s\n", cudaGetErrorString(e)); return 2; }
  std::vector<int32_t> got(accounts), lk(accounts);
  cudaMemcpy(got.data(), dbal, accounts * 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(lk.data(), dlocks, accounts * 4, cudaMemcpyDeviceToHost);
  for (int i = 0; i < accounts; ++i) {
    if (lk[i] != 0) { printf("FAIL lock of account %d held\n", i); return 1; }
    if (got[i] != expect[i]) { printf("FAIL account %d holds %d, expected %lld\n", i, got[i], (long long)expect[i]); return 1; }
  }
  printf("VALIDATED: %zu transfers on %d accounts (%u CTAs x %u, %d/thread)\n", total, accounts,
         ctas, threads, per);
  return 0;
}
