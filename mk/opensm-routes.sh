#!/usr/bin/env bash
# Real OpenSM in the loop (issue 12 item 5; docs/ibsw.md "OpenSM in the loop"): export the ibsw
# torus as an ibnetdiscover file (ibsw_fabric_sim --write-ibnd), run Debian's opensm on it once
# under ibsim (libumad2sim.so preloaded; packages opensm, ibsim-utils, libumad2sim0 from make deps),
# import its opensm-lfts.dump into the switches (--lft-file) and run traffic on OpenSM's routes.
#   mk/opensm-routes.sh [--engine=updn|minhop|dor|ftree] [--root=S] [--turns=1|0] [--check=1|0] [--bug=NAME]
#                       [--expect-fail=check:ID] [--seed=N --out=D --name=X] [-- SIM ARGS...]
# Checks, in order (the first failure is the verdict):
#   osm.run     ibsim and opensm ran and OpenSM wrote opensm-lfts.dump
#   osm.engine  OpenSM's log says the engine asked for configured every switch (no fallback)
#   lft.*       the imported table under netcosim's rules (route_lft_check): hole, loop, misroute,
#               illegal (updn: down->up turn against the ranks from --root; dor: X after Y), cycle
#   osm.import  ibsw_fabric_sim takes the dump (the GUIDs are this fabric's, every line parses)
#   osm.hops    updn and dor: the same switch-to-switch hop count per (switch, host) as
#               netcosim's own table of that engine (updn from the same root); ftree: a minimal
#               route's hop count (the switches' distance)
#   ibfab.*     traffic on OpenSM's routes: every packet once, in order, intact (the scoreboard)
# ftree applies to a fat tree (-- --fat2=R,L,S, or a k-ary n-tree -- --tree=K,N): its routes
# climb to any top switch, so only the hop count is compared, with a minimal route's.
# minhop has no turn rule of ours: its table is checked for hole, loop, misroute and a cycle only
# (--turns=0 does the same for updn and dor: the hop comparison without the legality of turns);
# --check=0 skips the lft.* checks: the traffic alone judges the table (minhop's, on the torus).
# Planted bugs (--bug): swap_root (OpenSM's updn root is switch S+1, ours S: lft.illegal),
# entry_back (one imported entry sent back where it came from: lft.illegal; with --turns=0
# lft.loop), no_dump (OpenSM run
# without the routing log bit, so it dumps nothing: osm.run), foreign_guid (the first switch block
# of the dump names a GUID that is not in this fabric: osm.import), updn_for_ftree (OpenSM runs
# updn where ftree was asked: osm.hops on a tree of three levels or more). Uses the newer of build/asan/bin and
# build/bin (make test builds the first). Cheap: OpenSM takes ~0.3 s, the traffic a few CPU-s.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
seed=1 out=build/opensm name=opensm_routes engine=updn root=0 turns=1 check=1 bug="" expect=""
extra=() sim_args=0
while [[ $# -gt 0 ]]; do
  a=$1
  shift
  # after '--' the simulator's flags, except the three regress appends (regress/regress.c)
  if [[ $sim_args == 1 && $a != --seed=* && $a != --out=* && $a != --name=* ]]; then
    extra+=("$a")
    continue
  fi
  case $a in
    --engine=*) engine=${a#--engine=} ;;
    --root=*) root=${a#--root=} ;;
    --turns=0 | --turns=1) turns=${a#--turns=} ;;
    --check=0 | --check=1) check=${a#--check=} ;;
    --bug=*) bug=${a#--bug=} ;;
    --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;;
    --out=*) out=${a#--out=} ;;
    --name=*) name=${a#--name=} ;;
    --) sim_args=1 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "opensm-routes: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "opensm-routes: --seed=$seed is not a number" >&2; exit 2; }
[[ $root =~ ^[0-9]+$ ]] || { echo "opensm-routes: --root=$root is not a number" >&2; exit 2; }
case $engine in updn | minhop | dor | ftree) ;; *) echo "opensm-routes: --engine=$engine: updn, minhop, dor or ftree" >&2; exit 2 ;; esac
case $bug in "" | swap_root | entry_back | no_dump | foreign_guid | updn_for_ftree) ;; *) echo "opensm-routes: --bug=$bug: swap_root, entry_back, no_dump, foreign_guid or updn_for_ftree" >&2; exit 2 ;; esac
[[ $bug != updn_for_ftree || $engine == ftree ]] || { echo "opensm-routes: --bug=updn_for_ftree goes with --engine=ftree" >&2; exit 2; }
# updn_for_ftree: OpenSM runs updn from --root where ftree was asked (its routes legal, not minimal
# beyond two levels): only osm.hops's minimal-route comparison can tell
osm_engine=$engine
[[ $bug == updn_for_ftree ]] && osm_engine=updn
echo "seed: $seed"
bin=build/bin
[[ build/asan/bin/ibsw_fabric_sim -nt build/bin/ibsw_fabric_sim ]] && bin=build/asan/bin
sim=$bin/ibsw_fabric_sim
[[ -x $sim ]] || { echo "opensm-routes: $sim is missing (make build or build-asan)" >&2; exit 2; }
. mk/script-verdict.sh
rerun="mk/opensm-routes.sh --engine=$engine --root=$root --turns=$turns --check=$check${bug:+ --bug=$bug}${expect:+ --expect-fail=check:$expect} --seed=$seed --name=$name${extra[*]:+ -- ${extra[*]}}"
d=$out/$name.$seed && rm -rf "$d" && mkdir -p "$d" && d=$(cd "$d" && pwd)
# the fabric: the ibsw torus of this command line (the sim's defaults: 4x4, 2 parallel links, 16 hosts)
# with few packets (the test is the routes; the scoreboard needs only traffic on every path kind)
fab=(--packets=4000 "${extra[@]}")
"$sim" "${fab[@]}" --write-ibnd="$d/fabric.ibnd" > "$d/export.out" 2>&1 ||
  { cat "$d/export.out"; echo "opensm-routes: --write-ibnd failed" >&2; exit 2; }
