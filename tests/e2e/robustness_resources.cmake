# Issue 45 item 6: configs and launches too large for the host memory budget
# (sim.host_memory_budget_mb) are refused before anything is allocated, with exit 2 naming the
# figure and the keys, instead of std::bad_alloc and abort (exit 134) after using gigabytes.
simtsync_e2e(host_memory_l2_tags 2
             "needs about [0-9]+ MiB of host memory \\(L2 tags .*mem.l2.size_bytes.*sim.host_memory_budget_mb"
             ${exe} run vecadd --size test --set mem.partitions=1024
             --set mem.l2.slices_per_partition=64 --set mem.l2.size_bytes=1073741824)
simtsync_e2e(host_memory_l1_tags 2 "L1 tags [0-9]+ MiB: gpu.num_sms x mem.l1.size_bytes"
             ${exe} run vecadd --size test --set gpu.num_sms=1024
             --set mem.l1.size_bytes=67108864 --set mem.l1.assoc=1024
             --set sim.host_memory_budget_mb=4096)
# With the whole grid resident (sim.functional_resident_warps = 0) a launch's CTAs are estimated
# together; by default only the resident ones count (tests/cuda many_ctas).
simtsync_e2e(host_memory_functional_launch 2
             "launch of kernel 'vecadd' .* needs about [0-9]+ MiB of host memory \\(524288 warps; 65536 CTAs resident at once with their registers and shared memory \\(sim.functional_resident_warps = 0\\)\\), more than sim.host_memory_budget_mb = 256 MiB"
             ${exe} run vecadd --mode functional --set workload.n=16777216
             --set sim.host_memory_budget_mb=256 --set sim.functional_resident_warps=0)
simtsync_e2e(host_memory_budget_out_of_range 2 "sim.host_memory_budget_mb"
             ${exe} run vecadd --size test --set sim.host_memory_budget_mb=-1)

# Issue 45 messages: a grid-sync kernel (cooperative groups read %envreg registers) is refused
# as unsupported grid-wide synchronization, not as an undeclared register.
set(rr ${CMAKE_CURRENT_BINARY_DIR}/robustness_resources)
file(WRITE ${rr}/grid_sync.ptx ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\nmov.u32 %r1, %envreg2;\nret;\n}\n")
simtsync_e2e(grid_sync_unsupported 4
             "grid_sync.ptx:7:14: error: grid-wide synchronization \\(cooperative launch.*is not supported"
             ${exe} analyze ${rr}/grid_sync.ptx)
