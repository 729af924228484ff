// Shared declarations of the Barnes-Hut kernels (bh.cu, bh_st_mimd.cu). Bodies are nodes
// 0 .. nbodies-1, cells are nodes bottom .. nnodes (the root is nnodes); cells are allocated
// downwards from the root, so a cell's index is below its parent's. child[8*n + j] is the
// octant-j child of cell n: -1 empty, -2 locked (during tree building), else a node.
#pragma once

struct BhGlobals {  // layout of BhGlobals in bh.cc
  int bottom;     // lowest allocated cell
  int maxdepth;   // deepest cell level in the tree
  unsigned blkcnt;  // bounding-box kernel: blocks done
  int error;      // 1: out of cells, 2: traversal stack overflow
  float radius;   // half the root cell's side
};
