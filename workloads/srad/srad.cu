// srad: speckle reducing anisotropic diffusion (Rodinia srad_v1 algorithm) in global memory,
// without barriers: srad_coef computes the directional differences and the diffusion
// coefficient of every pixel, srad_update the divergence update; one thread per pixel on a
// 1D grid (row and column from the index).
extern "C" __global__ void srad_coef(const float* J, float* dN, float* dS, float* dW, float* dE,
                                     float* C, int rows, int cols, float q0sqr) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= rows * cols) return;
  const int i = k / cols, j = k - i * cols;
  const float jc = J[k];
  const float n = J[max(i - 1, 0) * cols + j] - jc, s = J[min(i + 1, rows - 1) * cols + j] - jc;
  const float w = J[i * cols + max(j - 1, 0)] - jc, e = J[i * cols + min(j + 1, cols - 1)] - jc;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float c = 1.0f / (1.0f + den);
  c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
  dN[k] = n, dS[k] = s, dW[k] = w, dE[k] = e, C[k] = c;
}

extern "C" __global__ void srad_update(float* J, const float* dN, const float* dS, const float* dW,
                                       const float* dE, const float* C, int rows, int cols,
                                       float lambda) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= rows * cols) return;
  const int i = k / cols, j = k - i * cols;
  const float d = C[k] * dN[k] + C[min(i + 1, rows - 1) * cols + j] * dS[k] + C[k] * dW[k] +
                  C[i * cols + min(j + 1, cols - 1)] * dE[k];
  J[k] = J[k] + 0.25f * lambda * d;
}
