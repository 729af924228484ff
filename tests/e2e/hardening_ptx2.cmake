# Issue 45: PTX that ptxas rejects and simtsync used to accept (and run) is exit 4 at
# PATH:LINE:COL, the same in `analyze` and `run`; config files and values that used to be taken
# silently are exit 2 naming the file or key. The malformed input is written into the build tree.
set(hard2 ${CMAKE_CURRENT_BINARY_DIR}/hardening_ptx2)
set(hard2_head ".version 9.0\n.target sm_75\n.address_size 64\n")
set(hard2_kernel "${hard2_head}.visible .entry k(.param .u64 p)\n{\n.reg .pred %p<3>;\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];\n")

file(WRITE ${hard2}/duplicate_kernel.ptx
     "${hard2_kernel}ret;\n}\n.visible .entry k(.param .u64 p)\n{\nexit;\n}\n")
file(WRITE ${hard2}/atom_no_operation.ptx "${hard2_kernel}atom.global.u32 %r1, [%rd1], %r2;\nret;\n}\n")
file(WRITE ${hard2}/atom_cas_three.ptx "${hard2_kernel}atom.global.cas.b32 %r1, [%rd1], %r2;\nret;\n}\n")
file(WRITE ${hard2}/st_const.ptx ".version 9.0\n.target sm_75\n.address_size 64\n.const .u32 c;\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<4>;\nst.const.u32 [c], %r2;\nret;\n}\n")
file(WRITE ${hard2}/st_param_kernel.ptx "${hard2_kernel}st.param.u64 [p], %rd1;\nret;\n}\n")
file(WRITE ${hard2}/guard_not_pred.ptx "${hard2_kernel}@%r1 bra L;\nL:\nret;\n}\n")
file(WRITE ${hard2}/setp_b32.ptx "${hard2_kernel}setp.eq.s32 %r1, %r2, 0;\nret;\n}\n")
file(WRITE ${hard2}/maxntid_zero.ptx "${hard2_head}.visible .entry k() .maxntid 0\n{\nret;\n}\n")
file(WRITE ${hard2}/initializer_too_long.ptx
     "${hard2_head}.global .u32 a[2] = {1, 2, 3};\n.visible .entry k()\n{\nret;\n}\n")
file(WRITE ${hard2}/bar_sync_99999.ptx "${hard2_kernel}bar.sync 99999;\nret;\n}\n")
file(WRITE ${hard2}/add_label.ptx "${hard2_kernel}L1:\nadd.s32 %r1, %r2, L1;\nret;\n}\n")

simtsync_e2e(ptx2_duplicate_kernel 4
             "duplicate_kernel.ptx:12:17: error: duplicate definition of function k \\(first defined at line 4\\)"
             ${exe} analyze ${hard2}/duplicate_kernel.ptx)
simtsync_e2e(ptx2_atom_no_operation 4
             "atom_no_operation.ptx:10:1: error: atom needs an operation"
             ${exe} analyze ${hard2}/atom_no_operation.ptx)
simtsync_e2e(ptx2_atom_cas_three_operands 4
             "atom_cas_three.ptx:10:1: error: atom.cas takes 4 operands \\(d, \\[a\\], b, c\\), not 3"
             ${exe} analyze ${hard2}/atom_cas_three.ptx)
simtsync_e2e(ptx2_st_const 4
             "st_const.ptx:8:1: error: st cannot write the .const state space"
             ${exe} analyze ${hard2}/st_const.ptx)
simtsync_e2e(ptx2_st_param_kernel 4
             "st_param_kernel.ptx:10:14: error: st cannot write kernel parameter p"
             ${exe} analyze ${hard2}/st_param_kernel.ptx)
simtsync_e2e(ptx2_guard_not_pred 4
             "guard_not_pred.ptx:10:2: error: a guard must be a .pred register, not the .b32 register %r1"
             ${exe} analyze ${hard2}/guard_not_pred.ptx)
simtsync_e2e(ptx2_setp_into_b32 4
             "setp_b32.ptx:10:13: error: operand 1 of setp must be a .pred register"
             ${exe} analyze ${hard2}/setp_b32.ptx)
