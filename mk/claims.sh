#!/usr/bin/env bash
# Claims measured, not narrated (issue 9 item 7): every seed statement that
# a block's docs compare with (docs/cp.md §14, docs/elite4.md §12) is re-run
# with several seeds and reported as mean and 95 % confidence interval
# (Student t, n-1 dof, mk/ci.awk); a claim is "reproduced" only when the
# seed's statement holds across the whole interval, else "partly" or "not".
#
#   mk/claims.sh cp|elite4 [run|report]     (make claims B=cp|elite4)
#     run     the runs (resumed: a run whose summary exists is kept), then report
#     report  only redo the tables from existing runs
#   Writes build/claims/<block>.csv (one row per run and seed: the metrics),
#   build/claims/<block>_ci.csv (config,metric,n,mean,sd,hw,lo,hi) and
#   build/claims/<block>.md (the verdict table, with the command and run lengths).
#
# Environment:
#   SEEDS ["1 2 3 4 5"] (at least 5)  JOBS [2]  OUT [build/claims]
#   LEN [session|full]: cp: session = N = 16 bursty study at the seed's 400 ms hotspot
#       (500 ms runs), hotspot-degree study at N = 16, 32, 64 with a 100 ms hotspot (205 ms
#       runs); full = both at the seed's length (1 s runs, hotspot [100, 500) ms) and
#       N = 16..256 (hours on 2 cores: one N = 256 run is ~10 min).
#       elite4: session = the make elite4-reports run lengths (80,000 / 40,000 cycles);
#       full = 4x longer.
#   CP_NS ["16 32 64", full: "16 32 64 128 256"]  the hotspot-degree study's N
#   CP_PAUSE_N [the largest of CP_NS]  the N of the PAUSE on/off comparison
#   CP_BIN [build/bin/cp_hotspot_sim]  E4_BIN [build/bin/elite4_fabric_core_sim]
set -euo pipefail
cd "$(dirname "$0")/.."
block=${1:-}; what=${2:-run}
SEEDS=${SEEDS:-"1 2 3 4 5"}
JOBS=${JOBS:-2}
OUT=${OUT:-build/claims}
LEN=${LEN:-session}
CP_BIN=${CP_BIN:-build/bin/cp_hotspot_sim}
E4_BIN=${E4_BIN:-build/bin/elite4_fabric_core_sim}
usage() { echo "usage: mk/claims.sh cp|elite4 [run|report]   (SEEDS, JOBS, LEN=session|full, OUT)"; exit 2; }
[[ $block == cp || $block == elite4 ]] || usage
[[ $what == run || $what == report ]] || usage
[[ $LEN == session || $LEN == full ]] || { echo "claims: LEN=$LEN is not session or full"; exit 2; }
nseeds=$(wc -w <<<"$SEEDS")
((nseeds >= 5)) || { echo "claims: SEEDS has $nseeds seeds; a 95 % interval here needs at least 5"; exit 2; }
for s in $SEEDS; do [[ $s =~ ^[0-9]+$ ]] || { echo "claims: SEEDS: '$s' is not a seed number"; exit 2; }; done
RUNS=$OUT/$block/runs
mkdir -p "$RUNS"

