# Barrier-aware warp scheduling (issue 16, seed 002): every barrier-intensive workload validates
# at test size under MWF(LRR), MWF(GTO), and with the CFF and FEF fetch policies (under the
# default issue policy), and MWF with CFF (BAWS) for the pair the seed proposes.
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
set(baws_workloads sp ms fwt mm stn octp bt pvc pvr ss mg histo srad2)
foreach(w ${baws_workloads})
  simtsync_e2e(${w}_mwf_lrr 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=mwf_lrr)
  simtsync_e2e(${w}_mwf_gto 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=mwf_gto)
  simtsync_e2e(${w}_fetch_cff 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.fetch_policy.impl=cff)
  simtsync_e2e(${w}_fetch_fef 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.fetch_policy.impl=fef)
  simtsync_e2e(${w}_baws 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=mwf_gto --set sm.fetch_policy.impl=cff)
endforeach()
simtsync_e2e(list_baws_issue 0 "mwf_gto" ${exe} list)
simtsync_e2e(list_baws_fetch 0 "fewest I-buffer entries" ${exe} list)
