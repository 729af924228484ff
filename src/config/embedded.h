// The YAML text of every configs/*.yaml, embedded at build time by embed_configs.cmake so the
// simtsync binary finds its shipped GPUs from any directory.
#pragma once

#include <map>
#include <string>
#include <string_view>

namespace simtsync::config {

// Config name ("gtx480") -> YAML text.
const std::map<std::string, std::string_view>& embedded_configs();

}  // namespace simtsync::config
