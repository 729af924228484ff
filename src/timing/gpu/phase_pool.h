// Host threads for the parallel SM phase (issue 20): a fixed set of workers that run one
// function over the indices [0, n) together with the calling thread, and return when all are
// done. Which thread runs which index is left to chance; the SM phase is built so that the
// outcome cannot depend on it (docs/parallel-sm-phase.md). Workers spin briefly between
// phases (a phase follows the last within microseconds) and then sleep.
#pragma once

#include <atomic>
#include <cstddef>
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
  // Calls f(k) once for every k in [0, n), spread over the workers and the caller. f must not
  // throw (the SM phase catches per SM).
  void run(std::size_t n, const std::function<void(std::size_t)>& f);
  // Calls f(part) once for every part in [0, threads()): part 0 on the caller, part w on worker
  // w, the same thread for the same part every time (an SM ticked by one thread stays in that
  // core's caches).
  void run_parts(const std::function<void(unsigned)>& f);

 private:
  void work(unsigned part);
  void drain(unsigned part);
  void start(std::size_t n, const std::function<void(std::size_t)>* f,
             const std::function<void(unsigned)>* parts);
  void finish();

  std::vector<std::thread> workers_;
  std::atomic<int> generation_{0};  // bumped to start a phase (an int: waits are futexes)
  std::atomic<unsigned> busy_{0};   // workers still in the current phase
  std::atomic<std::size_t> next_{0};
  std::size_t n_ = 0;
  const std::function<void(std::size_t)>* f_ = nullptr;
  const std::function<void(unsigned)>* parts_ = nullptr;  // run_parts: instead of f_
  bool quit_ = false;
};

}  // namespace simtsync::gpu
