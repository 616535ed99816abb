#!/usr/bin/env bash
# Seed 001's ECM/E2CM hotspot experiment: the matrix, its summary and plots.
#
#   mk/cp-hotspot.sh [run]     the matrix (below), 2 runs in parallel; writes
#                              build/reports/cp_hotspot/summary.csv and plots/*.svg
#   mk/cp-hotspot.sh plot      only redraw the plots from existing runs
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
#   OUT=build/reports/cp_hotspot
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin/cp_hotspot_sim}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
MODE=${MODE:-model}
SCALE=${SCALE:-full}
MATRIX=${MATRIX:-seed}
OUT=${OUT:-build/reports/cp_hotspot}
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
  local dir="$OUT/$name"
  mkdir -p "$dir"
  if "$BIN" --n="$1" --arrivals="$2" --pause="$3" --cm="$4" --scale="$SCALE" --seed="$SEED" \
       --mode="$MODE" --out="$dir" > "$dir/log" 2>&1; then
    echo "  ok    $name ($(awk '/^wall_s:/{print $2}' "$dir/log") s)"
  else
    echo "  FAIL  $name: $(tail -1 "$dir/log")"
  fi
}
export -f run_one run_name
export BIN SEED MODE SCALE OUT

summary() {
  local out="$OUT/summary.csv" first=1
  : > "$out"
  while read -r n a p c; do
    local f="$OUT/$(run_name "$n" "$a" "$p" "$c")/summary.csv"
    [[ -f $f ]] || continue
    if [[ $first -eq 1 ]]; then head -1 "$f" >> "$out"; first=0; fi
    tail -n +2 "$f" >> "$out"
  done < <(matrix)
  echo "summary: $out ($(($(wc -l < "$out") - 1)) runs)"
}

# One SVG: metric vs time, one curve per run. args: file title ylabel expr dir:label...
plot() {
  local file=$1 title=$2 ylabel=$3 expr=$4; shift 4
  local curves=() d l
  for dl in "$@"; do
    d=${dl%%|*}; l=${dl#*|}
    [[ -f $d/timeseries.csv ]] && curves+=("'$d/timeseries.csv' using (column('t_ms')/1000):($expr) with lines lw 1.5 title '$l'")
  done
  [[ ${#curves[@]} -gt 0 ]] || return 0
  local IFS=,
  gnuplot <<EOF
set terminal svg size 900,480 dynamic font 'sans,12' noenhanced
set output '$file'
set datafile separator ','
set key autotitle columnhead
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
  mkdir -p "$pd"
  local metrics=("tp_aggr|TP_aggr (of N x Rlink)|column('tp_aggr')"
                 "tp_hot|TP_hot (of Rlink)|column('tp_hot')"
                 "q_hot|Q_hot [KB]|column('q_hot_mean')/1024"
                 "drops|frame drops (cumulative)|column('drops_cum')")
  local count=0
  # Per (N, PAUSE, arrivals): one curve per CM scheme (the seed's figures).
  while read -r n a p; do
    local av=$a; [[ $a == bernoulli ]] && av=bern || av=b${a#bursty:}
    local curves=()
    for c in ${CMS:-$ALL_CMS}; do curves+=("$OUT/$(run_name "$n" "$a" "$p" "$c")|$c"); done
    for m in "${metrics[@]}"; do
      IFS='|' read -r key ylabel expr <<< "$m"
      plot "$pd/n${n}_${av}_pause${p}_$key.svg" "N = $n, $a, PAUSE $p: $key" "$ylabel" "$expr" "${curves[@]}"
      count=$((count + 1))
    done
  done < <(matrix | awk '{print $1, $2, $3}' | sort -u)
  # Large-configuration view: Bernoulli, per (CM, PAUSE), one curve per N.
  for c in ${CMS:-$ALL_CMS}; do for p in ${PAUSES:-$ALL_PAUSES}; do
    local curves=()
    for n in ${NS:-$ALL_NS}; do curves+=("$OUT/$(run_name "$n" bernoulli "$p" "$c")|N = $n"); done
    for m in "${metrics[@]}"; do
      IFS='|' read -r key ylabel expr <<< "$m"
      plot "$pd/byN_bern_pause${p}_${c}_$key.svg" "Bernoulli, PAUSE $p, $c: $key vs N" "$ylabel" "$expr" "${curves[@]}"
    done
  done; done
  echo "plots: $pd ($(ls "$pd" | wc -l) SVG files)"
}

case $what in
run)
  need_bin
  mkdir -p "$OUT"
  echo "cp-hotspot: MATRIX=$MATRIX SCALE=$SCALE MODE=$MODE SEED=$SEED, $(matrix | wc -l) runs, $JOBS at a time"
  # Largest N first so the long runs overlap.
  matrix | sort -k1,1nr | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
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
*)
  echo "usage: mk/cp-hotspot.sh [run|plot|bench|checks|inputs]"; exit 2 ;;
esac
