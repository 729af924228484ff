#include "func/global_memory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <mutex>

#include "common/check.h"
#include "common/error.h"

namespace simtsync::func {

void GlobalMemory::map(Addr addr, std::uint64_t size, std::string what) {
  Addr end = 0;
  if (!range_end(addr, size, end))
    throw usage_error(fmt::format("{} of {} bytes at {:#x} runs past the end of the address space",
                                  what, size, addr));
  ranges_[addr] = Range{end, std::move(what)};
  clear_range_cache();
}

void GlobalMemory::unmap(Addr addr) {
  if (auto it = ranges_.find(addr); it != ranges_.end()) freed_[addr] = it->second;
  ranges_.erase(addr);
  clear_range_cache();
}

Addr GlobalMemory::allocate(std::uint64_t size, std::string what) {
  Addr a = next_alloc_;
  Addr end = 0;
  if (!range_end(a, size, end) || !range_end(end, 256 + 255, end))
    throw usage_error(fmt::format("{} of {} bytes does not fit in the address space", what, size));
  map(a, size, std::move(what));
  next_alloc_ = end & ~Addr{255};
  return a;
}

bool GlobalMemory::range_of(Addr addr, std::uint64_t size, CachedRange& out) const {
  auto it = ranges_.upper_bound(addr);
  if (it == ranges_.begin()) return false;
  --it;
  if (!range_within(addr, size, it->first, it->second.end)) return false;
  out = {it->first, it->second.end};
  return true;
}

bool GlobalMemory::valid_slow(Addr addr, std::uint64_t size) const {
  if (!range_of(addr, size, range_cache_[range_next_ % 4])) return false;
  ++range_next_;
  return true;
}

bool GlobalMemory::Reader::valid_slow(Addr addr, std::uint64_t size) {
  if (!m_.range_of(addr, size, ranges_[next_ % 4])) return false;
  ++next_;
  return true;
}

void GlobalMemory::Reader::read_page_slow(Addr addr, void* dst, unsigned n) {
  const Addr p = addr >> kPageBits;
  auto it = m_.pages_.find(p);
  if (it == m_.pages_.end()) {  // never written: zeros (not cached, a write may create it)
    std::memset(dst, 0, n);
    return;
  }
  TlbEntry& e = tlb_[p & (kTlbSize - 1)];
  e.page = p;
  e.ptr = it->second.get();
  std::memcpy(dst, e.ptr + (addr & (kPageSize - 1)), n);
}

bool GlobalMemory::View::valid_slow(Addr addr, std::uint64_t size) {
  if (!m_.range_of(addr, size, ranges_[next_ % 4])) return false;
  ++next_;
  return true;
}

std::uint8_t* GlobalMemory::View::page(Addr page, bool make) {
  TlbEntry& e = tlb_[page & (kTlbSize - 1)];
  if (e.page == page) return e.ptr;
  {
    std::shared_lock lock(pages_);
    auto it = m_.pages_.find(page);
    if (it != m_.pages_.end()) {
      e.page = page;
      e.ptr = it->second.get();
      return e.ptr;
    }
  }
  if (!make) return nullptr;  // never written: reads as zeros (not cached: a write may make it)
  std::unique_lock lock(pages_);
  auto& slot = m_.pages_[page];
  if (!slot) {
    slot = std::make_unique<std::uint8_t[]>(kPageSize);
    std::memset(slot.get(), 0, kPageSize);
  }
  e.page = page;
  e.ptr = slot.get();
  return e.ptr;
}

void GlobalMemory::View::read_small(Addr addr, void* dst, unsigned n) {
  auto* d = static_cast<std::uint8_t*>(dst);
  while (n > 0) {
    const auto off = static_cast<unsigned>(addr & (kPageSize - 1));
    const unsigned chunk = std::min<unsigned>(n, static_cast<unsigned>(kPageSize) - off);
    if (const std::uint8_t* p = page(addr >> kPageBits, false))
      std::memcpy(d, p + off, chunk);
    else
      std::memset(d, 0, chunk);
    addr += chunk;
    d += chunk;
    n -= chunk;
  }
}

bool GlobalMemory::View::store_element(Addr addr, std::uint64_t v, unsigned n) {
  n = n < 8 ? n : 8;
  std::uint64_t old = 0;
  read_small(addr, &old, n);
  const std::uint64_t keep = n == 8 ? ~std::uint64_t{0} : (std::uint64_t{1} << (8 * n)) - 1;
  if (old == (v & keep)) return false;
  auto* src = reinterpret_cast<const std::uint8_t*>(&v);
  while (n > 0) {
    const auto off = static_cast<unsigned>(addr & (kPageSize - 1));
    const unsigned chunk = std::min<unsigned>(n, static_cast<unsigned>(kPageSize) - off);
    std::memcpy(page(addr >> kPageBits, true) + off, src, chunk);
    addr += chunk;
    src += chunk;
    n -= chunk;
  }
  return true;
}

std::string GlobalMemory::View::describe(Addr addr) {
  std::unique_lock lock(pages_);
  return m_.describe(addr);
}

std::string GlobalMemory::describe(Addr addr) const {
  if (auto f = freed_.upper_bound(addr); f != freed_.begin()) {
    --f;
    if (addr < f->second.end && !valid(addr, 1))
      return fmt::format("inside a freed allocation of {} bytes at {:#x} ({}, +{:#x}), freed by "
                         "cudaFree: a use after free",
                         f->second.end - f->first, f->first, f->second.what, addr - f->first);
  }
  auto it = ranges_.upper_bound(addr);
  if (it == ranges_.begin()) return "below every mapped buffer";
  --it;
  if (addr < it->second.end)
    return fmt::format("inside {} (+{:#x})", it->second.what, addr - it->first);
  return fmt::format("{} bytes past the end of {} [{:#x}, {:#x})", addr - it->second.end,
                     it->second.what, it->first, it->second.end);
}

void GlobalMemory::fill_tlb(TlbEntry& e, Addr page) {
  auto& slot = pages_[page];
  if (!slot) {
    slot = std::make_unique<std::uint8_t[]>(kPageSize);
    std::memset(slot.get(), 0, kPageSize);
  }
  e.page = page;
  e.ptr = slot.get();
}

void GlobalMemory::read(Addr addr, void* dst, std::uint64_t n) const {
  auto* d = static_cast<std::uint8_t*>(dst);
  while (n > 0) {
    std::uint64_t chunk = std::min<std::uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(d, page_ptr_const(addr), chunk);
    d += chunk;
    addr += chunk;
    n -= chunk;
  }
}

void GlobalMemory::write(Addr addr, const void* src, std::uint64_t n) {
  const auto* s = static_cast<const std::uint8_t*>(src);
  while (n > 0) {
    std::uint64_t chunk = std::min<std::uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    std::memcpy(page_ptr(addr), s, chunk);
    s += chunk;
    addr += chunk;
    n -= chunk;
  }
}

void GlobalMemory::fill(Addr addr, std::uint8_t value, std::uint64_t n) {
  while (n > 0) {
    const std::uint64_t chunk = std::min<std::uint64_t>(n, kPageSize - (addr & (kPageSize - 1)));
    if (value != 0 || pages_.count(addr >> kPageBits)) std::memset(page_ptr(addr), value, chunk);
    addr += chunk;
    n -= chunk;
  }
}

std::uint64_t GlobalMemory::content_hash() const {
  // Per page a word-by-word mix, combined by addition so that the unordered page map's
  // iteration order does not matter; all-zero pages add nothing (as if never touched).
  std::uint64_t total = 0;
  for (const auto& [page, bytes] : pages_) {
    std::uint64_t h = 0, any = 0;
    for (Addr i = 0; i < kPageSize; i += 8) {
      std::uint64_t v;
      std::memcpy(&v, bytes.get() + i, 8);
      any |= v;
      h = (h ^ v) * 0x100000001b3ULL + (h >> 29);
    }
    if (any) total += (h ^ (page * 0x9e3779b97f4a7c15ULL)) * 0xff51afd7ed558ccdULL;
  }
  return total;
}

}  // namespace simtsync::func
