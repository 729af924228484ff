# Issue 22: PTX the decoder cannot execute is rejected at PATH:LINE:COL with exit code 4, and a
# directory given as an input or config is a usage error (exit 2). The malformed PTX is written
# into the build tree so that no committed .ptx file is malformed.
set(hard ${CMAKE_CURRENT_BINARY_DIR}/hardening)
set(hard_head ".version 9.0\n.target sm_75\n.address_size 64\n.visible .entry k(.param .u64 p)\n{\n.reg .b32 %r<10>;\n.reg .b64 %rd<4>;\nld.param.u64 %rd1, [p];\n")
file(WRITE ${hard}/atom_no_operands.ptx "${hard_head}atom.global.add.u32;\nret;\n}\n")
file(WRITE ${hard}/ld_v8.ptx
     "${hard_head}ld.global.v8.u32 {%r1, %r2, %r3, %r4, %r5, %r6, %r7, %r8}, [%rd1];\nret;\n}\n")
file(WRITE ${hard}/wrong_count.ptx "${hard_head}  add.s32 %r1, %r2;\nret;\n}\n")
file(MAKE_DIRECTORY ${hard}/a_directory.ptx)

simtsync_e2e(reject_atom_no_operands 4
             "atom_no_operands.ptx:9:1: error: atom takes 3 or 4 operands, not 0"
             ${exe} analyze ${hard}/atom_no_operands.ptx)
simtsync_e2e(reject_ld_v8 4 "ld_v8.ptx:9:1: error: ld.v8 is unsupported"
             ${exe} analyze ${hard}/ld_v8.ptx)
simtsync_e2e(reject_wrong_operand_count 4 "wrong_count.ptx:9:3: error: add takes 3 operands, not 2"
             ${exe} analyze ${hard}/wrong_count.ptx)
simtsync_e2e(transform_rejects_wrong_operand_count 4
             "wrong_count.ptx:9:3: error: add takes 3 operands, not 2"
             ${exe} transform ${hard}/wrong_count.ptx)
simtsync_e2e(analyze_directory 2 "a_directory.ptx': it is a directory"
             ${exe} analyze ${hard}/a_directory.ptx)
simtsync_e2e(analyze_table_directory 2 "a_directory.ptx': it is a directory"
             ${exe} analyze --table ${hard}/a_directory.ptx)
simtsync_e2e(transform_directory 2 "a_directory.ptx': it is a directory"
             ${exe} transform ${hard}/a_directory.ptx)
simtsync_e2e(analyze_truth_directory 2 "--truth file '.*hardening': it is a directory"
             ${exe} analyze --table --truth ${hard} ${CMAKE_SOURCE_DIR}/tests/golden/issue13_spin_O0G.ptx)
simtsync_e2e(config_directory 2 "config file '.*hardening': it is a directory"
             ${exe} run vecadd --size test --config ${hard})
simtsync_e2e(config_missing 2 "config file '.*no_such.yaml': no such file"
             ${exe} run vecadd --size test --config ${hard}/no_such.yaml)
