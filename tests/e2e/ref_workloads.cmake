# End-to-end checks of the reference suites (issue 6): every barrier-intensive (seed 002 Table 2)
# and synchronization-free (Rodinia-style) workload validates at test size in the timing mode
# (default config) and in the functional mode, and `simtsync list` shows both suites.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(ref_barrier sp ms fwt mm stn octp bt pvc pvr ss mg histo srad2)
set(ref_syncfree kmeans mergesort heartwall bfs hotspot pathfinder backprop lud gaussian nn srad
                 streamcluster)
foreach(w ${ref_barrier} ${ref_syncfree})
  simtsync_e2e(${w}_test 0 "VALIDATED" ${exe} run ${w} --size test)
  simtsync_e2e(${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional)
endforeach()
# The global barrier of STN spins across CTAs: it must also finish under other schedulers.
simtsync_e2e(stn_lrr 0 "VALIDATED" ${exe} run stn --size test --set sm.warp_scheduler.impl=lrr)
simtsync_e2e(list_barrier_suite 0 "barrier-intensive" ${exe} list)
simtsync_e2e(list_syncfree_suite 0 "synchronization-free" ${exe} list)
