#!/bin/sh
# The dynamic subnet manager against all links on (docs/ibsw.md "The dynamic
# subnet manager"): a 4x4 torus of 24-port ibsw switches (PL parallel links,
# HOSTS hosts per switch), a load in phases (PHASES, LOAD:CYCLES,...), each
# seed run twice, all links on (--sm=static) and with --sm=dynamic; per seed
# the network power saved (energy over the phases against all ports on) and
# the throughput lost (data flits delivered during the phases, against the
# all-on run), overall and per phase; mean and 95 % interval (Student t,
# mk/ci.awk) over SEEDS seeds.
# Env: SEEDS (5), PL (4), HOSTS (8: 8 + 4*4 = 24 ports), PHASES, PERIOD (sm
# period, 10000), LOW, HIGH (watermarks, 0.1 / 0.3), SAMPLING (the dynamic SM's stage 1:
# samples = PortSamplesControl/Result windows, counters = PortCountersExtended), JOBS (2), BIN,
# OUT (build/reports/ibsw-dyn).
# As a regress `script` line it gets --name= --seed= --out=: --out is OUT; the
# verdict is the last line (TEST PASSED, or TEST FAILED naming the run).
set -eu
for a in "$@"; do case "$a" in --out=*) OUT=${a#--out=} ;; --name=* | --seed=*) ;; *) echo "ibsw-dyn-sweep: unknown argument '$a'" >&2; exit 2 ;; esac; done
BIN=${BIN:-build/bin/ibsw_fabric_sim}
OUT=${OUT:-build/reports/ibsw-dyn}
SEEDS=${SEEDS:-5}
PL=${PL:-4}
HOSTS=${HOSTS:-8}
PHASES=${PHASES:-0.04:100000,0.2:100000,0.04:100000}
PERIOD=${PERIOD:-10000}
LOW=${LOW:-0.1}
HIGH=${HIGH:-0.3}
SAMPLING=${SAMPLING:-samples}
JOBS=${JOBS:-2}
[ -x "$BIN" ] || { echo "ibsw-dyn-sweep: $BIN not built (make $BIN)" >&2; exit 2; }
[ "$SEEDS" -ge 2 ] || { echo "ibsw-dyn-sweep: SEEDS must be 2 or more (an interval)" >&2; exit 2; }
mkdir -p "$OUT/runs"
: > "$OUT/jobs.txt"
s=1; while [ "$s" -le "$SEEDS" ]; do
  echo "static $s" >> "$OUT/jobs.txt"; echo "dynamic $s" >> "$OUT/jobs.txt"; s=$((s + 1))
done
# each job: one run, its log kept; a failed run stops the sweep ($0/$1 expand in the job's shell)
# shellcheck disable=SC2016
xargs -P "$JOBS" -L 1 sh -c '
  f="'"$OUT"'/runs/$0-$1.log"
  [ -s "$f" ] && grep -q "^TEST PASSED" "$f" && exit 0
  smp=; [ "$0" = dynamic ] && smp=--sampling='"$SAMPLING"'
  nice -n 10 '"$BIN"' --seed=$1 --sm=$0 $smp --phases='"$PHASES"' --sm-period='"$PERIOD"' --sm-low='"$LOW"' \
    --sm-high='"$HIGH"' --parallel='"$PL"' --hosts='"$HOSTS"' --cycles=100000000 > "$f" 2>&1 || { echo "FAILED: $f" >&2; exit 255; }
' < "$OUT/jobs.txt" || { echo "TEST FAILED: a run failed (its log is named above; its rerun line is in it)"; exit 1; }
# phase lengths, for weighting the per-phase throughputs into delivered flits
LENS=$(echo "$PHASES" | tr ',' '\n' | sed 's/.*://' | tr '\n' ' ')
cat > "$OUT/table.awk" <<'AWK'
function kv(line, arr,    i, n, f, p) { n = split(line, f, " "); for (i = 1; i <= n; i++) { p = index(f[i], "="); if (p) arr[substr(f[i], 1, p - 1)] = substr(f[i], p + 1) } }
BEGIN { split(loads, ld, " ") }
/^phase [0-9]+:/ && FILENAME ~ /dynamic-/ { k = substr($2, 1, length($2) - 1) + 1
  for (i = 1; i < NF; i++) if ($i == "saved") ps = $(i + 1); ci_add("psave" k, ps + 0) }
/^dyn: / { delete v; kv($0, v); sm = v["sm"]; sd = v["seed"]; thr[sm, sd] = v["phase_thr"]; sav[sm, sd] = v["saved_pct"]
  offb[sm, sd] = v["off_batches"]; onb[sm, sd] = v["on_batches"]; seeds[sd] = 1 }
END {
  np = split(lens, L, " ")
  for (sd in seeds) {
    split(thr["static", sd], a, ","); split(thr["dynamic", sd], b, ",")
    fa = 0; fb = 0
    for (k = 1; k <= np; k++) { fa += a[k] * L[k]; fb += b[k] * L[k]
      if (a[k] > 0) ci_add("loss" k, 100 * (1 - b[k] / a[k])) }
    ci_add("saved", sav["dynamic", sd] + 0); ci_add("loss", 100 * (1 - fb / fa))
    ci_add("offb", offb["dynamic", sd]); ci_add("onb", onb["dynamic", sd])
  }
  print "| quantity | mean | 95 % interval | seeds |"
  print "|---|---:|---:|---:|"
  printf "| network power saved vs all links on | %.2f %% | ± %.2f | %d |\n", ci_mean("saved"), ci_hw("saved"), ci_n["saved"]
  printf "| throughput lost vs all links on (data delivered in the phases) | %.2f %% | ± %.2f | %d |\n", ci_mean("loss"), ci_hw("loss"), ci_n["loss"]
  for (k = 1; k <= np; k++)
    printf "| phase %d (load %s): power saved / throughput lost | %.2f %% / %.2f %% | ± %.2f / ± %.2f | %d |\n", k - 1, ld[k], ci_mean("psave" k), ci_mean("loss" k), ci_hw("psave" k), ci_hw("loss" k), ci_n["loss" k]
  printf "| decisions turning links off / on | %.1f / %.1f | | %d |\n", ci_mean("offb"), ci_mean("onb"), ci_n["offb"]
}
AWK
LOADS=$(echo "$PHASES" | tr ',' '\n' | sed 's/:.*//' | tr '\n' ' ')
awk -v lens="$LENS" -v loads="$LOADS" -f "$(dirname "$0")/ci.awk" -f "$OUT/table.awk" "$OUT"/runs/*.log > "$OUT/dyn.md"
echo "4x4 torus, $PL parallel links, $HOSTS hosts/switch, up*/down*, phases $PHASES, period $PERIOD, watermarks $LOW / $HIGH, sampling $SAMPLING, $SEEDS seeds" >> "$OUT/dyn.md"
cat "$OUT/dyn.md"
echo "TEST PASSED"
