# End-to-end checks of the tiny-lock workloads (seed 001 sec. 4-6): the lock-bit Needleman-Wunsch
# (nw_tiny), the producer-consumer channels (tl_chan: chan_*) and the cross-CTA lock-bit
# contention microbenchmark (mb_lockbit). Each validates at test size in the timing mode (the
# default) and in the functional mode; then one test per deadlock or contention behaviour.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(tiny_lock_workloads nw_tiny chan_atomic chan_shared chan_private chan_warp_bit
                        chan_intra_warp chan_intra_warp_atomic mb_lockbit)
foreach(w ${tiny_lock_workloads})
  simtsync_e2e(${w}_test 0 "VALIDATED" ${exe} run ${w} --size test)
  simtsync_e2e(${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional)
endforeach()
simtsync_e2e(list_tiny_lock 0 "chan_intra_warp_atomic" ${exe} list)
simtsync_e2e(list_mb_lockbit 0 "footprint" ${exe} list mb_lockbit)

set(t --size test)
# nw_tiny's test size is two tiles: both kernels (NW1 and NW2) run.
simtsync_e2e(nw_tiny_two_tiles 0 "62x62 grid, 3844 cells" ${exe} run nw_tiny ${t})
# Every nw_tiny CTA maps its 32x32 tile onto all 1024 lock bits of its SM. On gtx480 (1536
# threads per SM) one such CTA fits per SM; a config that holds two (2048 threads) makes them
# share every bit: a CTA's "lock self" finds the bit held by the other CTA, a consumer takes a
# token the other CTA's cell freed and reads a score not computed yet (seed 001 sec. 6: "an SM
# can only support one thread block ... there are only 1024 lock bits").
simtsync_e2e(nw_tiny_two_ctas_per_sm 1 "VALIDATION FAILED" ${exe} run nw_tiny ${t}
             --config gtx1080ti --set gpu.num_sms=1 --set workload.tiles=3)
# ... while in the functional mode every CTA has lock bits of its own.
simtsync_e2e(nw_tiny_functional_three_tiles 0 "93x93 grid" ${exe} run nw_tiny ${t}
             --mode functional --config gtx1080ti --set workload.tiles=3)

# SIMD deadlock (seed 001 sec. 4.4.1): Listing 6's waitlock loops with producer and consumer in
# one warp; the report names the lane holding the bit at a reconvergence point.
simtsync_e2e(chan_intra_warp_naive_simd_deadlock 3
             "SIMD deadlock: 0\\.0 lane 2 waits for lock bit [0-9]+ \\(shared \\[0x20\\]\\) held by 0\\.0 lane 1 of the same warp"
             ${exe} run chan_intra_warp ${t} --set workload.naive=1)
simtsync_e2e(chan_intra_warp_naive_functional 3 "SIMD deadlock: 0\\.0 lane 2" ${exe}
             run chan_intra_warp ${t} --mode functional --set workload.naive=1)
# ... and with producers and consumers in different warps the shared channel still needs the
# critical section: consumers of one producer hold its token at their reconvergence points
# while their warp-mates wait for a token another warp holds the same way (a cycle). Whether a
# CTA's warps close the cycle depends on how they interleave: the test size's one CTA escapes
# it since I-cache fills make every warp wait (2026-11-30), so the test runs four.
simtsync_e2e(chan_shared_naive_stops 3 "SIMT deadlock across warps: [0-9]+\\.[0-9]+ lane [0-9]+ waits" ${exe}
             run chan_shared ${t}
             --set workload.naive=1 --set workload.ctas=4)
# Private channels cost three lock bits per producer: 7 x 64 needs 3 x 6 x 64 = 1152 > 1024
# (refused before running), and validates with 2048 lock bits.
simtsync_e2e(chan_private_too_many_bits 2 "workload.rows.*1152 lock bits.*sm.shared.lock_bits = 1024"
             ${exe} run chan_private ${t} --set workload.rows=7)
simtsync_e2e(chan_private_more_lock_bits 0 "VALIDATED: 1 CTA\\(s\\) x 7x64 grid" ${exe}
             run chan_private ${t} --set workload.rows=7 --set sm.shared.lock_bits=2048)
# The warp-shared bit among several consumer warps (three warps per row: each producer warp's
# bit has three consumer warps).
simtsync_e2e(chan_warp_bit_three_consumers 0 "VALIDATED: 1 CTA\\(s\\) x 4x96 grid" ${exe}
             run chan_warp_bit ${t} --set workload.cols=96)

# Cross-CTA lock-bit contention (mb_lockbit; test size: 2 CTAs per gtx480 SM). Footprint 1024:
# the two CTAs' words share bits, LDSLK attempts fail; footprint 64 (= threads): disjoint bits,
# none fails; the functional mode gives each CTA its own bits.
simtsync_e2e(mb_lockbit_aliased 0 "VALIDATED.* [1-9][0-9]* failed LDSLK attempts" ${exe}
             run mb_lockbit ${t})
simtsync_e2e(mb_lockbit_disjoint 0 "VALIDATED.* 0 failed LDSLK attempts" ${exe}
             run mb_lockbit ${t} --set workload.footprint=64)
simtsync_e2e(mb_lockbit_functional_no_contention 0 "VALIDATED.* 0 failed LDSLK attempts" ${exe}
             run mb_lockbit ${t} --mode functional)
simtsync_e2e(mb_lockbit_footprint_range 2 "workload.footprint" ${exe} run mb_lockbit ${t}
             --set workload.footprint=32)
# Scheduler priority (sm.scheduler_priority): with scheduler 0 always first (`fixed`), its
# spinning warps take every LD/ST-queue slot that frees and a token holder on scheduler 1
# starves; rotating which scheduler goes first (the default, GPGPU-Sim 4.2) lets the lane-major
# channel finish. The starvation report names the cause: every warp that did not advance is on a
# scheduler other than 0.
simtsync_e2e(chan_intra_warp_fixed_priority_starves 3
             "starvation.* 0 of them are on scheduler 0 .*sm.scheduler_priority=rotate" ${exe}
             run chan_intra_warp --size paper --set workload.ctas=1
             --set sm.warp_scheduler.impl=lrr --set sm.scheduler_priority=fixed)
simtsync_e2e(chan_intra_warp_rotated_priority 0 "VALIDATED" ${exe} run chan_intra_warp
             --size paper --set workload.ctas=1 --set sm.warp_scheduler.impl=lrr)
