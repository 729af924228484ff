#include "timing/mem/coalescer.h"

#include <algorithm>
#include <bit>

#include "func/executor.h"

namespace simtsync::mem {
namespace {

// Line and sector arithmetic. Both sizes are powers of two in every shipped config, so the
// divisions (tens of cycles each, five per lane) become shifts; any other size divides.
struct ShiftGeometry {
  unsigned line_shift, sector_shift;
  Addr line_of(Addr a) const { return a >> line_shift << line_shift; }
  Addr next_line(Addr a) const { return ((a >> line_shift) + 1) << line_shift; }
  unsigned sector_of(Addr offset) const { return static_cast<unsigned>(offset >> sector_shift); }
};
struct DivideGeometry {
  unsigned line_bytes, sector_bytes;
  Addr line_of(Addr a) const { return a / line_bytes * line_bytes; }
  Addr next_line(Addr a) const { return (a / line_bytes + 1) * line_bytes; }
  unsigned sector_of(Addr offset) const { return static_cast<unsigned>(offset / sector_bytes); }
};

// Sectors first..last of a line (only the first 32 exist in a packet's mask).
std::uint32_t sector_bits(unsigned first, unsigned last) {
  if (first > 31) return 0;
  const unsigned hi = std::min(last, 31u);
  return static_cast<std::uint32_t>(((std::uint64_t{2} << hi) - 1) &
                                    ~((std::uint64_t{1} << first) - 1));
}

template <class Geometry>
void coalesce_with(const Geometry& g, const func::MemAccess& acc, PacketKind kind, bool local,
                   int warp_uid, std::vector<Packet>& out) {
  out.clear();
  const unsigned span = acc.bytes * acc.vec;
  // Neighbouring lanes mostly touch the same line: the packet of the last line touched is
  // checked before the others (each line has one packet, so the order they come out in, by
  // first touch, is unchanged).
  std::size_t last = 0;
  // Inlined: a call per lane cost a fifth of the coalescer.
  auto touch = [&](Addr a, unsigned len, unsigned lane) __attribute__((always_inline)) {
    const Addr line = g.line_of(a);
    if (last >= out.size() || out[last].line != line) {
      last = 0;
      while (last < out.size() && out[last].line != line) ++last;
      if (last == out.size()) {
        Packet& n = out.emplace_back();
        n.kind = kind;
        n.line = line;
        n.local = local;
      }
    }
    Packet& p = out[last];
    p.sectors |= sector_bits(g.sector_of(a - line), g.sector_of(a + (len ? len : 1) - 1 - line));
    const std::uint64_t bit = std::uint64_t{1} << lane;
    if (kind == PacketKind::kAtomic && !(p.lanes & bit)) ++p.ops;
    p.lanes |= bit;
  };
  for (int l : func::lanes(acc.mask)) {
    const auto lane = static_cast<unsigned>(l);
    if (!local) {
      // An access that straddles a line boundary touches both lines.
      const Addr a = acc.addr[l];
      const Addr end = a + (span ? span : 1);
      const Addr split = g.next_line(a);
      if (end <= split) {
        touch(a, span, lane);
      } else {
        touch(a, static_cast<unsigned>(split - a), lane);
        touch(split, static_cast<unsigned>(end - split), lane);
      }
      continue;
    }
    for (Addr off = acc.addr[l] / 4 * 4; off < acc.addr[l] + span; off += 4)
      touch(local_address(warp_uid, lane, off), 4, lane);
  }
}

}  // namespace

void coalesce(const func::MemAccess& acc, PacketKind kind, bool local, int warp_uid,
              unsigned line_bytes, unsigned sector_bytes, std::vector<Packet>& out) {
  if (std::has_single_bit(line_bytes) && std::has_single_bit(sector_bytes))
    coalesce_with(ShiftGeometry{static_cast<unsigned>(std::countr_zero(line_bytes)),
                                static_cast<unsigned>(std::countr_zero(sector_bytes))},
                  acc, kind, local, warp_uid, out);
  else
    coalesce_with(DivideGeometry{line_bytes, sector_bytes}, acc, kind, local, warp_uid, out);
}

}  // namespace simtsync::mem
