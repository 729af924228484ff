#include "bh/bh_cpu.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace simtsync::workloads::bh {
namespace {

std::size_t u(int i) { return static_cast<std::size_t>(i); }

int octant(const Tree& t, int n, float x, float y, float z) {
  return (t.px[u(n)] < x ? 1 : 0) | (t.py[u(n)] < y ? 2 : 0) | (t.pz[u(n)] < z ? 4 : 0);
}

bool close(float a, float b, float tol) {
  return std::fabs(a - b) <= tol * std::max({1.0f, std::fabs(a), std::fabs(b)});
}

}  // namespace

int nodes_for(int nbodies) { return 3 * nbodies + 64; }

Tree make_tree(const Bodies& b) {
  Tree t;
  t.nbodies = static_cast<int>(b.px.size());
  t.nnodes = nodes_for(t.nbodies);
  const std::size_t nodes = u(t.nnodes) + 1;
  t.px.assign(nodes, 0);
  t.py.assign(nodes, 0);
  t.pz.assign(nodes, 0);
  t.mass.assign(nodes, 0);
  std::copy(b.px.begin(), b.px.end(), t.px.begin());
  std::copy(b.py.begin(), b.py.end(), t.py.begin());
  std::copy(b.pz.begin(), b.pz.end(), t.pz.begin());
  std::copy(b.mass.begin(), b.mass.end(), t.mass.begin());
  t.child.assign(nodes * 8, -1);
  t.count.assign(nodes, 0);
  t.start.assign(nodes, -1);
  t.sort.assign(nodes, 0);
  return t;
}

void bounding_box(Tree& t) {
  float lo[3] = {t.px[0], t.py[0], t.pz[0]}, hi[3] = {lo[0], lo[1], lo[2]};
  for (int i = 0; i < t.nbodies; ++i) {
    lo[0] = std::fmin(lo[0], t.px[u(i)]); hi[0] = std::fmax(hi[0], t.px[u(i)]);
    lo[1] = std::fmin(lo[1], t.py[u(i)]); hi[1] = std::fmax(hi[1], t.py[u(i)]);
    lo[2] = std::fmin(lo[2], t.pz[u(i)]); hi[2] = std::fmax(hi[2], t.pz[u(i)]);
  }
  t.radius = std::fmax(std::fmax(hi[0] - lo[0], hi[1] - lo[1]), hi[2] - lo[2]) * 0.5f;
  const int root = t.nnodes;
  t.bottom = root;
  t.px[u(root)] = (lo[0] + hi[0]) * 0.5f;
  t.py[u(root)] = (lo[1] + hi[1]) * 0.5f;
  t.pz[u(root)] = (lo[2] + hi[2]) * 0.5f;
  t.mass[u(root)] = -1;
  t.start[u(root)] = 0;
  for (int j = 0; j < 8; ++j) t.child[u(root * 8 + j)] = -1;
}

void build(Tree& t) {
  for (int i = 0; i < t.nbodies && !t.out_of_cells; ++i) {
    const float x = t.px[u(i)], y = t.py[u(i)], z = t.pz[u(i)];
    int n = t.nnodes;
    float r = t.radius;
    int j = octant(t, n, x, y, z);
    int ch = t.child[u(n * 8 + j)];
    while (ch >= t.nbodies) {
      n = ch;
      r *= 0.5f;
      j = octant(t, n, x, y, z);
      ch = t.child[u(n * 8 + j)];
    }
    while (ch >= 0) {  // a body is there: split until the two fall apart
      const int cell = --t.bottom;
      if (cell <= t.nbodies) {
        t.out_of_cells = true;
        return;
      }
      t.child[u(n * 8 + j)] = cell;
      const float h = r * 0.5f;
      t.px[u(cell)] = t.px[u(n)] + ((j & 1) ? h : -h);
      t.py[u(cell)] = t.py[u(n)] + ((j & 2) ? h : -h);
      t.pz[u(cell)] = t.pz[u(n)] + ((j & 4) ? h : -h);
      t.mass[u(cell)] = -1;
      t.start[u(cell)] = -1;
      r = h;
      n = cell;
      t.child[u(n * 8 + octant(t, n, t.px[u(ch)], t.py[u(ch)], t.pz[u(ch)]))] = ch;
      j = octant(t, n, x, y, z);
      ch = t.child[u(n * 8 + j)];
    }
    t.child[u(n * 8 + j)] = i;
  }
}

void summarize(Tree& t) {
  for (int k = t.bottom; k <= t.nnodes; ++k) {  // children have lower numbers
    float m = 0, cx = 0, cy = 0, cz = 0;
    int cnt = 0;
    for (int c = 0; c < 8; ++c) {
      const int ch = t.child[u(k * 8 + c)];
      if (ch < 0) continue;
      const float cm = t.mass[u(ch)];
      m += cm;
      cx += t.px[u(ch)] * cm;
      cy += t.py[u(ch)] * cm;
      cz += t.pz[u(ch)] * cm;
      cnt += ch >= t.nbodies ? t.count[u(ch)] : 1;
    }
    const float inv = 1.0f / m;
    t.px[u(k)] = cx * inv;
    t.py[u(k)] = cy * inv;
    t.pz[u(k)] = cz * inv;
    t.count[u(k)] = cnt;
    t.mass[u(k)] = m;
  }
}

