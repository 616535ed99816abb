#!/usr/bin/env bash
# Known-answer test of mk/timing-sta.awk on hand-made netlists of osu018 cells:
# each path kind is told apart with the right start and end, a longer inverter
# chain is slower by a plausible per-stage delay, and a combinational loop is
# counted. Run by the regression (regress/testlist, timing_sta_selftest).
#   mk/timing-sta-test.sh [--bug=swap_kinds|near_skips_worst --expect-fail=check:sta.KIND] [--seed=N --out=D --name=X]
# --bug plants a bug in the STA; with --expect-fail the run passes only if it fails
# and the first check to fire is the one named, as the lockstep's negatives do.
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/timing/selftest name="" bug="" expect=""
for a in "$@"; do
  case $a in
    --bug=*) bug=${a#--bug=} ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;; --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    *) echo "timing-sta-test: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
echo "seed: $seed (unused: the netlists are fixed)"
lib=${TIMING_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}
[[ -r $lib ]] || { echo "timing-sta-test: $lib missing (make deps)" >&2; exit 2; }
mkdir -p "$out"

# model chainN: q1 -N inverters-> q2 (r2r), a -2-> q1 (i2r), q2 -3-> y (r2o), a -1-> z (i2o)
chain() {
  local m=$1 n=$2 i
  echo ".model $m"; echo ".inputs clk a"; echo ".outputs y z"
  echo ".subckt DFFPOSX1 CLK=clk D=d1 Q=q1"
  echo ".subckt DFFPOSX1 CLK=clk D=r$n Q=q2"
  echo ".names q1 r0"; echo "1 1"
  for ((i = 1; i <= n; i++)); do echo ".subckt INVX1 A=r$((i - 1)) Y=r$i"; done
  echo ".subckt INVX1 A=a Y=i1"; echo ".subckt INVX1 A=i1 Y=d1"
  echo ".subckt INVX1 A=q2 Y=o1"; echo ".subckt INVX1 A=o1 Y=o2"; echo ".subckt INVX1 A=o2 Y=y"
  echo ".subckt INVX1 A=a Y=z"
  echo ".end"
}
{
  chain chain8 8
  chain chain16 16
  # a loop: two cross-coupled NANDs, and nothing else
  printf '.model loop\n.inputs s r\n.outputs q\n.subckt NAND2X1 A=s B=qb Y=q\n.subckt NAND2X1 A=r B=q Y=qb\n.end\n'
} > "$out/selftest.blif"
awk -v BUG="$bug" -v NEAR=3 -f mk/timing-sta.awk "$lib" "$out/selftest.blif" > "$out/selftest.sta" || { echo "TEST FAILED: timing-sta.awk exited with an error"; exit 1; }
cat "$out/selftest.sta"

fails=0 fired=""
expect() { # model kind from to
  local got
  got=$(awk -v m="$1" -v k="$2" '$1 == "path" && $2 == m && $3 == k { print $5, $6, ($4 > 0) }' "$out/selftest.sta")
  if [[ $got != "$3 $4 1" ]]; then echo "check sta.$2: $1 $2 expected '$3 -> $4' with a positive delay, got '$got'"; fails=$((fails + 1)); fired+=" sta.$2"; fi
}
for m in chain8 chain16; do
  expect $m r2r q1 ff:q2
  expect $m i2r a ff:q1
  expect $m r2o q2 out:y
  expect $m i2o a out:z
done
# the worst path group of each kind (NEAR) is the worst path itself
near=$(awk '$1 == "path" && $4 > 0 { p[$2 " " $3] = $4 " " $5 " " $6 }
  $1 == "near" && !(($2 " " $3) in n) { n[$2 " " $3] = $4 " " $5 " " $6 }
  END { for (k in p) if (n[k] != p[k]) { print k ": path " p[k] ", near " n[k]; exit } }' "$out/selftest.sta")
if [[ -n $near ]]; then echo "check sta.near: $near"; fails=$((fails + 1)); fired+=" sta.near"; fi
# eight more inverters with fanout 1: between 8 x 20 ps and 8 x 300 ps more
d=$(awk '$1 == "path" && $3 == "r2r" { v[$2] = $4 } END { print v["chain16"] - v["chain8"] }' "$out/selftest.sta")
if (( d < 160 || d > 2400 )); then echo "check sta.stage_delay: 8 more inverters added $d ps"; fails=$((fails + 1)); fired+=" sta.stage_delay"; fi
loops=$(awk '$1 == "info" && $2 == "loop" { print $8 }' "$out/selftest.sta")
if [[ $loops != 2 ]]; then echo "check sta.loops: expected 2 cells in the loop, got '$loops'"; fails=$((fails + 1)); fired+=" sta.loops"; fi

if [[ -n $expect ]]; then
  first=${fired# }; first=${first%% *}
  if [[ $first == "$expect" ]]; then
    echo "expected failure: check $expect fired first"; echo "TEST PASSED"; exit 0
  fi
  echo "rerun: ${name:+make sim T=$name SEED=$seed}${name:-mk/timing-sta-test.sh --bug=$bug --expect-fail=check:$expect}"
  echo "TEST FAILED: expected check $expect to fire first, got:${fired:- none}"; exit 1
fi
if (( fails )); then
  echo "rerun: ${name:+make sim T=$name SEED=$seed}${name:-mk/timing-sta-test.sh}"
  echo "TEST FAILED: $fails timing-sta check(s) failed"; exit 1
fi
echo "8 more inverters: +$d ps"
echo "TEST PASSED"
