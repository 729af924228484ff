// hotspot: transient thermal simulation of a chip (Rodinia hotspot), one launch per time step.
// Each thread owns `strip` consecutive rows of one column and walks them in a counted loop,
// updating every cell from its four neighbours (clamped at the border), its power and the
// ambient temperature.
extern "C" __global__ void hotspot_step(const float* temp, const float* power, float* out, int rows,
                                        int cols, int strip, float step_cap, float rx1, float ry1,
                                        float rz1, float amb) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int r0 = blockIdx.y * strip;
  if (col >= cols) return;
  const int w = max(col - 1, 0), e = min(col + 1, cols - 1);
  for (int r = r0; r < min(r0 + strip, rows); ++r) {
    const int n = max(r - 1, 0), s = min(r + 1, rows - 1);
    const float c = temp[r * cols + col];
    const float delta =
        step_cap *
        (power[r * cols + col] + (temp[s * cols + col] + temp[n * cols + col] - 2.0f * c) * ry1 +
         (temp[r * cols + e] + temp[r * cols + w] - 2.0f * c) * rx1 + (amb - c) * rz1);
    out[r * cols + col] = c + delta;
  }
}
