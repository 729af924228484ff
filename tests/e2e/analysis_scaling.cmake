# Issue 46: the analysis every kernel goes through, on each shape of PTX that used to make it
# quadratic or worse, at about 400 KB (nested loops: about 1,000 deep), within a CPU-time and
# memory budget the code before issue 46 missed (before -> after, docs/ssde.md):
#   accum 1.46 s -> 0.25 s; branches 3.6 s, 175 MB -> 0.22 s, 22 MB; nested_ifs 4.7 s -> 1.3 s;
#   live_across 74 MB -> 20 MB; spin_loops 13.8 s -> 1.4 s; nested_loops (945 deep) 2.5 s ->
#   0.9 s, and 4,700 deep 100 s -> a refusal (exit 4) naming the budget in under 2 s.
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
simtsync_scaling(nested_ifs 400000 2.0 160 0)
simtsync_scaling(nested_loops 100000 1.8 160 0)
simtsync_scaling(nested_loops 400000 5.0 200 4)
simtsync_scaling(live_across 400000 1.0 48 0)
simtsync_scaling(spin_loops 400000 5.0 160 0)
# The budget is a setting: a tiny one refuses a small function (exit 4), 0 lifts it.
simtsync_scaling(branchy 20000 1.0 64 4 --analysis-budget 100)
simtsync_scaling(branchy 40000 1.0 64 0 --analysis-budget 0)
