# Barrier-aware warp scheduling (issue 16, seed 002): every barrier-intensive workload validates
# at test size under MWF(LRR), MWF(GTO), and with the CFF and FEF fetch policies (under the
# default issue policy), MWF with CFF (BAWS) for the pair the seed proposes, and SAWS with
# RR and CFF fetch.
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
  simtsync_e2e(${w}_saws 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=saws)
  simtsync_e2e(${w}_saws_cff 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=saws --set sm.fetch_policy.impl=cff)
endforeach()
# CFF under GTO on lock-bit spin loops: the greedy spinners, stalled on their shared loads, must
# give the fetch to the warp they wait for (seed 002 sec. 4.2, "or if that one is stalled, ...
# the oldest warp"); before, both livelocked (exit 3 at 2,293,760 cycles).
foreach(w syncval_tiny_lock syncval_warp_vote)
  simtsync_e2e(${w}_gto_fetch_cff 0 "VALIDATED" ${exe} run ${w} --size test
               --set sm.warp_scheduler.impl=gto --set sm.fetch_policy.impl=cff)
endforeach()
simtsync_e2e(list_baws_issue 0 "mwf_gto" ${exe} list)
simtsync_e2e(list_baws_fetch 0 "fewest I-buffer entries" ${exe} list)

# At test size most of these kernels put one CTA on each SM, where MWF orders like its base
# policy; with more CTAs (3 per SM) the CTA order matters (the cycles differ from LRR/GTO).
set(baws_multi_sp run sp --size test --set workload.ctas=45 --set workload.nvec=45)
set(baws_multi_pvc run pvc --size test --set workload.n=24576)
foreach(w sp pvc)
  foreach(pair mwf_lrr:rr mwf_gto:rr mwf_lrr:cff mwf_gto:cff mwf_lrr:fef saws:rr saws:cff)
    string(REPLACE ":" ";" p ${pair})
    list(GET p 0 issue)
    list(GET p 1 fetch)
    simtsync_e2e(${w}_multi_cta_${issue}_${fetch} 0 "VALIDATED" ${exe} ${baws_multi_${w}}
                 --set sm.warp_scheduler.impl=${issue} --set sm.fetch_policy.impl=${fetch})
  endforeach()
endforeach()
