// `simtsync exec`: runs an unmodified CUDA program (built with nvcc -cudart shared) on the
// simulator by putting libsimtsync_cudart.so, under the name libcudart.so.13, first on the
// loader path (docs/cuda-runtime.md).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace simtsync::tools {

struct ExecOptions {
  std::string config;  // empty: SIMTSYNC_CONFIG / simtsync.yaml / gtx480
  std::string mode;
  std::vector<std::string> sets;  // KEY=VALUE
  unsigned threads = 0;           // 0: not given
  std::string json_path;
  bool quiet = false;
  std::string trace_path, trace_window;  // --trace, --trace-window (SIMTSYNC_TRACE*)
  std::vector<std::string> command;  // PROGRAM ARGS...
};

// Exit code: the program's own, unless the simulator stopped a kernel (3: watchdog, 4:
// unsupported instruction, 5: kernel fault), which wins however the program ended (return,
// exit, _exit, abort, a signal): exec learns it from the library through a file it creates
// fresh for the run (SIMTSYNC_OUTCOME), never from the statistics JSON. 2 when an output path
// cannot be written (checked before the program starts; a failed write of the statistics at
// exit is 2 too), the program cannot be started or the library is missing; 128+N when the
// program died of signal N.
int cmd_exec(const ExecOptions& o);

// A program's dynamic linkage, from its ELF file: the DT_NEEDED libraries and whether it holds
// CUDA kernels (a .nv_fatbin section). nullopt for a file that is not a readable 64-bit ELF.
struct ElfLinkage {
  bool dynamic = false;
  bool has_fatbin = false;
  std::vector<std::string> needed;
};
std::optional<ElfLinkage> elf_linkage(const std::string& path);

// The folder holding libcudart.so.13 (the simulator's runtime): SIMTSYNC_CUDART_DIR, else
// ../lib beside this executable, else the build tree's. Empty when none has it.
std::string cudart_dir();

}  // namespace simtsync::tools
