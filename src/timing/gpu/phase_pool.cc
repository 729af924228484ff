#include "timing/gpu/phase_pool.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace simtsync::gpu {
namespace {

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Spins before sleeping: about 10-50 microseconds, longer than the serial part of a cycle on
// the large configs, shorter than a scheduler time slice.
constexpr int kSpins = 4000;

}  // namespace

PhasePool::PhasePool(unsigned threads) {
  for (unsigned i = 1; i < threads; ++i) workers_.emplace_back([this, i] { work(i); });
}

PhasePool::~PhasePool() {
  quit_ = true;
  busy_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);
  generation_.notify_all();
  for (auto& t : workers_) t.join();
}

void PhasePool::run_parts(const std::function<void(unsigned)>& f) {
  if (workers_.empty()) {
    f(0);
    return;
  }
  f_ = &f;
  busy_.store(static_cast<unsigned>(workers_.size()), std::memory_order_relaxed);
  generation_.fetch_add(1, std::memory_order_release);  // publishes f_
  generation_.notify_all();
  f(0);
  // Every worker is done before the next phase may replace f_. (Yielding after a while: with
  // more threads than cores a worker may need this core.)
  for (int i = 0; busy_.load(std::memory_order_acquire) != 0; ++i) {
    if (i < kSpins)
      cpu_relax();
    else
      std::this_thread::yield();
  }
}

void PhasePool::work(unsigned part) {
  // The generation when the pool was built (not loaded here: a phase may have started before
  // this thread runs).
  int seen = 0;
  for (;;) {
    int g = seen;
    for (int i = 0; i < kSpins && (g = generation_.load(std::memory_order_acquire)) == seen; ++i)
      cpu_relax();
    while (g == seen) {
      generation_.wait(seen, std::memory_order_acquire);
      g = generation_.load(std::memory_order_acquire);
    }
    seen = g;
    if (quit_) return;
    (*f_)(part);
    busy_.fetch_sub(1, std::memory_order_acq_rel);
  }
}

}  // namespace simtsync::gpu
