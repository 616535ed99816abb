#!/usr/bin/env bash
# Traffic replay's bad input (regress/testlist fabric_trace_bad_input; docs/elite4.md §11.3):
#   trace.bad_input   each malformed trace below is a usage error of elite4_fabric_core_sim:
#                     exit status 2, the file, line and field named on stderr, no verdict line
#   mk/fabric-trace-smoke.sh [--bug=good_trace --expect-fail=check:trace.bad_input] [--seed=N --out=D --name=X]
# --bug=good_trace slips a well-formed trace in among the malformed ones: the run it
# starts is not a usage error, so check trace.bad_input must fire.
# Uses the newer of build/asan/bin and build/bin (make test builds the first).
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/trace-smoke name=fabric_trace_bad_input bug="" expect=""
for a in "$@"; do
  case $a in
    --bug=good_trace) bug=good_trace ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;;
    --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fabric-trace-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "fabric-trace-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
bin=build/bin
[[ build/asan/bin/elite4_fabric_core_sim -nt build/bin/elite4_fabric_core_sim ]] && bin=build/asan/bin
sim=$bin/elite4_fabric_core_sim
[[ -x $sim ]] || { echo "fabric-trace-smoke: $sim is missing (make build or build-asan)" >&2; exit 2; }
d=$out/traces && rm -rf "$d" && mkdir -p "$d"
# name|content|what stderr must say (FILE:LINE: field NAME)
cases=(
  "order|5 1 2\n3 1 4\n|order.trace:2: field cycle"
  "text|# a comment\n5 1 2\n7 1 x\n|text.trace:3: field dst"
  "node|5 1 99\n|node.trace:1: field dst"
  "self|5 1 1\n|self.trace:1: field dst"
  "window|5000 1 2\n|window.trace:1: field cycle"
  "fields|5 1 2 7\n|fields.trace:1: more than three fields"
)
[[ $bug == good_trace ]] && cases+=("good|5 1 2\n9 1 3\n|good.trace:1: field")
first=""
for c in "${cases[@]}"; do
  IFS='|' read -r n body want <<< "$c"
  printf "$body" > "$d/$n.trace"
  "$sim" --nodes=16 --cycles=1000 --seed="$seed" --replay="$d/$n.trace" --out="$d/$n.run" > "$d/$n.out" 2> "$d/$n.err"
  rc=$?
  if [[ $rc == 2 ]] && grep -qF "$want" "$d/$n.err" && ! grep -q 'TEST FAILED\|rerun:' "$d/$n.out"; then
    echo "check: ok   trace.bad_input: $n: exit 2: $(head -1 "$d/$n.err")"
  else
    echo "check: FAIL trace.bad_input: $n: exit $rc (expected 2 and '$want' on stderr, no verdict)"
    [[ -z $first ]] && first="trace.bad_input: $n.trace: exit $rc"
  fi
done
. mk/script-verdict.sh
script_verdict "$first" "$expect" "make sim T=$name SEED=$seed"
