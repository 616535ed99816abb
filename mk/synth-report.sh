#!/usr/bin/env bash
# make synth: summarise yosys results per co-simulation target: generic cells
# (yosys `synth`, no liberty: counts, not area), flip-flops, and logic depth
# (`ltp -noff`, the longest combinational path in cells). Writes
# build/synth/report.md, the table docs/<block>.md quotes.
set -euo pipefail
if [[ $# -eq 0 || $1 == -h || $1 == --help ]]; then
  echo "usage: mk/synth-report.sh TARGET:MODULE...   (make synth [B=<block>] [T=<target>] calls it)"
  [[ $# -eq 0 ]] && exit 2 || exit 0
fi
cd "$(dirname "$0")/.."
rep=build/synth/report.md
{
  echo "| target | module | cells | flip-flops | logic depth (ltp) |"
  echo "|---|---|---:|---:|---:|"
  for tm in "$@"; do
    t=${tm%%:*} m=${tm#*:}
    s=build/synth/$t.stat
    if [[ ! -s $s ]]; then echo "| $t | $m | failed: see build/synth/$t.log | | |"; continue; fi
    cells=$(awk '/Number of cells:/{n=$NF} END{print n}' "$s")
    ffs=$(awk '/\$_.*DFF.*_|\$_SDFF|\$_DFFE/{n+=$NF} END{print n+0}' "$s")
    depth=$(grep -o 'length=[0-9]*' "$s" | tail -1 | cut -d= -f2)
    echo "| $t | $m | $cells | $ffs | $depth |"
  done
  # Per module (hierarchical synthesis): cells and the longest combinational
  # path inside each module (flip-flops not counted as path).
  for tm in "$@"; do
    t=${tm%%:*}
    mf=build/synth/$t.modules
    [[ -s $mf ]] || continue
    echo
    echo "$t, per module:"
    echo
    echo "| module | cells | logic depth (ltp) |"
    echo "|---|---:|---:|"
    awk '
      /^=== / { mod = $2; sub(/^\$paramod\$?[0-9a-f]*\\?/, "", mod); sub(/\\.*/, "", mod); order[++n] = mod }
      /Number of cells:/ && mod != "" && !(mod in cells) { cells[mod] = $NF }
      /Longest topological path in/ { m = $5; sub(/^\$paramod\$?[0-9a-f]*\\?/, "", m); sub(/\\.*/, "", m);
                                      d = $0; sub(/.*length=/, "", d); sub(/\).*/, "", d); depth[m] = d }
      END { for (i = 1; i <= n; i++) { m = order[i]; if (m in seen) continue; seen[m] = 1;
            if (m != "design") printf "| %s | %s | %s |\n", m, cells[m], depth[m] } }' "$mf"
  done
} > "$rep"
cat "$rep"
echo "synth: $rep; netlists in build/synth/*.v (gate-level lockstep: make sim T=<test> MODE=netlist)"
