#!/usr/bin/env bash
# The elan4 fabric's runs in the results store (regress/testlist:
# elan4fab_store_smoke, elan4fab_store_agree_neg, elan4fab_store_rows_neg; docs/elan4fab.md "Results in the store"):
#   e4fab.bad_db    --db= a path that cannot be a database: usage error (exit 2), the path named, no verdict
#   e4fab.db_rows   put, sizes, getsizes and dmabw on 4 nodes into one database (a temporary path):
#                   one run row each (tool, seed, nodes, clock, status ok, the test as a parameter);
#                   the put's 5 packet rows with their hop and stage rows (every stage reached);
#                   one result row per (size, mechanism) of each sweep
#   e4fab.db_agree  the queries give what the simulator printed: the measured put's stages
#                   (store_report stages --packet=2) are its printed breakdown, stage by stage, and
#                   getsizes' result rows are its printed table, cycle for cycle
#   mk/elan4fab-store-smoke.sh [--bug=B --expect-fail=check:ID] [--seed=N --out=D --name=X]
# --bug=B plants a testbench bug in the simulator: db_skip_stage (--tb-bug=db_skip_stage on the
# put run: the measured put's "packet formed" stage is not written to the database) must fire
# e4fab.db_agree; db_skip_result (--tb-bug=db_skip_result on the sizes run: its first DMA
# result row is not written) must fire e4fab.db_rows.
# Uses $NETCOSIM_BIN_DIR (regress), else the newer of build/asan/bin and build/bin.
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/elan4fab-store-smoke name=elan4fab_store_smoke bug="" expect=""
for a in "$@"; do
  case $a in
    --bug=db_skip_stage | --bug=db_skip_result) bug=${a#--bug=} ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} expect=${expect%@0} ;;
    --seed=*) seed=${a#--seed=} ;; --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "elan4fab-store-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "elan4fab-store-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
bin=${NETCOSIM_BIN_DIR:-}
if [[ -z $bin ]]; then
  bin=build/bin
  [[ build/asan/bin/elan4_fabric_sim -nt build/bin/elan4_fabric_sim ]] && bin=build/asan/bin
fi
sim=$bin/elan4_fabric_sim rep=$bin/store_report
[[ -x $rep ]] || rep=build/bin/store_report
for x in "$sim" "$rep"; do [[ -x $x ]] || { echo "elan4fab-store-smoke: $x is missing (make it)" >&2; exit 2; }; done
command -v sqlite3 > /dev/null || { echo "elan4fab-store-smoke: the sqlite3 shell is missing (make deps)" >&2; exit 2; }
d=$(mktemp -d "${TMPDIR:-/tmp}/e4fab-db.XXXXXX") || exit 2
trap 'rm -rf "$d"' EXIT
mkdir -p "$out"
first=""
fail() { [[ -z $first ]] && first="$1: $2"; echo "check: FAIL $1: $2"; }
ok() { echo "check: ok   $1: $2"; }
db=$d/e4fab.db
q() { sqlite3 -batch -bail "$db" "$@"; }

# e4fab.bad_db: a usage error, the path named, no verdict line
bad=/nonexistent-dir/netcosim/e4fab.db
"$sim" --test=put --nodes=4 --dst=1 --seed="$seed" --db=$bad > "$out/bad.out" 2> "$out/bad.err"
rc=$?
if [[ $rc == 2 ]] && grep -q "$bad" "$out/bad.err" && ! grep -q 'TEST FAILED\|TEST PASSED' "$out/bad.out"; then
  ok e4fab.bad_db "--db=$bad: exit 2: $(head -1 "$out/bad.err")"
else
  fail e4fab.bad_db "--db=$bad: exit $rc (expected 2 with the path named on stderr, no verdict)"
fi

# four runs into one database
tbp="" tbs=""
[[ $bug == db_skip_stage ]] && tbp=--tb-bug=db_skip_stage
[[ $bug == db_skip_result ]] && tbs=--tb-bug=db_skip_result
runs=(
  "put --test=put --nodes=4 --dst=1 --nic=lockstep --sw=lockstep $tbp"
  "sizes --test=sizes --nodes=4 --dst=1 --max-bytes=256 $tbs"
  "getsizes --test=getsizes --nodes=4 --dst=1 --max-bytes=256"
  "dmabw --test=dmabw --nodes=4 --dst=1 --rounds=2 --max-bytes=1024"
)
for r in "${runs[@]}"; do
  t=${r%% *}
  # shellcheck disable=SC2086
  if ! "$sim" ${r#* } --seed="$seed" --name="e4fab_$t" --db="$db" > "$out/$t.log" 2>&1 || ! grep -q "^db: $db" "$out/$t.log"; then
    fail e4fab.db_rows "the $t run failed or wrote no database (log: $out/$t.log)"
  fi
done

if [[ -z $first ]]; then
  # e4fab.db_rows: what each run wrote, counted by queries
  got=$(q "SELECT group_concat(name || ':' || tool || ':' || seed || ':' || nodes || ':' || clock_mhz || ':' || status
          || ':' || (SELECT value FROM params p WHERE p.run = r.run AND key = 'test'), ' ') FROM runs r ORDER BY run")
  want="e4fab_put:elan4_fabric_sim:$seed:4:250.0:ok:put e4fab_sizes:elan4_fabric_sim:$seed:4:250.0:ok:sizes"
  want+=" e4fab_getsizes:elan4_fabric_sim:$seed:4:250.0:ok:getsizes e4fab_dmabw:elan4_fabric_sim:$seed:4:250.0:ok:dmabw"
  put=$(q "SELECT packets || '/' || hops || '/' || stages FROM runs WHERE run = 1")
  hops=$(q "SELECT SUM(hops) FROM packets WHERE run = 1")
  unreached=$(q "SELECT COUNT(*) FROM stages WHERE run = 1 AND cycle IS NULL")
  orphans=$(q "SELECT COUNT(*) FROM stages s WHERE run = 1 AND NOT EXISTS (SELECT 1 FROM packets p WHERE p.run = 1 AND p.id = s.packet)")
  # each sweep: the sizes its table printed, times two mechanisms (dmabw: one-way and both ways)
  n_sizes=$(awk '/^ +bytes +STEN/ {on = 1; next} on && /^ +[0-9]+ / {n++} on && !/^ +[0-9]+ / {on = 0} END {print n + 0}' "$out/sizes.log")
  n_get=$(awk '/^ +bytes +READ/ {on = 1; next} on && /^ +[0-9]+ / {n++} on && !/^ +[0-9]+ / {on = 0} END {print n + 0}' "$out/getsizes.log")
  n_bw=$(awk '/^ +bytes +one-way/ {on = 1; next} on && /^ +[0-9]+ / {n++} on && !/^ +[0-9]+ / {on = 0} END {print n + 0}' "$out/dmabw.log")
  res=$(q "SELECT group_concat(results, ' ') FROM runs ORDER BY run")
  # put: 1 result (the measured put); sizes: 2 per size; getsizes: 4 per size (to data, to interrupt); dmabw: 2 per size
  want_res="1 $((2 * n_sizes)) $((4 * n_get)) $((2 * n_bw))"
  if [[ $got != "$want" ]]; then
    fail e4fab.db_rows "the runs table holds '$got', want '$want'"
  elif [[ ${put%%/*} != 5 || ${put#*/} != "$hops/"* || $unreached != 0 || $orphans != 0 || $hops -lt 5 ]]; then
    fail e4fab.db_rows "the put run: packets/hops/stages $put (want 5 packets, hops = the packets' hop counts $hops), $unreached stages not reached, $orphans stages without a packet"
  elif ((n_sizes < 3 || n_get < 3 || n_bw < 1)) || [[ $res != "$want_res" ]]; then
    fail e4fab.db_rows "result rows per run $res, want $want_res (sizes $n_sizes, getsizes $n_get, dmabw $n_bw printed)"
  else
    ok e4fab.db_rows "4 runs; put: $put packet/hop/stage rows; results per run: $res"
  fi
  # e4fab.db_agree: the measured put's stages, +cycles, as printed and as queried
  printed=$(awk '/^stage +cycle +\+cycles/ {on = 1; next} on && NF == 0 {exit} on {print substr($0, 1, 44) "|" $0}' "$out/put.log" |
    awk -F'|' '{ split($2, f, " "); s = $1; sub(/ +$/, "", s); n = split(substr($2, 45), g, " "); print s ":" g[1] }' |
    sed 's/ (first dword on ht_\*)//; s/ (HEAD out)//; s/ (HEAD in)//; s/ (lm_\*)//; s/ (TOKEN in)//')
  queried=$("$rep" "$db" stages --run=1 --packet=2 --format=csv | tail -n +2 |
    awk -F'"' '{ split($3, f, ","); print $2 ":" f[4] }' |
    sed 's/ (first dword on ht_\*)//; s/ (HEAD out)//; s/ (HEAD in)//; s/ (lm_\*)//; s/ (TOKEN in)//')
  if [[ -z $printed || $printed != "$queried" ]]; then
    fail e4fab.db_agree "the measured put's stages differ: printed [$(echo $printed | tr '\n' ' ')], queried [$(echo $queried | tr '\n' ' ')]"
  else
    gp=$(awk '/^ +bytes +READ/ {on = 1; next} on && /^ +[0-9]+ / {print $1, $2, $5} on && !/^ +[0-9]+ / {on = 0}' "$out/getsizes.log")
    gq=$(q "SELECT a.x || ' ' || CAST(a.value AS INTEGER) || ' ' || CAST(b.value AS INTEGER) FROM results a JOIN results b
            ON b.run = a.run AND b.x = a.x AND b.series = a.series AND b.label = 'DMA'
            WHERE a.run = 3 AND a.series = 'get_latency' AND a.label = 'READ' ORDER BY a.x" | sed 's/\.0 / /')
    if [[ -z $gp || $gp != "$gq" ]]; then
      fail e4fab.db_agree "getsizes: printed [$(echo $gp | tr '\n' ';')], queried [$(echo $gq | tr '\n' ';')]"
    else
      ok e4fab.db_agree "the measured put's $(echo "$printed" | wc -l) stages and getsizes' $(echo "$gp" | wc -l) sizes as printed"
    fi
  fi
fi

. mk/script-verdict.sh
script_verdict "$first" "$expect" "make sim T=$name SEED=$seed"
