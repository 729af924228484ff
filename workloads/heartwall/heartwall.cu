// heartwall: template tracking in the style of Rodinia heartwall. For each tracked point (one
// CTA) every thread scores one candidate displacement in a 16x16 search window by the sum of
// squared differences between the point's template and the frame; the row loop of the SSD
// steps through the image by its width, 256 pixels: a large power-of-two induction increment
// (seed 000 sec. VI-B). hw_pick moves each point to its best candidate (lowest SSD, then lowest
// index) and records the track.
#define WIDTH 256
#define T 8
#define S 16

extern "C" __global__ void hw_ssd(const int* frame, int height, const int* templ, const int* pos,
                                  int* ssd) {
  const int p = blockIdx.x, cand = threadIdx.x;
  const int x = pos[2 * p] + (cand % S) - S / 2, y = pos[2 * p + 1] + (cand / S) - S / 2;
  int sum = 0x7fffffff;
  if (x >= 0 && y >= 0 && x + T <= WIDTH && y + T <= height) {
    sum = 0;
    const int* t = templ + p * T * T;
    const int* f = frame + y * WIDTH + x;
    for (int r = 0; r < T * WIDTH; r += WIDTH)
      for (int c = 0; c < T; ++c) {
        const int d = f[r + c] - *t++;
        sum += d * d;
      }
  }
  ssd[p * S * S + cand] = sum;
}

extern "C" __global__ void hw_pick(const int* ssd, int npoints, int* pos, int* track) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= npoints) return;
  int best = 0;
  for (int c = 1; c < S * S; ++c)
    if (ssd[p * S * S + c] < ssd[p * S * S + best]) best = c;
  pos[2 * p] += best % S - S / 2;
  pos[2 * p + 1] += best / S - S / 2;
  track[2 * p] = pos[2 * p];
  track[2 * p + 1] = pos[2 * p + 1];
}
