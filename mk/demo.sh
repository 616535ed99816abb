#!/usr/bin/env bash
# make demo: the kit's main job, end to end (README "Quick start", docs/store.md).
#
#   mk/demo.sh [--nodes=64|16] [--load=X] [--cycles=N] [--seed=N] [--out=DIR] [--no-build]
#              [--bin-dir=DIR] [--sweep=on|off] [--waves=on|off] [--model-bug=NAME]
#              [--put4096=on|off]
#
# 1. installs what is missing (make deps) and builds the fabric and the report tool;
# 2. runs the fat tree with every switch a C model into a SQLite database,
#    picks a packet that crosses the top of the tree (store_report pick);
# 3. runs the same fabric again (same seed) with the switches on that
#    packet's path as Verilated RTL and the rest C models, with an FST per
#    RTL switch; checks that every packet's records (all stages, every hop)
#    are identical to the all-C run's (a query: check demo.records_equal);
# 4. prints the packet's per-hop latency breakdown (cycles and ns) and the
#    run's throughput/latency summary, both queries on the database; then an
#    8-byte put from node 0 to the last node through Elan4 NICs (the NICs and
#    switches on its path model and RTL in lockstep) written into the same
#    database, its stage breakdown and seed 004's Table 3 beside it as
#    queries on its rows (build/bin/elan4_fabric_sim --db, docs/elan4fab.md),
#    with its waveforms (source NIC, switches, destination NIC) when --waves=on;
#    with --put4096=on (the default at 64 nodes) the same put also runs across
#    seed 004's 4,096-node machine (4,096 NIC models, 11 switches; ~16 CPU-s,
#    1.2 GB) and Table 3's 11-switch rows are that run's, not extrapolated;
# 5. a load sweep (all C, shorter) for the throughput/latency curves;
# 6. writes DIR/index.html: the breakdown table, gnuplot plots made from
#    queries, and a waveform PNG of the packet's path (each RTL switch's FST,
#    zoomed on the packet, rendered by GTKWave under Xvfb, stacked in path
#    order); prints its path and the time each step took.
# --model-bug=NAME plants an elite4 model bug in the C-model switches of both
# runs (the negative of check demo.records_equal: the RTL switches do not have it).
# Exit status: 0 ok, 1 a step or check failed, 2 usage error.
#
# Run 2 puts the switches on the path in RTL *instead of* their C models, so
# that check demo.records_equal measures what the RTL does to traffic. The
# fabric core can also run a switch as model and RTL in lockstep inside one
# run (--lockstep=LIST: every output compared every cycle, check
# fabric.lockstep, an FST of the diverging switch; docs/fabric.md "Modes").
set -uo pipefail
cd "$(dirname "$0")/.."

nodes=64 load=0.3 cycles=10000 seed=1 out=build/demo build=1 bin="" sweep=on waves=on bug=none put4096=""
for a in "$@"; do
  case $a in
    --nodes=*) nodes=${a#*=} ;; --load=*) load=${a#*=} ;; --cycles=*) cycles=${a#*=} ;;
    --seed=*) seed=${a#*=} ;; --out=*) out=${a#*=} ;; --no-build) build=0 ;;
    --bin-dir=*) bin=${a#*=} build=0 ;; --sweep=*) sweep=${a#*=} ;; --waves=*) waves=${a#*=} ;;
    --model-bug=*) bug=${a#*=} ;; --put4096=*) put4096=${a#*=} ;;
    -h | --help) sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "demo: unknown argument '$a' (see --help)" >&2; exit 2 ;;
  esac
done
case $nodes in 16 | 64) ;; *) echo "demo: --nodes=$nodes: 16 or 64" >&2; exit 2 ;; esac
[[ $seed =~ ^[0-9]+$ ]] || { echo "demo: --seed=$seed: expected an unsigned integer" >&2; exit 2; }
[[ $cycles =~ ^[0-9]+$ ]] && ((cycles >= 1000)) || { echo "demo: --cycles=$cycles: at least 1000" >&2; exit 2; }
[[ $load =~ ^(0?\.[0-9]+|1(\.0*)?)$ ]] || { echo "demo: --load=$load: a number in (0, 1]" >&2; exit 2; }
case $sweep$waves in onon | onoff | offon | offoff) ;; *) echo "demo: --sweep and --waves: on or off" >&2; exit 2 ;; esac
[[ -z $put4096 ]] && { put4096=off; [[ $nodes == 64 ]] && put4096=on; }
case $put4096 in on | off) ;; *) echo "demo: --put4096=$put4096: on or off" >&2; exit 2 ;; esac

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; } # seconds from $1 to $2
t0=$(date +%s.%N)
step() { # step NAME: prints the time the previous step took
  local now; now=$(date +%s.%N)
  printf 'demo: [%5.1f s] %s\n' "$(secs "$t0" "$now")" "$1"
}
die() { echo "demo: FAILED: $*" >&2; exit 1; }

