// Test kernel for the PTX front end: float and double math, conversions, 64-bit division,
// a switch statement, recursion.
__device__ __noinline__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

__device__ __noinline__ double poly(double x, int k) {
  double r = 1.0;
  for (int i = 0; i < k; ++i) r = r * x + 0.5;
  return r;
}

__global__ void float_math(float* a, const float* __restrict__ b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float x = b[i];
  float y = sqrtf(fabsf(x)) + expf(x) * __fdividef(x, 3.0f) + fminf(x, 2.5f) + fmaxf(x, -1.0f);
  y += sinf(x) * cosf(x) + logf(fabsf(x) + 1.0f) + rsqrtf(x * x + 1.0f) + floorf(x) + ceilf(x);
  y += x / (y + 1.0f) + __saturatef(x) + copysignf(1.0f, x) + truncf(x) + roundf(x);
  if (isnan(y) || isinf(y)) y = 0.0f;
  a[i] = y;
}

__global__ void double_math(double* a, const long long* b, unsigned long long* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  long long v = b[i];
  double d = (double)v;
  d = sqrt(d) + exp(d / 7.0) + fmin(d, 1.5) + d * 0.25 + poly(d, i & 7);
  c[i] = (unsigned long long)v / (unsigned long long)(i + 3) + v % (i + 5) + (long long)d;
  a[i] = d + (double)(float)d + (double)(int)c[i] + (double)(short)v + (double)(unsigned char)v;
}

__global__ void switch_recursion(int* out, const int* in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int r;
  switch (in[i] & 7) {
    case 0: r = 10; break;
    case 1: r = in[i] * 3; break;
    case 2: r = fib(in[i] & 15); break;
    case 3: r = in[i] >> 2; break;
    case 4: r = -in[i]; break;
    case 5: r = in[i] ^ 0x5a5a; break;
    default: r = 1; break;
  }
  #pragma unroll 1
  for (int k = 0; k < (in[i] & 3); ++k) r += k * k;
  out[i] = r;
}
