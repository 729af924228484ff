# The split-table reconvergence units (docs/reconvergence.md): the MIMD lock loops that
# SIMT-deadlock under the IPDOM stack validate under AWARE (delayed reconvergence) in the timing
# and the functional mode; every SIMT-compliant workload (all that need no special unit: not the
# *_lockinst ones, which need lock_stack) validates under multipath and aware, in both modes.
# Multi-Path keeps IPDOM reconvergence, so the MIMD loops still deadlock there. The lists are
# shared with its.cmake.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(mimd_workloads ht_mimd atm_mimd cp_ds_mimd tl_fg_mimd tl_cg_mimd am_fg_mimd am_cg_mimd
    bh_st_mimd bh_tb_mimd bh_sm_mimd naive_lock)
set(simt_compliant_workloads ht atm_simt cp_ds_simt tl_fg_simt tl_cg_simt am_fg_simt am_cg_simt
    interac chan_atomic chan_shared chan_private chan_warp_bit chan_intra_warp
    chan_intra_warp_atomic nw nw1 nw2 nw_dp nw_tiny tsp bh bh_tb bh_sm bh_st_simt bh_fc apriori
    kmeans mergesort heartwall bfs hotspot pathfinder backprop lud gaussian nn srad streamcluster
    sp ms fwt mm stn octp bt pvc pvr ss mg histo srad2 syncval_atom_lock syncval_warp_barr
    syncval_shrd_lock syncval_tiny_lock syncval_warp_vote vecadd recursion mb_imbalance
    mb_lockbit mb_chase mb_stream mb_atomic mb_bank mb_power)
set(aware sm.reconvergence.impl=aware)
set(multipath sm.reconvergence.impl=multipath)
foreach(w ${mimd_workloads})
  simtsync_e2e(aware_${w} 0 "VALIDATED" ${exe} run ${w} --size test --set ${aware})
  simtsync_e2e(aware_${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional
               --set ${aware})
endforeach()
foreach(w ${simt_compliant_workloads})
  foreach(u aware multipath)
    simtsync_e2e(${u}_${w} 0 "VALIDATED" ${exe} run ${w} --size test --set ${${u}})
    simtsync_e2e(${u}_${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test
                 --mode functional --set ${${u}})
  endforeach()
endforeach()
# Multi-Path's IPDOM reconvergence: the spin lock of seed 003 Fig. 1 still deadlocks, and the
# report shows the split and the reconvergence-table entry.
simtsync_e2e(multipath_naive_lock 3 "\\[RT\\] PC naive_lock.*pending" ${exe} run naive_lock
             --size test --set ${multipath})
# Timed-out reconvergence alone (no delayed reconvergence) also lets the lock holder through.
foreach(w naive_lock ht_mimd bh_st_mimd)
  simtsync_e2e(aware_${w}_timeout 0 "VALIDATED" ${exe} run ${w} --size test --set ${aware}
               --set sm.reconvergence.delayed=false --set sm.reconvergence.timeout=1000)
endforeach()
# Virtualized tables (Fig. 12's 4/2 and 1/1 entries): spills and fills go through memory.
foreach(w ht_mimd cp_ds_mimd bh_st_mimd)
  simtsync_e2e(aware_${w}_virtual_4_2 0 "VALIDATED" ${exe} run ${w} --size test --set ${aware}
               --set sm.reconvergence.st_entries=4 --set sm.reconvergence.rt_entries=2)
  simtsync_e2e(aware_${w}_virtual_1_1 0 "aware[.]table_bytes +[1-9]" ${exe} run ${w} --size test
               --set ${aware} --set sm.reconvergence.st_entries=1
               --set sm.reconvergence.rt_entries=1)
endforeach()
# The counters reach the statistics: delayed reconvergence on a flagged loop.
simtsync_e2e(aware_ht_mimd_delayed 0 "aware[.]delayed +[1-9]" ${exe} run ht_mimd --size test
             --set ${aware})
simtsync_e2e(list_aware 0 "aware .*AWARE" ${exe} list)
# Regressions of the virtualized tables on the seed's configuration: a second arrival while the
# pending-mask-update buffer was occupied lost its threads (bh_tb_mimd, 2/1), and a filled entry
# evicted again before it ran livelocked the lock holder (tl_cg_mimd, 4/2).
simtsync_e2e(aware_bh_tb_mimd_virtual_2_1 0 "VALIDATED" ${exe} run bh_tb_mimd --size test
             --config tesla_c2050 --set ${aware} --set sm.reconvergence.st_entries=2
             --set sm.reconvergence.rt_entries=1)
simtsync_e2e(aware_tl_cg_mimd_virtual_4_2 0 "VALIDATED" ${exe} run tl_cg_mimd --size test
             --config tesla_c2050 --set ${aware} --set sm.reconvergence.st_entries=4
             --set sm.reconvergence.rt_entries=2)
# A warp whose other splits exit (or park in the RT) after some threads were held at a barrier
# arrives then: before, it never counted and the CTA deadlocked at its barrier (bh_st_mimd,
# delayed reconvergence with a 2000-cycle timeout, on the seed's configuration).
simtsync_e2e(aware_bh_st_mimd_late_barrier_arrival 0 "VALIDATED" ${exe} run bh_st_mimd --size test
             --config tesla_c2050 --set ${aware} --set sm.reconvergence.timeout=2000)