void sort_bodies(Tree& t) {
  for (int k = t.nnodes; k >= t.bottom; --k) {  // parents have higher numbers
    int s = t.start[u(k)];
    for (int c = 0; c < 8; ++c) {
      const int ch = t.child[u(k * 8 + c)];
      if (ch >= t.nbodies) {
        t.start[u(ch)] = s;
        s += t.count[u(ch)];
      } else if (ch >= 0) {
        t.sort[u(s++)] = ch;
      }
    }
  }
}

void forces(const Tree& t, float theta, float epssq, std::vector<float>& ax,
            std::vector<float>& ay, std::vector<float>& az) {
  ax.assign(u(t.nbodies), 0);
  ay.assign(u(t.nbodies), 0);
  az.assign(u(t.nbodies), 0);
  const float side = t.radius * 2.0f;
  const float itolsq = 1.0f / (theta * theta);
  std::vector<int> stack;
  for (int i = 0; i < t.nbodies; ++i) {
    const float x = t.px[u(i)], y = t.py[u(i)], z = t.pz[u(i)];
    float sx = 0, sy = 0, sz = 0;
    stack.assign({t.nnodes, 0});
    while (!stack.empty()) {
      const int depth = stack.back();
      stack.pop_back();
      const int n = stack.back();
      stack.pop_back();
      float size = side;
      for (int d = 0; d <= depth; ++d) size *= 0.5f;
      const float dq = size * size * itolsq;
      for (int c = 0; c < 8; ++c) {
        const int ch = t.child[u(n * 8 + c)];
        if (ch < 0 || ch == i) continue;
        const float dx = t.px[u(ch)] - x, dy = t.py[u(ch)] - y, dz = t.pz[u(ch)] - z;
        const float d2 = dx * dx + dy * dy + dz * dz;
        if (ch < t.nbodies || d2 >= dq) {
          const float inv = 1.0f / std::sqrt(d2 + epssq);
          const float f = t.mass[u(ch)] * inv * inv * inv;
          sx += dx * f;
          sy += dy * f;
          sz += dz * f;
        } else {
          stack.push_back(ch);
          stack.push_back(depth + 1);
        }
      }
    }
    ax[u(i)] = sx;
    ay[u(i)] = sy;
    az[u(i)] = sz;
  }
}

void integrate(Bodies& b, const std::vector<float>& ax, const std::vector<float>& ay,
               const std::vector<float>& az, float dt) {
  for (std::size_t i = 0; i < b.px.size(); ++i) {
    b.vx[i] += ax[i] * dt;
    b.vy[i] += ay[i] * dt;
    b.vz[i] += az[i] * dt;
    b.px[i] += b.vx[i] * dt;
    b.py[i] += b.vy[i] * dt;
    b.pz[i] += b.vz[i] * dt;
  }
}

std::string compare_trees(const Tree& got, const Tree& want, bool summarized, float tol) {
  struct Pair { int g, w; };
  std::vector<Pair> todo = {{got.nnodes, want.nnodes}};
  int cells = 0;
  while (!todo.empty()) {
    const auto [g, w] = todo.back();
    todo.pop_back();
    ++cells;
    const float gv[4] = {got.px[u(g)], got.py[u(g)], got.pz[u(g)], got.mass[u(g)]};
    const float wv[4] = {want.px[u(w)], want.py[u(w)], want.pz[u(w)], want.mass[u(w)]};
    for (int d = 0; d < (summarized ? 4 : 3); ++d)
      if (!close(gv[d], wv[d], tol))
        return fmt::format("cell {} (CPU cell {}): {} {} is {}, expected {}", g, w,
                           d == 3 ? "mass" : "coordinate", d, gv[d], wv[d]);
    if (summarized && got.count[u(g)] != want.count[u(w)])
      return fmt::format("cell {} counts {} bodies, expected {}", g, got.count[u(g)],
                         want.count[u(w)]);
    for (int c = 0; c < 8; ++c) {
      const int gc = got.child[u(g * 8 + c)], wc = want.child[u(w * 8 + c)];
      if (gc == -2) return fmt::format("child {} of cell {} is still locked", c, g);
      const bool gcell = gc >= got.nbodies, wcell = wc >= want.nbodies;
      if (gc < -1 || gc > got.nnodes || (gcell && gc < got.bottom))
        return fmt::format("child {} of cell {} is {}, not a node", c, g, gc);
      if (gcell != wcell || (!gcell && gc != wc))
        return fmt::format("child {} of cell {} is {}, expected {}", c, g,
                           gcell ? "a cell" : std::to_string(gc),
                           wcell ? "a cell" : std::to_string(wc));
      if (gcell) todo.push_back({gc, wc});
    }
  }
  if (cells != want.nnodes - want.bottom + 1 || got.nnodes - got.bottom + 1 != cells)
    return fmt::format("{} cells are reachable, {} allocated, expected {}", cells,
                       got.nnodes - got.bottom + 1, want.nnodes - want.bottom + 1);
  return "";
}

}  // namespace simtsync::workloads::bh
