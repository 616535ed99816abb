#!/usr/bin/env bash
# elite4 fabric reports (make elite4-reports): load sweeps on the 16- and
# 64-node fat-trees for uniform, complement and hotspot traffic, the per-hop
# latency breakdown, link utilisation, an all-RTL cross-check of two sweep
# points, the fabric benchmark, CSVs, SVG plots and summary.md.
#
#   mk/elite4-reports.sh [run]   everything (runs JOBS at a time), then the reports
#   mk/elite4-reports.sh report  only redo the CSVs, plots and summary.md from existing runs
#   mk/elite4-reports.sh bench   64-node fabric speed: model with / without skipping, all-RTL (bench/bench.csv)
#
# Environment (defaults in brackets):
#   BIN [build/bin/elite4_fabric_core_sim]  JOBS [2]  SEED [1]  OUT [build/reports/elite4]
#   LOADS  offered loads, flits/node/cycle [0.02 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.5 0.6 0.7 0.8 0.9 1.0]
#   CYC16, CYC64  injection cycles per run [80000, 40000]; statistics after the first fifth
#   BODY [16] body words per packet (HEAD + BODY + TAIL = BODY + 2 flits)
#   HOT_FRAC [0.1] hotspot share to node 0;  SRC_QUEUE [64] packets per source queue
#   BENCH_CYCLES [10000]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-build/bin/elite4_fabric_core_sim}
JOBS=${JOBS:-2}
SEED=${SEED:-1}
OUT=${OUT:-build/reports/elite4}
LOADS=${LOADS:-"0.02 0.05 0.1 0.15 0.2 0.25 0.3 0.35 0.4 0.5 0.6 0.7 0.8 0.9 1.0"}
CYC16=${CYC16:-80000}
CYC64=${CYC64:-40000}
BODY=${BODY:-16}
HOT_FRAC=${HOT_FRAC:-0.1}
SRC_QUEUE=${SRC_QUEUE:-64}
BENCH_CYCLES=${BENCH_CYCLES:-10000}
PATTERNS="uniform complement hotspot"
what=${1:-run}

need_bin() { [[ -x $BIN ]] || { echo "elite4-reports: $BIN missing (make $BIN)"; exit 2; }; }
cycles_for() { if [[ $1 == 64 ]]; then echo "$CYC64"; else echo "$CYC16"; fi; }

# One run into a directory; the directory's name is the run's name.
run_one() { # dir args...
  local dir=$1; shift
  mkdir -p "$dir"
  if "$BIN" "$@" --seed="$SEED" --name="$(basename "$dir")" --out="$dir" > "$dir/log" 2>&1; then
    echo "  ok    ${dir#"$OUT"/} ($(awk '/^cycles:/{for(i=1;i<=NF;i++) if($i=="wall") print $(i+1)}' "$dir/log") s)"
  else
    echo "  FAIL  ${dir#"$OUT"/}: $(tail -1 "$dir/log")"
  fi
}
export -f run_one
export BIN SEED OUT

common_args() { # nodes
  echo "--nodes=$1 --cycles=$(cycles_for "$1") --body=$BODY --hot-frac=$HOT_FRAC --src-queue=$SRC_QUEUE"
}

jobs() { # one line per run: dir args...
  for n in 64 16; do for t in $PATTERNS; do for l in $LOADS; do
    echo "$OUT/sweep/n${n}_${t}_l$l $(common_args $n) --traffic=$t --load=$l --records=off"
  done; done; done
  # saturation vs packet size (the sweep has BODY; these add 3 and 64 body words)
  for n in 64 16; do for t in $PATTERNS; do for b in 3 64; do
    echo "$OUT/pktsize/n${n}_${t}_b$b $(common_args $n) --traffic=$t --load=1.0 --body=$b --records=off"
  done; done; done
  # per-hop breakdowns (records on): seed 004's 8-byte write unloaded, and a loaded fabric
  echo "$OUT/breakdown/n64_write8_l0.02 --nodes=64 --cycles=$CYC64 --traffic=uniform --load=0.02 --body=3"
  echo "$OUT/breakdown/n64_uniform_l0.3 $(common_args 64) --cycles=20000 --traffic=uniform --load=0.3"
  echo "$OUT/breakdown/n16_uniform_l0.3 $(common_args 16) --cycles=20000 --traffic=uniform --load=0.3"
  # the same sweep points with every switch the Verilated RTL: identical results expected
  for n in 16 64; do
    echo "$OUT/rtl/n${n}_uniform_l0.3 $(common_args $n) --traffic=uniform --load=0.3 --records=off --mode=rtl"
  done
}

