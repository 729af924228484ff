// `simtsync sweep` and `simtsync report`: the experiment engine is Python (tools/experiments/);
// this command only finds it and replaces itself with python3 running it.
#pragma once

#include <string_view>

namespace simtsync::tools {

bool is_experiments_command(std::string_view name);  // "sweep" or "report"

// argv[1] is the subcommand. Returns only on failure (exit code 2, message on stderr). The script
// gets SIMTSYNC_BIN (this binary, so every point runs the same simulator) and
// SIMTSYNC_SOURCE_DIR (where experiments/NAME.yaml are found) in its environment.
int exec_experiments(int argc, char** argv);

}  // namespace simtsync::tools
