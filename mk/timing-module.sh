#!/usr/bin/env bash
# make timing-module: one module of a co-simulation target, with exactly the
# parameters that target gives it, synthesised flat onto the osu018 cells as
# mk/timing-synth.sh does for whole targets, then timed by mk/timing-sta.awk.
# A designer closing a module's paths iterates on this (seconds to minutes)
# instead of the whole target (elan4_min: ~12 CPU-minutes).
#
#   mk/timing-module.sh TARGET MODULE      e.g. mk/timing-module.sh elan4_min elan4_cq_cache
#
# Writes build/timing/module/TARGET.MODULE.{blif,sta,stat,log} and prints the
# .sta lines: the worst path per kind (path MODULE KIND PS FROM TO; KIND
# r2r/i2r/r2o/i2o), then the NEAR (env, default 6) worst register or port
# groups per kind (near ...; mk/timing-sta.awk). Paths are cut at the
# module's ports: a path that continues in the parent is longer there.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { echo "usage: mk/timing-module.sh TARGET MODULE" >&2; exit 2; }
[[ $# -eq 2 ]] || usage
t=$1 mod=$2
lib=${TIMING_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
[[ -r $lib ]] || { echo "timing-module: $lib missing (make deps installs qflow-tech-osu018)" >&2; exit 2; }
line=$(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim | awk -v t="$t" '$1 == t')
[[ -n $line ]] || { echo "timing-module: no target '$t' in rtl/*/*.cosim" >&2; exit 2; }
read -r _ block top _ params <<< "$line"
chparam=""
for p in $params; do p=${p#-G}; chparam+=" -set ${p%%=*} ${p#*=}"; done
read_rtl="read_verilog -sv -DNETCOSIM_TIMING $(tr '\n' ' ' < "rtl/$block/$block.f"); chparam$chparam $top; hierarchy -top $top"

# pass 1: the name yosys gives the module's parameterisation under this target
names=$(yosys -p "$read_rtl; ls" 2>/dev/null | sed -n '/ modules:$/,/^$/p' |
  awk -v m="$mod" 'NR > 1 && NF == 1 { n = $1; s = n; sub(/^\$paramod[^\\]*\\/, "", s); sub(/\\.*/, "", s); if (s == m) print n }')
count=$(printf '%s\n' "$names" | grep -c .)
if [[ $count -ne 1 ]]; then
  echo "timing-module: target '$t' instantiates module '$mod' with $count parameterisations (need exactly 1)" >&2
  exit 2
fi

out=build/timing/module
mkdir -p "$out"
base=$out/$t.$mod
printf 'set_driving_cell BUFX2\nset_load 0.01\n' > "$base.constr"
# pass 2: that module alone becomes the top, flattened, mapped for delay
/usr/bin/time -o "$base.time" -f "%U %S" yosys -q -l "$base.log" -p "$read_rtl;
  hierarchy -top $names; synth -top $names -flatten ${TIMING_SYNTH_OPTS-};
  dfflibmap -liberty $lib;
  abc -liberty $lib -D ${TIMING_ABC_D:-1000} -constr $base.constr; opt_clean;
  tee -q -o $base.stat stat -liberty $lib;
  write_blif $base.blif" > /dev/null || { echo "timing-module: yosys failed (log: $base.log)" >&2; exit 1; }
awk -v NEAR="${NEAR:-6}" -f mk/timing-sta.awk "$lib" "$base.blif" > "$base.sta" || { echo "timing-module: STA failed" >&2; exit 1; }
awk -v m="$mod" '{ $2 = m; print }' "$base.sta"
awk '{ printf "yosys CPU %.1f s\n", $1 + $2 }' "$base.time"
