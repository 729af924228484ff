# Issue 23: diagnoses users can trust. Included from tests/e2e/CMakeLists.txt, which defines
# simtsync_e2e() and ${exe}.

# The watchdog tells slow progress from none. One bucket makes every insert of the test-size
# hash table contend for one lock: no CTA completes for a long stretch, but every hand-off
# writes a new key, so a window that the first CTA completion exceeds (the old rule's verdict:
# "no CTA completed") no longer stops the run.
simtsync_e2e(watchdog_slow_progress 0 "VALIDATED" ${exe} run ht --size test
             --set workload.buckets=1 --set watchdog.no_completion_window=100000)
# ... while a lock holder that never issues again (7-thread warps, one lane per cycle, strict
# GTO, and the fixed scheduler priority: scheduler 0's spinning warps take every LD/ST-queue
# entry) is a suspected livelock by starvation, well before the window. (With the default
# rotating priority the same run validates in 8,603 cycles.) The scenario needs the front end and
# latencies it was built on: one instruction decoded per fetch, 4-cycle ALU, atomics without the
# L2 access latency, resident kernel parameters, I-cache lines usable from their miss on (with
# gtx480's current ones the holder gets a slot and the run validates).
simtsync_e2e(watchdog_starved_holder 3 "stopped: suspected livelock \\(starvation\\).*watchdog.starvation_window"
             ${exe} run ht --size test --set sm.fetch_decode=1 --set sm.latency.int=4
             --set sm.latency.fp=4 --set sm.latency.imul=5 --set mem.atomic.l2_access=false
             --set mem.const_cache.kernel_params=resident --set sm.icache.wait_for_fill=false
             --set gpu.warp_size=7 --set sm.max_threads=336
             --set sm.simd_width=1 --set sm.warp_scheduler.impl=gto
             --set sm.warp_scheduler.rotation_period=0 --set sm.scheduler_priority=fixed)
# A proven livelock still says so.
simtsync_e2e(watchdog_proven_livelock 3 "cannot finish: livelock" ${exe} run naive_lock --size test)

# Caches hold size = sets x ways x line; anything else names the key before cycle 0.
simtsync_e2e(l1_missized 2 "mem.l1.size_bytes.*mem.l1.assoc = 1024" ${exe} run ht --size test
             --set mem.l1.assoc=1024)
simtsync_e2e(l2_missized 2 "mem.l2.size_bytes.*mem.l2.assoc = 7" ${exe} run ht --size test
             --set mem.l2.assoc=7)
simtsync_e2e(const_cache_missized 2 "mem.const_cache.size_bytes" ${exe} run ht --size test
             --set mem.const_cache.size_bytes=1000)

# Periodic progress lines on stderr when it is not a terminal (here: every millisecond of a
# run long enough for the clock to be read: every 65536 iterations of the main loop).
simtsync_e2e(progress_line 0 "\\[simtsync\\] ht_insert: cycle [0-9]+, [0-9]+ KIPS, CTAs [0-9]+/[0-9]+ done"
             ${exe} run ht --size test --set workload.buckets=1 --set watchdog.progress_seconds=0.001)

# Output paths and PTX input (check_diagnoses.py).
add_test(NAME e2e.diagnoses_outputs_and_ptx COMMAND python3
         ${CMAKE_CURRENT_SOURCE_DIR}/check_diagnoses.py ${exe}
         ${CMAKE_CURRENT_BINARY_DIR}/diagnoses_out ${CMAKE_SOURCE_DIR})

# Seed 001 sec. 4.4: the lock-bit deadlocks are reported with their cause (mb_alias).
simtsync_e2e(lock_bit_alias_deadlock 3
             "alias deadlock: 0\\.0 lane 0 holds lock bit 0 \\(taken for shared \\[0x0\\]\\) and waits for shared \\[0x1000\\], which maps to the same bit"
             ${exe} run mb_alias --size test)
simtsync_e2e(lock_bit_alias_deadlock_functional 3
             "alias deadlock: 0\\.0 lane 0 holds lock bit 0.*shared \\[0x1000\\]"
             ${exe} run mb_alias --size test --mode functional)
simtsync_e2e(lock_bit_simd_deadlock 3
             "SIMD deadlock: 0\\.1 lane 30 waits for lock bit 63 \\(shared \\[0xfc\\]\\) held by 0\\.1 lane 31 of the same warp"
             ${exe} run mb_alias --size test --set workload.stride=1)
simtsync_e2e(lock_bit_no_alias 0 "VALIDATED: 64 threads took both lock bits"
             ${exe} run mb_alias --size test --set workload.stride=512)
