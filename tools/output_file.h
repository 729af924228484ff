// Output files of the simtsync command (--json, --csv, transform -o): checked before any work
// starts, and every write checked through the final close, so that a full disk or an
// unwritable path is exit 2 with the path instead of a silently missing or truncated file.
#pragma once

#include <functional>
#include <string>

namespace simtsync::tools {

// Throws a usage error (exit 2) naming `path` when it cannot be written: its directory is
// missing or not writable, or it exists and is not a writable file. Creates nothing.
void check_output_path(const std::string& path, const char* what);

// Writes `text` to `path` (replacing it); any failure of open, write, flush or close is a
// usage error naming the path and the system's reason.
void write_output_file(const std::string& path, const std::string& text, const char* what);

// Flushes standard output; a failed write to it (a closed pipe, /dev/full) is a usage error.
void flush_stdout();

// A message for the terminal with every run of more than 200 characters without a space or
// quote (a 10 MB --set value, echoed by the error that names it) cut to its first 80 characters
// and "...(N more characters)".
std::string shorten_long_values(const std::string& message);

// Runs one subcommand (or the whole command line) and returns its exit code, turning what it
// throws into a message on standard error and the documented exit code: an Error its own code; a
// failed write to standard output 2; std::bad_alloc (a config, launch or workload estimated
// over sim.host_memory_budget_mb, or out of host memory) 2 with what ran out.
int run_guarded(const std::function<int()>& body);

}  // namespace simtsync::tools
