// Round-robin CTA dispatch (GPGPU-Sim's default): each pending CTA goes to the first SM with
// room, searching from the SM after the one that took the previous CTA.
#include "timing/gpu/cta_dispatcher.h"

namespace simtsync::gpu {
namespace {

class RoundRobin final : public ICtaDispatcher {
 public:
  int pick(unsigned num_sms, const std::function<bool(unsigned)>& fits) override {
    for (unsigned k = 0; k < num_sms; ++k) {
      const unsigned s = (next_ + k) % num_sms;
      if (fits(s)) return static_cast<int>(s);
    }
    return -1;
  }
  void placed(unsigned sm) override { next_ = sm + 1; }

 private:
  unsigned next_ = 0;
};

}  // namespace

std::unique_ptr<ICtaDispatcher> make_round_robin(const config::PluginParams&) {
  return std::make_unique<RoundRobin>();
}
void declare_round_robin(config::PluginDecl&) {}

}  // namespace simtsync::gpu
