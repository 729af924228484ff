// Errors that end a simtsync command, each carrying the documented process exit code.
#pragma once

#include <stdexcept>
#include <string>

namespace simtsync {

// Process exit codes (MISSION.md "Interfaces that stay stable"; 5 is documented in README).
enum class ExitCode : int {
  kOk = 0,
  kValidationFailed = 1,
  kUsage = 2,         // bad command line or configuration
  kDeadlock = 3,      // deadlock or livelock detected by the watchdog
  kUnsupported = 4,   // unsupported or malformed input (PTX, .cu)
  kKernelFault = 5,   // the kernel itself faulted: out-of-bounds access, trap
};

class Error : public std::runtime_error {
 public:
  Error(ExitCode code, const std::string& what) : std::runtime_error(what), code_(code) {}
  ExitCode code() const { return code_; }

 private:
  ExitCode code_;
};

inline Error usage_error(const std::string& what) { return Error(ExitCode::kUsage, what); }
inline Error unsupported_error(const std::string& what) {
  return Error(ExitCode::kUnsupported, what);
}

}  // namespace simtsync
