// backprop: one training step of a two-layer perceptron (Rodinia backprop). bp_partial: thread
// (chunk, j) sums input * weight over a chunk of inputs for hidden unit j (counted loop);
// bp_hidden: thread j adds the chunk sums and applies the sigmoid; the host computes the output
// unit and the hidden deltas (as Rodinia does); bp_adjust updates every input-to-hidden weight
// with momentum.
extern "C" __global__ void bp_partial(const float* in, const float* w, int n_in, int hidden,
                                      int chunk, float* partial) {
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int j = t % hidden, c = t / hidden;
  const int lo = c * chunk;
  if (lo >= n_in) return;
  float sum = 0.0f;
  for (int i = lo; i < min(lo + chunk, n_in); ++i) sum += in[i] * w[i * hidden + j];
  partial[c * hidden + j] = sum;
}

extern "C" __global__ void bp_hidden(const float* partial, int chunks, int hidden, float* out) {
  const int j = threadIdx.x;
  if (j >= hidden) return;
  float sum = 0.0f;
  for (int c = 0; c < chunks; ++c) sum += partial[c * hidden + j];
  out[j] = 1.0f / (1.0f + expf(-sum));
}

extern "C" __global__ void bp_adjust(const float* in, const float* delta, float* w, float* oldw,
                                     int n_in, int hidden, float eta, float momentum) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n_in * hidden) return;
  const int i = k / hidden, j = k - i * hidden;
  const float dw = eta * delta[j] * in[i] + momentum * oldw[k];
  w[k] += dw;
  oldw[k] = dw;
}
