// mb_power: compute-bound loops for the energy model's power checks (docs/energy.md). Every
// thread runs `iters` iterations of four independent chains of one operation kind, so with
// enough warps per SM the issue slots of that unit stay full and the memory system idles:
//   op 0: single-precision FMA (the SP pipelines, GPUWattch's FP microbenchmark kind);
//   op 1: __sinf / __expf (the SFU);
//   op 2: integer multiply-add and xor (the SP pipelines, integer datapath).
// One store per thread at the end keeps the chains live; with ctas = 1 most SMs stay idle.
extern "C" __global__ void mb_power(float* out, int op, int iters) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a = 1.0f + i * 1e-6f, b = 0.5f, c = 0.25f, d = 0.125f;
  if (op == 0) {
    for (int k = 0; k < iters; ++k) {
      a = fmaf(a, 0.999f, 0.001f);
      b = fmaf(b, 0.999f, 0.002f);
      c = fmaf(c, 0.999f, 0.003f);
      d = fmaf(d, 0.999f, 0.004f);
    }
  } else if (op == 1) {
    for (int k = 0; k < iters; ++k) {
      a = __sinf(a);
      b = __expf(-b);
      c = __sinf(c);
      d = __expf(-d);
    }
  } else {
    unsigned x = i, y = i + 1, z = i + 2, w = i + 3;
    for (int k = 0; k < iters; ++k) {
      x = x * 1664525u + 1013904223u;
      y = y * 22695477u + 1u;
      z = (z ^ (z << 7)) + 0x9e3779b9u;
      w = w * 69069u + 12345u;
    }
    a = static_cast<float>(x >> 16);
    b = static_cast<float>(y >> 16);
    c = static_cast<float>(z >> 16);
    d = static_cast<float>(w >> 16);
  }
  out[i] = a + b + c + d;
}
