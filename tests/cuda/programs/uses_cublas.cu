// uses_cublas: a program linked against cuBLAS (nvcc -lcublas). simtsync provides the CUDA
// runtime, not cuBLAS: `simtsync exec` must say so before the program runs (issue 45: before,
// cublasCreate failed silently). The program reports what cublasCreate returned and exits 0
// whatever it was; the test checks exec's warning.

#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cstdio>

static const char* kName = "uses_cublas";

int main() {
  cublasHandle_t h = nullptr;
  const cublasStatus_t s = cublasCreate(&h);
  printf("%s: cublasCreate returned %d\n", kName, static_cast<int>(s));
  if (s == CUBLAS_STATUS_SUCCESS) cublasDestroy(h);
  return 0;
}
