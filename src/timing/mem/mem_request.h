// A warp-level memory request travelling between an SM's LD/ST unit and the memory side. The
// functional access (addresses, operands) rides along; the memory side decides when its
// effect happens (Executor::perform) and when the response returns.
#pragma once

#include <cstdint>

#include "common/types.h"

namespace simtsync::func {
struct MemAccess;
}

namespace simtsync::mem {

enum class ReqKind : std::uint8_t { kLoad, kStore, kAtomic };
// Which path a request takes: global (L1, or L2 when it bypasses L1), thread-private local
// memory (through L1), the constant cache, an instruction-cache fill (from L2; no access,
// `first_address` is the line), or a request of a warp's reconvergence unit (spilling or
// filling its tables: no access, `first_address`/`unit_bytes`, answered with `unit_tag`;
// straight to L2).
enum class ReqSpace : std::uint8_t { kGlobal, kLocal, kConst, kInst, kUnit };

struct MemRequest {
  ReqKind kind = ReqKind::kLoad;
  int sm = 0;
  int warp_slot = 0;  // within the SM
  func::MemAccess* access = nullptr;
  unsigned transactions = 1;      // 32-byte sectors touched (after coalescing)
  unsigned same_address_ops = 1;  // atomics: lane operations serialized at one address
  Addr first_address = 0;         // atomics: the address that orders them
  Cycle issued = 0;
  ReqSpace space = ReqSpace::kGlobal;
  bool bypass_l1 = false;  // .volatile, .cg, .cv, or acquire/relaxed at gpu/sys scope
  // A response may answer only some lanes of the access (a component that answers lanes
  // separately, such as lock queuing): `partial`, with those lanes in `lanes`; more responses
  // follow, and the SM completes the instruction at the one response that is not partial.
  // Neither a partial response nor the last response of a request whose lanes waited in lock
  // queues (`no_slot`) holds a request slot any more.
  std::uint64_t lanes = 0;
  bool partial = false;
  bool no_slot = false;
  unsigned unit_bytes = 0;     // kUnit: bytes moved
  std::uint64_t unit_tag = 0;  // kUnit: the unit's tag, echoed in the response
};

// The memory side seen from an SM. Contract: try_send() may refuse (bounded queue; retry next
// cycle). The memory side performs the access's functional effect at its serialization point
// and later hands the request back through the response queue of its SM.
class IMemPort {
 public:
  virtual ~IMemPort() = default;
  virtual bool try_send(const MemRequest& r, Cycle now) = 0;
  // The parallel SM phase (issue 20). While deferred, try_send decides from the sending SM's
  // own state alone and keeps back what every SM shares; commit() then applies the kept-back
  // sends in SM order, call order within an SM: the outcome of immediate sends in that order.
  virtual void set_deferred(bool on) { (void)on; }
  virtual void commit() {}
  // Pops one completed request for `sm` whose response is due by `now`.
  virtual bool pop_response(int sm, Cycle now, MemRequest& out) = 0;
  // False when no SM has a response waiting (the main loop then asks no SM; true: maybe).
  virtual bool any_response() const { return true; }
  // The next SM after `sm` that may have a response waiting (SMs in ascending order; every SM
  // by default; a value past the last SM: none). pop_response() says whether it has one.
  virtual int next_responder(int sm) const { return sm + 1; }
  virtual void tick(Cycle now) = 0;
  virtual bool busy() const = 0;  // requests in flight
  // After try_send refused `sm` at `now`: the earliest cycle a retry can succeed, or ~0 when
  // only a response can make room (the SM may sleep until one arrives).
  virtual Cycle retry_at(int sm, Cycle now) const {
    (void)sm, (void)now;
    return ~Cycle{0};
  }
  // Earliest cycle at which something will happen (for skipping idle cycles); kNever if none.
  virtual Cycle next_event() const = 0;
};

using simtsync::kNever;

}  // namespace simtsync::mem
