#!/usr/bin/env bash
# make timing-check: does every target close the nominal clock (mk/clock.mk)?
# A synthesis result (mk/timing-synth.sh + mk/timing-sta.awk), not a wall-clock time.
#
#   mk/timing-check.sh [options] [TARGET ...]
#     --all            every co-simulation target (the default with no TARGET)
#     --quick          the targets of TIMING_TEST_TARGETS (those make test checks)
#     --synth          first bring the results up to date (make timing T=...)
#     --mhz=F          check against F MHz instead of NOMINAL_MHZ
#     --known-fail=L   comma-separated list instead of TIMING_KNOWN_FAIL
#     --expect-fail=timing:T   negative: pass only if exactly target T fails the check
#     --seed=N --out=D --name=X   as the regression runner passes them (the seed is
#                      printed and otherwise unused: synthesis is deterministic)
#
# A target fails the check when its worst path exceeds period * (100 - margin) / 100
# and it is not in the known-fail list; when it is listed but closes (the list is
# stale); or when it could not be measured (timeout, memory, yosys error).
# Exit status: 0 pass, 1 a failed check, 2 usage.
set -uo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '4,14p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
# a value from mk/clock.mk unless the environment (make) gives it
clockvar() {
  local v=${!1:-}
  [[ -n $v ]] && { echo "$v"; return; }
  awk -v k="$1" '$1 == k && ($2 == "?=" || $2 == ":=" || $2 == "=") { $1 = $2 = ""; sub(/^ */, ""); sub(/ *#.*/, ""); print; exit }' mk/clock.mk
}

# run as a regression job, possibly under another make: start a make of our own
unset MAKEFLAGS MFLAGS MAKELEVEL
mhz=$(clockvar NOMINAL_MHZ) margin=$(clockvar TIMING_MARGIN_PCT) known=$(clockvar TIMING_KNOWN_FAIL)
synth=0 expect="" seed="" name="" sel=() mode="" known_opt=0
for a in "$@"; do
  case $a in
    --all) mode=all ;;
    --quick) mode=quick ;;
    --synth) synth=1 ;;
    --mhz=*) mhz=${a#--mhz=} ;;
    --known-fail=*) known=${a#--known-fail=}; known=${known//,/ }; known_opt=1 ;;
    --expect-fail=timing:*) expect=${a#--expect-fail=timing:} ;;
    --expect-fail=*) echo "timing-check: --expect-fail takes timing:<target>, not '${a#--expect-fail=}'" >&2; exit 2 ;;
    --seed=*) seed=${a#--seed=} ;;
    --out=*|--cycles=*) ;;
    --name=*) name=${a#--name=} ;;
    -h|--help) usage ;;
    -*) echo "timing-check: unknown option '$a'" >&2; usage ;;
    *) sel+=("$a") ;;
  esac
done
[[ $mhz =~ ^[0-9]+([.][0-9]+)?$ && $mhz != 0 ]] || { echo "timing-check: NOMINAL_MHZ '$mhz' is not a positive number" >&2; exit 2; }
[[ $margin =~ ^[0-9]+$ && $margin -lt 100 ]] || { echo "timing-check: TIMING_MARGIN_PCT '$margin' must be 0..99" >&2; exit 2; }
[[ -n $seed ]] && echo "seed: $seed (unused: synthesis is deterministic)"

all=$(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim | awk '{ print $1 }')
case $mode in
  all) sel=($all) ;;
  quick) sel=($(make -s --no-print-directory timing-test-targets)) ;;
  *) [[ ${#sel[@]} -gt 0 ]] || sel=($all) ;;
esac
for t in "${sel[@]}"; do
  grep -qx -- "$t" <<< "$all" || { echo "timing-check: no target '$t' (rtl/*/*.cosim)" >&2; exit 2; }
done
for t in $known; do
  grep -qx -- "$t" <<< "$all" || { echo "timing-check: TIMING_KNOWN_FAIL names '$t', which is not a target" >&2; exit 2; }
done

if [[ $synth == 1 ]]; then
  make -s --no-print-directory timing-results T="${sel[*]}" TIMING_KINDS=flat || { echo "TEST FAILED: make timing-results did not complete"; exit 1; }
fi

period=$(awk -v f="$mhz" 'BEGIN { printf "%.0f", 1e6 / f }')
limit=$(awk -v p="$period" -v m="$margin" 'BEGIN { printf "%.0f", p * (100 - m) / 100 }')
echo "timing-check: nominal ${mhz} MHz, period ${period} ps, a target closes at <= ${limit} ps (${margin} % margin)"
failed=()
for t in "${sel[@]}"; do
  d=build/timing/$t.flat
  listed=0; [[ " $known " == *" $t "* ]] && listed=1
  st=missing; secs=""
  [[ -f $d.status ]] && read -r st secs _ < "$d.status"
  if [[ $st != ok ]]; then
    printf '  %-24s not measured (%s%s): FAIL\n' "$t" "$st" "${secs:+ after $secs s}"
    failed+=("$t"); continue
  fi
  w=$(awk '$1 == "path" && $4 > w { w = $4 } END { print w + 0 }' "$d.sta")
  if (( w <= limit )); then
    if (( listed )); then
      printf '  %-24s %7d ps  closes, but TIMING_KNOWN_FAIL lists it: FAIL (take it off the list in mk/clock.mk)\n' "$t" "$w"
      failed+=("$t")
    else
      printf '  %-24s %7d ps  closes\n' "$t" "$w"
    fi
  elif (( listed )); then
    printf '  %-24s %7d ps  fails, known (TIMING_KNOWN_FAIL in mk/clock.mk)\n' "$t" "$w"
  else
    printf '  %-24s %7d ps  exceeds %d ps: FAIL\n' "$t" "$w" "$limit"
    failed+=("$t")
  fi
done

rerun="make timing-check T=\"${sel[*]}\" NOMINAL_MHZ=$mhz"
[[ $known_opt == 1 ]] && rerun+=" TIMING_KNOWN_FAIL=\"$known\""
[[ -n $name ]] && rerun="make sim T=$name SEED=${seed:-1}"
if [[ -n $expect ]]; then
  if [[ ${#failed[@]} -eq 1 && ${failed[0]} == "$expect" ]]; then
    echo "expected failure: check timing:$expect fired"
    echo "TEST PASSED"; exit 0
  fi
  echo "rerun: $rerun"
  echo "TEST FAILED: expected exactly timing:$expect to fail, got: ${failed[*]:-none}"; exit 1
fi
if [[ ${#failed[@]} -gt 0 ]]; then
  echo "rerun: $rerun"
  echo "TEST FAILED: timing:${failed[0]} (${#failed[@]} target(s): ${failed[*]})"; exit 1
fi
echo "TEST PASSED"
