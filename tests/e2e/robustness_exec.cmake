# Issue 45, messages and paths of the simtsync command and its Python tools
# (check_robustness_exec.py says what each case checks). The exit-code cases of `simtsync exec`
# need nvcc and are in tests/cuda/CMakeLists.txt (cuda.exit_paths_*).
foreach(c help_full empty_json special_json long_value python_errors sigint_startup)
  add_test(NAME e2e.robustness_${c}
           COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_robustness_exec.py ${exe}
                   ${CMAKE_CURRENT_BINARY_DIR}/robustness_${c} ${c})
  set_tests_properties(e2e.robustness_${c} PROPERTIES LABELS e2e TIMEOUT 300)
endforeach()
