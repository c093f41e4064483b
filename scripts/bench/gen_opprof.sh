#!/bin/sh
# gen_opprof.sh OUT DEVICES LAUNCHES [BLOCKS]: writes what `msprof op
# --output=OUT` leaves after a multi-device capture of a vector kernel:
# OUT/OPPROF_20261002081500_BENCHGENERATEDXX/device<d>/main_kernel_aiv/<n>/
# with OpBasicInfo_<ts17>.csv, PipeUtilization_<ts17>.csv and
# Memory_<ts17>.csv (BLOCKS block rows each, default 8), headers and quirks
# as the real files have them (trailing comma, NA for the cube columns).
# DEVICES x LAUNCHES launches in all; LAUNCHES <= 999 as msprof allows.
set -eu
[ $# -ge 3 ] || { echo "usage: gen_opprof.sh OUT DEVICES LAUNCHES [BLOCKS]" >&2; exit 2; }
out=$1 devs=$2 launches=$3 blocks=${4:-8}
[ "$launches" -le 999 ] || { echo "gen_opprof.sh: at most 999 launches per kernel" >&2; exit 2; }
root=$out/OPPROF_20261002081500_BENCHGENERATEDXX
mkdir -p "$root"
awk -v root="$root" -v devs="$devs" -v launches="$launches" 'BEGIN {
  for (d = 0; d < devs; d++) for (n = 0; n < launches; n++)
    print root "/device" d "/main_kernel_aiv/" n
}' | xargs mkdir -p
awk -v root="$root" -v devs="$devs" -v launches="$launches" -v blocks="$blocks" 'BEGIN {
  bh = "Op Name,Op Type,Task Duration(us),Block Dim,Mix Block Dim,Device Id,Pid,Current Freq,Rated Freq,"
  ph = "block_id,sub_block_id,aic_time(us),aic_total_cycles,aic_cube_time(us),aic_cube_ratio,aic_scalar_time(us),aic_scalar_ratio,aic_mte1_time(us),aic_mte1_ratio,aic_mte2_time(us),aic_mte2_ratio,aic_mte3_time(us),aic_mte3_ratio,aic_mte3_active_bw(GB/s),aic_fixpipe_time(us),aic_fixpipe_ratio,aic_fixpipe_active_bw(GB/s),aic_icache_miss_rate,aiv_time(us),aiv_total_cycles,aiv_vec_time(us),aiv_vec_ratio,aiv_scalar_time(us),aiv_scalar_ratio,aiv_mte2_time(us),aiv_mte2_ratio,aiv_mte2_active_bw(GB/s),aiv_mte3_time(us),aiv_mte3_ratio,aiv_mte3_active_bw(GB/s),aiv_icache_miss_rate,aic_mte1_active_bw(GB/s),aic_mte2_active_bw(GB/s),"
  mh = "block_id,sub_block_id,aic_time(us),aic_total_cycles,aic_l1_read_bw(GB/s),aic_l1_write_bw(GB/s),aic_main_mem_read_bw(GB/s),aic_main_mem_write_bw(GB/s),aic_mte1_instructions,aic_mte1_ratio,aic_mte2_instructions,aic_mte2_ratio,aic_mte3_instructions,aic_mte3_ratio,aiv_time(us),aiv_total_cycles,aiv_ub_to_gm_bw(GB/s),aiv_gm_to_ub_bw(GB/s),aiv_main_mem_read_bw(GB/s),aiv_main_mem_write_bw(GB/s),aiv_mte2_instructions,aiv_mte2_ratio,aiv_mte3_instructions,aiv_mte3_ratio,read_main_memory_datas(KB),write_main_memory_datas(KB),"
  na = "NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,"
  srand(42)
  for (d = 0; d < devs; d++) for (n = 0; n < launches; n++) {
    dir = root "/device" d "/main_kernel_aiv/" n
    ts = sprintf("20261002%06d%03d", 81500 + int(n / 60) * 100 + n % 60, n % 1000)
    dur = 8.2 + 0.4 * rand()
    f = dir "/OpBasicInfo_" ts ".csv"
    print bh > f
    printf "main_kernel_aiv,vector,%.6f,%d,NA,%d,%d,1800,1800,\n", dur, blocks, d, 4000 + d > f
    close(f)
    f = dir "/PipeUtilization_" ts ".csv"
    print ph > f
    for (b = 0; b < blocks; b++) {
      t = dur * (0.85 + 0.1 * rand())
      printf "%d,vector0,%s%.6f,%d,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f,NA,NA,\n", b, na, t, int(t * 1800), t * 0.4, 0.4, t * 0.1, 0.1, t * 0.5, 0.5, 80 + rand(), t * 0.3, 0.3, 60 + rand(), 0.02 > f
    }
    close(f)
    f = dir "/Memory_" ts ".csv"
    print mh > f
    for (b = 0; b < blocks; b++) {
      t = dur * (0.85 + 0.1 * rand())
      printf "%d,vector0,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,NA,%.6f,%d,%.6f,%.6f,%.6f,%.6f,4,0.5,2,0.3,%.6f,%.6f,\n", b, t, int(t * 1800), 6.5, 13.2, 13.5 + rand(), 6.6 + rand(), 130.5, 64.1 > f
    }
    close(f)
  }
}'
