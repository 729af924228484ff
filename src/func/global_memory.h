// The device's global memory: a sparse 64-bit address space of 4 KiB pages, plus the table of
// mapped ranges (allocations and module variables) that decides what is a valid access.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "common/range.h"
#include "common/types.h"

namespace simtsync::func {

class GlobalMemory {
  struct TlbEntry {
    Addr page = ~Addr{0};
    std::uint8_t* ptr = nullptr;
  };
  struct CachedRange {
    Addr lo = 1, hi = 0;
  };
  static constexpr unsigned kTlbSize = 64;
  static bool cached(const CachedRange (&c)[4], Addr addr, std::uint64_t size) {
    for (const auto& r : c)
      if (range_within(addr, size, r.lo, r.hi)) return true;
    return false;
  }
  // The little-endian value of the n (1, 2, 4 or 8) bytes at `p`, zero-extended: a copy of a
  // constant size for each, which the compiler inlines (a call to memcpy of n bytes it cannot).
  static std::uint64_t load_element(const std::uint8_t* p, unsigned n) {
    switch (n) {
      case 1:
        return *p;
      case 2: {
        std::uint16_t v;
        std::memcpy(&v, p, 2);
        return v;
      }
      case 4: {
        std::uint32_t v;
        std::memcpy(&v, p, 4);
        return v;
      }
      case 8: {
        std::uint64_t v;
        std::memcpy(&v, p, 8);
        return v;
      }
      default: {
        std::uint64_t v = 0;
        std::memcpy(&v, p, n < 8 ? n : 8);
        return v;
      }
    }
  }

 public:
  static constexpr unsigned kPageBits = 12;
  static constexpr Addr kPageSize = Addr{1} << kPageBits;
  static constexpr Addr kHeapBase = 0x0000'0007'0000'0000ULL;  // first cudaMalloc address

  // Maps [addr, addr+size) as valid (zero filled). `what` names it in fault reports. A range
  // that would wrap past 2^64 is a usage error (nothing mapped).
  void map(Addr addr, std::uint64_t size, std::string what);
  void unmap(Addr addr);
  // Bump allocator over the heap; allocations are 256-byte aligned with a gap between them so
  // that running off the end of one buffer is reported instead of corrupting its neighbour.
  Addr allocate(std::uint64_t size, std::string what);
  // True when [addr, addr+size) lies inside one mapped range (a range that would wrap past
  // 2^64 never does).
  bool valid(Addr addr, std::uint64_t size) const {
    return cached(range_cache_, addr, size) || valid_slow(addr, size);
  }
  // Name of the mapped range nearest to addr (for fault messages).
  std::string describe(Addr addr) const;
  // A hash of every byte written so far (equal contents give equal hashes, whatever the order
  // of the writes). Reads all of memory: for the timing watchdog's rare samples, not hot paths.
  std::uint64_t content_hash() const;
  // Pages written so far (what content_hash() reads).
  std::size_t page_count() const { return pages_.size(); }

  void read(Addr addr, void* dst, std::uint64_t n) const;
  void write(Addr addr, const void* src, std::uint64_t n);
  // Sets n bytes to `value` (cudaMemset). Zeros leave pages never written alone (they read as
  // zeros already), so clearing a large fresh buffer costs no host memory.
  void fill(Addr addr, std::uint8_t value, std::uint64_t n);
  // Fast paths for one naturally sized element (n <= 16) that does not cross a page.
  void read_small(Addr addr, void* dst, unsigned n) const {
    if ((addr & (kPageSize - 1)) + n <= kPageSize) {
      std::memcpy(dst, page_ptr_const(addr), n);
    } else {
      read(addr, dst, n);
    }
  }
  // Writes the n low bytes of `v` at `addr` (n <= 8: an element wider than the word is written
  // as its first 8 bytes); false, writing nothing, when they are there already (perform's
  // "memory changed").
  bool store_element(Addr addr, std::uint64_t v, unsigned n) {
    n = n < 8 ? n : 8;
    if ((addr & (kPageSize - 1)) + n > kPageSize) {
      std::uint64_t old = 0;
      read_small(addr, &old, n);
      if (std::memcmp(&old, &v, n) == 0) return false;
      write_small(addr, &v, n);
      return true;
    }
    std::uint8_t* p = page_ptr(addr);
    const std::uint64_t keep = n == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
    if (load_element(p, n) == (v & keep)) return false;
    std::memcpy(p, &v, n);
    return true;
  }
  void write_small(Addr addr, const void* src, unsigned n) {
    if ((addr & (kPageSize - 1)) + n <= kPageSize) {
      std::memcpy(page_ptr(addr), src, n);
    } else {
      write(addr, src, n);
    }
  }
  // What the views below share: a TLB and a range cache of their own, the range check and the
  // one-element read through them; each view says how it misses (valid_slow, read_small).
  template <class Self>
  class CachedView {
   public:
    bool valid(Addr addr, std::uint64_t size) {
      return cached(ranges_, addr, size) || self().valid_slow(addr, size);
    }
    // One element of n <= 8 bytes (read_small into a zeroed word, faster).
    std::uint64_t read_element(Addr addr, unsigned n) {
      const TlbEntry& e = tlb_[(addr >> kPageBits) & (kTlbSize - 1)];
      if (e.page == addr >> kPageBits && (addr & (kPageSize - 1)) + n <= kPageSize)
        return load_element(e.ptr + (addr & (kPageSize - 1)), n);
      std::uint64_t v = 0;
      self().read_small(addr, &v, n);
      return v;
    }

