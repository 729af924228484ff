// The viewer's assets, embedded at build time (tools/view/embed_view.cmake).
#pragma once

#include <string>

namespace simtsync::tools {

std::string d3_js();       // d3 3.5 from Debian's libjs-d3
std::string viewer_js();   // tools/view/viewer.js
std::string viewer_css();  // tools/view/viewer.css

}  // namespace simtsync::tools
