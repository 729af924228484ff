// bfs: level-synchronous breadth-first search (Rodinia bfs). bfs_expand: every frontier node
// walks its adjacency list (a data-dependent loop) and labels unvisited neighbours with the next
// level; bfs_commit turns the labelled nodes into the next frontier and raises `more`. The host
// launches both until the frontier is empty.
extern "C" __global__ void bfs_expand(const int* start, const int* degree, const int* edges,
                                      unsigned char* frontier, unsigned char* next,
                                      const unsigned char* visited, int* cost, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !frontier[v]) return;
  frontier[v] = 0;
  for (int e = start[v]; e < start[v] + degree[v]; ++e) {
    const int u = edges[e];
    if (!visited[u]) {
      cost[u] = cost[v] + 1;
      next[u] = 1;
    }
  }
}

extern "C" __global__ void bfs_commit(unsigned char* frontier, unsigned char* next,
                                      unsigned char* visited, int* more, int n) {
  const int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v >= n || !next[v]) return;
  frontier[v] = 1;
  visited[v] = 1;
  next[v] = 0;
  *more = 1;
}
