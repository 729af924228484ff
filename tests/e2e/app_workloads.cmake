# End-to-end checks of the application workloads of the synchronization suite (issue 5:
# Barnes-Hut, Needleman-Wunsch, TSP, Apriori): every plain and *_simt variant validates at test
# size in the timing mode (the default) and in the functional mode; bh_st_mimd SIMT-deadlocks
# under the IPDOM stack, the report names its spin loop, and with one-thread warps it validates.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(app_workloads nw nw1 nw2 nw_dp tsp bh bh_tb bh_sm bh_st_simt bh_fc apriori)
foreach(w ${app_workloads})
  simtsync_e2e(${w}_test 0 "VALIDATED" ${exe} run ${w} --size test)
  simtsync_e2e(${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional)
endforeach()

set(f --size test --mode functional)
simtsync_e2e(bh_st_mimd_stops 3 "cannot finish" ${exe} run bh_st_mimd --size test)
simtsync_e2e(bh_st_mimd_deadlock 3 "spin loop at bh_st_mimd.cu:16" ${exe} run bh_st_mimd ${f})
simtsync_e2e(bh_st_mimd_one_lane_warps 0 "VALIDATED" ${exe} run bh_st_mimd ${f}
             --set func.warp_size=1)

# The nw pipeline with NW2 at work (its test size is one tile, where NW2 has none).
simtsync_e2e(nw_two_tiles 0 "62x62 grid" ${exe} run nw ${f} --set workload.tiles=2)

# Parameters reach the kernels and are listed.
simtsync_e2e(nw_tiles 0 "93x93 grid" ${exe} run nw_dp ${f} --set workload.tiles=3)
simtsync_e2e(tsp_cities 0 "12 cities" ${exe} run tsp ${f} --set workload.cities=12)
simtsync_e2e(list_apps 0 "bh_st_mimd" ${exe} list)
simtsync_e2e(list_bh_params 0 "bodies" ${exe} list bh)
