#!/bin/sh
# Throughput and power vs deactivated links on the 4x4 torus of 24-port ibsw
# switches (docs/ibsw.md "In a fabric: status"), seed 000 Figs. 3-5:
# the routings ROUTINGS (up*/down*, DOR; updn_mst: up*/down* with one
# spanning tree per VL, docs/ibsw.md §12), the traffic kinds TRAFFIC (uniform and
# bit-reversal; npb_cg, npb_bt: the NPB-like patterns of Fig. 4, RANKS ranks,
# throughput per rank), offered loads LOADS, links off OFFS, SEEDS seeds; mean
# and 95 % interval (Student t).
# Env: ROUTINGS ("updn dor"), TRAFFIC ("uniform bitrev"), RANKS (16), PACKETS (80000, the seed's;
# statistics over the last half), SEEDS (5),
# PL (4 parallel links), HOSTS (8 per switch: 8 + 4*4 = 24 ports), OFFS,
# LOADS, JOBS (2), BIN, OUT (build/reports/ibsw), MINWIN (10: a run whose statistics
# window holds less than MINWIN % of its packets fails, check ibfab.window; ours).
# As a regress `script` line it gets --name= --seed= --out=: --out is OUT; the
# verdict is the last line (TEST PASSED, or TEST FAILED naming the run).
# A testlist line sets the others by --traffic= --packets= --offs= --loads=
# (lists comma-separated: --traffic=npb_cg,npb_bt).
set -eu
for a in "$@"; do case "$a" in
  --out=*) OUT=${a#--out=} ;;
  --traffic=*) TRAFFIC=$(echo "${a#--traffic=}" | tr , ' ') ;;
  --packets=*) PACKETS=${a#--packets=} ;;
  --offs=*) OFFS=$(echo "${a#--offs=}" | tr , ' ') ;;
  --loads=*) LOADS=$(echo "${a#--loads=}" | tr , ' ') ;;
  --name=* | --seed=*) ;;
  *) echo "ibsw-torus-sweep: unknown argument '$a'" >&2; exit 2 ;;
esac; done
BIN=${BIN:-build/bin/ibsw_fabric_sim}
OUT=${OUT:-build/reports/ibsw}
PACKETS=${PACKETS:-80000}
TRAFFIC=${TRAFFIC:-uniform bitrev}
ROUTINGS=${ROUTINGS:-updn dor}
RANKS=${RANKS:-16}
SEEDS=${SEEDS:-5}
PL=${PL:-4}
HOSTS=${HOSTS:-8}
OFFS=${OFFS:-0 24 48 72 96}
LOADS=${LOADS:-0.15 0.5}
JOBS=${JOBS:-2}
MINWIN=${MINWIN:-10}
[ -x "$BIN" ] || { echo "ibsw-torus-sweep: $BIN not built (make $BIN)" >&2; exit 2; }
mkdir -p "$OUT/runs"
: > "$OUT/jobs.txt"
for r in $ROUTINGS; do for t in $TRAFFIC; do for l in $LOADS; do for k in $OFFS; do
  s=1; while [ "$s" -le "$SEEDS" ]; do
    echo "$r $t $l $k $s" >> "$OUT/jobs.txt"; s=$((s + 1))
  done
done; done; done; done
# each job: one run, its log kept; a failed run stops the sweep
xargs -P "$JOBS" -L 1 sh -c '
  f="'"$OUT"'/runs/$0-$1-$2-$3-$4.log"
  [ -s "$f" ] && grep -q "^TEST PASSED" "$f" && exit 0
  nice -n 10 '"$BIN"' --seed=$4 --routing=$0 --traffic=$1 --load=$2 --off=$3 --packets='"$PACKETS"' \
    --parallel='"$PL"' --hosts='"$HOSTS"' --ranks='"$RANKS"' --min-window='"$MINWIN"' --cycles=100000000 > "$f" 2>&1 || { echo "FAILED: $f" >&2; exit 255; }
' < "$OUT/jobs.txt" || { echo "TEST FAILED: a run failed (its log is named above; its rerun line is in it)"; exit 1; }
# table: mean and 95 % interval per (routing, traffic, load, off)
# (mean and Student-t interval from mk/ci.awk, the kit's one implementation)
cat > "$OUT/table.awk" <<'EOF'
{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  key = v["routing"] " " v["traffic"] " " v["load"] " " v["off"]
  ci_add(key, v["throughput"] + 0)
  ls[key] += v["latency"]; pw[key] = v["power_w"]; sv[key] = v["saved_pct"]; wp[key] += v["window_pct"] }
END {
  print "| routing | traffic | offered | links off | power (W) | saved | throughput (flits/cycle/host) | 95 % | latency (cycles) | window | seeds |"
  print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  for (i = 1; i <= ci_nkeys; i++) {
    k = ci_order[i]; split(k, a, " ")
    printf "| %s | %s | %s | %d | %.1f | %.2f %% | %.4f | ± %.4f | %.0f | %.0f %% | %d |\n", a[1], a[2], a[3], a[4], pw[k], sv[k], ci_mean(k), ci_hw(k), ls[k] / ci_n[k], wp[k] / ci_n[k], ci_n[k]
  }
}
EOF
cat "$OUT"/runs/*.log | grep '^result:' | sed 's/^result: //' | awk -f "$(dirname "$0")/ci.awk" -f "$OUT/table.awk" | { read h1; read h2; echo "$h1"; echo "$h2"; sort -t'|' -k2,2 -k3,3 -k4,4n -k5,5n; } > "$OUT/torus.md"
echo "packets $PACKETS (statistics from packet N/2 created to the first host done; window: its mean share of the packets, at least $MINWIN % per run), seeds $SEEDS, $PL parallel links, $HOSTS hosts/switch; npb_* rows: $RANKS ranks, throughput per rank" >> "$OUT/torus.md"
cat "$OUT/torus.md"
echo "TEST PASSED"