if ((build)); then
  step "installing what is missing (make deps) and building (make build/bin/elite4_fabric_core_sim build/bin/store_report build/bin/elan4_fabric_sim)"
  make -s deps || die "make deps"
  make -s -j"${JOBS:-2}" build/bin/elite4_fabric_core_sim build/bin/store_report build/bin/elan4_fabric_sim || die "build"
  t_built=$(date +%s.%N)
fi
bin=${bin:-build/bin}
sim=$bin/elite4_fabric_core_sim rep=$bin/store_report
[[ -x $sim && -x $rep ]] || die "no $sim or $rep (build them, or drop --no-build)"
command -v sqlite3 >/dev/null || die "the sqlite3 shell is missing (make deps installs it)"
t_run0=$(date +%s.%N)

rm -rf "$out"
mkdir -p "$out/runs" "$out/plots" || die "cannot create $out"
db=$out/demo.db
q() { sqlite3 -batch -bail "$db" "$@" || die "query failed: $*"; }
common=(--nodes="$nodes" --traffic=uniform --load="$load" --cycles="$cycles" --seed="$seed" --inject-bug="$bug")

# --- 2. all C models --------------------------------------------------------------
step "run 1: $nodes-node fat tree, every switch the C model, uniform load $load, $cycles cycles"
"$sim" "${common[@]}" --name=demo_model --out="$out/runs/model" --db="$db" > "$out/runs/model.log" 2>&1 ||
  die "run 1 failed (log: $out/runs/model.log)"
pkt=$("$rep" "$db" pick --run=1) || die "no packet to pick in run 1"
path=$(q "SELECT group_concat(instance, ' ') FROM (SELECT instance FROM hops WHERE run = 1 AND packet = $pkt ORDER BY idx)")
rtl=$(echo "$path" | sed 's/sw//g; s/ /,/g')
echo "demo: packet $pkt crosses the top of the tree: $(q "SELECT 'nic' || src || ' -> ' || 'nic' || dst FROM packets WHERE run = 1 AND id = $pkt") via $path"

# --- 3. the path in RTL -------------------------------------------------------------
step "run 2: the same fabric and seed, switches $path as Verilated RTL (FSTs), the rest C models"
"$sim" "${common[@]}" --rtl="$rtl" --trace="$out/fst" --name=demo_rtl_path --out="$out/runs/rtl_path" --db="$db" \
  > "$out/runs/rtl_path.log" 2>&1 || die "run 2 failed (log: $out/runs/rtl_path.log)"
# check demo.records_equal: every packet row and hop row of run 2 equals run 1's
diff_p=$(q "SELECT COUNT(*) FROM (SELECT id, src, dst, vc, flits, hops, tries, created, injected, head_rx, tail_rx, acked FROM packets WHERE run = 1
  EXCEPT SELECT id, src, dst, vc, flits, hops, tries, created, injected, head_rx, tail_rx, acked FROM packets WHERE run = 2)")
diff_h=$(q "SELECT COUNT(*) FROM (SELECT packet, idx, instance, in_port, out_port, arrival, grant, departure FROM hops WHERE run = 1
  EXCEPT SELECT packet, idx, instance, in_port, out_port, arrival, grant, departure FROM hops WHERE run = 2)")
counts=$(q "SELECT (SELECT packets || '/' || hops FROM runs WHERE run = 1) || ' ' || (SELECT packets || '/' || hops FROM runs WHERE run = 2)")
[[ $diff_p == 0 && $diff_h == 0 && ${counts% *} == "${counts#* }" ]] ||
  die "check demo.records_equal: the run with RTL switches differs from the all-C run: $diff_p packet rows, $diff_h hop rows differ (packets/hops: $counts)"
echo "demo: check demo.records_equal ok: all ${counts% *} packet/hop rows identical with switches $path in RTL and in C"

