// Corpus (issue 50): building a quadtree with per-slot locks, in the style of the public n-body
// codes' tree-building kernel. A body descends from the root to the child slot of its quadrant;
// a free or body-holding slot is locked with a compare-and-swap to -2, filled (a free slot gets
// the body; a slot holding another body gets a chain of new cells, allocated with an atomic add,
// until the two separate) and released by an exchange in the same loop iteration, so the lane
// holding a lock never waits at a reconvergence point while its warp-mates spin on that lock
// (the form that runs under the IPDOM stack). Coordinates are 16-bit integers; a cell at depth
// d splits on bit 15 - d. The host walks the tree: every body exactly once, where its bits say.
#include <vector>

#include "sample_helpers.h"

static const char* kName = "tree_build";

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
      if (ch >= n) {  // a cell: descend
        cell = ch - n;
        ++depth;
      } else if (ch != -2 && atomicCAS(&child[slot], ch, -2) == ch) {
        int patch = i;
        if (ch >= 0) {  // another body: new cells until the two separate
          int c = atomicAdd(&ncells, 1), d = depth + 1;
          patch = n + c;
          for (;;) {
            if (c >= max_cells) break;  // out of cells: the host check reports it
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
        atomicExch(&child[slot], patch);  // release: the slot holds the body or the new cell
        done = true;
      }
    }
  }
}

static int walk(const std::vector<int>& child, const std::vector<unsigned>& xs,
                const std::vector<unsigned>& ys, int n, int cell, int depth,
                std::vector<int>& seen) {
  int bad = 0;
  for (int q = 0; q < 4; ++q) {
    const int ch = child[cell * 4 + q];
    if (ch >= n) {
      bad += walk(child, xs, ys, n, ch - n, depth + 1, seen);
    } else if (ch >= 0) {
      ++seen[ch];
      bad += quadrant(xs[ch], ys[ch], depth) != q;
    } else if (ch == -2) {
      ++bad;  // a lock never released
    }
  }
  return bad;
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 512, max_cells = 8 * n;
  std::vector<unsigned> xs(n), ys(n);
  uint32_t seed = 5;
  for (int i = 0; i < n; ++i) {  // distinct points
    xs[i] = lcgNext(&seed) >> 16;
    ys[i] = (lcgNext(&seed) >> 16) ^ static_cast<unsigned>(i);
  }
  unsigned *d_x, *d_y;
  int* d_child;
  CHECK_CUDA(cudaMalloc(&d_x, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&d_y, n * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&d_child, 4 * max_cells * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(d_x, xs.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_y, ys.data(), n * sizeof(unsigned), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_child, 0xff, 4 * max_cells * sizeof(int)));  // -1: empty
  const int one = 1;
  CHECK_CUDA(cudaMemcpyToSymbol(ncells, &one, sizeof one));  // cell 0 is the root
  build<<<4, 64>>>(d_x, d_y, n, d_child, max_cells);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int> child(4 * max_cells);
  CHECK_CUDA(cudaMemcpy(child.data(), d_child, child.size() * sizeof(int), cudaMemcpyDeviceToHost));
  int cells = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&cells, ncells, sizeof cells));
  std::vector<int> seen(n, 0);
  int bad = cells > max_cells ? 1 : walk(child, xs, ys, n, 0, 0, seen);
  for (int i = 0; i < n; ++i) bad += seen[i] != 1;
  if (bad) {
    printf("FAILED %s: %d misplaced, missing or repeated bodies or held locks (%d cells)\n", kName,
           bad, cells);
    return 1;
  }
  printf("%s: %d bodies, %d cells\n", kName, n, cells);
  printf("PASSED %s\n", kName);
  return 0;
}
