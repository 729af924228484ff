// The CTA dispatcher: which SM the next pending CTA of a launch goes to.
//
// Contract: whenever CTAs are pending and SMs may have room (at launch and after CTAs
// complete), the GPU calls pick() with a predicate telling which SMs can accept the CTA now;
// the dispatcher returns one of them (or -1 to wait) and hears placed() once the CTA started.
// CTAs are dispatched in launch order. Implementations: impl/, registered in
// cta_dispatchers.def, chosen by gpu.cta_dispatch.impl.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "config/plugin.h"

namespace simtsync::gpu {

inline constexpr const char* kDispatchPrefix = "gpu.cta_dispatch";

class ICtaDispatcher {
 public:
  virtual ~ICtaDispatcher() = default;
  virtual int pick(unsigned num_sms, const std::function<bool(unsigned)>& fits) = 0;
  virtual void placed(unsigned sm) = 0;
};

struct DispatchParams {
  std::string impl = "round_robin";
  config::PluginParams params;
};

DispatchParams dispatch_params(const config::Config& c);
std::unique_ptr<ICtaDispatcher> make_cta_dispatcher(const DispatchParams& p);
const std::vector<config::PluginInfo>& cta_dispatchers();

}  // namespace simtsync::gpu
