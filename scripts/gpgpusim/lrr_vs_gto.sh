#!/usr/bin/env bash
# LRR against GTO in GPGPU-Sim 4.2 and in simtsync on the same synchronization kernels (issue 15:
# is our LRR stronger than the seed's because of our model?). GPGPU-Sim runs its SM2_GTX480
# configuration with only the scheduler switched (plus compute capability 70, since the kernel is
# built for compute_70 by CUDA 11.8, and no power model); simtsync runs gtx480 with lrr and
# strict gto (GPGPU-Sim's GTO does not rotate its age order). The kernels are the workloads'
# own .cu files, included by the hosts in this folder.
#   scripts/gpgpusim/lrr_vs_gto.sh SIMTSYNC_BINARY CASE...    CASE: atm96 atm24 cpds nw1_4 nw1_16
#   ht30_bB (HT, 30 CTAs, B buckets); SCHEDULERS="lrr" runs one policy
# Needs GPGPU-Sim built by the side-by-side tool's setup.sh ($GPGPUSIM_HOME, default
# ~/.cache/gpgpusim-4.2). Prints one line per case and simulator: cycles, warp instructions,
# validation. GPGPU-Sim takes minutes per point where simtsync takes seconds; a GPGPU-Sim point
# stops at MAX_CYCLES (default 10 M; strict GTO livelocks on ATM's paper grid in simtsync).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
sim=$(readlink -f "$1"); shift
H=${GPGPUSIM_HOME:-$HOME/.cache/gpgpusim-4.2}
[ -f "$H/.ready" ] || { echo "build GPGPU-Sim first (the side-by-side tool's setup.sh)"; exit 2; }
out=${OUT_DIR:-$(mktemp -d)}
mkdir -p "$out"
build() {  # $1: host name (ht: the side-by-side tool's own host of the same kernel)
  [ -x "$out/$1" ] && return
  [ ! -f "$here/$1.cu" ] && [ -x "$H/apps/$1" ] && { ln -s "$H/apps/$1" "$out/$1"; return; }
  ( set +eu; source $H/env.sh; nvcc -ccbin g++-11 -O3 -cudart shared -I"$repo/workloads" \
      -I"$repo/workloads/include" -gencode arch=compute_70,code=[sm_70,compute_70] \
      -o "$out/$1" "$here/$1.cu" )
}
for c in "$@"; do
  case $c in
    atm96) app=(atm 96 256 5 1000); sts=(atm_simt --size paper) ;;
    atm24) app=(atm 24 256 5 1000); sts=(atm_simt --size default) ;;
    cpds)  app=(cp_ds 128 128 64 256); sts=(cp_ds_simt --size paper) ;;
    nw1_4)  app=(nw1 4 10); sts=(nw1 --size default) ;;
    nw1_16) app=(nw1 16 10); sts=(nw1 --set workload.tiles=16) ;;
    ht30_b*) b=${c#ht30_b}; app=(ht 30 256 $b 4); sts=(ht --set workload.ctas=30 --set workload.buckets=$b) ;;
    *) echo "unknown case $c"; continue ;;
  esac
  build "${app[0]}" || { echo "$c: build failed"; continue; }
  for s in ${SCHEDULERS:-lrr gto}; do
    d=$out/$c.gpgpusim.$s; mkdir -p $d
    ( set +eu; source $H/env.sh; cd $d
      cp $H/gpgpu-sim/configs/tested-cfgs/SM2_GTX480/*.config $H/gpgpu-sim/configs/tested-cfgs/SM2_GTX480/*.icnt .
      sed -i '/gpuwattch_xml_file/d' gpgpusim.config  # GPGPU-Sim 4.2 names it accelwattch
      printf '%s\n' "-gpgpu_scheduler $s" "-gpgpu_ptx_force_max_capability 70" \
        "-power_simulation_enabled 0" "-gpgpu_max_cycle ${MAX_CYCLES:-10000000}" >> gpgpusim.config
      /usr/bin/time -v "$out/${app[0]}" "${app[@]:1}" > sim.out 2> time.txt )
    gc=$(grep -o 'gpu_tot_sim_cycle = [0-9]*' $d/sim.out | tail -1 | grep -o '[0-9]*$')
    gi=$(grep -o 'gpgpu_n_tot_w_icount = [0-9]*' $d/sim.out | tail -1 | grep -o '[0-9]*$')
    gu=$(awk -F': ' '/User time/{print $2}' $d/time.txt)
    gv=$(grep -c VALIDATED $d/sim.out)
    echo "$c gpgpusim $s cycles=$gc warp_instructions=$gi validated=$gv user_s=$gu"
    d=$out/$c.simtsync.$s; mkdir -p $d
    ( cd $d; "$sim" run "${sts[@]}" --config gtx480 --set sm.warp_scheduler.impl=$s \
        --set watchdog.no_completion_window=0 --set watchdog.max_cycles=${MAX_CYCLES:-10000000} \
        --json out.json > sim.out 2>&1 )
    python3 -c "import json;j=json.load(open('$d/out.json'));print('$c simtsync $s cycles=%s warp_instructions=%s validated=%s' % (j['cycles'], j.get('warp_instructions'), j['validated']))"
  done
done
echo "outputs in $out"
