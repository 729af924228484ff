# End-to-end checks of the memory-calibration microbenchmarks (mb_chase, mb_stream, mb_atomic,
# mb_bank): each validates at test size in the timing mode (default config) and in the
# functional mode and at default size in the timing mode, its parameters reach the kernel, and
# its message carries the measurement. Validation never depends on the clock64 values; only the
# reported numbers do. Every test name starts with calib_ (`ctest -R calib`).
# Included from tests/e2e/CMakeLists.txt, which defines simtsync_e2e() and ${exe}.
foreach(w mb_chase mb_stream mb_atomic mb_bank)
  simtsync_e2e(calib_${w}_test 0 "VALIDATED" ${exe} run ${w} --size test)
  simtsync_e2e(calib_${w}_functional 0 "VALIDATED" ${exe} run ${w} --size test --mode functional)
  simtsync_e2e(calib_${w}_default 0 "VALIDATED" ${exe} run ${w})
  simtsync_e2e(calib_list_${w} 0 "${w} \\(microbenchmark\\)" ${exe} list ${w})
endforeach()
simtsync_e2e(calib_list 0 "mb_chase +pointer chase" ${exe} list)

set(t --size test)
simtsync_e2e(calib_mb_chase_message 0
             "VALIDATED: avg load-to-use latency [0-9]+\\.[0-9] cycles over 100 dependent loads \\(footprint 4096 bytes, stride 128\\)"
             ${exe} run mb_chase ${t})
simtsync_e2e(calib_mb_chase_cg 0
             "VALIDATED.* over 40 dependent loads \\(footprint 2048 bytes, stride 64, ld.global.cg\\)"
             ${exe} run mb_chase ${t} --set workload.cg=1 --set workload.steps=40
             --set workload.footprint=2048 --set workload.stride=64)
simtsync_e2e(calib_mb_chase_cg_functional 0 "VALIDATED.*ld.global.cg" ${exe} run mb_chase ${t}
             --mode functional --set workload.cg=1)
simtsync_e2e(calib_mb_chase_cold 0 "VALIDATED.*stride 128, no warm pass" ${exe} run mb_chase ${t}
             --set workload.warm=0)
# A ring length (250) that divides neither the step count nor the footprint; a bad stride.
simtsync_e2e(calib_mb_chase_odd_ring 0 "VALIDATED.*footprint 3000 bytes, stride 12" ${exe}
             run mb_chase ${t} --set workload.footprint=3000 --set workload.stride=12
             --set workload.steps=101)
simtsync_e2e(calib_mb_chase_bad_stride 2 "workload.stride.*multiple of 4" ${exe} run mb_chase
             ${t} --set workload.stride=6)
simtsync_e2e(calib_mb_stream_message 0
             "VALIDATED: 5000 words copied: 40000 bytes moved .* over 3 CTAs, [0-9.]+ bytes/cycle"
             ${exe} run mb_stream ${t} --set workload.n=5000 --set workload.ctas=3)
simtsync_e2e(calib_mb_atomic_message 0 "VALIDATED: 512 atomicAdd on 1 word\\(s\\) .* atomics/cycle"
             ${exe} run mb_atomic ${t})
simtsync_e2e(calib_mb_atomic_addresses 0 "VALIDATED: 384 atomicAdd on 5 word\\(s\\)" ${exe}
             run mb_atomic ${t} --set workload.addresses=5 --set workload.iters=3)
foreach(ways 1 3 8 32)
  simtsync_e2e(calib_mb_bank_ways_${ways} 0
               "VALIDATED: ${ways}-way bank conflict: [0-9.]+ cycles per access" ${exe}
               run mb_bank ${t} --set workload.ways=${ways})
endforeach()
simtsync_e2e(calib_mb_bank_ways_range 2 "workload.ways.*out of range" ${exe} run mb_bank ${t}
             --set workload.ways=33)

# The energy model's microbenchmark (mb_power) and energy in every timing run (docs/energy.md).
foreach(op 0 1 2)
  simtsync_e2e(calib_mb_power_op${op} 0 "VALIDATED: 256 threads x 32 iterations" ${exe}
               run mb_power ${t} --set workload.op=${op})
endforeach()
simtsync_e2e(calib_mb_power_functional 0 "VALIDATED" ${exe} run mb_power ${t} --mode functional
             --set workload.op=1)
simtsync_e2e(calib_list_mb_power 0 "mb_power \\(microbenchmark\\)" ${exe} list mb_power)
simtsync_e2e(energy_table 0 "energy.avg_power +[0-9.]+ W" ${exe} run vecadd ${t})
simtsync_e2e(energy_functional 0 "energy +not estimated" ${exe} run vecadd ${t} --mode functional)
simtsync_e2e(energy_negative_coefficient 2 "energy.sm.fp32_pj" ${exe} run vecadd ${t}
             --set energy.sm.fp32_pj=-1)
simtsync_e2e(energy_unknown_key 2 "energy.sm.nosuch" ${exe} run vecadd ${t}
             --set energy.sm.nosuch=1)
add_test(NAME e2e.energy_json COMMAND python3 ${CMAKE_CURRENT_SOURCE_DIR}/check_energy.py ${exe}
         ${CMAKE_CURRENT_BINARY_DIR}/energy_out)
