#!/usr/bin/env bash
# The results store and the demo pipeline on a small fabric (regress/testlist:
# store_csv_agree, store_csv_agree_neg, demo_pipeline_smoke; docs/store.md):
#   store.bad_db      --db= a path that cannot be a database: usage error (exit 2), the path named, no verdict
#   store.csv_agree   a 16-node run's database, queried by store_report, gives the figures of the
#                     CSVs the fabric wrote (summary, per-hop breakdown, every link)
#   demo.report       (--demo) mk/demo.sh at 16 nodes: both runs, the records check, trace, plots,
#                     the path's waveform, index.html with its pictures
#   demo.records_equal  (--demo) its check that the run with RTL switches on the path gives the all-C
#                     run's records
#   mk/store-smoke.sh [--demo] [--bug=latency_from_injected --expect-fail=check:store.csv_agree]
#                     [--demo --bug=elite4_adaptive_first --expect-fail=check:demo.records_equal]
#                     [--seed=N --out=D --name=X]
# --bug=latency_from_injected plants a wrong latency query in store_report: check
# store.csv_agree must fire. --bug=elite4_adaptive_first plants an elite4 model bug in
# the demo's C-model switches (not in the RTL ones): check demo.records_equal must fire.
# Uses the newer of build/asan/bin and build/bin (make test builds the first).
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/store-smoke name=store_smoke bug="" expect="" demo=0
for a in "$@"; do
  case $a in
    --bug=latency_from_injected | --bug=elite4_adaptive_first) bug=${a#--bug=} ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} expect=${expect%@0} ;;
    --demo) demo=1 ;; --seed=*) seed=${a#--seed=} ;; --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "store-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "store-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
bin=build/bin
[[ build/asan/bin/elite4_fabric_core_sim -nt build/bin/elite4_fabric_core_sim ]] && bin=build/asan/bin
sim=$bin/elite4_fabric_core_sim rep=$bin/store_report
for x in "$sim" "$rep"; do [[ -x $x ]] || { echo "store-smoke: $x is missing (make build or build-asan)" >&2; exit 2; }; done
rm -rf "$out/smoke" && mkdir -p "$out/smoke"
first="" # the first failed check: id and message
fail() { [[ -z $first ]] && first="$1: $2"; echo "check: FAIL $1: $2"; }
ok() { echo "check: ok   $1: $2"; }

# store.bad_db: a usage error, the path named, no verdict line
bad=/nonexistent-dir/netcosim/x.db
"$sim" --nodes=16 --cycles=1000 --seed="$seed" --out="$out/smoke/bad" --db=$bad > "$out/smoke/bad.out" 2> "$out/smoke/bad.err"
rc=$?
if [[ $rc == 2 ]] && grep -q "$bad" "$out/smoke/bad.err" && ! grep -q 'TEST FAILED\|rerun:' "$out/smoke/bad.out"; then
  ok store.bad_db "--db=$bad: exit 2: $(head -1 "$out/smoke/bad.err")"
else
  fail store.bad_db "--db=$bad: exit $rc (expected 2 with the path named on stderr, no verdict)"
fi

# store.csv_agree: the same run as CSV (the fabric's writers) and as rows (the store), compared by queries
db=$out/smoke/smoke.db
if ! "$sim" --nodes=16 --traffic=uniform --load=0.3 --cycles=4000 --seed="$seed" --name=smoke \
  --out="$out/smoke/run" --db="$db" > "$out/smoke/run.log" 2>&1; then
  fail store.run "the 16-node run failed (log: $out/smoke/run.log)"
else
  qbug=""
  [[ $bug == latency_from_injected ]] && qbug=--bug=$bug
  "$rep" "$db" check-csv "$out/smoke/run" $qbug > "$out/smoke/check.log" 2>&1
  rc=$?
  grep '^check:' "$out/smoke/check.log"
  if [[ $rc == 0 ]]; then
    ok store.csv_agree "the queries on $db agree with $out/smoke/run/{summary,breakdown,links}.csv"
  else
    fail store.csv_agree "$(grep -m1 'check: FAIL\|error' "$out/smoke/check.log" | sed 's/^check: FAIL store.csv_agree: //')"
  fi
fi

if ((demo)) && [[ -z $first ]]; then
  dargs=()
  [[ $bug == elite4_adaptive_first ]] && dargs=(--model-bug="$bug" --sweep=off --waves=off)
  if ./mk/demo.sh --nodes=16 --cycles=3000 --seed="$seed" --bin-dir="$bin" --out="$out/demo" "${dargs[@]}" > "$out/demo.log" 2>&1; then
    html=$out/demo/index.html
    imgs=$(grep -o 'src="[^"]*"' "$html" | sed 's/src="//; s/"$//')
    missing=""
    for i in $imgs; do [[ -s $out/demo/$i ]] || missing+=" $i"; done
    if grep -q '<table>' "$html" && grep -q 'packet_path.png' "$html" && [[ -z $missing && -n $imgs ]] &&
      grep -q 'Elan4 command processor' "$html"; then
      ok demo.report "$html: breakdown table, $(echo "$imgs" | wc -w) pictures ($(tail -2 "$out/demo.log" | head -1 | sed 's/^demo: //'))"
    else
      fail demo.report "$html lacks the breakdown table, the Elan4 put's Table 3 rows or pictures:${missing:- no images}"
    fi
  elif grep -q 'check demo.records_equal' "$out/demo.log"; then
    fail demo.records_equal "$(grep -m1 'check demo.records_equal' "$out/demo.log" | sed 's/^demo: FAILED: //')"
  else
    fail demo.report "mk/demo.sh --nodes=16 failed: $(grep -m1 'FAILED' "$out/demo.log") (log: $out/demo.log)"
  fi
fi

. mk/script-verdict.sh
script_verdict "$first" "$expect" "make sim T=$name SEED=$seed"
