// The device code an nvcc-built program hands the CUDA runtime at start-up: the fat binary
// behind `__cudaRegisterFatBinary`'s wrapper, split into its entries (PTX text or SASS ELF per
// architecture), with zstd-compressed payloads (nvcc 12.8+'s default) decompressed.
//
// Layout, as nvcc 13 writes it (checked against `nvcc -keep` output; little-endian):
//   wrapper  {u32 magic 0x466243b1, u32 version, u64 data pointer, u64 filename/fatbins}
//   header   {u32 magic 0xba55ed50, u16 version, u16 header size, u64 size of the entries}
//   entry    {u16 kind (1 PTX, 2 ELF), u16 version, u32 header size, u64 payload size,
//             u32 compressed size, u32 -, u32 PTX version, u32 sm arch, u64 -, u64 flags,
//             u64 -, u64 uncompressed size, ...} then the payload.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace simtsync::cudart {

struct FatbinEntry {
  enum class Kind { kPtx, kElf, kOther } kind = Kind::kOther;
  unsigned arch = 0;        // 75 for sm_75 / compute_75
  bool compressed = false;  // payload was compressed in the binary
  std::string payload;      // decompressed bytes (PTX text for kPtx)
};

// Parses the fat binary that `data` points to (its header). Throws simtsync::Error
// (kUnsupported) naming what is wrong: bad magic, truncated entry, unknown compression.
std::vector<FatbinEntry> parse_fatbin(const void* data);

// `__cudaRegisterFatBinary`'s argument: checks the wrapper and parses the fat binary it points
// to. A wrapper of the relocatable-device-code form (-rdc) is refused with a message.
std::vector<FatbinEntry> parse_fatbin_wrapper(const void* wrapper);

// The PTX entries, newest architecture first.
std::vector<const FatbinEntry*> ptx_entries(const std::vector<FatbinEntry>& entries);

// What to tell a user whose binary holds no PTX: the SASS architectures it does hold and the
// nvcc option that adds PTX.
std::string no_ptx_message(const std::vector<FatbinEntry>& entries);

}  // namespace simtsync::cudart
