#!/usr/bin/env bash
# The hotspot experiment's runs in the results store (regress/testlist:
# cp_hotspot_store_smoke, cp_hotspot_store_rows_neg, cp_hotspot_store_agree_neg; docs/cp.md §14):
#   hotspot.bad_db    --db= a path that cannot be a database: usage error (exit 2), the path named, no verdict
#   hotspot.db_rows   two short runs (N = 16, no CM and ECM, 10 ms) into one database (a temporary path):
#                     one run row each (tool, seed, nodes, the CP's clock, status ok, the steady state
#                     and t_end in CP cycles, its row counts); every scenario key a params row, and
#                     result.digest; "summary" rows = summary.csv's figures; "bin" rows = t_end_ms /
#                     bin_ms bins for each of timeseries.csv's 15 columns; "flow" rows = N - 1
#   hotspot.db_agree  the queries of mk/cp-hotspot.sh (csv summary, timeseries, flows, params) give,
#                     byte for byte, the summary.csv, timeseries.csv, flows.csv and params.scn the
#                     runs wrote themselves, and the events the runs printed
#   mk/cp-hotspot-store-smoke.sh [--bug=db_skip_bin|db_bin_start --expect-fail=check:ID] [--seed=N --out=D --name=X]
# --bug= plants a testbench bug in what the ECM run writes (cp_hotspot_sim --tb-bug=):
# db_skip_bin leaves each series' last bin out (check hotspot.db_rows must fire), db_bin_start
# writes each bin at its start time (hotspot.db_agree must fire). Uses $NETCOSIM_BIN_DIR
# (regress), else the newer of build/asan/bin and build/bin.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
seed=1 out=build/cp-hotspot-store-smoke name=cp_hotspot_store_smoke bug="" expect=""
for a in "$@"; do
  case $a in
    --bug=db_skip_bin | --bug=db_bin_start) bug=${a#--bug=} ;;
    --expect-fail=check:*) expect=${a#--expect-fail=check:} expect=${expect%@0} ;;
    --seed=*) seed=${a#--seed=} ;; --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    -h | --help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "cp-hotspot-store-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "cp-hotspot-store-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
bin=${NETCOSIM_BIN_DIR:-}
if [[ -z $bin ]]; then
  bin=build/bin
  [[ build/asan/bin/cp_hotspot_sim -nt build/bin/cp_hotspot_sim ]] && bin=build/asan/bin
fi
sim=$bin/cp_hotspot_sim
[[ -x $sim ]] || { echo "cp-hotspot-store-smoke: $sim is missing (make it)" >&2; exit 2; }
command -v sqlite3 > /dev/null || { echo "cp-hotspot-store-smoke: the sqlite3 shell is missing (make deps)" >&2; exit 2; }
d=$(mktemp -d "${TMPDIR:-/tmp}/cphs-db.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
mkdir -p "$out"
first=""
fail() { [[ -z $first ]] && first="$1: $2"; echo "check: FAIL $1: $2"; }
ok() { echo "check: ok   $1: $2"; }
db=$d/cphs.db
q() { sqlite3 -batch -bail "$db" "$@"; }
x() { DB=$db mk/cp-hotspot.sh csv "$@"; } # the experiment's own export queries

# a short hotspot: [2, 8) ms of 10 ms; steady state [5, 8) ms
T_END=10 N=16
short=("--n=$N" --scale=short --warmup_ms=1 --hot_start_ms=2 --hot_end_ms=8 "--t_end_ms=$T_END")

# hotspot.bad_db: a usage error, the path named, no verdict line
bad=/nonexistent-dir/netcosim/cphs.db
"$sim" "${short[@]}" --seed="$seed" --out="$d/bad" --db=$bad > "$out/bad.out" 2> "$out/bad.err"
rc=$?
if [[ $rc == 2 ]] && grep -q "$bad" "$out/bad.err" && ! grep -q 'TEST FAILED\|TEST PASSED' "$out/bad.out"; then
  ok hotspot.bad_db "--db=$bad: exit 2: $(head -1 "$out/bad.err")"
else
  fail hotspot.bad_db "--db=$bad: exit $rc (expected 2 with the path named on stderr, no verdict)"
fi

# two runs into one database
tb=()
[[ -n $bug ]] && tb=(--tb-bug="$bug")
cms=(none ecm)
for i in 0 1; do
  cm=${cms[$i]} args=(--cm="${cms[$i]}")
  [[ $cm == ecm ]] && args+=("${tb[@]}")
  if ! "$sim" "${short[@]}" "${args[@]}" --seed="$seed" --out="$d/$cm" --db="$db" > "$out/$cm.log" 2>&1 ||
    ! grep -q "^db: $db run $((i + 1)) " "$out/$cm.log"; then
    fail hotspot.db_rows "the $cm run failed or wrote no database (log: $out/$cm.log)"
  fi
done

if [[ -z $first ]]; then
  # hotspot.db_rows: what each run wrote, counted by queries, against what the scenario implies
  ps=$((1000000000 / 4000)) # CP cycles per ms at the nominal 250 MHz (testbench/clock.h)
  got=$(q "SELECT group_concat(tool || ':' || seed || ':' || nodes || ':' || clock_mhz || ':' || status || ':'
          || window_start || ':' || window_end || ':' || cycles, ' ') FROM runs ORDER BY run")
  one="cp_hotspot_sim:$seed:$N:250.0:ok:$((5 * ps)):$((8 * ps)):$((T_END * ps))"
  n_ts=$(($(head -1 "$d/none/timeseries.csv" | tr ',' '\n' | wc -l) - 1))
  n_sum=$(($(head -1 "$d/none/summary.csv" | tr ',' '\n' | wc -l) - 8)) # less name .. seed and digest
  n_par=$(($(grep -vc '^#' "$d/none/params.scn") + 3))                   # and check, inject_bug, result.digest
  bins=$(q "SELECT CAST(value AS INTEGER) FROM params WHERE run = 1 AND key = 'bin_ms'")
  want_run="$((n_sum + n_ts * T_END / bins + N - 1))"
  bad_rows=""
  for r in 1 2; do
    c=$(q "SELECT (SELECT COUNT(*) FROM params WHERE run = $r) || ' ' ||
          (SELECT COUNT(*) FROM results WHERE run = $r AND label = 'summary') || ' ' ||
          (SELECT COUNT(DISTINCT series) FROM results WHERE run = $r AND label = 'bin') || ' ' ||
          (SELECT group_concat(k, ',') FROM (SELECT DISTINCT COUNT(*) AS k FROM results WHERE run = $r AND label = 'bin' GROUP BY series)) || ' ' ||
          (SELECT COUNT(*) FROM results WHERE run = $r AND label = 'flow') || ' ' ||
          (SELECT results FROM runs WHERE run = $r)")
    w="$n_par $n_sum $n_ts $((T_END / bins)) $((N - 1)) $want_run"
    [[ $c == "$w" ]] || bad_rows+="run $r: params/summary/series/bins per series/flows/results $c, want $w; "
  done
  if [[ $got != "$one $one" ]]; then
    fail hotspot.db_rows "the runs table holds '$got', want '$one $one'"
  elif [[ -n $bad_rows ]]; then
    fail hotspot.db_rows "$bad_rows"
  else
    ok hotspot.db_rows "2 runs; each $n_par params, $n_sum summary figures, $n_ts series x $((T_END / bins)) bins, $((N - 1)) flows"
  fi

  # hotspot.db_agree: the export queries give the runs' own files byte for byte
  agree=""
  { head -1 "$d/none/summary.csv"; tail -n +2 "$d/none/summary.csv"; tail -n +2 "$d/ecm/summary.csv"; } > "$out/summary.want"
  x summary > "$out/summary.got" 2>&1
  cmp -s "$out/summary.want" "$out/summary.got" || agree+="summary.csv differs (diff $out/summary.want $out/summary.got); "
  for r in 1 2; do
    cm=${cms[$((r - 1))]}
    for f in timeseries flows; do
      x "$f" "$r" > "$out/$cm.$f.got" 2>&1
      cmp -s "$d/$cm/$f.csv" "$out/$cm.$f.got" || { cp "$d/$cm/$f.csv" "$out/$cm.$f.want"; agree+="run $r: $f.csv differs (diff $out/$cm.$f.want $out/$cm.$f.got); "; }
    done
    grep -v '^#' "$d/$cm/params.scn" | LC_ALL=C sort > "$out/$cm.params.want"
    x params "$r" | grep -v '^check = \|^inject_bug = \|^result\.digest = ' > "$out/$cm.params.got"
    cmp -s "$out/$cm.params.want" "$out/$cm.params.got" || agree+="run $r: params differ from params.scn (diff $out/$cm.params.want $out/$cm.params.got); "
    ev=$(awk '/^events:/ {print $2}' "$out/$cm.log")
    evq=$(q "SELECT CAST(value AS INTEGER) FROM results WHERE run = $r AND label = 'summary' AND series = 'events'")
    [[ -n $ev && $ev == "$evq" ]] || agree+="run $r: events printed $ev, queried $evq; "
  done
  if [[ -n $agree ]]; then
    fail hotspot.db_agree "$agree"
  else
    ok hotspot.db_agree "summary.csv (2 runs), 2 x timeseries.csv ($((T_END / bins)) bins), flows.csv, params.scn and the printed events, as queried"
  fi
fi

. mk/script-verdict.sh
script_verdict "$first" "$expect" "make sim T=$name SEED=$seed"