tail -1 "$d/export.out"
# OpenSM: once, from the first switch's port (ibsim's default attachment point: the first node in
# the file); updn's root by GUID (fabric_topo.h: 0x4e43530100000000 + 16 s; swap_root: S+1)
osm_root=$root
[[ $bug == swap_root ]] && osm_root=$((root + 1))
printf '0x%016x\n' $((0x4e43530100000000 + 16 * osm_root)) > "$d/roots"
so=/usr/lib/x86_64-linux-gnu/umad2sim/libumad2sim.so
first=""
verb=0x43 # error, info, routing (0x40: the routing bit makes OpenSM write its dump files)
[[ $bug == no_dump ]] && verb=0x03
if ! command -v opensm > /dev/null || ! command -v ibsim > /dev/null || [[ ! -f $so ]]; then
  first="osm.run: opensm, ibsim or $so is missing (make deps installs opensm, ibsim-utils)"
else
  export IBSIM_SOCKNAME=netcosim-osm-$$ # ibsim's abstract socket: one per run, runs may overlap
  ibsim -s -n "$d/fabric.ibnd" > "$d/ibsim.log" 2>&1 &
  ibsim_pid=$!
  trap 'kill "$ibsim_pid" 2> /dev/null' EXIT # also when regress's timeout stops this script
  sleep 0.3
  osm_args=(--once -f "$d/osm.log" -D "$verb" -R "$osm_engine")
  [[ $osm_engine == updn ]] && osm_args+=(-a "$d/roots")
  start=$(date +%s%N)
  if ! kill -0 "$ibsim_pid" 2> /dev/null; then
    first="osm.run: ibsim exited at once: $(grep -m1 -i 'panic\|error\|cannot' "$d/ibsim.log")"
  else
    OSM_TMP_DIR=$d OSM_CACHE_DIR=$d LD_PRELOAD=$so timeout 60 opensm "${osm_args[@]}" > "$d/opensm.out" 2>&1
    rc=$?
  fi
  kill "$ibsim_pid" 2> /dev/null
  wait "$ibsim_pid" 2> /dev/null
  [[ -n $first ]] || echo "opensm ${osm_args[*]}: exit $rc in $((($(date +%s%N) - start) / 1000000)) ms wall ($(opensm --version 2>/dev/null | grep -m1 OpenSM || echo OpenSM))"
  if [[ -n $first ]]; then
    :
  elif [[ $rc != 0 || ! -s $d/opensm-lfts.dump ]]; then
    first="osm.run: opensm exit $rc, $( [[ -s $d/opensm-lfts.dump ]] && echo "a dump" || echo "no opensm-lfts.dump") in $d; last log line: $(tail -1 "$d/osm.log" 2> /dev/null)"
  else
    echo "check: ok   osm.run: $(grep -c '^Unicast lids' "$d/opensm-lfts.dump") switch blocks in opensm-lfts.dump"
    cfg=$(grep -m1 'tables configured on all switches' "$d/osm.log" | sed 's/.*osm_ucast_mgr_process: //')
    if [[ $cfg == "$osm_engine tables configured on all switches" ]]; then
      echo "check: ok   osm.engine: OpenSM says '$cfg'"
    else
      why=$(grep -m1 -i "$engine.*\(fail\|err\|cannot\|not \)" "$d/osm.log" | sed 's/^.*-> //')
      first="osm.engine: asked for $engine, OpenSM says '${cfg:-nothing configured}'${why:+ after '$why'}"
    fi
  fi
fi
if [[ -z $first && $bug == foreign_guid ]]; then
  sed -i '0,/ guid 0x4e43530100000000 /s// guid 0x4e435301000ff000 /' "$d/opensm-lfts.dump"
fi
if [[ -z $first ]]; then
  case $engine in
    updn) rules=(--routing=updn --root="$root" --compare-hops=1) ;;
    dor) rules=(--routing=dor --compare-hops=1) ;;
    # ftree: its routes use every top switch, ours one root: no turn rule of ours fits; its hops
    # are compared with a minimal route's (our up*/down* from one root is not minimal beyond two levels)
    ftree) rules=(--routing=updn --root="$root" --compare-hops=2) turns=0 ;;
    *) rules=(--routing=updn) turns=0 ;; # minhop: no rule of ours to hold it to
  esac
  rules+=("--lft-turns=$turns" "--lft-check=$check")
  sbug=()
  [[ $bug == entry_back ]] && sbug=(--inject-bug=osm_entry_back)
  echo "$sim ${fab[*]} --seed=$seed ${rules[*]} ${sbug[*]} --lft-file=$d/opensm-lfts.dump"
  "$sim" "${fab[@]}" --seed="$seed" "${rules[@]}" "${sbug[@]}" --lft-file="$d/opensm-lfts.dump" > "$d/sim.out" 2>&1
  rc=$?
  grep '^osm:\|^check:\|^packets:\|^throughput:' "$d/sim.out"
  if [[ $rc == 2 ]]; then
    first="osm.import: $(head -c 400 "$d/sim.out" | grep -m1 error)"
  elif ! grep -q '^TEST PASSED' "$d/sim.out"; then
    f=$(grep -m1 '^TEST FAILED' "$d/sim.out" | sed 's/^TEST FAILED: //; s/^check://')
    first="${f%%@*}: ${f#*: }"
  fi
fi
script_verdict "$first" "$expect" "$rerun"
