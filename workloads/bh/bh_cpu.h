// The CPU reference of the Barnes-Hut kernels (bh.cu): the same algorithm run sequentially on
// the same flat arrays. The octree of a set of distinct points in a given box does not depend
// on the insertion order, so the CPU tree has the GPU tree's shape (only the cell numbers
// differ) and the later phases visit nodes in the same order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtsync::workloads::bh {

struct Bodies {
  std::vector<float> px, py, pz, vx, vy, vz, mass;
};

// Nodes 0 .. nbodies-1 are bodies, nbodies .. nnodes cells (see bh.cuh).
struct Tree {
  int nbodies = 0, nnodes = 0, bottom = 0;
  float radius = 0;
  std::vector<float> px, py, pz, mass;  // nnodes + 1
  std::vector<int> child;               // 8 * (nnodes + 1)
  std::vector<int> count, start, sort;  // nnodes + 1
  bool out_of_cells = false;
};

int nodes_for(int nbodies);  // nnodes for a body count
Tree make_tree(const Bodies& b);
void bounding_box(Tree& t);
void build(Tree& t);
void summarize(Tree& t);
void sort_bodies(Tree& t);
// Accelerations of every body (indexed by body).
void forces(const Tree& t, float theta, float epssq, std::vector<float>& ax,
            std::vector<float>& ay, std::vector<float>& az);
void integrate(Bodies& b, const std::vector<float>& ax, const std::vector<float>& ay,
               const std::vector<float>& az, float dt);

// Walks two trees from their roots together. Returns "" when they have the same shape and
// agree (within `tol`, relative) on every cell's geometric data (`summarized`: mass, centre of
// mass and body count; else the cell centre), or the first difference.
std::string compare_trees(const Tree& got, const Tree& want, bool summarized, float tol);

}  // namespace simtsync::workloads::bh
