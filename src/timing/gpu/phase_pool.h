// Host threads for the parallel SM phase (issue 20): a fixed set of workers that, together with
// the calling thread, run one function per phase, each on its own part, and return when all are
// done. Part k always runs on the same thread (part 0 on the caller), so the SMs a part ticks
// stay in one core's caches. The SM phase is built so that its outcome cannot depend on which
// thread ticks which SM (docs/parallel-sm-phase.md). Workers spin briefly between phases (a
// phase follows the last within microseconds) and then sleep.
#pragma once

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

namespace simtsync::gpu {

class PhasePool {
 public:
  // `threads` counts the caller: threads - 1 workers start.
  explicit PhasePool(unsigned threads);
  ~PhasePool();
  PhasePool(const PhasePool&) = delete;
  PhasePool& operator=(const PhasePool&) = delete;

  unsigned threads() const { return static_cast<unsigned>(workers_.size()) + 1; }
  // Calls f(part) once for every part in [0, threads()): part 0 on the caller, part w on worker
  // w. f must not throw (the SM phase catches per SM).
  void run_parts(const std::function<void(unsigned)>& f);

 private:
  void work(unsigned part);

  std::vector<std::thread> workers_;
  std::atomic<int> generation_{0};  // bumped to start a phase (an int: waits are futexes)
  std::atomic<unsigned> busy_{0};   // workers still in the current phase
  const std::function<void(unsigned)>* f_ = nullptr;
  bool quit_ = false;
};

}  // namespace simtsync::gpu
