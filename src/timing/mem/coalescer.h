// Coalescer: a warp's per-lane addresses become line transactions. Each packet names one line,
// the 32-byte sectors of it the warp touches and the lanes it serves; packets come out in the
// order their lines are first touched by increasing lane. Local (thread-private) addresses are
// interleaved word by word across the lanes of a warp, as GPUs lay out local memory, so the
// same local offset in every lane is one contiguous 128-byte span.
#pragma once

#include <vector>

#include "timing/mem/packet.h"

namespace simtsync::func {
struct MemAccess;
}

namespace simtsync::mem {

inline constexpr Addr kLocalBase = Addr{1} << 52;
// Reconvergence units' reserved areas (AWARE's virtualized tables), one per warp of the launch.
inline constexpr Addr kUnitAreaBase = Addr{1} << 53;

// Where the hierarchy sees lane `lane`'s local word at frame offset `off` of warp `warp_uid`.
inline Addr local_address(int warp_uid, unsigned lane, Addr off) {
  return kLocalBase + ((Addr(warp_uid) << 22) + off / 4) * 128 + Addr{lane} * 4 + off % 4;
}

// Appends the packets of `acc` to `out` (which it clears first).
void coalesce(const func::MemAccess& acc, PacketKind kind, bool local, int warp_uid,
              unsigned line_bytes, unsigned sector_bytes, std::vector<Packet>& out);

}  // namespace simtsync::mem