# --- 4. the packet and the run ---------------------------------------------------------
step "packet $pkt, per-hop latency breakdown (store_report trace), and the run's summary (store_report summary)"
"$rep" "$db" trace --run=2 --packet="$pkt" | tee "$out/trace.txt" || die "trace"
"$rep" "$db" summary --run=2 | tee "$out/summary.txt" || die "summary"
"$rep" "$db" trace --run=2 --packet="$pkt" --format=html > "$out/trace.html" || die "trace html"
"$rep" "$db" breakdown --run=2 > "$out/breakdown.csv" || die "breakdown"

# --- 4b. an 8-byte put through Elan4 NICs, beside seed 004's Table 3 ------------------------
ef=$bin/elan4_fabric_sim
[[ -x $ef ]] || die "no $ef (build it, or drop --no-build)"
step "elan4: an 8-byte put node 0 -> node $((nodes - 1)), the NICs and switches on its path model and RTL in lockstep (docs/elan4fab.md)"
ef_trace=()
[[ $waves == on ]] && mkdir -p "$out/elan4_fst" && ef_trace=(--trace="$out/elan4_fst")
"$ef" --test=put --nodes="$nodes" --nic=lockstep --sw=lockstep --seed="$seed" "${ef_trace[@]}" \
  --name=demo_elan4_put --db="$db" > "$out/runs/elan4_put.log" 2>&1 ||
  die "the elan4 put failed (log: $out/runs/elan4_put.log)"
# the put's breakdown and Table 3 are queries on its run (packet 2: the measured put; docs/elan4fab.md)
erun=$(q "SELECT MAX(run) FROM runs WHERE tool = 'elan4_fabric_sim' AND name = 'demo_elan4_put'")
[[ -n $erun ]] || die "the elan4 put wrote no run into $db"
# the same put on seed 004's 4,096 nodes (4-ary 6-tree, 11 switches): every NIC the elan4 model
# (elan4_default's, NumNodes 4,096: no RTL target has it), every switch the elite4 model
krun=""
if [[ $put4096 == on ]]; then
  step "elan4: the same put across 4,096 nodes (4,096 NIC models, 11 switches on the path; ~16 CPU-s, 1.2 GB)"
  "$ef" --test=put --nodes=4096 --seed="$seed" --name=demo_elan4_put4096 --db="$db" > "$out/runs/elan4_put4096.log" 2>&1 ||
    die "the 4,096-node elan4 put failed (log: $out/runs/elan4_put4096.log)"
  krun=$(q "SELECT MAX(run) FROM runs WHERE tool = 'elan4_fabric_sim' AND name = 'demo_elan4_put4096'")
  [[ -n $krun ]] || die "the 4,096-node put wrote no run into $db"
  [[ $(q "SELECT COUNT(*) FROM hops WHERE run = $krun AND packet = 2") == 11 ]] ||
    die "the 4,096-node put's packet did not cross 11 switches (run $krun of $db)"
fi
# seed 004 Table 3 (8-byte write, 4,096 nodes, 11 switches, 50 m) beside ours, from the packet,
# stage and hop rows: the command processor up to the TAIL on the link (injected + flits - 1),
# the input HEAD in -> memory written, the switch's mean HEAD in -> out, 11 of them, the cable
table3_sql="WITH p AS (SELECT * FROM packets WHERE run = $erun AND id = 2),
  k AS (SELECT 1000.0 / clock_mhz AS ns FROM runs WHERE run = $erun),
  i AS (SELECT (SELECT cycle FROM stages WHERE run = $erun AND packet = 2 AND stage = 'memory written')
             - (SELECT cycle FROM stages WHERE run = $erun AND packet = 2 AND stage LIKE 'destination input%') AS c),
  w AS (SELECT AVG(departure - arrival) AS c FROM hops WHERE run = $erun AND packet = 2),
  t AS (SELECT (p.injected + p.flits - 1 - p.created) * k.ns AS cmd, (p.injected - p.created) * k.ns AS head,
               i.c * k.ns AS inp, w.c * k.ns AS sw FROM p, k, i, w)
