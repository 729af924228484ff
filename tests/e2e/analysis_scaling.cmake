# Issue 46: the analysis every kernel goes through, on each shape of PTX that used to make it
# quadratic or worse, at about 400 KB, within a CPU-time and memory budget an earlier build
# missed (docs/ssde.md, "Analysis cost by shape of PTX"). Before the first part of issue 46
# (e3ebb56): accum 0.70 s; branches 1.7 s, 171 MB; live_across 72 MB. Before its second part
# (43b1b20, implicit loop bodies, merges placed from the loop forest, reachability by index,
# analysis only when needed): nested_ifs 0.87 s, 82 MB; nested_loops (3,724 deep) refused with
# exit 4 in 1.4 s, 155 MB, and 1,594 deep 1.05 s, 70 MB; spin_loops 1.9 s, 111 MB. After:
# nested_ifs 0.11 s, 20 MB; nested_loops 0.19 s, 24 MB; spin_loops 0.53 s, 22 MB.
set(scaling ${CMAKE_CURRENT_BINARY_DIR}/analysis_scaling)
set(check ${CMAKE_CURRENT_SOURCE_DIR}/check_analysis_scaling.py)
function(simtsync_scaling shape bytes cpu_s mem_mb rc)
  add_test(NAME e2e.analysis_scaling_${shape}_${bytes}
           COMMAND python3 ${check} ${exe} ${CMAKE_SOURCE_DIR} ${scaling} ${shape} ${bytes}
                   ${cpu_s} ${mem_mb} ${rc} ${ARGN})
  set_tests_properties(e2e.analysis_scaling_${shape}_${bytes} PROPERTIES TIMEOUT 60
                       LABELS analysis_scaling)
endfunction()
simtsync_scaling(accum 400000 0.4 64 0)
simtsync_scaling(branches 400000 1.0 64 0)
simtsync_scaling(nested_ifs 400000 0.5 48 0)
simtsync_scaling(nested_loops 170000 0.5 48 0)
simtsync_scaling(nested_loops 400000 1.0 64 0)
simtsync_scaling(live_across 400000 1.0 48 0)
simtsync_scaling(spin_loops 400000 1.5 64 0)
# 11,542 sequential spin loops whose locks repeat every 4,096 loops: refused by the budget
# before the safe post-dominator search settled loops by component (2.4 s, 64 MB; 48 s with
# no budget); after, 0.8 s and 89 MB.
simtsync_scaling(spin_loops 1600000 1.6 160 0)
# The budget is a setting: a tiny one refuses a small function (exit 4), 0 lifts it.
simtsync_scaling(branchy 20000 1.0 64 4 --analysis-budget 100)
simtsync_scaling(branchy 40000 1.0 64 0 --analysis-budget 0)
# sim.analysis_budget (issue 46): decoding runs the analysis only for a unit that reads its
# reconvergence points (aware, delayed), so a tiny budget refuses the load there (exit 4)
# and nowhere else.
simtsync_e2e(analysis_budget_refuses_delayed_reconvergence 4 "too large to analyse"
             ${exe} run vecadd --size test --mode functional --set sm.reconvergence.impl=aware
             --set sim.analysis_budget=1)
simtsync_e2e(analysis_budget_unused_without_delayed_reconvergence 0 "VALIDATED"
             ${exe} run vecadd --size test --mode functional --set sim.analysis_budget=1)
