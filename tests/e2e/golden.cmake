# Determinism guard: every workload at --size test under each warp scheduler (and each other
# fetch policy and reconvergence unit under gto, all from `simtsync list`) must give the exit
# code, cycles and warp instructions of tests/golden/cycles_test_size.csv (see
# tests/golden/README.md; scripts/golden_cycles.py --update rewrites the table).
add_test(NAME golden.cycles
         COMMAND python3 ${CMAKE_SOURCE_DIR}/scripts/golden_cycles.py --check --jobs 2
                 --timeout 300 $<TARGET_FILE:simtsync>)
# Two simulator processes at once: CTest counts them against its -j. COST (seconds, about):
# the longest tests start first in a fresh build tree, which has no timing data yet (CI).
set_tests_properties(golden.cycles PROPERTIES TIMEOUT 900 PROCESSORS 2 LABELS golden COST 240)
