# End-to-end checks of the lock-instruction workloads (seed 004 ch. 4-7): the variants of
# apriori, interac, bh_tb, ht and atm written with simtsync_lock / simtsync_unlock (each sets
# sm.reconvergence.impl=lock_stack itself), and the two limits of sec. 4.5 (lockinst_limits/).
# Each variant validates at test size in the timing mode (gtx480) and in the functional mode,
# and once more with lock queuing (seed 004 sec. 5.2) except the nested-lock ones, which must
# deadlock with it (sec. 5.2.2). Included from tests/e2e/CMakeLists.txt, which defines
# simtsync_e2e() and ${exe}.
set(t --size test --config gtx480)
set(lock_queue --set mem.lock_queue.mode=ideal)
set(lock_instruction_workloads apriori_lockinst interac_lockinst bh_tb_lockinst ht_lockinst
                               atm_lockinst)
foreach(w ${lock_instruction_workloads})
  simtsync_e2e(${w}_test 0 "VALIDATED" ${exe} run ${w} ${t})
  simtsync_e2e(${w}_functional 0 "VALIDATED" ${exe} run ${w} ${t} --mode functional)
endforeach()
simtsync_e2e(list_lockinst 0 "apriori_lockinst" ${exe} list)
# The workloads choose the lock stack themselves: the resolved config says so.
simtsync_e2e(lockinst_config_default 0 "lock_stack" ${exe} run ht_lockinst ${t} --dump-config)
# ... and a --set that takes it away is a kernel fault naming the key.
simtsync_e2e(lockinst_needs_lock_stack 5 "sm.reconvergence.impl=lock_stack" ${exe}
             run ht_lockinst ${t} --set sm.reconvergence.impl=ipdom_stack)

# Lock queuing: a request for a held lock waits in the memory partition (single locks only).
foreach(w apriori_lockinst bh_tb_lockinst ht_lockinst)
  simtsync_e2e(${w}_lock_queue 0 "VALIDATED" ${exe} run ${w} ${t} ${lock_queue})
endforeach()
# ... with nested locks it deadlocks (seed 004 sec. 5.2.2): a thread scheduled on its queued
# reply can wait, at the inner lock, for a lock a queued warp-mate holds. The lock stack stops
# at the inner lock while requests of the outer one are still queued, naming it.
set(interac_lockinst_inner interac_lockinst.cu:27)
set(atm_lockinst_inner atm_lockinst.cu:18)
foreach(w interac_lockinst atm_lockinst)
  foreach(size test default)
    simtsync_e2e(${w}_lock_queue_deadlock_${size} 3
                 "takes a nested lock at PC 0x[0-9a-f]+ \\(${${w}_inner}\\) while requests of the lock around it still wait in lock queues"
                 ${exe} run ${w} --size ${size} --config gtx480 ${lock_queue})
  endforeach()
endforeach()

# bh_tb_lockinst counts its critical sections and those that inserted nothing (seed 004
# Fig. 7.2); the body count is a parameter (Fig. 7.1 runs several).
simtsync_e2e(bh_tb_lockinst_sections 0
             "VALIDATED: 128 bodies.* [0-9]+ critical sections, [0-9]+ inserted nothing"
             ${exe} run bh_tb_lockinst ${t})
simtsync_e2e(bh_tb_lockinst_bodies 0 "VALIDATED: 512 bodies" ${exe} run bh_tb_lockinst ${t}
             --set workload.bodies=512)

# The limits of seed 004 sec. 4.5, reported by the watchdog in both modes; one-thread warps
# (MIMD) run them to the end. Example 12 (both arms of an if lock, the unlock follows the join):
# the arm that unlocked first spins at G (lockinst_limits.cu:28) above the other arm's entry,
# which the report's note on the stack names.
# Example 13 (a nested lock inside a divergent branch): the even threads retry the lock their
# neighbour holds off the top of the stack (the lock at lockinst_limits.cu:42).
set(lockinst_ex12_report
    "note: an unlock sent threads 0xaaaaaaaa on at PC 0x[0-9a-f]+, past their entry's reconvergence point")
set(lockinst_ex13_report
    "lock-stack deadlock: 0\\.0 lane 0 waits at simtsync_lock \\(lockinst_limits.cu:42\\) for lock word \\[0x[0-9a-f]+\\] held by 0\\.0 lane 1 of the same warp")
foreach(w lockinst_ex12 lockinst_ex13)
  simtsync_e2e(${w}_deadlock 3 "${${w}_report}" ${exe} run ${w} ${t})
  simtsync_e2e(${w}_functional_deadlock 3 "${${w}_report}" ${exe} run ${w} ${t}
               --mode functional)
  simtsync_e2e(${w}_mimd 0 "VALIDATED" ${exe} run ${w} ${t} --mode functional
               --set func.warp_size=1)
endforeach()

# Lock queues live in the memory partitions: asking for them with the fixed-latency memory is a
# configuration error naming the key.
simtsync_e2e(lock_queue_needs_hierarchy 2 "key 'mem.lock_queue.mode': 'ideal' needs mem.model=hierarchy"
             ${exe} run ht_lockinst ${t} --set mem.model=simple ${lock_queue})

# A workload's own measurements (WorkloadContext::notes) are printed and land in the JSON.
simtsync_e2e(bh_tb_lockinst_notes 0 "note: critical_sections_no_insert=[0-9]+" ${exe}
             run bh_tb_lockinst ${t})
