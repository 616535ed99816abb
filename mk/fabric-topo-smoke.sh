#!/usr/bin/env bash
# Topology files as elite4_fabric_core_sim input (regress/testlist fabric_topo_bad_input; docs/fabric.md
# "Topology files", "elite4 on the core"):
#   topo.bad_input   each malformed or unsuitable topology file below is a usage error of
#                    elite4_fabric_core_sim --topo-file: exit status 2, the file, line and field (or
#                    why elite4 source routes need a 4-ary n-tree) on stderr, no verdict line
#   mk/fabric-topo-smoke.sh [--bug=good_topo --expect-fail=check:topo.bad_input] [--seed=N --out=D --name=X]
# --bug=good_topo slips the good 16-node file in among the bad ones: the run it starts is
# not a usage error, so check topo.bad_input must fire.
# Uses the newer of build/asan/bin and build/bin (make test builds the first).
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/topo-smoke name=fabric_topo_bad_input bug="" expect=""
for a in "$@"; do
  case $a in
    --bug=good_topo) bug=good_topo ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;;
    --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fabric-topo-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "fabric-topo-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
bin=build/bin
[[ build/asan/bin/elite4_fabric_core_sim -nt build/bin/elite4_fabric_core_sim ]] && bin=build/asan/bin
sim=$bin/elite4_fabric_core_sim
[[ -x $sim ]] || { echo "fabric-topo-smoke: $sim is missing (make build or build-asan)" >&2; exit 2; }
good=testbench/fabric/topos/ftree16.ibnd
d=$out/topos && rm -rf "$d" && mkdir -p "$d"
# the bad files: made from the good one by one edit each (sed), or written here
sed 's/^Switch\t8 "S-4e43530100000000"/Router\t8 "S-4e43530100000000"/' $good > "$d/keyword.ibnd"
sed '0,/^\[1\]\t"H-4e43530200000000"/s//[9]\t"H-4e43530200000000"/' $good > "$d/range.ibnd"
sed 's/"S-4e43530100000010"\[5\]/"S-4e43530100000010"[6]/' $good > "$d/disagree.ibnd"
sed 's/^\[5\]\t"S-4e43530100000040"\[1\].*/[5]\t"S-4e43530100000040"/' $good > "$d/truncated.ibnd"
sed 's/"S-4e43530100000070"/"S-4e4353010000007z"/' $good > "$d/guid.ibnd"
# well-formed files elite4 cannot run: nodes 0 and 1 swapped (consistently, both ends), and a 2-switch graph
sed 's/"H-4e43530200000000"\[1\](4e43530200000001)/"H-4e43530200000010"[1](X)/; s/"H-4e43530200000010"\[1\](4e43530200000011)/"H-4e43530200000000"[1](4e43530200000001)/; s/(X)/(4e43530200000011)/' $good |
  sed 's/^\[1\](4e43530200000001)\t"S-4e43530100000000"\[1\]/[1](4e43530200000001)\t"S-4e43530100000000"[Y]/; s/^\[1\](4e43530200000011)\t"S-4e43530100000000"\[2\]/[1](4e43530200000011)\t"S-4e43530100000000"[1]/; s/\[Y\]/[2]/' > "$d/swapped.ibnd"
cp testbench/fabric/topos/torus4x4_p2.ibnd "$d/torus.ibnd" # 16 nodes, but a torus
printf 'Switch 8 "S-01"\n[1] "H-0a"[1]\n[5] "S-02"[5]\n\nSwitch 8 "S-02"\n[5] "S-01"[5]\n\nCa 1 "H-0a"\n[1] "S-01"[1]\n' > "$d/small.ibnd"
# name|what stderr must say
cases=(
  "keyword|keyword.ibnd:12: keyword: unknown keyword 'Router'"
  "range|range.ibnd:13: port: port [9] out of range 1..8 (the Switch at line 12 declares 8 ports)"
  "disagree|disagree.ibnd:70: peer: port [2] links to \"S-4e43530100000010\"[6], but"
  "truncated|truncated.ibnd:17: peer port: truncated line"
  "guid|guid.ibnd:20: peer: bad GUID"
  "swapped|is not the 4-ary 2-tree: switch 0 port 0 joins node 0 vs node 1 (${d}/swapped.ibnd:13)"
  "small|small.ibnd has 1 nodes and 2 switches; elite4 source routes need the 4-ary n-tree"
  "torus|torus.ibnd is not the 4-ary 2-tree: 8 switches and 16 nodes vs 16 and 16 (built-in vs file); elite4 source routes need"
  "missing|missing.ibnd: cannot open"
)
[[ $bug == good_topo ]] && { cp $good "$d/good.ibnd"; cases+=("good|good.ibnd"); }
first=""
for c in "${cases[@]}"; do
  IFS='|' read -r n want <<< "$c"
  "$sim" --nodes=16 --cycles=500 --seed="$seed" --topo-file="$d/$n.ibnd" --out="$d/$n.run" > "$d/$n.out" 2> "$d/$n.err"
  rc=$?
  if [[ $rc == 2 ]] && grep -qF -- "$want" "$d/$n.err" && ! grep -q 'TEST FAILED\|rerun:' "$d/$n.out"; then
    echo "check: ok   topo.bad_input: $n: exit 2: $(head -c 200 "$d/$n.err" | head -1)"
  else
    echo "check: FAIL topo.bad_input: $n: exit $rc (expected 2 and '$want' on stderr, no verdict): $(head -c 300 "$d/$n.err")"
    [[ -z $first ]] && first="topo.bad_input: $n.ibnd: exit $rc"
  fi
done
# --topo-dump of the built-in tree is the committed file (it has not gone stale)
if "$sim" --nodes=16 --topo-dump="$d/dump16.ibnd" > "$d/dump.out" 2>&1 && cmp -s "$d/dump16.ibnd" $good; then
  echo "check: ok   topo.dump: --topo-dump --nodes=16 writes $good byte for byte"
else
  echo "check: FAIL topo.dump: --topo-dump --nodes=16 differs from $good (regenerate it with that command)"
  [[ -z $first ]] && first="topo.dump: $good is stale"
fi
. mk/script-verdict.sh
script_verdict "$first" "$expect" "make sim T=$name SEED=$seed"
