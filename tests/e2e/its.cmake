# Independent thread scheduling (sm.reconvergence.impl=its, docs/reconvergence.md): the MIMD
# lock loops that SIMT-deadlock under the IPDOM stack validate, in the timing and the
# functional mode; so do the SIMT-compliant workloads (every one that needs no special unit:
# not the *_lockinst ones, which need lock_stack), also in both modes (all of them take a few
# seconds at test size). True deadlocks stay deadlocks: a barrier one thread skips, the lock-bit
# alias deadlock of seed 001 sec. 4.4.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(its sm.reconvergence.impl=its)
# The workload lists come from reconvergence_units.cmake (included first).
foreach(w ${mimd_workloads} ${simt_compliant_workloads})
  simtsync_e2e(its_${w} 0 "VALIDATED" ${exe} run ${w} --size test --set ${its})
  simtsync_e2e(its_${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional
               --set ${its})
endforeach()
# The spin lock at the default size, and with the smallest starvation limit.
simtsync_e2e(its_naive_lock_default 0 "VALIDATED" ${exe} run naive_lock --set ${its})
simtsync_e2e(its_naive_lock_limit1 0 "VALIDATED" ${exe} run naive_lock --size test --set ${its}
             --set sm.reconvergence.starvation_limit=1)
# The unit's counters reach the statistics.
simtsync_e2e(its_ht_mimd_splits 0 "its[.]splits +[1-9]" ${exe} run ht_mimd --size test
             --set ${its})
# What ITS does not fix.
simtsync_e2e(its_barrier_skip 3 "deadlock: every live warp waits at a barrier" ${exe} run
             barrier_skip --set ${its})
simtsync_e2e(its_lock_bit_alias_deadlock 3 "alias deadlock: 0\\.0 lane 0 holds lock bit 0"
             ${exe} run mb_alias --size test --set ${its})
simtsync_e2e(its_lock_bit_no_alias 0 "VALIDATED: 64 threads took both lock bits" ${exe} run
             mb_alias --size test --set workload.stride=512 --set ${its})
simtsync_e2e(list_its 0 "its +independent thread scheduling" ${exe} list)
