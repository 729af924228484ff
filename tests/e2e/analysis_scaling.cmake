# Issue 46: the analysis every kernel goes through, on each shape of PTX that used to make it
# quadratic or worse, at about 400 KB (nested loops: 1,594 deep at 170 KB, and a refusal at
# 3,724 deep), within a CPU-time and memory budget the build before issue 46 missed
# (CPU before -> after, docs/ssde.md): accum 0.70 -> 0.15 s; branches 1.7 s, 171 MB ->
# 0.15 s, 22 MB; nested_ifs 2.3 -> 0.9 s; nested_loops (1,594 deep) 4.1 -> 1.05 s, 3,724 deep
# more than 60 s -> exit 4 in 1.4 s; live_across 72 -> 19 MB; spin_loops 6.8 -> 1.8 s.
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
simtsync_scaling(nested_ifs 400000 1.5 160 0)
simtsync_scaling(nested_loops 170000 2.0 160 0)
simtsync_scaling(nested_loops 400000 5.0 200 4)
simtsync_scaling(live_across 400000 1.0 48 0)
simtsync_scaling(spin_loops 400000 5.0 160 0)
# The budget is a setting: a tiny one refuses a small function (exit 4), 0 lifts it.
simtsync_scaling(branchy 20000 1.0 64 4 --analysis-budget 100)
simtsync_scaling(branchy 40000 1.0 64 0 --analysis-budget 0)
