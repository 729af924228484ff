# BOWS, DDOS and CAWA (issue 15, seed 000): every *_simt and plain synchronization workload
# validates at test size under BOWS over GTO with DDOS (the seed's configuration), over LRR and
# CAWA with annotated SIBs, and under CAWA alone; BOWS's statistics, the synchronization status
# and DDOS's detection rates reach the output. check_ddos.py checks DDOS against the annotated
# ground truth on the synchronization and synchronization-free suites.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(bows_workloads ht atm_simt cp_ds_simt tl_fg_simt tl_cg_simt am_fg_simt am_cg_simt interac
    syncval_atom_lock syncval_warp_barr syncval_shrd_lock syncval_tiny_lock syncval_warp_vote
    nw nw1 nw2 nw_dp tsp bh bh_tb bh_sm bh_st_simt bh_fc apriori)
set(bows sm.warp_scheduler.impl=bows)
foreach(w ${bows_workloads})
  simtsync_e2e(${w}_bows 0 "VALIDATED" ${exe} run ${w} --size test --set ${bows})
  simtsync_e2e(${w}_bows_lrr_annotated 0 "VALIDATED" ${exe} run ${w} --size test --set ${bows}
               --set sm.warp_scheduler.base=lrr --set sm.warp_scheduler.sib_source=annotation)
  simtsync_e2e(${w}_cawa 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=cawa)
endforeach()
foreach(w ht atm_simt bh_st_simt nw)
  simtsync_e2e(${w}_bows_cawa 0 "VALIDATED" ${exe} run ${w} --size test --set ${bows}
               --set sm.warp_scheduler.base=cawa)
  simtsync_e2e(${w}_bows_fixed0 0 "VALIDATED" ${exe} run ${w} --size test --set ${bows}
               --set sm.warp_scheduler.adaptive_delay=false --set sm.warp_scheduler.backoff_delay=0)
  simtsync_e2e(${w}_bows_fixed5000 0 "VALIDATED" ${exe} run ${w} --size test --set ${bows}
               --set sm.warp_scheduler.adaptive_delay=false
               --set sm.warp_scheduler.backoff_delay=5000)
endforeach()
# The statistics: BOWS backs warps off on HT, DDOS reports its rates, the lock attempts split.
simtsync_e2e(ht_bows_backoffs 0 "bows\\.backoffs +[1-9]" ${exe} run ht --size test --set ${bows})
simtsync_e2e(ht_bows_ddos_rates 0 "ddos\\.sibs_confirmed +[1-9]" ${exe} run ht --size test
             --set ${bows})
simtsync_e2e(ht_sync_status 0 "sync\\.lock_attempts +[1-9][0-9]*" ${exe} run ht --size test
             --set stats.sync_status=true)
# Every acquisition counts once, also where nvcc peels the first attempt out of a rotated lock
# loop (`while (atomicCAS(m, 0, 1) != 0)`): TSP's 64 climbers each take the global lock once;
# ht_mimd inserts 256 keys; cp_ds_mimd takes two locks for each of its 232 constraints.
simtsync_e2e(tsp_sync_peeled_attempt 0 "sync\\.lock_success +64 " ${exe} run tsp
             --size test --set stats.sync_status=true)
simtsync_e2e(ht_mimd_sync_peeled_attempt 0 "sync\\.lock_success +256 " ${exe} run ht_mimd
             --size test --set stats.sync_status=true --set sm.reconvergence.impl=aware)
simtsync_e2e(cp_ds_mimd_sync_peeled_attempt 0 "sync\\.lock_success +464 " ${exe} run
             cp_ds_mimd --size test --set stats.sync_status=true --set sm.reconvergence.impl=aware)
simtsync_e2e(bh_st_sync_wait 0 "sync\\.wait_attempts +[1-9][0-9]*" ${exe} run bh_st_simt
             --size test --set stats.sync_status=true)
simtsync_e2e(bows_min_above_max 2 "delay_min" ${exe} run ht --size test --set ${bows}
             --set sm.warp_scheduler.delay_min=5000 --set sm.warp_scheduler.delay_max=10)
simtsync_e2e(list_bows 0 "bows" ${exe} list)
simtsync_e2e(list_cawa 0 "cawa" ${exe} list)
add_test(NAME e2e.ddos_detection COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_ddos.py ${exe}
         ${CMAKE_CURRENT_BINARY_DIR}/ddos_detection)
