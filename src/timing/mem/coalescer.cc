#include "timing/mem/coalescer.h"

#include "func/executor.h"

namespace simtsync::mem {

void coalesce(const func::MemAccess& acc, PacketKind kind, bool local, int warp_uid,
              unsigned line_bytes, unsigned sector_bytes, std::vector<Packet>& out) {
  out.clear();
  const unsigned span = acc.bytes * acc.vec;
  auto touch = [&](Addr a, unsigned len, unsigned lane) {
    const Addr line = a / line_bytes * line_bytes;
    Packet* p = nullptr;
    for (auto& q : out)
      if (q.line == line) p = &q;
    if (!p) {
      out.push_back(Packet{});
      p = &out.back();
      p->kind = kind;
      p->line = line;
      p->local = local;
    }
    const unsigned first = static_cast<unsigned>((a - line) / sector_bytes);
    const unsigned last = static_cast<unsigned>((a + (len ? len : 1) - 1 - line) / sector_bytes);
    for (unsigned s = first; s <= last && s < 32; ++s) p->sectors |= 1u << s;
    if (!(p->lanes >> lane & 1)) {
      p->lanes |= std::uint64_t{1} << lane;
      if (kind == PacketKind::kAtomic) ++p->ops;
    }
  };
  for (int l : func::lanes(acc.mask)) {
    const auto lane = static_cast<unsigned>(l);
    if (!local) {
      // An access that straddles a line boundary touches both lines.
      const Addr a = acc.addr[l];
      const Addr end = a + (span ? span : 1);
      const Addr split = (a / line_bytes + 1) * line_bytes;
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

}  // namespace simtsync::mem
