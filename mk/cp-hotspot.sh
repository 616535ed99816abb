#!/usr/bin/env bash
# Seed 001's ECM/E2CM hotspot experiment: the matrix, its summary and plots.
#
#   mk/cp-hotspot.sh [run]     the matrix (below), 2 runs in parallel, every run into one
#                              SQLite store, build/reports/cp_hotspot/cp_hotspot.db
#                              (docs/store.md); then summary.csv (a CSV export of a query
#                              on it), a table and plots/*.svg (queries on it too)
#   mk/cp-hotspot.sh plot      only redo summary.csv, the table and the plots from the database
#   mk/cp-hotspot.sh csv summary|timeseries|flows|params [RUN]
#                              CSV export of a query (summary: the latest run of each name,
#                              else of RUN: a run id or a run name, its latest run)
#   mk/cp-hotspot.sh bench     simulation speed, CM none (and ECM), N = 16..256:
#                              events/s and simulated s per wall s -> bench.csv
#   mk/cp-hotspot.sh checks    the named checks, then their negatives (must fail)
#   mk/cp-hotspot.sh inputs    bad scenario files and flags: each must be refused with
#                              exit status 2 and a message naming file:line (or the
#                              flag) and the key, without a verdict or rerun line
#
# Environment:
#   BIN=build/bin/cp_hotspot_sim  JOBS=2  SEED=1  MODE=model|rtl  SCALE=full|short
#   MATRIX=seed  the seed's two studies: N = 16 x {Bernoulli, bursty B = 1.2, 12, 48,
#                120 us} x PAUSE on/off x {none, ECM, E2CM, E2CM-CP}, and N = 32..256 x
#                Bernoulli x PAUSE on/off x the four schemes (the large-configuration
#                deck); 88 runs
#   MATRIX=full  every combination CM x PAUSE x arrivals x N (200 runs; N = 256 bursty
#                runs are the long pole)
#   NS, CMS, ARRS, PAUSES   override the lists (e.g. NS="16 32" CMS="none ecm")
#   OUT=build/reports/cp_hotspot  DB=$OUT/cp_hotspot.db (kept across matrices: each run adds a
#                run row; the exports take the latest run of each name)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin/cp_hotspot_sim}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
MODE=${MODE:-model}
SCALE=${SCALE:-full}
MATRIX=${MATRIX:-seed}
OUT=${OUT:-build/reports/cp_hotspot}
DB=${DB:-$OUT/cp_hotspot.db}
what=${1:-run}

ALL_NS="16 32 64 128 256"
ALL_CMS="none ecm e2cm e2cm-cp"
ALL_ARRS="bernoulli bursty:1.2 bursty:12 bursty:48 bursty:120"
ALL_PAUSES="off on"

need_bin() { [[ -x $BIN ]] || { echo "cp-hotspot: $BIN missing (make $BIN)"; exit 2; }; }