SELECT 'Elan4 command processor' AS row, 82.5 AS seed_ns, ROUND(cmd, 1) AS netcosim_ns, 'first dword accepted -> TAIL on the link' AS interval FROM t
UNION ALL SELECT '  (first flit)', 82.5, ROUND(head, 1), 'first dword accepted -> HEAD on the link' FROM t
UNION ALL SELECT 'Elan4 input', 157.5, ROUND(inp, 1), 'HEAD in -> data on lm_* (TLB hit)' FROM t
UNION ALL SELECT 'Elite4 switch (per switch)', 21.0, ROUND(sw, 1), 'HEAD in -> HEAD out, mean over the path' FROM t
UNION ALL SELECT '11 switches (4,096 nodes)', 231.0, ROUND(11 * sw, 1), '11 x ours (extrapolated)' FROM t
UNION ALL SELECT 'cable (50 m at 4 ns/m)', 200.0, 200.0, 'the same parameter' FROM t
UNION ALL SELECT 'total, 4,096 nodes', 671.0, ROUND(cmd + inp + 11 * sw + 200, 1), 'sum of the rows' FROM t"
# with the 4,096-node run: its own 11 switches (HEAD in -> out, summed over the path) and total
[[ -n $krun ]] && table3_sql="$table3_sql
UNION ALL SELECT '11 switches, run on 4,096 nodes', 231.0, ROUND(SUM(departure - arrival) * (SELECT 1000.0 / clock_mhz FROM runs WHERE run = $krun), 1),
  'run $krun: its 11 switches, HEAD in -> out summed' FROM hops WHERE run = $krun AND packet = 2
UNION ALL SELECT 'total, run on 4,096 nodes', 671.0, ROUND(((p.injected + p.flits - 1 - p.created)
  + (SELECT cycle FROM stages WHERE run = $krun AND packet = 2 AND stage = 'memory written')
  - (SELECT cycle FROM stages WHERE run = $krun AND packet = 2 AND stage LIKE 'destination input%')
  + (SELECT SUM(departure - arrival) FROM hops WHERE run = $krun AND packet = 2))
  * (SELECT 1000.0 / clock_mhz FROM runs WHERE run = $krun) + 200, 1), 'run $krun: its rows + 50 m of cable'
  FROM packets p WHERE p.run = $krun AND p.id = 2"
{
  echo "8-byte put, node 0 -> node $((nodes - 1)) (run $erun of $db, packet 2)"
  "$rep" "$db" stages --run="$erun" --packet=2 || die "store_report stages"
  echo
  echo "seed 004 Table 3 beside this run (ns at $(q "SELECT clock_mhz FROM runs WHERE run = $erun") MHz)"
  sqlite3 -batch -bail -column -header "$db" "$table3_sql" || die "the Table 3 query failed"
} | tee "$out/elan4_put.txt"
"$rep" "$db" stages --run="$erun" --packet=2 --format=html > "$out/elan4_stages.html" || die "store_report stages html"
sqlite3 -batch -bail -html -header "$db" "$table3_sql" > "$out/elan4_table3.html" || die "the Table 3 query failed"

# --- 5. a load sweep, all C ---------------------------------------------------------------
sweep_loads=""
if [[ $sweep == on ]]; then
  sweep_loads="0.05 0.1 0.2 0.3 0.4 0.5 0.6"
  step "load sweep (all C, $((cycles / 4)) cycles each): $sweep_loads"
  for l in $sweep_loads; do
    "$sim" --nodes="$nodes" --traffic=uniform --load="$l" --cycles=$((cycles / 4)) --seed="$seed" --records=on \
      --name="demo_sweep@$l" --out="$out/runs/sweep_$l" --db="$db" > "$out/runs/sweep_$l.log" 2>&1 ||
      die "sweep load $l failed (log: $out/runs/sweep_$l.log)"
  done
fi

# --- 6. plots, waveforms, HTML --------------------------------------------------------------
step "plots (gnuplot on queries) and the waveform of the packet's path (GTKWave under Xvfb)"
P=$out/plots
"$rep" "$db" plot latency-hist --run=2 --bin=4 > "$P/latency_hist.dat" || die "plot data"
"$rep" "$db" plot throughput-time --run=2 --bin=500 > "$P/throughput_time.dat" || die "plot data"
"$rep" "$db" plot link-class --run=2 > "$P/link_class.dat" || die "plot data"
plots="latency_hist throughput_time link_class"
if [[ -n $sweep_loads ]]; then
  last_sweep=$(q "SELECT MAX(run) FROM runs")
  "$rep" "$db" plot sweep --run="$last_sweep" > "$P/sweep.dat" || die "plot data"
  plots+=" sweep_throughput sweep_latency"