   protected:
    TlbEntry tlb_[kTlbSize];
    CachedRange ranges_[4];
    unsigned next_ = 0;

   private:
    Self& self() { return static_cast<Self&>(*this); }
  };

  // A read-only view with its own caches, for readers that run concurrently while nothing
  // writes (the SMs of a parallel SM phase read kernel parameters): it never allocates a page
  // (a page never written reads as zeros) and keeps its TLB and range cache to itself.
  class Reader : public CachedView<Reader> {
    friend class CachedView<Reader>;

   public:
    explicit Reader(const GlobalMemory& m) : m_(m) {}
    void read_small(Addr addr, void* dst, unsigned n) {
      if ((addr & (kPageSize - 1)) + n <= kPageSize) {
        read_page(addr, dst, n);
      } else {
        const auto first = static_cast<unsigned>(kPageSize - (addr & (kPageSize - 1)));
        read_page(addr, dst, first);
        read_page(addr + first, static_cast<std::uint8_t*>(dst) + first, n - first);
      }
    }

   private:
    bool valid_slow(Addr addr, std::uint64_t size);
    void read_page(Addr addr, void* dst, unsigned n) {
      const TlbEntry& e = tlb_[(addr >> kPageBits) & (kTlbSize - 1)];
      if (e.page == addr >> kPageBits)
        std::memcpy(dst, e.ptr + (addr & (kPageSize - 1)), n);
      else
        read_page_slow(addr, dst, n);
    }
    void read_page_slow(Addr addr, void* dst, unsigned n);
    const GlobalMemory& m_;
  };

  // A view for one memory partition of a parallel memory phase (issue 48): several views read
  // and write at once, each only the bytes of its own partition's lines, so the bytes never
  // race; what they share is the page table, which `pages` guards (a view's TLB misses take it
  // shared; a write to a page never written makes the page, exclusive). Nothing else may touch
  // this memory while views run. Pages never move, so cached pointers stay good.
  class View : public CachedView<View> {
    friend class CachedView<View>;

   public:
    View(GlobalMemory& m, std::shared_mutex& pages) : m_(m), pages_(pages) {}
    void read_small(Addr addr, void* dst, unsigned n);
    // GlobalMemory::store_element through this view.
    bool store_element(Addr addr, std::uint64_t v, unsigned n);
    // GlobalMemory::describe, for a fault message (it caches a range: exclusive).
    std::string describe(Addr addr);

   private:
    bool valid_slow(Addr addr, std::uint64_t size);
    // Page `page`, made when `make`; null when it was never written and not `make`.
    std::uint8_t* page(Addr page, bool make);
    GlobalMemory& m_;
    std::shared_mutex& pages_;
  };

  template <typename T>
  T load(Addr a) const {
    T v;
    if ((a & (kPageSize - 1)) + sizeof(T) <= kPageSize) {
      std::memcpy(&v, page_ptr_const(a), sizeof(T));
    } else {
      read(a, &v, sizeof(T));
    }
    return v;
  }
  template <typename T>
  void store(Addr a, T v) {
    if ((a & (kPageSize - 1)) + sizeof(T) <= kPageSize) {
      std::memcpy(page_ptr(a), &v, sizeof(T));
    } else {
      write(a, &v, sizeof(T));
    }
  }

 private:
  struct Range {
    Addr end;
    std::string what;
  };
  bool valid_slow(Addr addr, std::uint64_t size) const;
  // The mapped range holding [addr, addr+size) into `out`; false when there is none.
  bool range_of(Addr addr, std::uint64_t size, CachedRange& out) const;
  std::uint8_t* page_ptr(Addr a) {
    const Addr p = a >> kPageBits;
    TlbEntry& e = tlb_[p & (kTlbSize - 1)];
    if (e.page != p) fill_tlb(e, p);
    return e.ptr + (a & (kPageSize - 1));
  }
  const std::uint8_t* page_ptr_const(Addr a) const {
    return const_cast<GlobalMemory*>(this)->page_ptr(a);
  }
  void fill_tlb(TlbEntry& e, Addr page);
  TlbEntry tlb_[kTlbSize];

  std::map<Addr, Range> ranges_;  // start -> range
  // Ranges unmapped (cudaFree): named in fault reports of a use after free. Addresses are
  // never reused (the heap only grows), so a freed range stays unambiguous.
  std::map<Addr, Range> freed_;
  // The last few ranges that validated an access (kernels touch a handful of buffers).
  mutable CachedRange range_cache_[4];
  mutable unsigned range_next_ = 0;
  void clear_range_cache() const {
    for (auto& r : range_cache_) r = CachedRange{};
  }
  mutable std::unordered_map<Addr, std::unique_ptr<std::uint8_t[]>> pages_;
  Addr next_alloc_ = kHeapBase;
  Addr next_module_ = 0x0000'0006'0000'0000ULL;

 public:
  // Module variables and kernel parameter buffers of every loaded module are laid out one
  // module after another from here (Program advances it), so modules never overlap.
  Addr& module_cursor() { return next_module_; }
};

}  // namespace simtsync::func