# ---- the configurations: "name args..." per line ---------------------------------------------
cp_configs() {
  local s1 s2 ns hsd_n
  if [[ $LEN == full ]]; then
    s1="--scale=full"; s2="--scale=full"; ns=${CP_NS:-"16 32 64 128 256"}
  else
    s1="--scale=short"
    s2="--warmup_ms=2 --hot_start_ms=5 --hot_end_ms=105 --t_end_ms=205"
    ns=${CP_NS:-"16 32 64"}
  fi
  hsd_n=${CP_PAUSE_N:-${ns##* }}
  # study 1: N = 16, PAUSE off, bursts B = 1.2, 12, 48, 120 us (the seed's bursty deck)
  for b in 1.2 12 48 120; do for c in ecm e2cm; do
    echo "b16_b${b}_$c --n=16 --pause=off --arrivals=bursty:$b --cm=$c $s1"
  done; done
  echo "b16_b120_none --n=16 --pause=off --arrivals=bursty:120 --cm=none $s1"
  # "even w/o hotspot": the same runs with the hot node at full rate
  for c in none ecm e2cm; do
    echo "nohs_b120_$c --n=16 --pause=off --arrivals=bursty:120 --cm=$c --hot_frac=1 $s1"
  done
  # study 2: hotspot degree, Bernoulli, PAUSE off; PAUSE on at the largest N
  for n in $ns; do for c in none ecm e2cm e2cm-cp; do
    echo "hsd_n${n}_off_$c --n=$n --pause=off --arrivals=bernoulli --cm=$c $s2"
  done; done
  for c in none ecm e2cm e2cm-cp; do
    echo "hsd_n${hsd_n}_on_$c --n=$hsd_n --pause=on --arrivals=bernoulli --cm=$c $s2"
  done
}

e4_configs() {
  local c16=80000 c64=40000 c64w=40000
  [[ $LEN == full ]] && { c16=320000; c64=160000; c64w=160000; }
  # Fig. 8b: complement bandwidth per node at offered 1.0, 16 and 64 nodes (18-flit packets)
  for n in 16 64; do
    local c=$c16; [[ $n == 64 ]] && c=$c64
    echo "compl_n$n --nodes=$n --cycles=$c --body=16 --src-queue=64 --traffic=complement --load=1.0 --records=off"
  done
  # Table 3: seed 004's 8-byte write (5 flits), 64 nodes, unloaded: per-switch and network latency
  echo "write8_n64 --nodes=64 --cycles=$c64w --traffic=uniform --load=0.02 --body=3"
}

configs() { if [[ $block == cp ]]; then cp_configs; else e4_configs; fi; }

# ---- runs ----------------------------------------------------------------------------------
run_one() { # block name seed args...
  local blk=$1 name=$2 seed=$3; shift 3
  local dir=$RUNS/$name/s$seed
  [[ -f $dir/done ]] && return 0
  mkdir -p "$dir"
  local bin=$CP_BIN; [[ $blk == elite4 ]] && bin=$E4_BIN
  if "$bin" "$@" --seed="$seed" --out="$dir" > "$dir/log" 2>&1; then
    echo "$*" > "$dir/done"; echo "  ok    $name seed $seed"
  else
    echo "  FAIL  $name seed $seed: $(tail -1 "$dir/log")"
  fi
}
export -f run_one
export RUNS CP_BIN E4_BIN

if [[ $what == run ]]; then
  bin=$CP_BIN; [[ $block == elite4 ]] && bin=$E4_BIN
  [[ -x $bin ]] || { echo "claims: $bin missing (make $bin)"; exit 2; }
  echo "claims $block: $(configs | wc -l) configurations x $nseeds seeds, $JOBS at a time (LEN=$LEN)"
  t0=$(date +%s)
  configs | while read -r name args; do for s in $SEEDS; do echo "$block $name $s $args"; done; done |
    xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
  echo "claims $block: runs took $(( $(date +%s) - t0 )) s of wall time"
fi

# ---- collect: one row per run, then the intervals -------------------------------------------
csv=$OUT/$block.csv
if [[ $block == cp ]]; then
  echo "config,seed,tp_aggr_pre,tp_aggr_ss,tp_hot_ss,q_ss_mean,drops,recovery_ms,drain_ms,settle_ms,wall_s,hot_ms,tail_ms" > "$csv"
  configs | while read -r name args; do for s in $SEEDS; do
    d=$RUNS/$name/s$s
    [[ -f $d/done && -f $d/summary.csv && -f $d/timeseries.csv ]] || { echo "claims: missing run $d" >&2; continue; }
    hs=$(awk -F' = ' '$1=="hot_start_ms"{print $2}' "$d/params.scn")
    he=$(awk -F' = ' '$1=="hot_end_ms"{print $2}' "$d/params.scn")
    te=$(awk -F' = ' '$1=="t_end_ms"{print $2}' "$d/params.scn")
    qeq=$(awk -F' = ' '$1=="qeq_kb"{print $2 * 1024}' "$d/params.scn")
    # drain: from hot_end to the end of the first 1-ms bin with mean Q_hot < Qeq (censored
    # at the run's end: then t_end - hot_end, marked by drain >= tail);
    # settle: from hot_start to the end of the first bin with mean Q_hot <= 2 Qeq after
    # one above it (the end of the first overshoot); 0 if Q_hot never exceeded 2 Qeq, the
    # hotspot's length (censored) if it never came back within it
    read -r drain settle < <(awk -F, -v hs="$hs" -v he="$he" -v te="$te" -v qeq="$qeq" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { t = $c["t_ms"]; q = $c["q_hot_mean"] }
      t >= he && drain == "" && q < qeq { drain = t + 1 - he }
      t >= hs && t < he && settle == "" { if (q > 2 * qeq) over = 1; else if (over) settle = t + 1 - hs }
      END { if (drain == "") drain = te - he; if (settle == "") settle = over ? he - hs : 0; print drain, settle }' "$d/timeseries.csv")
    awk -F, -v cfg="$name" -v seed="$s" -v drain="$drain" -v settle="$settle" -v hot="$((he - hs))" -v tail="$((te - he))" '
      NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
      { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", cfg, seed, $c["tp_aggr_pre"], $c["tp_aggr_ss"],
          $c["tp_hot_ss"], $c["q_ss_mean"], $c["drops"], $c["recovery_ms"], drain, settle, $c["wall_s"], hot, tail }' \
      "$d/summary.csv"
  done; done >> "$csv"
else
  echo "config,seed,accepted,lat_mean,switch_trav_mean,switch_trav_min,net_head_mean,total_mean,wall_s" > "$csv"
  configs | while read -r name args; do for s in $SEEDS; do
    d=$RUNS/$name/s$s
    [[ -f $d/done ]] || { echo "claims: missing run $d" >&2; continue; }
    mk/claims-e4row.sh "$d" "$name" "$s"
  done; done >> "$csv"
fi
# per (config, metric): "config.metric value" lines -> ci.awk
awk -F, 'NR == 1 { for (i = 3; i <= NF; i++) m[i] = $i; next }
         { for (i = 3; i <= NF; i++) if ($i != "") print $1 "." m[i], $i }' "$csv" |
  awk -v ci_main=1 -f mk/ci.awk | awk -F, 'NR == 1 { print "config,metric," substr($0, 5); next }
    { k = $1; p = index(k, "."); printf "%s,%s,%s\n", substr(k, 1, p - 1), substr(k, p + 1), substr($0, length(k) + 2) }' \
  > "$OUT/${block}_ci.csv"
cmd="make claims B=$block SEEDS='$SEEDS' LEN=$LEN"
[[ $block == cp && -n ${CP_NS:-} ]] && cmd="$cmd CP_NS='$CP_NS'"
[[ $block == cp && -n ${CP_PAUSE_N:-} ]] && cmd="$cmd CP_PAUSE_N=$CP_PAUSE_N"
awk -F, -v cmd="$cmd" -v len="$LEN" -v seeds="$SEEDS" -f mk/ci.awk -f "mk/claims-$block.awk" "$csv" > "$OUT/$block.md"
echo "claims $block: $OUT/$block.md, $csv, $OUT/${block}_ci.csv"