simtsync_e2e(ptx2_maxntid_zero 4
             "maxntid_zero.ptx:4:30: error: .maxntid needs positive thread counts"
             ${exe} analyze ${hard2}/maxntid_zero.ptx)
simtsync_e2e(ptx2_initializer_too_long 4
             "initializer_too_long.ptx:4:19: error: initializer of a has 3 elements, more than the 2 it holds"
             ${exe} analyze ${hard2}/initializer_too_long.ptx)
# analyze and transform apply the rule the run applies (from the opcode table).
simtsync_e2e(ptx2_analyze_bar_sync_99999 4
             "bar_sync_99999.ptx:10:10: error: operand 1 of bar must be a barrier number in 0..15"
             ${exe} analyze ${hard2}/bar_sync_99999.ptx)
simtsync_e2e(ptx2_transform_bar_sync_99999 4
             "bar_sync_99999.ptx:10:10: error: operand 1 of bar must be a barrier number in 0..15"
             ${exe} transform ${hard2}/bar_sync_99999.ptx)
simtsync_e2e(ptx2_analyze_add_label 4
             "add_label.ptx:11:19: error: operand 3 of add must be .*, not the label L1"
             ${exe} analyze ${hard2}/add_label.ptx)

# An empty config file used to mean every default, silently; `{}` asks for them explicitly.
file(WRITE ${hard2}/empty.yaml "")
file(WRITE ${hard2}/comments_only.yaml "# gpu:\n#   num_sms: 4\n")
simtsync_e2e(config_empty_file 2 "config error: .*empty.yaml: the file is empty \\(no keys\\)"
             ${exe} run vecadd --size test --config ${hard2}/empty.yaml)
simtsync_e2e(config_comments_only_file 2 "comments_only.yaml: the file is empty \\(no keys\\)"
             ${exe} run vecadd --size test --config ${hard2}/comments_only.yaml)
# Integer keys take decimal integers only: 1e3 was accepted where 0x10 and 1.5 were not.
simtsync_e2e(config_int_exponent 2
             "key 'gpu.num_sms': expects an integer \\(decimal digits\\), got '1e3'"
             ${exe} run vecadd --size test --set gpu.num_sms=1e3)
simtsync_e2e(config_int_hex 2 "key 'gpu.num_sms': expects an integer \\(decimal digits\\), got '0x10'"
             ${exe} run vecadd --size test --set gpu.num_sms=0x10)

# .maxntid (__launch_bounds__) and .reqntid used to be ignored: a 32-thread launch of a kernel
# bounded to 16 threads ran. Now the launch fails with the CUDA error and the kernel does not
# run (the program prints what its launches returned). Built at test time; needs nvcc.
if(SIMTSYNC_NVCC AND TARGET simtsync_cudart)
  file(WRITE ${hard2}/launch_bounds.cu [=[
#include <cstdio>
__global__ void __launch_bounds__(16) bounded(int* out) { out[threadIdx.x] = 1; }
int main() {
  int* d = nullptr;
  cudaMalloc(&d, 64 * sizeof(int));
  cudaMemset(d, 0, 64 * sizeof(int));
  bounded<<<1, 16>>>(d);
  cudaError_t fits = cudaDeviceSynchronize();
  bounded<<<1, 32>>>(d);
  cudaError_t over = cudaGetLastError();
  cudaDeviceSynchronize();
  int h[64];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("16 threads: %s; 32 threads: %s; thread 16 ran: %d\n", cudaGetErrorName(fits),
         cudaGetErrorName(over), h[16]);
  return 0;
}
]=])
  add_test(NAME e2e.launch_bounds_exec
           COMMAND sh -c "${SIMTSYNC_NVCC} -cudart shared -arch=sm_75 -o ${hard2}/launch_bounds ${hard2}/launch_bounds.cu && ${expect} 0 '16 threads: cudaSuccess; 32 threads: cudaErrorLaunchOutOfResources; thread 16 ran: 0' $<TARGET_FILE:simtsync> exec --mode functional -- ${hard2}/launch_bounds")
  set_tests_properties(e2e.launch_bounds_exec PROPERTIES TIMEOUT 300)
endif()
