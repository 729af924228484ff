#include "timing/mem/cacp.h"

#include <algorithm>

namespace simtsync::mem {

Cacp::Cacp(const CacpParams& p, const CacheGeometry& geo, const TagArray& index,
           const CriticalWarps* board, RequesterFn who)
    : p_(p),
      index_(index),
      board_(board),
      who_(std::move(who)),
      assoc_(std::max(1u, geo.assoc)),
      line_(std::max(1u, geo.line)),
      crit_ways_(p.critical_ways ? std::min(p.critical_ways, assoc_) : assoc_ / 2),
      mask_((1u << std::clamp(p.signature_bits, 1u, 16u)) - 1),
      cnt_(board && board->counters ? board->counters : own_.data()) {
  const std::size_t ways = static_cast<std::size_t>(index.sets()) * assoc_;
  lines_.assign(ways, kUnused);
  valid_.assign(ways, 0);
  sig_.assign(ways, 0);
  rrpv_.assign(ways, kMaxRrpv);
  reuse_.assign(ways, 0);
  // CCBP starts predicting "no critical reuse" (the critical partition fills as critical warps
  // show reuse); SHiP starts weakly predicting reuse, so a signature's first lines go in at the
  // long interval and only one that left unused once is inserted distant.
  ccbp_.assign(static_cast<std::size_t>(mask_) + 1, 0);
  ship_.assign(static_cast<std::size_t>(mask_) + 1, 1);
}

unsigned Cacp::signature(Addr line, Pc pc) const {
  Addr s = pc / kInstSize;
  if (p_.signature_line) s ^= line / line_;
  return static_cast<unsigned>(s & mask_);
}

int Cacp::find(Addr line) const {
  const std::size_t base = static_cast<std::size_t>(index_.set_index(line)) * assoc_;
  for (unsigned w = 0; w < assoc_; ++w)
    if (lines_[base + w] == line) return static_cast<int>(base + w);
  return -1;
}

int Cacp::way_of(Addr line) const {
  const int i = find(line);
  return i < 0 ? -1 : static_cast<int>(static_cast<unsigned>(i) % assoc_);
}

unsigned Cacp::rrpv(Addr line) const {
  const int i = find(line);
  return i < 0 ? kMaxRrpv : rrpv_[static_cast<std::size_t>(i)];
}

bool Cacp::critical(const Packet& p, Requester* who) const {
  const Requester r = who_(p);
  if (who) *who = r;
  return board_ && board_->is_critical(r.slot);
}

void Cacp::hit(const Packet& p) {
  const int i = find(p.line);
  if (i < 0) return;
  const auto w = static_cast<std::size_t>(i);
  const unsigned sig = sig_[w];
  rrpv_[w] = 0;
  if (critical(p)) {
    ++cnt_[kCacpCriticalLookups];
    ++cnt_[kCacpCriticalHits];
    reuse_[w] |= kCReuse;
    ccbp_[sig] = static_cast<std::uint8_t>(std::min<int>(ccbp_[sig] + 1, kMaxCounter));
  } else {
    ++cnt_[kCacpNoncriticalHits];
    reuse_[w] |= kNcReuse;
  }
  ship_[sig] = static_cast<std::uint8_t>(std::min<int>(ship_[sig] + 1, kMaxCounter));
}

void Cacp::miss(const Packet& p, bool fill_sent) {
  Requester who;
  if (critical(p, &who)) ++cnt_[kCacpCriticalLookups];
  if (fill_sent) pending_[p.line] = static_cast<std::uint16_t>(signature(p.line, who.pc));
}

std::size_t Cacp::victim(std::size_t base, unsigned first, unsigned last) {
  // A free way of the line's partition, else of the other one (a free way costs no line: the
  // partitions decide what leaves, not what may use an empty way).
  for (unsigned w = first; w < last; ++w)
    if (lines_[base + w] == kUnused) return base + w;
  for (unsigned w = 0; w < assoc_; ++w)
    if (lines_[base + w] == kUnused) return base + w;
  // SRRIP: the first way predicted distant; if none is, the partition ages by what brings its
  // oldest line to distant (the same as ageing one step at a time until one gets there).
  std::uint8_t oldest = 0;
  for (unsigned w = first; w < last; ++w) oldest = std::max(oldest, rrpv_[base + w]);
  const auto age = static_cast<std::uint8_t>(kMaxRrpv - oldest);
  std::size_t v = base + last;
  for (unsigned w = first; w < last; ++w) {
    rrpv_[base + w] = static_cast<std::uint8_t>(rrpv_[base + w] + age);
    if (v == base + last && rrpv_[base + w] == kMaxRrpv) v = base + w;
  }
  return v;
}

void Cacp::fill(Addr line, std::uint32_t sectors) {
  unsigned sig = 0;
  if (auto it = pending_.find(line); it != pending_.end()) {
    sig = it->second;
    pending_.erase(it);
  }
  if (const int i = find(line); i >= 0) {  // a sector fill of a line that stayed
    valid_[static_cast<std::size_t>(i)] |= sectors;
    return;
  }
  const bool to_critical = ccbp_[sig] >= kCriticalAt && crit_ways_ > 0;
  const bool reused = ship_[sig] > 0;
  if (!to_critical && !reused && p_.bypass) {
    ++cnt_[kCacpBypasses];
    return;
  }
  // With every way critical (critical_ways = assoc), non-critical fills share them.
  const unsigned first = to_critical || crit_ways_ >= assoc_ ? 0 : crit_ways_;
  const unsigned last = to_critical ? crit_ways_ : assoc_;
  const std::size_t base = static_cast<std::size_t>(index_.set_index(line)) * assoc_;
  const std::size_t v = victim(base, first, last);
  if (lines_[v] != kUnused) {
    // The line leaving teaches both predictors what its signature's lines did.
    const unsigned old = sig_[v];
    const bool c_reuse = (reuse_[v] & kCReuse) != 0, nc_reuse = (reuse_[v] & kNcReuse) != 0;
    if ((reuse_[v] & kPredicted) != 0 && !c_reuse && ccbp_[old] > 0) {
      --ccbp_[old];
      ++cnt_[kCacpCcbpDemotions];
    }
    if (!c_reuse && !nc_reuse && ship_[old] > 0) --ship_[old];
  }
  lines_[v] = line;
  valid_[v] = sectors;
  sig_[v] = static_cast<std::uint16_t>(sig);
  reuse_[v] = to_critical ? kPredicted : 0;
  if (to_critical) {
    rrpv_[v] = kMaxRrpv - 1;
    ++cnt_[kCacpPredCritical];
  } else if (reused) {
    rrpv_[v] = kMaxRrpv - 1;
    ++cnt_[kCacpPredNormal];
  } else {
    rrpv_[v] = kMaxRrpv;
    ++cnt_[kCacpLowPriority];
  }
}

void Cacp::invalidate(Addr line) {
  const int i = find(line);
  if (i < 0) return;
  const auto w = static_cast<std::size_t>(i);
  lines_[w] = kUnused;
  valid_[w] = 0;
  reuse_[w] = 0;
  rrpv_[w] = kMaxRrpv;
}

}  // namespace simtsync::mem