fi
ns=$(q "SELECT 1000.0 / clock_mhz FROM runs WHERE run = 2")
gnuplot <<EOF || die "gnuplot"
set terminal pngcairo size 640,400 font "sans,10"
set grid
set key top left
set output "$P/latency_hist.png"
set title "run 2: packet latency created -> TAIL (window)"
set xlabel "cycles (x $ns ns)"; set ylabel "packets"
plot "$P/latency_hist.dat" using 1:2 with boxes fill solid 0.5 title "packets per 4-cycle bin"
set output "$P/throughput_time.png"
set title "run 2: offered and accepted load over time"
set xlabel "cycle"; set ylabel "flits/node/cycle"
plot "$P/throughput_time.dat" using 1:2 with steps title "offered (created)", "" using 1:3 with steps title "accepted (TAIL received)"
set output "$P/link_class.png"
set title "run 2: link utilisation by class (window)"
set style data histograms; set style fill solid 0.6; set xlabel ""; set ylabel "flits/cycle"
plot "$P/link_class.dat" using 3:xtic(1) title "mean", "" using 4 title "max"
EOF
if [[ -n $sweep_loads ]]; then
  gnuplot <<EOF || die "gnuplot"
set terminal pngcairo size 640,400 font "sans,10"
set grid
set key top left
set output "$P/sweep_throughput.png"
set title "load sweep: accepted vs offered (uniform, $nodes nodes)"
set xlabel "offered (flits/node/cycle)"; set ylabel "accepted (flits/node/cycle)"
plot "$P/sweep.dat" using 3:4 with linespoints title "accepted", x with lines dt 2 title "accepted = offered"
set output "$P/sweep_latency.png"
set title "load sweep: latency created -> TAIL vs offered"
set ylabel "cycles (x $ns ns)"
plot "$P/sweep.dat" using 3:5 with linespoints title "mean", "" using 3:6 with linespoints title "p99"
EOF
fi
for p in $plots; do [[ -s $P/$p.png ]] || die "gnuplot wrote no $P/$p.png"; done

