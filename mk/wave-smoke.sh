#!/usr/bin/env bash
# Every block's waveform view renders to a readable picture (regress/testlist,
# wave_png_per_block): for one lockstep test per block, `make wave-png` runs it
# with a trace, renders the view headless, and the PNG must show signals, not
# an empty window: at least MIN_INK % of its pixels are waveform traces and it
# has at least MIN_COLOURS colours (mk/png-ink.py measures both).
#   mk/wave-smoke.sh [--bug=blank --expect-fail=check:waves.blank] [--tests=T1,T2] [--seed=N --out=D --name=X]
# --bug=blank renders a view with every trace removed: the check must catch it.
set -uo pipefail
cd "$(dirname "$0")/.."
seed=1 out=build/waves-smoke name="" bug="" expect="" only=""
for a in "$@"; do
  case $a in
    --bug=blank) bug=blank ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;; --out=*) out=${a#--out=} ;; --name=*) name=${a#--name=} ;;
    --tests=*) only=${a#--tests=} ;;
    -h | --help) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "wave-smoke: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "wave-smoke: --seed=$seed is not a number" >&2; exit 2; }
echo "seed: $seed"
mkdir -p "$out" build
MIN_INK=0.3 MIN_COLOURS=4
first=""
# the simulators the regression runs (make test: build/asan/bin, already built;
# build/bin would mean a second build of every block, ~450 CPU-s in make test)
bin=${NETCOSIM_BIN_DIR:-build/bin}
# one lockstep test per block (the first target of each block that has a view)
tests=(common_fifo_directed cp_fb_table elite4_directed link_250_random elan4_golden)
[[ $bug == blank ]] && tests=(common_fifo_directed) # the planted blank view needs one render
[[ -n $only ]] && IFS=, read -r -a tests <<< "$only" # e.g. nightly's ibsw render (its RTL trace is slow)
for t in "${tests[@]}"; do
  log=$out/$t.log
  # one build at a time: the regression may run this script's negative beside it
  if ! flock build/.wave-smoke.lock make -s wave-png T="$t" SEED="$seed" BIN_DIR="$bin" > "$log" 2>&1; then
    first=${first:-"waves.render: make wave-png T=$t SEED=$seed BIN_DIR=$bin failed (log: $log)"}; continue
  fi
  png=build/sim/$t.$seed/waves.png
  if [[ $bug == blank ]]; then # plant: the same view with no traces at all
    view=build/sim/$t.$seed/view.gtkw
    awk '/^\[dumpfile\]|^\[\*\]|^\[size\]|^\[pos\]|^\[timestart\]|^\[savefile\]/' "$view" > "$out/$t.blank.gtkw"
    ./mk/wave-png.sh "$out/$t.blank.gtkw" "$out/$t.blank.png" >> "$log" 2>&1
    png=$out/$t.blank.png
  fi
  read -r ink colours < <(python3 mk/png-ink.py "$png" 2>>"$log" || echo "0 0")
  echo "$t: $png traces on ${ink} % of pixels, ${colours} colours"
  if ! awk -v i="$ink" -v c="$colours" -v mi=$MIN_INK -v mc=$MIN_COLOURS 'BEGIN { exit !(i >= mi && c >= mc) }'; then
    first=${first:-"waves.blank: $png shows no signals (traces on $ink % of pixels < $MIN_INK % or $colours colours < $MIN_COLOURS)"}
  fi
done
rerun="rerun: ${name:+make sim T=$name SEED=$seed}${name:-mk/wave-smoke.sh --seed=$seed${bug:+ --bug=$bug}}"
if [[ -n $expect ]]; then
  if [[ -n $first && ${first%%:*} == "$expect" ]]; then echo "expected failure caught: check:$first"; echo "TEST PASSED"; exit 0; fi
  echo "TEST FAILED: expected check:$expect, got: ${first:-a pass}"; echo "$rerun"; exit 1
fi
if [[ -n $first ]]; then echo "$rerun"; echo "TEST FAILED: check:$first"; exit 1; fi
echo "TEST PASSED"
