# Headline-direction guards (issue 44): the direction of each seed's headline result holds at a
# size small enough for CI (about a second per run) that still shows it. Each test runs
# `simtsync run` two or more times on gtx480 (or the seed's config) and compares the runs' cycles
# from the JSON (check_compare.py); it fails if a change to the model turns a headline around.
# The sizes, the measured cycles and the sizes where a direction does not hold are in
# docs/testing.md ("Headline-direction guards").
# Included from tests/e2e/CMakeLists.txt, which defines ${exe}.
set(compare python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_compare.py ${exe})

function(simtsync_headline name)
  add_test(NAME headline.${name} COMMAND ${compare} ${CMAKE_CURRENT_BINARY_DIR}/headline_${name}
           ${ARGN})
  set_tests_properties(headline.${name} PROPERTIES LABELS headline TIMEOUT 300)
endfunction()

# Seed 000: BOWS beats GTO on HT. 15 CTAs x 256 threads into 128 buckets: the default input's
# 30 threads per bucket (120 x 256 into 1024) on one CTA per SM, 2 insertions per thread.
set(ht_small "ht --size test --set workload.ctas=15 --set workload.threads=256 --set workload.buckets=128")
simtsync_headline(bows_beats_gto_ht
  --run gto "${ht_small} --set sm.warp_scheduler.impl=gto"
  --run bows "${ht_small} --set sm.warp_scheduler.impl=bows"
  --expect "bows.cycles < gto.cycles")

# Seed 001: tiny_lock beats atom_lock. The validation kernel of sec. 5 at the seed's set-up (one
# CTA of 16 warps: --size test), and Needleman-Wunsch at 31x31 (one tile, Table 3's first row):
# the tiny-lock dataflow (nw_tiny) against the atomic spin lock (nw).
simtsync_headline(tiny_lock_beats_atom_lock_syncval
  --run atom_lock "syncval_atom_lock --size test"
  --run tiny_lock "syncval_tiny_lock --size test"
  --expect "tiny_lock.cycles < atom_lock.cycles")
simtsync_headline(tiny_lock_beats_atom_lock_nw
  --run atom_lock "nw --size test --set workload.tiles=1"
  --run tiny_lock "nw_tiny --size test --set workload.tiles=1"
  --expect "tiny_lock.cycles < atom_lock.cycles")

# Seed 002: MWF(LRR) with critical-fetch-first is no slower than LRR on a barrier-intensive
# kernel. sp with 45 CTAs (3 per SM, so the CTA order MWF chooses matters) and fwt at its
# default size.
set(sp_multi "sp --size test --set workload.ctas=45 --set workload.nvec=45")
simtsync_headline(mwf_cff_no_slower_than_lrr_sp
  --run lrr "${sp_multi} --set sm.warp_scheduler.impl=lrr"
  --run mwf_lrr_cff "${sp_multi} --set sm.warp_scheduler.impl=mwf_lrr --set sm.fetch_policy.impl=cff"
  --expect "mwf_lrr_cff.cycles <= lrr.cycles")
simtsync_headline(mwf_cff_no_slower_than_lrr_fwt
  --run lrr "fwt --size default --set sm.warp_scheduler.impl=lrr"
  --run mwf_lrr_cff "fwt --size default --set sm.warp_scheduler.impl=mwf_lrr --set sm.fetch_policy.impl=cff"
  --expect "mwf_lrr_cff.cycles <= lrr.cycles")

# Seed 003 Table I: on ATM, AWARE (the MIMD version, delayed reconvergence) is on par with SSDE
# (the MIMD version transformed, on the IPDOM stack). The seed's input has 1M accounts, so
# transfers rarely collide; here 8 CTAs x 256 threads, 5 transfers each, on the seed's config.
# With 1,000 accounts (the default) AWARE is far slower (docs/testing.md).
set(atm_small "--size test --config tesla_c2050 --set workload.ctas=8 --set workload.threads=256 --set workload.per_thread=5 --set workload.accounts=1000000")
simtsync_headline(aware_on_par_with_ssde_atm
  --run aware "atm_mimd ${atm_small} --set sm.reconvergence.impl=aware"
  --run ssde "atm_mimd ${atm_small} --set compile.ssde=true"
  --run simt "atm_simt ${atm_small}"
  --expect "aware.cycles <= 1.10 * ssde.cycles"
  --expect "ssde.cycles <= 1.10 * aware.cycles")