wave_html="<p>Waveforms off (--waves=off).</p>"
if [[ $waves == on ]]; then
  view=$out/fst/view.gtkw
  [[ -f $view ]] || die "run 2 wrote no GTKWave view ($view)"
  flits=$(q "SELECT flits FROM packets WHERE run = 2 AND id = $pkt")
  pngs=()
  wave_html=""
  while IFS='|' read -r idx inst arr dep inp outp; do
    fst=$(realpath "$out/fst/$inst.fst")
    [[ -f $fst ]] || die "no FST for $inst ($fst)"
    from=$(((arr - 4) * 4000)) to=$(((dep + flits + 4) * 4000)) mark=$((arr * 4000 + 1000))
    v=$out/fst/$inst.packet.gtkw
    # the fabric's view of its first RTL switch, pointed at this switch's FST, zoomed on the packet
    awk -v f="$fst" -v a="$from" -v b="$to" -v m="$mark" -v t="packet $pkt at $inst (hop $((idx + 1)))" '
      /^\[\*\] netcosim / { print "[*] netcosim demo: " t; next }
      /^\[\*\] zoom / { print "[*] zoom " a " " b; next }
      /^\[dumpfile\]/ { print "[dumpfile] \"" f "\""; next }
      /^\[savefile\]/ { next }
      /^\[timestart\]/ { print "[timestart] " a; next }
      /^\*-/ { $2 = m; print; next }
      { print }' "$view" > "$v"
    ./mk/wave-png.sh "$v" "$out/fst/$inst.png" > /dev/null 2> "$out/fst/$inst.png.log" ||
      die "GTKWave rendered no picture of $inst (log: $out/fst/$inst.png.log)"
    pngs+=("$out/fst/$inst.png")
    wave_html+="<p>hop $((idx + 1)): <b>$inst</b>, HEAD in on port $inp at cycle $arr, out on port $outp at cycle $dep (marker: arrival)</p>"
  done < <(q "SELECT idx, instance, arrival, departure, in_port, out_port FROM hops WHERE run = 2 AND packet = $pkt ORDER BY idx")
  python3 mk/png-stack.py "$out/packet_path.png" "${pngs[@]}" || die "cannot stack the waveform PNGs"
  wave_html+="<p><img src=\"packet_path.png\" alt=\"waveforms of the packet's switches, in path order\"></p>"
  # the elan4 put's path: source NIC, switches, destination NIC (views the
  # simulator wrote, each marked at the packet's HEAD there), in path order
  epngs=()
  while read -r _ v rest; do
    n=$(basename "$v" .gtkw)
    ./mk/wave-png.sh "$v" "$out/elan4_fst/$n.png" > /dev/null 2> "$out/elan4_fst/$n.png.log" ||
      die "GTKWave rendered no picture of $n (log: $out/elan4_fst/$n.png.log)"
    epngs+=("$out/elan4_fst/$n.png")
  done < <(grep '^view: ' "$out/runs/elan4_put.log")
  ((${#epngs[@]} >= 2)) || die "the elan4 put wrote fewer than two waveform views (log: $out/runs/elan4_put.log)"
  python3 mk/png-stack.py "$out/elan4_put_path.png" "${epngs[@]}" || die "cannot stack the elan4 put's PNGs"
fi

t_end=$(date +%s.%N)
run_s=$(secs "$t_run0" "$t_end")
build_s=""
[[ -n ${t_built:-} ]] && build_s=$(secs "$t0" "$t_built")

esc() { sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g'; }
{
  cat <<EOF
<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>netcosim demo: $nodes-node elite4 fat tree</title>
<style>body{font-family:sans-serif;max-width:1450px;margin:1em auto}table{border-collapse:collapse}
td,th{border:1px solid #bbb;padding:2px 8px;text-align:right}td:first-child{text-align:left}
pre{background:#f4f4f4;padding:8px;overflow-x:auto}img{max-width:100%}</style></head><body>
<h1>netcosim demo: one packet across a $nodes-node elite4 fat tree</h1>
<p>Seed $seed, uniform traffic at offered load $load flits/node/cycle, $cycles injection cycles.
Run 1: every switch the C model. Run 2: the same run with the switches on packet $pkt's path
(<b>$path</b>) as Verilated RTL and the rest C models; every packet's records are identical in both
runs (check demo.records_equal). Cycles at $(q "SELECT clock_mhz FROM runs WHERE run = 2") MHz
($ns ns per cycle). Database: <code>demo.db</code> (schema: docs/store.md).</p>
<h2>Packet $pkt: per-hop latency breakdown</h2>
EOF
  cat "$out/trace.html"
  echo "<h2>An 8-byte put through Elan4 NICs, beside seed 004's Table 3</h2>"
  echo "<p>Node 0 to node $((nodes - 1)); the two NICs (elan4_default) and the switches on the path run as C model and"
  echo "Verilated RTL in lockstep, every NIC port compared every cycle (docs/elan4fab.md). Its stages are"
  echo "rows of <code>demo.db</code> (run $erun, packet 2: <code>store_report demo.db stages --run=$erun --packet=2</code>),"
  echo "and Table 3 is a query on them (docs/elan4fab.md \"Results in the store\").</p>"
  cat "$out/elan4_stages.html"
  echo "<p>Seed 004 Table 3 (8-byte write, 4,096 nodes, 11 switches, 50 m of cable) beside this run, ns:</p><table>"
  cat "$out/elan4_table3.html"
  echo "</table>"
  [[ $waves == on ]] && echo "<p>Its path in waveforms (source NIC, each switch, destination NIC; marker: the HEAD):</p><p><img src=\"elan4_put_path.png\" alt=\"the elan4 put's path\"></p>"
  echo "<h2>Run 2: throughput and latency</h2><pre>"
  esc < "$out/summary.txt"
  echo "</pre>"
  for p in $plots; do echo "<img src=\"plots/$p.png\" alt=\"$p\">"; done
  echo "<h2>Waveforms of the packet's path</h2>"
  echo "$wave_html"
  cat <<EOF
<h2>Reproduce and query</h2><pre>
$(echo "$sim ${common[*]} --rtl=$rtl --trace=DIR --db=FILE" | esc)
$(echo "$rep $db trace --run=2 --packet=$pkt" | esc)
sqlite3 $(echo "$db" | esc) "SELECT instance, grant - arrival AS queueing, departure - grant AS traversal FROM hops WHERE run = 2 AND packet = $pkt ORDER BY idx"
</pre>
<p>Generated by mk/demo.sh in $run_s s (simulation and report${build_s:+; build and deps $build_s s}).</p>
</body></html>
EOF
} > "$out/index.html"
step "done"
echo "demo: run 1 and 2, the sweep, plots and waveforms took $run_s s${build_s:+ (build and deps before: $build_s s)}"
echo "demo: report: $(realpath "$out/index.html")"
