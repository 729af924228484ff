# Issue 13: the SIMT-deadlock analysis on code nobody here wrote, from the command line.
add_test(NAME e2e.analyze_cli
         COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_analyze_cli.py ${exe}
                 ${CMAKE_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/analyze_cli)
set_tests_properties(e2e.analyze_cli PROPERTIES SKIP_RETURN_CODE 77)

set(golden ${CMAKE_SOURCE_DIR}/tests/golden)
simtsync_e2e(analyze_nested_lock 0 "loop \\$L__BB0_2 \\(issue13_nested_lock.cu:6 \\(inlined at issue13_nested_lock.cu:19\\)\\) depth 2: POTENTIAL SIMT DEADLOCK"
             ${exe} analyze ${golden}/issue13_nested_lock.ptx)
simtsync_e2e(analyze_nested_lock_merged 0 "0 flagged" ${exe} analyze --no-split-loops
             ${golden}/issue13_nested_lock.ptx)
simtsync_e2e(analyze_O0G 0 "loop .* \\(issue13_spin_O0G.cu:6\\) depth 1: POTENTIAL SIMT DEADLOCK" ${exe} analyze ${golden}/issue13_spin_O0G.ptx)
simtsync_e2e(analyze_O0G_intra 0 "kernel _Z7spin_O0PiS_: 0 loops" ${exe} analyze --no-inline
             ${golden}/issue13_spin_O0G.ptx)
simtsync_e2e(analyze_single_lane 0 "busy-wait, warp-uniform" ${exe} analyze
             ${golden}/issue13_single_lane.ptx)
simtsync_e2e(analyze_cta_uniform 0 "busy-wait, warp-uniform" ${exe} analyze
             ${golden}/issue13_cta_uniform.ptx)
simtsync_e2e(analyze_cta_uniform_seed 0 "POTENTIAL SIMT DEADLOCK" ${exe} analyze --no-uniformity
             ${golden}/issue13_cta_uniform.ptx)
simtsync_e2e(transform_O0G_unfixed 0 "not fixed: .*called function" ${exe} transform
             ${golden}/issue13_spin_O0G.ptx -o ${CMAKE_CURRENT_BINARY_DIR}/o0g_ssde.ptx)
simtsync_e2e(analyze_bad_truth 2 "cannot read" ${exe} analyze --table --truth
             ${CMAKE_CURRENT_BINARY_DIR}/no_such_truth ${golden}/issue13_nested_lock.ptx)
# The detection table over this repository's kernels with the ground truth of
# tests/golden/deadlock_truth.txt: no miss (docs/ssde.md shows the whole table).
simtsync_e2e(analyze_table_no_miss 0 "^all +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9]+ +[0-9.]+% +0$"
             ${exe} analyze --table --truth ${golden}/deadlock_truth.txt ${golden}/issue13_nested_lock.ptx
             ${golden}/issue13_spin_O0G.ptx ${golden}/seed003_fig1_spinlock.ptx)
