// Issue 50 item 2: the tree-building kernel of tests/cuda/programs/tree_build.cu (a quadtree
// with per-slot locks). A lane that takes a slot's lock with atomicCAS allocates cells with
// atomicAdd(&ncells, 1) in an inner loop until the two bodies separate, then releases the slot
// with atomicExch. The inner loop exits on its own fetch-and-add results and `max_cells`: it
// waits for no other thread. Expected: no loop flagged; SSDE leaves the kernel unchanged. With
// fetch-and-add results counted as waits (the published Algorithm 1, `--no-uniformity`), the
// inner loop is flagged with a safe post-dominator after the lock loop, and SSDE refuses it: the
// lanes still allocating would wait there holding the slot's lock.
__device__ int ncells;

__device__ __host__ inline int quadrant(unsigned x, unsigned y, int depth) {
  return static_cast<int>(((x >> (15 - depth)) & 1u) | (((y >> (15 - depth)) & 1u) << 1));
}

__global__ void build(const unsigned* xs, const unsigned* ys, int n, int* child, int max_cells) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int cell = 0, depth = 0;
    bool done = false;
    while (!done) {
      const int slot = cell * 4 + quadrant(xs[i], ys[i], depth);
      const int ch = *(volatile int*)&child[slot];
      if (ch >= n) {
        cell = ch - n;
        ++depth;
      } else if (ch != -2 && atomicCAS(&child[slot], ch, -2) == ch) {
        int patch = i;
        if (ch >= 0) {
          int c = atomicAdd(&ncells, 1), d = depth + 1;
          patch = n + c;
          for (;;) {
            if (c >= max_cells) break;
            const int qi = quadrant(xs[i], ys[i], d), qj = quadrant(xs[ch], ys[ch], d);
            if (qi != qj) {
              child[c * 4 + qi] = i;
              child[c * 4 + qj] = ch;
              break;
            }
            const int c2 = atomicAdd(&ncells, 1);
            child[c * 4 + qi] = n + c2;
            c = c2;
            ++d;
          }
        }
        __threadfence();
        atomicExch(&child[slot], patch);
        done = true;
      }
    }
  }
}
