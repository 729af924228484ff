// recursion: seed 004 Example 2. Threads with id > 4 recurse once; without call entries on the
// reconvergence stack they would reconverge with the others inside the callee and return 3
// instead of 4.
__device__ __noinline__ int recursive_function(int x, int id) {
  x = x + 1;
  if (x == 1 && id > 4) x = recursive_function(x, id);
  x = x + 1;
  return x;
}

extern "C" __global__ void recursion(int* out) {
  int tid = blockIdx.x * blockDim.x + threadIdx.x;
  out[tid] = recursive_function(0, threadIdx.x);
}
