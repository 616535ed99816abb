#!/usr/bin/env bash
# make bench: simulation speed of every co-simulation target: the C model
# alone, the Verilated RTL alone, the lockstep, and the lockstep with an FST
# trace, each driven by the target's random test with its scoreboard off.
#
# All modes share the test's stimulus, which for blocks this small costs as
# much as the simulators, so besides raw cycles/s the table gives the net cost
# per cycle (mode minus a stimulus-only run) and the ratios of net costs.
# Ratios come from one run on a shared machine; they are reported, never asserted.
set -euo pipefail
cd "$(dirname "$0")/.."
CYCLES=${BENCH_CYCLES:-2000000}
out=build/bench
mkdir -p "$out"
json=build/bench.json

rate() { # bin test mode [extra] -> cycles/s
  local log="$out/$2.$3${4:-}.log"
  "$1" --test="$2" --mode="$3" --cycles="$CYCLES" --seed=1 --no-check --out="$out/$2.$3" "${@:4}" > "$log" 2>&1 || true
  awk '{for(i=1;i<=NF;i++) if($i=="rate:") r=$(i+1)} END{print r+0}' "$log"
}
net() { awk -v r="$1" -v s="$2" 'BEGIN{ v = 1e9/r - 1e9/s; if (v < 0.01) v = 0.01; printf "%.2f", v }'; }

printf '%-22s %10s %10s %10s %10s | %8s %8s %8s %8s | %9s %9s\n' target "model c/s" "rtl c/s" "lockstep" "lock+fst" \
  "model ns" "rtl ns" "lock ns" "fst ns" "rtl/model" "lock/rtl"
printf '%-22s %43s | %35s | %19s\n' "" "raw simulated cycles per second" "net ns per cycle (minus stimulus)" "net cost ratios"
mhz=$(awk '$1 == "#define" && $2 == "NETCOSIM_CLOCK_MHZ" { print $3 }' testbench/clock.h)
echo "{\"cycles\": $CYCLES, \"clock_mhz\": $mhz, \"targets\": [" > "$json"
first=1
for block in "$@"; do
  bin=build/bin/${block}_sim
  declare -A done=()
  while read -r test target _; do
    [[ $test == *_random && -z ${done[$target]:-} ]] || continue
    done[$target]=1
    s=$(rate "$bin" "$test" stimulus)
    m=$(rate "$bin" "$test" model); r=$(rate "$bin" "$test" rtl)
    l=$(rate "$bin" "$test" lockstep); t=$(rate "$bin" "$test" lockstep --trace)
    mn=$(net "$m" "$s"); rn=$(net "$r" "$s"); ln=$(net "$l" "$s"); tn=$(net "$t" "$s")
    sp=$(awk -v a="$rn" -v b="$mn" 'BEGIN{printf "%.1f", a/b}')
    lr=$(awk -v a="$ln" -v b="$rn" 'BEGIN{printf "%.2f", a/b}')
    # VOPT=quick, or VQUICK_TARGETS (Makefile): Verilated C++ at -O1/-O0, marked '*'
    opt=O2; [[ ${VOPT:-quick} == quick || " ${VQUICK_TARGETS:-} " == *" $target "* ]] && opt=O1
    printf '%-22s %10.0f %10.0f %10.0f %10.0f | %8s %8s %8s %8s | %8sx %8sx\n' "$target$([[ $opt == O1 ]] && echo '*')" \
      "$m" "$r" "$l" "$t" "$mn" "$rn" "$ln" "$tn" "$sp" "$lr"
    [[ $first -eq 1 ]] || echo ',' >> "$json"; first=0
    printf '  {"target": "%s", "test": "%s", "stimulus_cps": %s, "model_cps": %s, "rtl_cps": %s, "lockstep_cps": %s, "lockstep_fst_cps": %s, "net_ns": {"model": %s, "rtl": %s, "lockstep": %s, "lockstep_fst": %s}, "rtl_over_model": %s, "lockstep_over_rtl": %s, "rtl_cxx_opt": "-%s"}' \
      "$target" "$test" "$s" "$m" "$r" "$l" "$t" "$mn" "$rn" "$ln" "$tn" "$sp" "$lr" "$opt" >> "$json"
  done < <("$bin" --list)
  unset done
