#include "cudart/fatbin.h"

#include <fmt/format.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "common/error.h"

namespace simtsync::cudart {
namespace {

constexpr std::uint32_t kWrapperMagic = 0x466243b1;
constexpr std::uint32_t kFatbinMagic = 0xba55ed50;
constexpr std::uint32_t kZstdMagic = 0xfd2fb528;
constexpr std::uint64_t kMaxEntryBytes = std::uint64_t{1} << 32;  // sanity bound on sizes

template <typename T>
T load(const std::uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

std::string decompress(const std::uint8_t* p, std::uint64_t n, std::uint64_t expected,
                       unsigned arch) {
  if (n >= 4 && load<std::uint32_t>(p) == kZstdMagic) {
    unsigned long long size = ZSTD_getFrameContentSize(p, n);
    if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN) size = expected;
    if (size == 0 || size > kMaxEntryBytes)
      throw unsupported_error(
          fmt::format("fat binary: compressed entry for sm_{} has no usable size", arch));
    std::string out(size, '\0');
    const std::size_t got = ZSTD_decompress(out.data(), out.size(), p, n);
    if (ZSTD_isError(got))
      throw unsupported_error(fmt::format("fat binary: entry for sm_{} does not decompress: {}",
                                          arch, ZSTD_getErrorName(got)));
    out.resize(got);
    return out;
  }
  throw unsupported_error(fmt::format(
      "fat binary: entry for sm_{} is compressed with a scheme simtsync does not read (only "
      "zstd); rebuild with nvcc --no-compress",
      arch));
}

}  // namespace

std::vector<FatbinEntry> parse_fatbin(const void* data) {
  const auto* base = static_cast<const std::uint8_t*>(data);
  if (!base) throw unsupported_error("fat binary: null data pointer");
  if (load<std::uint32_t>(base) != kFatbinMagic)
    throw unsupported_error(fmt::format("fat binary: bad magic {:#x} (expected {:#x})",
                                        load<std::uint32_t>(base), kFatbinMagic));
  const std::uint16_t header = load<std::uint16_t>(base + 6);
  const std::uint64_t total = load<std::uint64_t>(base + 8);
  if (header < 16 || total > kMaxEntryBytes)
    throw unsupported_error("fat binary: implausible header");
  std::vector<FatbinEntry> out;
  std::uint64_t off = header;
  while (off + 16 <= header + total) {
    const std::uint8_t* e = base + off;
    const std::uint16_t kind = load<std::uint16_t>(e);
    const std::uint32_t ehdr = load<std::uint32_t>(e + 4);
    const std::uint64_t payload = load<std::uint64_t>(e + 8);
    if (ehdr < 16 || payload > kMaxEntryBytes || off + ehdr + payload > header + total)
      throw unsupported_error(fmt::format("fat binary: truncated entry at offset {}", off));
    FatbinEntry fe;
    fe.kind = kind == 1   ? FatbinEntry::Kind::kPtx
              : kind == 2 ? FatbinEntry::Kind::kElf
                          : FatbinEntry::Kind::kOther;
    std::uint64_t stored = payload;
    std::uint64_t uncompressed = 0;
    if (ehdr >= 32) {
      fe.arch = load<std::uint32_t>(e + 28);
      const std::uint32_t csize = load<std::uint32_t>(e + 16);
      if (csize != 0 && csize <= payload) stored = csize;
    }
    if (ehdr >= 64) uncompressed = load<std::uint64_t>(e + 56);
    const std::uint8_t* p = e + ehdr;
    const bool zstd = stored >= 4 && load<std::uint32_t>(p) == kZstdMagic;
    const std::uint64_t flags = ehdr >= 48 ? load<std::uint64_t>(e + 40) : 0;
    // Flag bits seen: 0x2000 (nvcc's older compression), 0x8000 (zstd).
    if (zstd || (flags & 0x2000) != 0) {
      fe.compressed = true;
      if (fe.kind == FatbinEntry::Kind::kPtx)
        fe.payload = decompress(p, stored, uncompressed, fe.arch);
    } else {
      fe.payload.assign(reinterpret_cast<const char*>(p), payload);
    }
    if (fe.kind == FatbinEntry::Kind::kPtx) {
      // PTX text is NUL-padded to the entry's size.
      const auto nul = fe.payload.find('\0');
      if (nul != std::string::npos) fe.payload.resize(nul);
    }
    out.push_back(std::move(fe));
    off += ehdr + payload;
  }
  return out;
}

std::vector<FatbinEntry> parse_fatbin_wrapper(const void* wrapper) {
  const auto* w = static_cast<const std::uint8_t*>(wrapper);
  if (!w) throw unsupported_error("fat binary: null wrapper");
  if (load<std::uint32_t>(w) != kWrapperMagic)
    throw unsupported_error(fmt::format("fat binary wrapper: bad magic {:#x} (expected {:#x})",
                                        load<std::uint32_t>(w), kWrapperMagic));
  const std::uint32_t version = load<std::uint32_t>(w + 4);
  if (version != 1)
    throw unsupported_error(fmt::format(
        "fat binary wrapper version {}: relocatable device code (nvcc -rdc=true) is not "
        "supported; build without -rdc",
        version));
  return parse_fatbin(load<const void*>(w + 8));
}

std::vector<const FatbinEntry*> ptx_entries(const std::vector<FatbinEntry>& entries) {
  std::vector<const FatbinEntry*> v;
  for (const auto& e : entries)
    if (e.kind == FatbinEntry::Kind::kPtx) v.push_back(&e);
  std::stable_sort(v.begin(), v.end(),
                   [](const FatbinEntry* a, const FatbinEntry* b) { return a->arch > b->arch; });
  return v;
}

std::string no_ptx_message(const std::vector<FatbinEntry>& entries) {
  std::string archs;
  unsigned newest = 0;
  for (const auto& e : entries) {
    if (e.kind != FatbinEntry::Kind::kElf) continue;
    archs += fmt::format("{}sm_{}", archs.empty() ? "" : ", ", e.arch);
    newest = std::max(newest, e.arch);
  }
  if (newest == 0) newest = 75;
  return fmt::format(
      "the program's fat binary holds no PTX (SASS only: {}); simtsync simulates PTX: rebuild "
      "with -gencode arch=compute_{},code=compute_{} added (or -arch=sm_{}, which embeds PTX)",
      archs.empty() ? "none" : archs, newest, newest, newest);
}

}  // namespace simtsync::cudart