# ---- reports --------------------------------------------------------------------------------

sweep_csv() {
  local out="$OUT/sweep.csv" first=1
  : > "$out"
  for n in 16 64; do for t in $PATTERNS; do for l in $LOADS; do
    local f="$OUT/sweep/n${n}_${t}_l$l/summary.csv"
    [[ -f $f ]] || continue
    if [[ $first -eq 1 ]]; then head -1 "$f" >> "$out"; first=0; fi
    tail -n +2 "$f" >> "$out"
  done; done; done
  echo "sweep: $out ($(($(wc -l < "$out") - 1)) runs)"
}

# saturation.csv: per (nodes, traffic): accepted at the highest offered load,
# the peak accepted throughput and where, latency at the lowest load.
saturation_csv() {
  awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { k = $c["nodes"] "," $c["traffic"]; if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
      l = $c["load"] + 0; a = $c["accepted"] + 0
      if (!(k in lmax) || l > lmax[k]) { lmax[k] = l; amax[k] = a }
      if (!(k in peak) || a > peak[k]) { peak[k] = a; peakl[k] = l }
      if (!(k in lmin) || l < lmin[k]) { lmin[k] = l; lat0[k] = $c["lat_mean"]; p990[k] = $c["lat_p99"]; net0[k] = $c["net_mean"] } }
    END { print "nodes,traffic,sat_load,sat_accepted,peak_accepted,peak_at_load,low_load,low_lat_mean,low_lat_p99,low_net_mean"
      for (i = 1; i <= nk; i++) { k = keys[i]
        printf "%s,%.2f,%.4f,%.4f,%.2f,%.2f,%.2f,%s,%.2f\n", k, lmax[k], amax[k], peak[k], peakl[k], lmin[k], lat0[k], p990[k], net0[k] } }' \
    "$OUT/sweep.csv" > "$OUT/saturation.csv"
}

# pktsize.csv: accepted throughput at offered 1.0 per packet size, with the
# endpoint-window bound L / (L + 4.5h) (docs/elite4.md §12) for the
# longest path h of the fabric (complement traffic uses only those): one
# packet per VC until its token returns, 2 VCs; with the pipelined switch
# (§8: a TAIL 3 cycles per switch plus the link, a token 4 plus the link)
# two interleaved L-flit packets take 2(L - 1) + (4h + 1) + (5h + 1) cycles.
pktsize_csv() {
  local out="$OUT/pktsize.csv"
  echo "nodes,traffic,flits,accepted,window_bound_longest_path" > "$out"
  for n in 16 64; do for t in $PATTERNS; do
    for f in "$OUT/pktsize/n${n}_${t}_b3/summary.csv" "$OUT/sweep/n${n}_${t}_l1.0/summary.csv" "$OUT/pktsize/n${n}_${t}_b64/summary.csv"; do
      [[ -f $f ]] || continue
      awk -F, -v h=$([[ $n == 64 ]] && echo 5 || echo 3) 'NR == 2 { printf "%s,%s,%s,%.4f,%.4f\n", $2, $3, $6, $15, $6 / ($6 + 4.5 * h) }' "$f" >> "$out"
    done
  done; done
}

# linkutil.csv: per run and link class, from the switches' port counters.
linkutil_csv() {
  local out="$OUT/linkutil.csv"
  echo "nodes,traffic,load,class,links,util_mean,util_max,xmit_wait_mean,xmit_wait_max" > "$out"
  for n in 16 64; do for t in $PATTERNS; do for l in $LOADS; do
    local f="$OUT/sweep/n${n}_${t}_l$l/links.csv"
    [[ -f $f ]] || continue
    awk -F, -v n="$n" -v t="$t" -v l="$l" 'NR > 1 { k = $5; if (!(k in cnt)) ord[++no] = k
        cnt[k]++; u[k] += $7; if ($7 > um[k]) um[k] = $7; w[k] += $9; if ($9 > wm[k]) wm[k] = $9 }
      END { for (i = 1; i <= no; i++) { k = ord[i]
        printf "%s,%s,%s,%s,%d,%.4f,%.4f,%.4f,%.4f\n", n, t, l, k, cnt[k], u[k] / cnt[k], um[k], w[k] / cnt[k], wm[k] } }' "$f" >> "$out"
  done; done; done
}

