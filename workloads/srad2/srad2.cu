// srad2: speckle reducing anisotropic diffusion (the Rodinia srad_v2 algorithm). Per iteration
// srad2_coef stages a 16x16 tile of the image and its one-pixel halo (clamped at the image
// border) in shared memory (barrier), computes the four directional differences and the
// diffusion coefficient of every pixel; srad2_update stages the coefficients of the tile and
// its south/east halo (barrier) and applies the divergence update. The ROI statistics q0^2 come
// from the host between iterations.
#define T 16

extern "C" __global__ void srad2_coef(const float* J, float* dN, float* dS, float* dW, float* dE,
                                      float* C, int rows, int cols, float q0sqr) {
  __shared__ float t[T + 2][T + 2];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  t[ty + 1][tx + 1] = J[i * cols + j];
  if (ty == 0) t[0][tx + 1] = J[max(i - 1, 0) * cols + j];
  if (ty == T - 1) t[T + 1][tx + 1] = J[min(i + 1, rows - 1) * cols + j];
  if (tx == 0) t[ty + 1][0] = J[i * cols + max(j - 1, 0)];
  if (tx == T - 1) t[ty + 1][T + 1] = J[i * cols + min(j + 1, cols - 1)];
  __syncthreads();
  const float jc = t[ty + 1][tx + 1];
  const float n = t[ty][tx + 1] - jc, s = t[ty + 2][tx + 1] - jc;
  const float w = t[ty + 1][tx] - jc, e = t[ty + 1][tx + 2] - jc;
  const float g2 = (n * n + s * s + w * w + e * e) / (jc * jc);
  const float l = (n + s + w + e) / jc;
  const float num = 0.5f * g2 - (1.0f / 16.0f) * (l * l);
  float den = 1.0f + 0.25f * l;
  const float qsqr = num / (den * den);
  den = (qsqr - q0sqr) / (q0sqr * (1.0f + q0sqr));
  float c = 1.0f / (1.0f + den);
  c = c < 0.0f ? 0.0f : (c > 1.0f ? 1.0f : c);
  const int k = i * cols + j;
  dN[k] = n, dS[k] = s, dW[k] = w, dE[k] = e, C[k] = c;
}

extern "C" __global__ void srad2_update(float* J, const float* dN, const float* dS, const float* dW,
                                        const float* dE, const float* C, int rows, int cols,
                                        float lambda) {
  __shared__ float c[T + 1][T + 1];
  const int tx = threadIdx.x, ty = threadIdx.y;
  const int i = blockIdx.y * T + ty, j = blockIdx.x * T + tx;
  c[ty][tx] = C[i * cols + j];
  if (ty == T - 1) c[T][tx] = C[min(i + 1, rows - 1) * cols + j];
  if (tx == T - 1) c[ty][T] = C[i * cols + min(j + 1, cols - 1)];
  __syncthreads();
  const int k = i * cols + j;
  const float d =
      c[ty][tx] * dN[k] + c[ty + 1][tx] * dS[k] + c[ty][tx] * dW[k] + c[ty][tx + 1] * dE[k];
  J[k] = J[k] + 0.25f * lambda * d;
}
