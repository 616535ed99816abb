#!/usr/bin/env bash
# make timing, one synthesis: a co-simulation target mapped onto the osu018
# standard cells, flat (the block's real figures) or hierarchical (per-module
# figures, each module with the target's parameters, paths cut at module ports).
#
#   mk/timing-synth.sh TARGET flat|hier
#
# Writes build/timing/TARGET.KIND.{blif,stat,sta,log,status} (sta: mk/timing-sta.awk, with
# the TIMING_NEAR (default 8) worst path groups per kind as "near" lines). The status file has one
# line, "STATE WALL CPU" with STATE ok, timeout, memory or failed, WALL the elapsed
# and CPU the user+system seconds of yosys (CPU is what compares across machines
# and loads): a run that cannot finish is recorded, never dropped. Limits: TIMING_TIMEOUT
# seconds (default 3600) and TIMING_VMEM KiB of virtual memory (default 16000000,
# as make synth).
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: mk/timing-synth.sh TARGET flat|hier" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
t=$1 kind=$2
[[ $kind == flat || $kind == hier ]] || usage

lib=${TIMING_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
[[ -r $lib ]] || { echo "timing: $lib missing (make deps installs qflow-tech-osu018)" >&2; exit 2; }

# TARGET BLOCK TOP GATE -GP=V ... (mk/targets.awk's script format)
line=$(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim | awk -v t="$t" '$1 == t')
[[ -n $line ]] || { echo "timing: no target '$t' in rtl/*/*.cosim" >&2; exit 2; }
read -r _ block top _ params <<< "$line"
chparam=""
for p in $params; do p=${p#-G}; chparam+=" -set ${p%%=*} ${p#*=}"; done

out=build/timing
mkdir -p "$out"
base=$out/$t.$kind
# one run per target and kind at a time (regression jobs may ask concurrently)
exec 9> "$base.lock"
flock 9
flatten=""; [[ $kind == flat ]] && flatten="-flatten"
# yosys' SAT-based resource sharing (the SHARE pass of synth) did not finish on
# elite4_p8 in 50 min at 14 GB; without it the flat run takes ~100 s of CPU
# (docs/timing.md). cp_exp (a 256-entry flow table) had the same problem.
# Other targets keep synth's default; TIMING_SYNTH_OPTS overrides for any
# target (e.g. TIMING_SYNTH_OPTS=-noshare).
synth_opts=${TIMING_SYNTH_OPTS-}
if [[ -z ${TIMING_SYNTH_OPTS+set} && ( $t == elite4_p8 || $t == cp_exp ) ]]; then synth_opts=-noshare; fi

# abc maps for delay: -D is a target no block meets (1 ns), so every cone is
# mapped for its shortest delay, independently of the clock under study.
# -constr makes abc size buffers and report `stime -p` (its critical path).
printf 'set_driving_cell BUFX2\nset_load 0.01\n' > "$base.constr"
# NETCOSIM_TIMING: RTL may mark nets `keep` for this flow only (cp_ks_add)
script="read_verilog -sv -DNETCOSIM_TIMING $(tr '\n' ' ' < "rtl/$block/$block.f");
  chparam$chparam $top; synth -top $top $flatten $synth_opts;
  dfflibmap -liberty $lib;
  abc -liberty $lib -D ${TIMING_ABC_D:-1000} -constr $base.constr; opt_clean;
  tee -q -o $base.stat.tmp stat -liberty $lib;
  write_blif $base.blif.tmp"

# results replace the old ones only at the end (mv), so a reader never sees half
start=$(date +%s)
( ulimit -v "${TIMING_VMEM:-16000000}"
  exec timeout "${TIMING_TIMEOUT:-3600}" /usr/bin/time -o "$base.time" -f "%U %S" \
    yosys -q -l "$base.log" -p "$script" ) >/dev/null 2>"$base.err"
rc=$?
secs=$(( $(date +%s) - start ))
# CPU seconds (unknown when timeout killed the run before time could write them)
cpu=$(awk 'NF == 2 && $1 ~ /^[0-9.]+$/ { printf "%.1f", $1 + $2 }' "$base.time" 2>/dev/null)
secs="$secs ${cpu:--}"
if [[ $rc -eq 0 ]]; then
  mv "$base.stat.tmp" "$base.stat" && mv "$base.blif.tmp" "$base.blif"
  # our STA over the mapped netlist (mk/timing-sta.awk), then abc's own figure
  # for the worst combinational cone (stime -p), kept as a cross-check
  if awk -v NEAR="${TIMING_NEAR:-8}" -f mk/timing-sta.awk "$lib" "$base.blif" > "$base.sta.tmp"; then
    grep -o 'Delay = *[0-9.]* ps' "$base.log" | awk '{ if ($3 > m) m = $3 } END { printf "abc stime %.0f\n", m }' >> "$base.sta.tmp"
    mv "$base.sta.tmp" "$base.sta"
    echo "ok $secs" > "$base.status.tmp"
  else
    echo "failed $secs (timing-sta)" > "$base.status.tmp"
  fi
else
  rm -f "$base.stat" "$base.blif" "$base.sta"
  if [[ $rc -eq 124 ]]; then echo "timeout $secs" > "$base.status.tmp"
  elif grep -qi "bad_alloc\|out of memory\|Cannot allocate" "$base.err" "$base.log" 2>/dev/null; then
    echo "memory $secs" > "$base.status.tmp"
  else echo "failed $secs" > "$base.status.tmp"
  fi
fi
mv "$base.status.tmp" "$base.status"
rm -f "$base.stat.tmp" "$base.blif.tmp" "$base.sta.tmp"
echo "  TIMING   $t ($kind): $(cat "$base.status")"