plots() {
  local pd="$OUT/plots"
  mkdir -p "$pd"
  for n in 16 64; do
    for t in $PATTERNS; do
      awk -F, -v n="$n" -v t="$t" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
        $c["nodes"] == n && $c["traffic"] == t { print $c["load"], $c["offered"], $c["accepted"], $c["lat_mean"], $c["lat_p99"], $c["net_mean"] }' \
        "$OUT/sweep.csv" | sort -g > "$pd/n${n}_$t.dat"
    done
    gnuplot <<EOF
set terminal svg size 800,500 dynamic font 'sans,12' noenhanced
set output '$pd/throughput_n$n.svg'
set title 'elite4 fat-tree, $n nodes: accepted vs offered throughput ($((BODY + 2))-flit packets)'
set xlabel 'offered load [flits/node/cycle]'
set ylabel 'accepted throughput [flits/node/cycle]'
set grid
set key left top
set xrange [0:1.05]
set yrange [0:1.05]
plot x with lines dt 2 lc rgb '#999999' title 'offered', \
  '$pd/n${n}_uniform.dat' using 1:3 with linespoints pt 7 lw 2 title 'uniform', \
  '$pd/n${n}_complement.dat' using 1:3 with linespoints pt 5 lw 2 title 'complement (i -> N-1-i)', \
  '$pd/n${n}_hotspot.dat' using 1:3 with linespoints pt 9 lw 2 title 'hotspot ($HOT_FRAC to node 0)'
EOF
    # a log axis cannot be linked: the ns axis gets the cycle axis' range x 4 (ns per cycle at 250 MHz)
    local ylo yhi
    read -r ylo yhi < <(cat "$pd"/n"${n}"_*.dat | awk 'NR == 1 { lo = $4; hi = $5 } { if ($4 < lo) lo = $4; if ($5 > hi) hi = $5 }
      END { printf "%g %g\n", lo * 0.8, hi * 1.25 }')
    gnuplot <<EOF
set terminal svg size 800,500 dynamic font 'sans,12' noenhanced
set output '$pd/latency_n$n.svg'
set title 'elite4 fat-tree, $n nodes: latency (created -> TAIL at destination) vs offered load'
set xlabel 'offered load [flits/node/cycle]'
set ylabel 'latency [cycles]'
set y2label 'latency [ns at 250 MHz]'
set logscale y
set logscale y2
set yrange [$ylo:$yhi]
set y2range [$ylo*4:$yhi*4]
set ytics nomirror
set y2tics
set grid
set key left top
set xrange [0:1.05]
plot '$pd/n${n}_uniform.dat' using 1:4 with linespoints pt 7 lw 2 lc 1 title 'uniform mean', \
  '$pd/n${n}_uniform.dat' using 1:5 with lines dt 2 lc 1 title 'uniform p99', \
  '$pd/n${n}_complement.dat' using 1:4 with linespoints pt 5 lw 2 lc 2 title 'complement mean', \
  '$pd/n${n}_complement.dat' using 1:5 with lines dt 2 lc 2 title 'complement p99', \
  '$pd/n${n}_hotspot.dat' using 1:4 with linespoints pt 9 lw 2 lc 3 title 'hotspot mean', \
  '$pd/n${n}_hotspot.dat' using 1:5 with lines dt 2 lc 3 title 'hotspot p99'
EOF
    # link utilisation per class at the highest offered load
    local lmax; lmax=$(echo "$LOADS" | tr ' ' '\n' | sort -g | tail -1)
    for t in $PATTERNS; do
      awk -F, -v n="$n" -v t="$t" -v l="$lmax" '$1 == n && $2 == t && $3 == l { print $4, $6, $7, $8 }' \
        "$OUT/linkutil.csv" > "$pd/links_n${n}_$t.dat"
    done
    gnuplot <<EOF
set terminal svg size 800,450 dynamic font 'sans,12' noenhanced
set output '$pd/links_n$n.svg'
set title 'elite4 fat-tree, $n nodes, offered load $lmax: mean link utilisation per link class'
set ylabel 'flits (and tokens) per cycle'
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set yrange [0:1]
set grid ytics
set key left top
plot '$pd/links_n${n}_uniform.dat' using 2:xtic(1) title 'uniform', \
  '$pd/links_n${n}_complement.dat' using 2 title 'complement', \
  '$pd/links_n${n}_hotspot.dat' using 2 title 'hotspot'
EOF
  done
  echo "plots: $pd ($(ls "$pd"/*.svg | wc -l) SVG files)"
}

# The RTL runs must reproduce the model's sweep points exactly (all columns
# but the name, the RTL count and the speed).
rtl_compare() {
  local out="$OUT/rtl_crosscheck.csv" ok=1
  echo "run,model_accepted,rtl_accepted,model_lat_mean,rtl_lat_mean,identical" > "$out"
  for n in 16 64; do
    local m="$OUT/sweep/n${n}_uniform_l0.3/summary.csv" r="$OUT/rtl/n${n}_uniform_l0.3/summary.csv"
    [[ -f $m && -f $r ]] || continue
    local same=yes
    paste -d'\n' <(tail -1 "$m" | cut -d, -f2-9,11-35) <(tail -1 "$r" | cut -d, -f2-9,11-35) | uniq | awk 'END { exit NR != 1 }' || same=no
    [[ $same == yes ]] || ok=0
    awk -F, -v n="n${n}_uniform_l0.3" -v s="$same" 'NR == 2 { a = $15; b = $22 } NR == 4 { print n "," a "," $15 "," b "," $22 "," s }' \
      <(cat "$m") <(cat "$r") >> "$out"
  done
  echo "rtl cross-check: $out ($([[ $ok -eq 1 ]] && echo "identical" || echo "DIFFERENT"))"
}

bench() {
  mkdir -p "$OUT/bench"
  "$BIN" --test=bench --cycles="$BENCH_CYCLES" --seed="$SEED" --out="$OUT/bench" | tee "$OUT/bench/log" | grep '^core,\|^bench:'
}

summary_md() {
  local md="$OUT/summary.md" wall=${1:-}
  local L=$((BODY + 2))
  {
    echo "# elite4 fat-tree fabrics: throughput, latency, breakdown, link utilisation"
    echo
    echo "Generated by \`make elite4-reports\` (mk/elite4-reports.sh) on $(date -u +%Y-%m-%d)."
    echo "Seed $SEED; ${L}-flit packets (HEAD, $BODY body words, TAIL); hotspot: $HOT_FRAC of each node's packets to node 0;"
    echo "source queues of $SRC_QUEUE packets; 16 nodes $CYC16 and 64 nodes $CYC64 injection cycles per point,"
    echo "statistics over the last four fifths; every run drains (all packets delivered, tokens back) and passes the scoreboard."
    echo "Switches: the elite4 C model (the RTL reproduces the points checked below). Clock 250 MHz (4 ns/cycle, testbench/clock.h)."
    [[ -n $wall ]] && echo "Wall time of the whole report: $wall s on $JOBS parallel jobs."
    echo
    echo "Files: \`sweep.csv\` (one row per run), \`saturation.csv\`, \`linkutil.csv\`, \`rtl_crosscheck.csv\`,"
    echo "\`pktsize.csv\`, \`breakdown/*/breakdown.{md,csv}\` and \`records.csv\` (per packet, per hop), \`sweep/*/links.csv\` (per link),"
    echo "\`plots/{throughput,latency,links}_n{16,64}.svg\`, \`bench/bench.csv\`."
    echo
    echo "## Saturation throughput and low-load latency"
    echo
    echo "| nodes | traffic | accepted at offered ${LOADS##* } | peak accepted (at offered) | latency at offered ${LOADS%% *}: mean / p99 cycles | mean ns | injected -> TAIL mean cycles |"
    echo "|---:|---|---:|---:|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %.3f | %.3f (%.2f) | %.1f / %d | %.1f | %.1f |\n", $1, $2, $4, $5, $6, $8, $9, 4 * $8, $10 }' "$OUT/saturation.csv"
    echo
    echo "Throughput is in flits per node per cycle (1 flit/cycle = 1.0 GB/s at 250 MHz); tokens are not counted."
    echo
    echo "## Saturation vs packet size (offered 1.0)"
    echo
    echo "Bound from the endpoint window (one packet per VC until its token returns, 2 VCs, h switches):"
    echo "L / (L + 4.5h) flits/node/cycle (docs/elite4.md §12), shown for the fabric's longest path (h = 3 for 16 nodes, 5 for 64)."
    echo
    echo "| nodes | traffic | packet flits | accepted | window bound (longest path) |"
    echo "|---:|---|---:|---:|---:|"
    awk -F, 'NR > 1 { printf "| %s | %s | %s | %.3f | %.3f |\n", $1, $2, $3, $4, $5 }' "$OUT/pktsize.csv"
    echo
    echo "## Link utilisation at offered ${LOADS##* } (switch port counters: cnt_xmit_flits, cnt_xmit_wait)"
    echo
    echo "| nodes | traffic | class | links | utilisation mean / max | XmitWait per cycle mean / max |"
    echo "|---:|---|---|---:|---:|---:|"
    awk -F, -v l="${LOADS##* }" 'NR > 1 && $3 == l { printf "| %s | %s | %s | %s | %.3f / %.3f | %.3f / %.3f |\n", $1, $2, $4, $5, $6, $7, $8, $9 }' "$OUT/linkutil.csv"
    echo
    echo "NIC->L0 utilisation comes from the leaf switch's cnt_rcv_flits (the NIC has no XmitWait counter)."
    echo
    for b in n64_write8_l0.02 n64_uniform_l0.3; do
      local f="$OUT/breakdown/$b/breakdown.md"
      [[ -f $f ]] || continue
      echo "## Per-hop breakdown: $b"
      echo
      cat "$f"
      echo
    done
    if [[ -f $OUT/rtl_crosscheck.csv ]]; then
      echo "## All-RTL cross-check"
      echo
      echo "| run | accepted (model / RTL) | mean latency cycles (model / RTL) | every summary column identical |"
      echo "|---|---:|---:|---|"
      awk -F, 'NR > 1 { printf "| %s | %s / %s | %s / %s | %s |\n", $1, $2, $3, $4, $5, $6 }' "$OUT/rtl_crosscheck.csv"
      echo
    fi
    if [[ -f $OUT/bench/bench.csv ]]; then
      echo "## Fabric simulation speed (64 nodes, 48 switches, uniform 0.3, records off)"
      echo
      echo "| switches (core path) | fabric cycles/s | node-cycles/s | switch-cycles/s |"
      echo "|---|---:|---:|---:|"
      awk -F, 'NR > 1 { printf "| %s (%s) | %s | %s | %s |\n", $1, $9, $6, $7, $8 }' "$OUT/bench/bench.csv"
      echo
    fi
  } > "$md"
  echo "summary: $md"
}

report() {
  sweep_csv
  saturation_csv
  linkutil_csv
  pktsize_csv
  rtl_compare
  plots
  summary_md "${1:-}"
}

case $what in
run)
  need_bin
  mkdir -p "$OUT"
  t0=$(date +%s)
  echo "elite4-reports: $(jobs | wc -l) runs, $JOBS at a time (SEED=$SEED, CYC16=$CYC16, CYC64=$CYC64, BODY=$BODY)"
  jobs | xargs -P "$JOBS" -L 1 bash -c 'run_one "$@"' _
  bench
  report "$(($(date +%s) - t0))"
  grep -l "TEST FAILED" "$OUT"/sweep/*/log "$OUT"/breakdown/*/log "$OUT"/rtl/*/log 2>/dev/null && { echo "elite4-reports: some runs FAILED"; exit 1; }
  echo "elite4-reports: done in $(($(date +%s) - t0)) s"
  ;;
report)
  report
  ;;
bench)
  need_bin
  bench
  ;;
*)
  echo "usage: mk/elite4-reports.sh [run|report|bench]"; exit 2 ;;
esac