# The name the binary gives a run (cphs_params_autoname).
run_name() { # n arr pause cm
  local a=$2
  if [[ $a == bernoulli ]]; then a=bern; else a=b${a#bursty:}; fi
  echo "n$1_${a}_pause$3_$4_${SCALE}"
}

matrix() { # prints "n arr pause cm" lines
  local ns=${NS:-} cms=${CMS:-$ALL_CMS} arrs=${ARRS:-} pauses=${PAUSES:-$ALL_PAUSES}
  if [[ $MATRIX == full || -n $ns || -n $arrs ]]; then
    for n in ${ns:-$ALL_NS}; do for a in ${arrs:-$ALL_ARRS}; do for p in $pauses; do for c in $cms; do
      echo "$n $a $p $c"; done; done; done; done
  else
    for a in $ALL_ARRS; do for p in $pauses; do for c in $cms; do echo "16 $a $p $c"; done; done; done
    for n in 32 64 128 256; do for p in $pauses; do for c in $cms; do echo "$n bernoulli $p $c"; done; done; done
  fi
}

run_one() { # n arr pause cm
  local name; name=$(run_name "$@")
  local dir="$OUT/$name" r
  mkdir -p "$dir"
  if "$BIN" --n="$1" --arrivals="$2" --pause="$3" --cm="$4" --scale="$SCALE" --seed="$SEED" \
       --mode="$MODE" --out="$dir" --db="$DB" > "$dir/log" 2>&1; then
    r="ok    $name ($(awk '/^wall_s:/{print $2}' "$dir/log") s)"
  else
    r="FAIL  $name: $(tail -1 "$dir/log")"
  fi
  # progress: run k of n, elapsed, and what is left at the mean rate so far
  local k el; k=$({ flock 9; echo >> "$PROG"; wc -l < "$PROG"; } 9> "$PROG.lock")
  el=$(($(date +%s) - T0))
  printf '  [%d/%d, %d s, ~%d s left] %s\n' "$k" "$TOTAL" "$el" $((el * (TOTAL - k) / k)) "$r"
}
export -f run_one run_name
export BIN SEED MODE SCALE OUT DB

# --- the results store: every export, table and plot is a query on $DB ---------
q() { sqlite3 -batch -bail "$DB" "$@"; }
need_db() {
  command -v sqlite3 > /dev/null || { echo "cp-hotspot: the sqlite3 shell is missing (make deps)" >&2; exit 2; }
  [[ -f $DB ]] || { echo "cp-hotspot: no database $DB (mk/cp-hotspot.sh run writes it)" >&2; exit 2; }
}

# summary.csv's figures, as cphs_summary_csv_row prints them (column:printf format);
# the text columns name .. seed come from the run's params, digest from result.digest
SUMMARY_COLS="tp_aggr_pre:%.6f tp_aggr_ss:%.6f tp_hot_hot:%.6f tp_hot_ss:%.6f q_ss_mean:%.1f q_ss_bin_min:%.1f
  q_ss_bin_max:%.1f q_ss_min:%.0f q_ss_max:%.0f q_peak:%.0f flow_mean:%.1f flow_min:%.1f flow_max:%.1f
  flow_in_band:%.4f drops:%d drops_hot:%d lost_frac:%.6f recovery_ms:%.1f bcn_neg:%d bcn_pos:%d bcn_max:%d
  fbcn:%d limiters_created:%d frames_gen:%d frames_out:%d cp_cycles:%d digest: events:%d wall_s:%.3f
  events_per_s:%.0f sim_s_per_wall_s:%.6f egress_peak:%.0f egress_drops:%d xoffs:%d xons:%d xoff_occ_min:%.0f
  xoff_occ_max:%.0f xon_occ_min:%.0f xon_occ_max:%.0f quench_hot_flows:%d quench_hot_frac:%.6f
  quench_cold_frac:%.6f lim_peak:%d lim_refused:%d"
# timeseries.csv's columns after t_ms (cphs_ts_cols)
TS_COLS="tp_aggr:%.6f tp_hot:%.6f q_hot_mean:%.1f q_hot_min:%.0f q_hot_max:%.0f q_hot_end:%.0f drops_cum:%.0f
  lost_cum_bytes:%.0f lost_frac:%.6f bcn_neg:%.0f bcn_pos:%.0f bcn_max:%.0f fbcn:%.0f pauses:%.0f limiters:%.0f"

# The run id of a selector: a number is a run id, else the latest run of that name.
run_id() {
  if [[ $1 =~ ^[0-9]+$ ]]; then echo "$1"; return; fi
  [[ $1 =~ ^[A-Za-z0-9_.@/-]+$ ]] || { echo "cp-hotspot: '$1' is not a run id or name" >&2; exit 2; }
  local r; r=$(q "SELECT MAX(run) FROM runs WHERE name = '$1'")
  [[ -n $r ]] || { echo "cp-hotspot: no run named '$1' in $DB" >&2; exit 2; }
  echo "$r"
}
param() { echo "(SELECT value FROM params WHERE run = r.run AND key = '$1')"; }

# summary.csv: one row per run (the latest of each name; NAMES="a b ...": only those;
# RUN=N: only run N), in
# the matrix's order: N, arrivals (Bernoulli, then by burst length), PAUSE off/on, CM
csv_summary() {
  local hdr="name,n,arrivals,pause,cm,mode,seed" row c col fmt arr
  arr="CASE WHEN $(param arrivals) = 'bernoulli' THEN 'bern' ELSE 'b' || substr($(param arrivals), 8) END"
  row="r.name || ',' || $(param n) || ',' || $arr || ',' || $(param pause) || ',' || $(param cm) || ',' ||
       $(param mode) || ',' || $(param seed)"
  for c in $SUMMARY_COLS; do
    col=${c%%:*} fmt=${c#*:}
    hdr+=",$col"
    if [[ $col == digest ]]; then
      row+=" || ',' || $(param result.digest)"
    else
      row+=" || ',' || printf('$fmt', MAX(CASE WHEN s.series = '$col' THEN s.value END))"
    fi
  done
  local only="AND r.run IN (SELECT MAX(run) FROM runs GROUP BY name)"
  [[ -n ${NAMES:-} ]] && only+=" AND r.name IN ('$(sed "s/ /','/g" <<< "$NAMES")')"
  [[ -n ${RUN:-} ]] && only="AND r.run = $RUN"
  echo "$hdr"
  q "SELECT $row FROM runs r JOIN results s ON s.run = r.run AND s.label = 'summary'
     WHERE r.tool = 'cp_hotspot_sim' $only
     GROUP BY r.run
     ORDER BY CAST($(param n) AS INTEGER), $arr = 'bern' DESC, CAST(substr($(param arrivals), 8) AS REAL),
       $(param pause), CASE $(param cm) WHEN 'none' THEN 0 WHEN 'ecm' THEN 1 WHEN 'e2cm' THEN 2 ELSE 3 END, r.name"
}

# timeseries.csv of one run: the "bin" rows, one line per bin
csv_timeseries() {
  local run; run=$(run_id "$1")
  local hdr="t_ms" row="printf('%.3f', x)" c col fmt
  for c in $TS_COLS; do
    col=${c%%:*} fmt=${c#*:}
    hdr+=",$col"
    row+=" || ',' || printf('$fmt', MAX(CASE WHEN series = '$col' THEN value END))"
  done
  echo "$hdr"
  q "SELECT $row FROM results WHERE run = $run AND label = 'bin' GROUP BY x ORDER BY x"
}

csv_flows() {
  local run; run=$(run_id "$1")
  echo "src,hot_queue_bytes_mean"
  q "SELECT printf('%d,%.1f', x, value) FROM results WHERE run = $run AND label = 'flow' ORDER BY x"
}

csv_params() { # key = value lines, as params.scn (sorted by key)
  local run; run=$(run_id "$1")
  q "SELECT key || ' = ' || value FROM params WHERE run = $run ORDER BY key"
}

# The seed's figures per run, as a table (a query).
table() {
  local only=""
  [[ -n ${NAMES:-} ]] && only="AND r.name IN ('$(sed "s/ /','/g" <<< "$NAMES")')"
  f() { echo "(SELECT value FROM results WHERE run = r.run AND label = 'summary' AND series = '$1')"; }
  q -header -column "SELECT r.name AS run, printf('%.4f', $(f tp_aggr_ss)) AS tp_aggr_ss,
      printf('%.4f', $(f tp_hot_ss)) AS tp_hot_ss, printf('%.1f', $(f q_ss_mean) / 1024) AS q_ss_kb,
      printf('%d', $(f drops)) AS drops, printf('%.4f', $(f lost_frac)) AS lost_frac,
      printf('%.1f', $(f recovery_ms)) AS recovery_ms, r.status AS status
    FROM runs r WHERE r.tool = 'cp_hotspot_sim' AND r.run IN (SELECT MAX(run) FROM runs GROUP BY name) $only
    ORDER BY r.name"
}

matrix_names() { matrix | while read -r n a p c; do run_name "$n" "$a" "$p" "$c"; done | tr '\n' ' ' | sed 's/ $//'; }

summary() {
  local out="$OUT/summary.csv"
  need_db
  NAMES=$(matrix_names) csv_summary > "$out"
  echo "summary: $out ($(($(wc -l < "$out") - 1)) runs; a query on $DB)"
  NAMES=$(matrix_names) table > "$OUT/table.txt"
  cat "$OUT/table.txt"
}

# One SVG: metric vs time, one curve per run (its latest in the database), each curve a
# query on the run's "bin" rows. args: file title ylabel series divisor name|label...
plot() {
  local file=$1 title=$2 ylabel=$3 series=$4 div=$5; shift 5
  local curves=() name l k=0 dat
  for nl in "$@"; do
    name=${nl%%|*}; l=${nl#*|}
    dat="$PD_TMP/c$k.dat"; k=$((k + 1))
    q -separator ' ' "SELECT x / 1000.0, value / $div FROM results WHERE label = 'bin' AND series = '$series'
      AND run = (SELECT MAX(run) FROM runs WHERE name = '$name') ORDER BY x" > "$dat"
    [[ -s $dat ]] && curves+=("'$dat' using 1:2 with lines lw 1.5 title '$l'")
  done
  [[ ${#curves[@]} -gt 0 ]] || return 0
  local IFS=,
  gnuplot <<EOF
set terminal svg size 900,480 dynamic font 'sans,12' noenhanced
set output '$file'
set title '$title' noenhanced
set xlabel 'time [s]'
set ylabel '$ylabel'
set grid
set key outside right
plot ${curves[*]}
EOF
}

plots() {
  local pd="$OUT/plots"
  need_db
  mkdir -p "$pd"
  PD_TMP=$(mktemp -d); trap 'rm -rf "$PD_TMP"' RETURN
  # key|ylabel|series|divisor
  local metrics=("tp_aggr|TP_aggr (of N x Rlink)|tp_aggr|1"
                 "tp_hot|TP_hot (of Rlink)|tp_hot|1"
                 "q_hot|Q_hot [KB]|q_hot_mean|1024"
                 "drops|frame drops (cumulative)|drops_cum|1")
  local count=0
  # Per (N, PAUSE, arrivals): one curve per CM scheme (the seed's figures).
  while read -r n a p; do
    local av=$a; [[ $a == bernoulli ]] && av=bern || av=b${a#bursty:}
    local curves=()
    for c in ${CMS:-$ALL_CMS}; do curves+=("$(run_name "$n" "$a" "$p" "$c")|$c"); done
    for m in "${metrics[@]}"; do
      IFS='|' read -r key ylabel series div <<< "$m"
      plot "$pd/n${n}_${av}_pause${p}_$key.svg" "N = $n, $a, PAUSE $p: $key" "$ylabel" "$series" "$div" "${curves[@]}"
      count=$((count + 1))
    done
  done < <(matrix | awk '{print $1, $2, $3}' | sort -u)
  # Large-configuration view: Bernoulli, per (CM, PAUSE), one curve per N.
  for c in ${CMS:-$ALL_CMS}; do for p in ${PAUSES:-$ALL_PAUSES}; do
    local curves=()
    for n in ${NS:-$ALL_NS}; do curves+=("$(run_name "$n" bernoulli "$p" "$c")|N = $n"); done
    for m in "${metrics[@]}"; do
      IFS='|' read -r key ylabel series div <<< "$m"
      plot "$pd/byN_bern_pause${p}_${c}_$key.svg" "Bernoulli, PAUSE $p, $c: $key vs N" "$ylabel" "$series" "$div" "${curves[@]}"
    done
  done; done
  echo "plots: $pd ($(ls "$pd" | wc -l) SVG files)"
}

case $what in
run)
  need_bin
  command -v sqlite3 > /dev/null || { echo "cp-hotspot: the sqlite3 shell is missing (make deps)" >&2; exit 2; }
  mkdir -p "$OUT"
  TOTAL=$(matrix | wc -l) T0=$(date +%s) PROG="$OUT/.progress"
  : > "$PROG"
  export TOTAL T0 PROG
  echo "cp-hotspot: MATRIX=$MATRIX SCALE=$SCALE MODE=$MODE SEED=$SEED, $TOTAL runs, $JOBS at a time, into $DB"
  # Largest N first so the long runs overlap.
  matrix | sort -k1,1nr | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
  rm -f "$PROG" "$PROG.lock"
  summary
  plots
  ;;
plot)
  summary
  plots
  ;;
bench)
  need_bin
  # Same simulated time for every N: 50 ms, hotspot [10, 40) ms, so the rate
  # includes the congested regime. Reported, never asserted.
  B="$OUT/bench"; mkdir -p "$B"
  csv="$OUT/bench.csv"
  echo "n,cm,mode,events,wall_s,events_per_s,sim_s_per_wall_s" > "$csv"
  printf '%-5s %-5s %12s %9s %12s %14s %16s\n' N CM events wall_s events/s sim_s/wall_s "wall x per 2N"
  for cm in ${BENCH_CMS:-none ecm}; do
    prev=""
    for n in ${NS:-$ALL_NS}; do
      log="$B/n${n}_$cm.log"
      "$BIN" --n="$n" --cm="$cm" --mode="$MODE" --seed="$SEED" --warmup_ms=5 --hot_start_ms=10 --hot_end_ms=40 \
        --t_end_ms="${BENCH_MS:-50}" --out="$B/n${n}_$cm" > "$log" 2>&1 || { echo "bench run failed: $log"; tail -2 "$log"; }
      ev=$(awk '/^events:/{print $2}' "$log")
      read -r w eps spw < <(awk '/^wall_s:/{print $2, $4, $6}' "$log")
      g=""; [[ -n $prev ]] && g=$(awk -v a="$w" -v b="$prev" 'BEGIN{printf "%.2f", a/b}')
      printf '%-5s %-5s %12s %9s %12s %14s %16s\n' "$n" "$cm" "$ev" "$w" "$eps" "$spw" "$g"
      echo "$n,$cm,$MODE,$ev,$w,$eps,$spw" >> "$csv"
      prev=$w
    done
  done
  echo "bench: $csv (the seed reports its run time tripling per doubling of N)"
  ;;
checks)
  need_bin
  pass=0; fail=0
  expect() { # want name args...
    local want=$1 name=$2; shift 2
    local log="$OUT/checks/$name.log"; mkdir -p "$OUT/checks"
    if "$BIN" "$@" --out="$OUT/checks/$name" > "$log" 2>&1; then got=pass; else got=fail; fi
    if [[ $got == "$want" ]]; then pass=$((pass + 1)); r=ok; else fail=$((fail + 1)); r=WRONG; fi
    printf '  %-5s %-44s expect %-4s got %-4s %s\n' "$r" "$name" "$want" "$got" "$(tail -1 "$log")"
  }
  # negatives name the criterion that must fail first and when (simulated ms);
  # any other failure fails them
  expect pass nocm_drops            --test=cp_hotspot_nocm_drops
  expect pass nocm_drops_pause_on   --test=cp_hotspot_nocm_drops --pause=on --expect-fail=check:hotspot.drops.fill@80
  expect pass nocm_drops_no_hotspot --test=cp_hotspot_nocm_drops --hot_frac=1 --expect-fail=check:hotspot.drops.fill@80
  expect pass ecm_band              --test=cp_hotspot_ecm_band
  expect pass ecm_band_cm_none      --test=cp_hotspot_ecm_band --cm=none --expect-fail=check:hotspot.band.q_high@211
  expect pass e2cm_flows            --test=cp_hotspot_e2cm_flows
  expect pass e2cm_flows_ecm        --test=cp_hotspot_e2cm_flows --cm=ecm --expect-fail=check:hotspot.flows.fraction@410
  expect pass model_vs_rtl          --test=cp_hotspot_model_vs_rtl
  # seed 001's adapter (egress buffer + PAUSE, per-flow source quench, no limit on limiters)
  expect pass egress                --test=cp_hotspot_egress
  expect pass egress_pause_off      --test=cp_hotspot_egress --adapter_pause=off --expect-fail=check:hotspot.egress.pauses@80
  expect pass egress_xoff_late      --test=cp_hotspot_egress --adapter_bug=xoff_late --expect-fail=check:hotspot.egress.xoff@100
  expect pass egress_xon_early      --test=cp_hotspot_egress --adapter_bug=xon_early --expect-fail=check:hotspot.egress.xon@100
  expect pass egress_rtt_short      --test=cp_hotspot_egress --adapter_rtt_us=1 --expect-fail=check:hotspot.egress.overflow@100
  expect pass quench                --test=cp_hotspot_quench
  expect pass quench_node           --test=cp_hotspot_quench --quench=node --expect-fail=check:hotspot.quench.cold@100
  expect pass quench_cm_none        --test=cp_hotspot_quench --cm=none --expect-fail=check:hotspot.quench.hot@100
  expect pass limiters              --test=cp_hotspot_limiters
  expect pass limiters_one          --test=cp_hotspot_limiters --max_limiters=1 --expect-fail=check:hotspot.limiters.refused@500
  expect pass limiters_cm_none      --test=cp_hotspot_limiters --cm=none --expect-fail=check:hotspot.limiters.peak@500
  if [[ -n ${BUG:-} ]]; then
    expect pass model_vs_rtl_bug --test=cp_hotspot_model_vs_rtl --inject-bug="$BUG" \
      --expect-fail=check:hotspot.model_vs_rtl.identical@80
  fi
  echo "$pass passed, $fail failed"
  [[ $fail -eq 0 ]]
  ;;
inputs)
  need_bin
  T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
  printf '\x00\x01garbage\xff\n' > "$T/binary.scn"
  printf 'cm = ecm\nn = 16\ncm = none\n' > "$T/dup.scn"
  printf 'cm = ecm\nfoo = 3\n' > "$T/unknown.scn"
  printf '# comment\nrlink_gbps = 0\n' > "$T/range.scn"
  printf 'n = abc\n' > "$T/nan.scn"
  printf 'cm ecm\n' > "$T/noeq.scn"
  printf 'hot_end_ms = 60\nscale = full\n' > "$T/scale.scn"
  printf 'n = 16\nhot_node = 16\n' > "$T/cross.scn"
  printf 'scale = short\nhot_start_ms = 2\nhot_end_ms = 6\nt_end_ms = 8\nwarmup_ms = 1\n' > "$T/good.scn"
  pass=0; fail=0
  refuse() { # what regex args... : exit 2, the message, no verdict/rerun line
    local what=$1 re=$2; shift 2
    local out rc=0
    out=$("$BIN" "$@" --out="$T/run" 2>&1) || rc=$?
    if [[ $rc -eq 2 ]] && grep -qE -- "$re" <<<"$out" && ! grep -qE '^(TEST FAILED|rerun:)' <<<"$out"; then
      pass=$((pass + 1)); printf '  ok    %-22s %s\n' "$what" "$(head -1 <<<"$out")"
    else
      fail=$((fail + 1)); printf '  WRONG %-22s exit %s, want 2 and /%s/:\n%s\n' "$what" "$rc" "$re" "$out"
    fi
  }
  refuse binary-garbage  "binary.scn:1: byte 0x00 is not text" --scenario="$T/binary.scn"
  refuse directory       "^cp_hotspot_sim: \.: not a scenario file \(a directory\)" --scenario=.
  refuse missing-file    "nonexistent.scn: cannot read scenario" --scenario="$T/nonexistent.scn"
  refuse duplicate-key   "dup.scn:3: cm: given twice \(first at line 1\)" --scenario="$T/dup.scn"
  refuse unknown-key     "unknown.scn:2: foo: unknown key" --scenario="$T/unknown.scn"
  refuse out-of-range    "range.scn:2: rlink_gbps: 0 is out of range" --scenario="$T/range.scn"
  refuse not-a-number    "nan.scn:1: n: 'abc' is not a number" --scenario="$T/nan.scn"
  refuse no-equals       "noeq.scn:1: expected 'key = value'" --scenario="$T/noeq.scn"
  refuse scale-after     "scale.scn:2: scale: resets hot_end_ms, which .*scale.scn:1 already set" --scenario="$T/scale.scn"
  refuse cross-key       "cross.scn:2: hot_node: 16 must be below n = 16" --scenario="$T/cross.scn"
  refuse flag-range      "--rlink_gbps=0: rlink_gbps: 0 is out of range" --rlink_gbps=0
  refuse flag-unknown    "--bogus=1: bogus: unknown key" --bogus=1
  refuse flag-twice      "--cm=none: cm given twice" --cm=ecm --cm=none
  refuse not-an-option   "'stray': not an option" stray
  refuse bad-seed        "--seed=abc: seed: not an unsigned" --seed=abc
  refuse expect-syntax   "--expect-fail=check: expected check:<id>@" --test=cp_hotspot_ecm_band --expect-fail=check
  refuse expect-id       "'hotspot.drops.fill' is not a criterion of this check" --test=cp_hotspot_ecm_band --expect-fail=check:hotspot.drops.fill@80
  refuse expect-no-check "the scenario has no check" --scenario="$T/good.scn" --expect-fail=check:hotspot.invariant@8
  refuse bug-no-cp       "inject_bug: 'cp_qold_not_updated' cannot act: with cm = none" --inject-bug=cp_qold_not_updated
  refuse bug-unknown     "no planted bug 'nope'" --cm=ecm --inject-bug=nope
  refuse trace           "--trace: no waveform from this binary" --trace
  refuse bad-quench      "--quench=all: quench: 'all' is not flow or node" --quench=all
  refuse rtt-too-long    "--adapter_rtt_us: adapter_rtt_us: 200 us leaves no room for the watermarks" --adapter_rtt_us=200
  refuse bad-db          "--db=$T/no/such/dir/x.db: store: .*cannot open or create the database" --db="$T/no/such/dir/x.db"
  refuse not-a-db        "--db=$T/binary.scn: store: .*not a readable SQLite database" --db="$T/binary.scn"
  refuse tb-bug-no-db    "--tb-bug=db_skip_bin: cannot act without --db" --tb-bug=db_skip_bin
  refuse tb-bug-unknown  "--tb-bug=nope: no such testbench bug" --tb-bug=nope --db="$T/x.db"
  # the sanitizer build (make unit's BIN) has no RTL of the heavy cp_exp
  if [[ $BIN == */asan/* ]]; then
    refuse no-rtl-here     "--mode: mode = rtl: this simulator was built without cp_exp's RTL" --cm=ecm --mode=rtl
  fi
  # control: a well-formed file is accepted and runs (else the above prove nothing)
  out=$("$BIN" --scenario="$T/good.scn" --out="$T/good" 2>&1) && rc=0 || rc=$?
  if [[ $rc -eq 0 ]] && tail -1 <<<"$out" | grep -q '^TEST PASSED$'; then
    pass=$((pass + 1)); echo "  ok    good-file              accepted and run"
  else
    fail=$((fail + 1)); printf '  WRONG good-file exit %s:\n%s\n' "$rc" "$out"
  fi
  echo "cp-hotspot inputs: $pass passed, $fail failed"
  [[ $fail -eq 0 ]]
  ;;
csv)
  need_db
  case ${2:-} in
    summary) if [[ -n ${3:-} ]]; then RUN=$(run_id "$3") csv_summary; else csv_summary; fi ;;
    timeseries | flows | params) [[ -n ${3:-} ]] || { echo "cp-hotspot: csv $2 needs a run (id or name)" >&2; exit 2; }
      "csv_$2" "$3" ;;
    *) echo "usage: mk/cp-hotspot.sh csv summary|timeseries|flows|params [RUN]" >&2; exit 2 ;;
  esac
  ;;
*)
  echo "usage: mk/cp-hotspot.sh [run|plot|csv|bench|checks|inputs]"; exit 2 ;;
esac
