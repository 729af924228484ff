// Corpus (issue 50): level-synchronous breadth-first search over a CSR graph in the style of the
// public suites' BFS: per level one kernel expands the frontier (a thread per node in it) and a
// second one turns the updated mask into the next frontier and raises a "not done" flag that
// the host reads back. Checked against a CPU BFS.
#include <queue>
#include <vector>

#include "sample_helpers.h"

static const char* kName = "bfs";

__global__ void expand(const int* start, const int* edges, int n, const bool* frontier,
                       bool* updating, const bool* visited, int* cost) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !frontier[v]) return;
  for (int e = start[v]; e < start[v + 1]; ++e) {
    const int u = edges[e];
    if (!visited[u]) {
      cost[u] = cost[v] + 1;
      updating[u] = true;
    }
  }
}

__global__ void advance(int n, bool* frontier, bool* updating, bool* visited, bool* more) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n) return;
  frontier[v] = false;
  if (updating[v]) {
    frontier[v] = visited[v] = true;
    updating[v] = false;
    *more = true;
  }
}

int main(int argc, char** argv) {
  const int n = argc > 1 ? atoi(argv[1]) : 2000, degree = 4;
  std::vector<int> start(n + 1), edges;
  uint32_t seed = 11;
  for (int v = 0; v < n; ++v) {
    start[v] = static_cast<int>(edges.size());
    edges.push_back((v + 1) % n);  // a ring keeps the graph connected
    for (int k = 1; k < degree; ++k) edges.push_back(static_cast<int>(lcgNext(&seed) % n));
  }
  start[n] = static_cast<int>(edges.size());
  std::vector<int> want(n, -1);
  std::queue<int> q;
  want[0] = 0;
  q.push(0);
  while (!q.empty()) {
    const int v = q.front();
    q.pop();
    for (int e = start[v]; e < start[v + 1]; ++e)
      if (want[edges[e]] < 0) {
        want[edges[e]] = want[v] + 1;
        q.push(edges[e]);
      }
  }
  int *d_start, *d_edges, *d_cost;
  bool *d_frontier, *d_updating, *d_visited, *d_more;
  CHECK_CUDA(cudaMalloc(&d_start, start.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_edges, edges.size() * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_cost, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d_frontier, n));
  CHECK_CUDA(cudaMalloc(&d_updating, n));
  CHECK_CUDA(cudaMalloc(&d_visited, n));
  CHECK_CUDA(cudaMalloc(&d_more, 1));
  CHECK_CUDA(cudaMemcpy(d_start, start.data(), start.size() * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_edges, edges.data(), edges.size() * sizeof(int), cudaMemcpyHostToDevice));
  std::vector<int> cost(n, -1);
  cost[0] = 0;
  CHECK_CUDA(cudaMemcpy(d_cost, cost.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(d_frontier, 0, n));
  CHECK_CUDA(cudaMemset(d_updating, 0, n));
  CHECK_CUDA(cudaMemset(d_visited, 0, n));
  const bool one = true;
  CHECK_CUDA(cudaMemcpy(d_frontier, &one, 1, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d_visited, &one, 1, cudaMemcpyHostToDevice));
  const int threads = 256, blocks = (n + threads - 1) / threads;
  int levels = 0;
  for (bool more = true; more; ++levels) {
    more = false;
    CHECK_CUDA(cudaMemcpy(d_more, &more, 1, cudaMemcpyHostToDevice));
    expand<<<blocks, threads>>>(d_start, d_edges, n, d_frontier, d_updating, d_visited, d_cost);
    advance<<<blocks, threads>>>(n, d_frontier, d_updating, d_visited, d_more);
    CHECK_CUDA(cudaMemcpy(&more, d_more, 1, cudaMemcpyDeviceToHost));
  }
  CHECK_CUDA(cudaMemcpy(cost.data(), d_cost, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int v = 0; v < n; ++v)
    if (cost[v] != want[v]) {
      printf("FAILED %s: node %d at depth %d, expected %d\n", kName, v, cost[v], want[v]);
      return 1;
    }
  printf("%s: %d nodes, %d levels\n", kName, n, levels);
  printf("PASSED %s\n", kName);
  return 0;
}
