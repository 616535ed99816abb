#!/usr/bin/env bash
# make bench, fabric part (docs/fabric.md "Speed"): node-cycles per second of
# the 64-node 4-ary 3-tree of elite4 switches, uniform traffic, 16-flit
# packets (--body=14: HEAD, 14 body words, TAIL), --cycles injection window
# (default 100,000) then drain, records off: the core with skipping and
# without, all-model at offered 0.05, 0.3, 0.5, and all-RTL at 0.3; beside BookSim2's figures from issue 10
# (3.0 M / 0.93 M / 0.55 M node-cycles/s on this machine class). A benchmark,
# not a test: nothing is asserted; the load average is recorded with it.
# Then the core on 2 threads against 1 (docs/fabric.md "Parallel"): the 64-
# and 256-node trees at uniform 0.3, both paths in one process, one after the
# other; wall-clock ratio and CPU-time ratio (every thread), since on a shared
# machine the wall ratio says as much about the neighbours as about the code.
# BENCH_WHAT=paths or threads runs only that half (default: both).
# Output: build/reports/fabric/bench.csv, threads.csv and the tables on stdout.
set -euo pipefail
BIN=${BIN:-build/bin/elite4_fabric_core_sim}
CYCLES=${BENCH_CYCLES:-100000}
OUT=${OUT:-build/reports/fabric}
WHAT=${BENCH_WHAT:-all}
mkdir -p "$OUT"
csv=$OUT/bench.csv
echo "switches,load,path,node_cycles_per_s,evaluations,cycles_jumped,booksim2,ratio_to_booksim2,loadavg" > "$csv"
booksim() { case $1 in 0.05) echo 3.0e6 ;; 0.3) echo 0.93e6 ;; 0.5) echo 0.55e6 ;; esac; }
run() { # switches load test extra...
  local sw=$1 load=$2 test=$3; shift 3
  local la; la=$(cut -d' ' -f1 /proc/loadavg)
  "$BIN" --test="$test" --nodes=64 --traffic=uniform --load="$load" --body=14 --cycles="$CYCLES" \
    --records=off "$@" > "$OUT/bench_${sw}_${load}.log"
  awk -v sw="$sw" -v load="$load" -v bs="$(booksim "$load")" -v la="$la" '
    /^core, skip:|^core, no skip:|^core, rtl:/ && /node-cycles/ { # not the cpu lines
      path = $2 == "skip:" ? "core_skip" : ($2 == "rtl:" ? "core_skip" : "core_noskip")
      for (i = 1; i <= NF; i++) if ($i == "node-cycles/s,") ncs = $(i - 2) * 1e6
      ev = ""; j = ""
      for (i = 1; i <= NF; i++) { if ($i == "evaluations," || $i == "evaluations") ev = $(i - 1); if ($i == "cycles" && $(i + 1) == "jumped,") j = $(i - 1) }
      printf "%s,%s,%s,%.0f,%s,%s,%s,%.2f,%s\n", sw, load, path, ncs, ev, j, bs, ncs / bs, la
    }' "$OUT/bench_${sw}_${load}.log" >> "$csv"
}
if [[ $WHAT != threads ]]; then
  for l in 0.05 0.3 0.5; do run model "$l" bench --bench-paths=skip,noskip; done
  run rtl 0.3 bench --bench-paths=rtl
  column -s, -t "$csv"
  awk -F, '$1 == "model" && $2 == 0.3 && $3 == "core_skip" { m = $4 } $1 == "rtl" && $3 == "core_skip" { r = $4 }
    END { if (r) printf "all-model / all-RTL at 0.3 (core, skipping): %.1fx\n", m / r }' "$csv"
  echo "fabric bench: $csv"
fi
[[ $WHAT == paths ]] && exit 0

tcsv=$OUT/threads.csv
TCYCLES=${BENCH_THREAD_CYCLES:-$CYCLES}
echo "nodes,load,threads,node_cycles_per_s,wall_s,cpu_s,speed_ratio,cpu_ratio,critical_path_s,idle_estimate,cut_links,syncs,loadavg" > "$tcsv"
for n in 64 256; do
  la=$(cut -d' ' -f1 /proc/loadavg)
  log=$OUT/bench_threads_$n.log
  "$BIN" --test=bench --bench-paths=skip,threads --threads=2 --nodes="$n" --traffic=uniform --load=0.3 \
    --body=14 --cycles="$TCYCLES" --records=off --out="$OUT/threads_$n" > "$log"
  awk -v n="$n" -v la="$la" '
    /^core, skip: .*node-cycles/ || /^core, threads: .*node-cycles/ {
      k = $2 == "skip:" ? 1 : 2
      for (i = 1; i <= NF; i++) {
        if ($i == "node-cycles/s,") ncs[k] = $(i - 2) * 1e6
        if ($i == "cut" && $(i + 1) == "links,") cut[k] = $(i - 1)
        if ($i == "synchronisations") sy[k] = $(i - 1)
      }
    }
    /^core, skip: +cpu/ || /^core, threads: +cpu/ { k = $2 == "skip:" ? 1 : 2; cpu[k] = $4; wall[k] = $7 }
    /^core, threads: +critical path/ { crit = $5 }
    END {
      printf "%s,0.3,1,%.0f,%s,%s,1.00,1.00,%s,1.00,0,0,%s\n", n, ncs[1], wall[1], cpu[1], cpu[1], la
      printf "%s,0.3,2,%.0f,%s,%s,%.2f,%.2f,%s,%.2f,%s,%s,%s\n", n, ncs[2], wall[2], cpu[2], ncs[2] / ncs[1],
        cpu[2] / cpu[1], crit, cpu[1] / crit, cut[2], sy[2], la
    }' "$log" >> "$tcsv"
done
column -s, -t "$tcsv"
echo "fabric threads bench: $tcsv (speed_ratio: 2 threads / 1, wall clock; cpu_ratio: CPU time, every" \
  "thread; idle_estimate: one thread's CPU time / the 2-thread run's critical path, docs/fabric.md \"Parallel\")"