done
printf '\n]' >> "$json"
echo "* RTL C++ compiled -O1/-O0 for a faster build (Makefile VOPT, VQUICK_TARGETS), the others -O2"
echo "targets (reported, not asserted): model >= 20x faster than RTL (issue 10); lockstep <= 1.5x the time of RTL alone"

# Experiments built on the blocks: their own speed measures, as CSV files.
extra=()
if [[ -x build/bin/cp_hotspot_sim ]]; then
  echo; echo "cp hotspot experiment (simulated seconds per wall second, growth with N):"
  NS=${BENCH_NS:-"16 32 64 128 256"} BENCH_CMS=${BENCH_CMS:-"none ecm"} ./mk/cp-hotspot.sh bench
  extra+=("\"cp_hotspot\": \"build/reports/cp_hotspot/bench.csv\"")
fi
if [[ -x build/bin/elite4_fabric_core_sim && -x mk/elite4-reports.sh ]]; then
  echo; echo "elite4 fabric (node-cycles per second, model with / without skipping, all-RTL):"
  ./mk/elite4-reports.sh bench
  extra+=("\"elite4_fabric\": \"build/reports/elite4/bench/bench.csv\"")
fi
if [[ -x build/bin/elite4_fabric_core_sim ]]; then
  echo; echo "fabric core (64-node elite4 fat tree, node-cycles/s beside BookSim2; 1 vs 2 threads; mk/fabric-bench.sh):"
  ./mk/fabric-bench.sh
  extra+=("\"fabric\": \"build/reports/fabric/bench.csv\"")
  extra+=("\"fabric_threads\": \"build/reports/fabric/threads.csv\"") # 1 vs 2 threads, 64 and 256 nodes
fi
if [[ -x build/bin/elan4_fabric_sim ]]; then
  # docs/elan4fab.md: the 8-byte put's first flit and memory-written cycles,
  # the event-built packet rate, and the NIC's simulation speed (16-node
  # fadd, every NIC model, RTL or lockstep: fabric cycles per wall second)
  echo; echo "elan4 fabric (build/reports/elan4fab/bench.csv):"
  mkdir -p build/reports/elan4fab
  ef=build/bin/elan4_fabric_sim csv=build/reports/elan4fab/bench.csv
  echo "what,value,unit" > "$csv"
  $ef --test=put --nodes=64 > "$out/ef_put.log" 2>&1 || true
  awk '/first flit on the link/ {print "put64_first_flit," $(NF-4) ",cycles"} /memory written/ {print "put64_memory_written," $(NF-4) ",cycles"}' "$out/ef_put.log" >> "$csv"
  $ef --test=evrate --nodes=16 --dst=1 > "$out/ef_evrate.log" 2>&1 || true
  awk '/M packets\/s;/ { for (i = 1; i < NF; i++) if ($(i+1) == "M" && $(i+2) == "packets/s;") print "evrate16," $i ",M packets/s" }' "$out/ef_evrate.log" >> "$csv"
  # wall-clock rate and CPU seconds (user + system, mk/cpu-of.sh): on a shared
  # machine the wall clock follows the load, the CPU seconds much less
  for m in model rtl lockstep; do
    rm -f "$out/ef_fadd_$m.cpu"
    ./mk/cpu-of.sh "$out/ef_fadd_$m.cpu" $ef --test=fadd --nodes=16 --rounds=20 --nic=$m > "$out/ef_fadd_$m.log" 2>&1 || true
    awk -v m=$m '/^sim:/ { print "fadd16_" m "," $(NF-2) ",fabric cycles/s" }' "$out/ef_fadd_$m.log" >> "$csv"
    awk -v m=$m '{ print "fadd16_" m "_cpu," $1 ",CPU s" }' "$out/ef_fadd_$m.cpu" >> "$csv"
  done
  column -s, -t < "$csv"
  awk -F, '/^fadd16_model,/ {m=$2} /^fadd16_rtl,/ {r=$2} /^fadd16_model_cpu,/ {mc=$2} /^fadd16_rtl_cpu,/ {rc=$2}
    END { if (r > 0 && mc > 0) printf "16 elan4 NICs: model %.1fx the RTL'"'"'s speed by wall clock, %.1fx by CPU seconds (target >= 20x, reported, not asserted)\n", m / r, rc / mc }' "$csv"
  extra+=("\"elan4_fabric\": \"build/reports/elan4fab/bench.csv\"")
fi
printf ', "experiments": {%s}}\n' "$(IFS=,; echo "${extra[*]}")" >> "$json"
echo "bench: $json"
