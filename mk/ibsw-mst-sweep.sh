#!/bin/sh
# One spanning tree against one per VL: up*/down* (updn) beside up*/down*
# with multiple spanning trees (updn_mst, 4 trees on 4 VLs) on the 4x4 torus
# of 24-port ibsw switches (docs/ibsw.md "One spanning tree or one per VL").
# Runs mk/ibsw-torus-sweep.sh with ROUTINGS="updn updn_mst" (its runs and
# settings: PACKETS, SEEDS, TRAFFIC, LOADS, OFFS, PL, HOSTS, JOBS, BIN, OUT),
# then a side-by-side table: throughput and latency, each mean +- the 95 %
# interval (Student t, mk/ci.awk), and whether the intervals of the two
# routings are apart. Env as the torus sweep's; OUT defaults to
# build/reports/ibsw-mst, PACKETS to 10000, OFFS to "0 48 96".
set -eu
OUT=${OUT:-build/reports/ibsw-mst}
PACKETS=${PACKETS:-10000}
OFFS=${OFFS:-0 48 96}
export OUT PACKETS OFFS
ROUTINGS="updn updn_mst" "$(dirname "$0")/ibsw-torus-sweep.sh" > "$OUT.sweep.txt" || {
  cat "$OUT.sweep.txt"; exit 1; }
cat > "$OUT/mst.awk" <<'EOF'
{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
  k = v["traffic"] " " v["load"] " " v["off"]
  if (!(k in seen)) { seen[k] = 1; keys[++nk] = k }
  ci_add(v["routing"] " thr " k, v["throughput"] + 0)
  ci_add(v["routing"] " lat " k, v["latency"] + 0) }
function cell(r, m, k) { return sprintf(m == "thr" ? "%.4f ± %.4f" : "%.0f ± %.0f", ci_mean(r " " m " " k), ci_hw(r " " m " " k)) }
function apart(m, k,    a, b) {
  a = "updn " m " " k; b = "updn_mst " m " " k
  if (ci_mean(b) - ci_hw(b) > ci_mean(a) + ci_hw(a)) return "higher"
  if (ci_mean(b) + ci_hw(b) < ci_mean(a) - ci_hw(a)) return "lower"
  return "overlap" }
END {
  print "| traffic | offered | links off | throughput, one tree | throughput, 4 trees | 4 trees | latency (cycles), one tree | latency, 4 trees | 4 trees | seeds |"
  print "|---|---:|---:|---:|---:|---|---:|---:|---|---:|"
  for (i = 1; i <= nk; i++) {
    split(keys[i], a, " ")
    printf "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %d |\n", a[1], a[2], a[3], cell("updn", "thr", keys[i]), cell("updn_mst", "thr", keys[i]), apart("thr", keys[i]), cell("updn", "lat", keys[i]), cell("updn_mst", "lat", keys[i]), apart("lat", keys[i]), ci_n["updn_mst thr " keys[i]]
  }
}
EOF
cat "$OUT"/runs/*.log | grep '^result:' | sed 's/^result: //' |
  awk -f "$(dirname "$0")/ci.awk" -f "$OUT/mst.awk" | { read h1; read h2; echo "$h1"; echo "$h2"; sort -t'|' -k2,2 -k3,3n -k4,4n; } > "$OUT/mst.md"
echo "packets $PACKETS (statistics over the last half), seeds ${SEEDS:-5}; higher/lower: the 95 % intervals apart, overlap: not" >> "$OUT/mst.md"
cat "$OUT/mst.md"
echo "TEST PASSED"
