#!/usr/bin/env bash
# make timing, the report: gathers build/timing/TARGET.{flat,hier}.* (mk/timing-synth.sh)
# into build/timing/report.md and build/timing.json, and prints the table.
#
#   mk/timing-report.sh TARGET:BLOCK:TOP ...
#
# Environment: NOMINAL_MHZ, TIMING_MARGIN_PCT, TIMING_KNOWN_FAIL (mk/clock.mk).
# A target's worst path is the largest of its four path kinds (mk/timing-sta.awk):
# every path, module ports included, must fit in one clock period (a module input
# is taken to leave a register at the clock edge, an output to enter one).
set -euo pipefail
cd "$(dirname "$0")/.."
[[ $# -gt 0 ]] || { echo "usage: mk/timing-report.sh TARGET:BLOCK:TOP ..." >&2; exit 2; }
mhz=${NOMINAL_MHZ:?NOMINAL_MHZ unset (mk/clock.mk)}
margin=${TIMING_MARGIN_PCT:-10}
known=" ${TIMING_KNOWN_FAIL:-} "
lib=${TIMING_LIB:-/usr/share/qflow/tech/osu018/osu018_stdcells.lib}

# one summary line per target:
#   T BLOCK TOP STATUS WALL AREA CELLS FFS R2R I2R R2O I2O WORST ABC LOOPS R2R_FROM R2R_TO WORST_KIND CPU
summary() {
  local t=$1 b=$2 top=$3 d=build/timing
  local st secs cpu
  read -r st secs cpu _ 2>/dev/null < "$d/$t.flat.status" || { st=missing; secs=0; }
  cpu=${cpu:--}
  # older status lines have no CPU figure: yosys' own from its log (abc not counted)
  [[ $cpu == - && -f $d/$t.flat.log ]] && cpu=$(awk '/CPU: user/ { u = $0; sub(/.*CPU: user /, "", u); s = u; sub(/s .*/, "", u)
    sub(/.*system /, "", s); sub(/s.*/, "", s); c = u + s } END { if (c != "") printf "%.1f", c; else print "-" }' "$d/$t.flat.log")
  if [[ $st != ok ]]; then echo "$t $b $top $st $secs - - - - - - - - - - - - - $cpu"; return; fi
  local area
  area=$(awk '/Chip area for module/ { a = $NF } END { printf "%.0f", a }' "$d/$t.flat.stat")
  awk -v t="$t" -v b="$b" -v top="$top" -v secs="$secs" -v cpu="$cpu" -v area="$area" '
    $1 == "path" { v[$3] = $4; from[$3] = $5; to[$3] = $6 }
    $1 == "info" { cells = $4; ffs = $6; loops = $8 }
    $1 == "abc"  { abc = $3 }
    END {
      w = -1; wk = "-"
      split("r2r i2r r2o i2o", k, " ")
      for (i = 1; i <= 4; i++) if (v[k[i]] > w) { w = v[k[i]]; wk = k[i] }
      print t, b, top, "ok", secs, area, cells, ffs, v["r2r"], v["i2r"], v["r2o"], v["i2o"], w, abc, loops, from["r2r"], to["r2r"], wk, cpu
    }' "$d/$t.flat.sta"
}

# per module of the hierarchical run: MODULE AREA FFS WORST KIND (paramod names shortened)
modules() {
  local t=$1 d=build/timing
  [[ -s $d/$t.hier.sta && -s $d/$t.hier.stat ]] || return 0
  awk '
    function short(m) { sub(/^\\/, "", m); sub(/^\$paramod\$[0-9a-f]*\\/, "", m); sub(/^\$paramod\\/, "", m); sub(/\\.*/, "", m); return m }
    FNR == 1 { f++ }
    f == 1 && /^=== / { mod = short($2) }
    f == 1 && /Chip area for module/ { a = $NF; sub(/.*module .\\?/, "", a); area[mod] = $NF + 0 }
    f == 2 && $1 == "path" { m = short($2); if (!(m in seen)) { seen[m] = 1; order[++n] = m; w[m] = -1 }
                             if ($4 > w[m]) { w[m] = $4; wk[m] = $3 } }
    f == 2 && $1 == "info" { ffs[short($2)] = $6 }
    END { for (i = 1; i <= n; i++) { m = order[i]; printf "%s %.0f %d %d %s\n", m, area[m], ffs[m], w[m], wk[m] } }
  ' "$d/$t.hier.stat" "$d/$t.hier.sta"
}

period=$(awk -v f="$mhz" 'BEGIN { printf "%.0f", 1e6 / f }')
limit=$(awk -v p="$period" -v m="$margin" 'BEGIN { printf "%.0f", p * (100 - m) / 100 }')
rows=()
for x in "$@"; do IFS=: read -r t b top <<< "$x"; rows+=("$(summary "$t" "$b" "$top")"); done

md=build/timing/report.md json=build/timing.json
mkdir -p build/timing
{
  echo "# make timing: osu018 (0.18 um) standard cells, yosys 0.23 + abc"
  echo
  echo "Nominal clock ${mhz} MHz (period ${period} ps); a target closes it when its worst path"
  echo "is at most ${limit} ps (${margin} % margin). Paths in ps: r2r register to register,"
  echo "i2r input to register, r2o register to output, i2o input to output (mk/timing-sta.awk)."
  echo "abc = abc's own \`stime -p\` delay of the worst combinational cone (no clock-to-Q, no setup)."
  echo "Not sign-off: no wire load, no placement, academic cells (docs/timing.md)."
  echo
  echo "| target | block | area (um2) | cells | flip-flops | r2r | i2r | r2o | i2o | worst (ps) | fmax (MHz) | abc | at ${mhz} MHz | synth CPU / wall (s) |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"
  for r in "${rows[@]}"; do
    read -r t b top st secs area cells ffs r2r i2r r2o i2o w abc loops _ _ wk cpu <<< "$r"
    if [[ $st != ok ]]; then
      echo "| $t | $b | | | | | | | | **not measured: $st after ${secs} s** | | | | $cpu / $secs |"; continue
    fi
    fmax=$(awk -v w="$w" 'BEGIN { printf "%.0f", 1e6 / w }')
    verdict="closes"; (( w > limit )) && verdict="**fails**"
    [[ $known == *" $t "* ]] && verdict="$verdict (known: TIMING_KNOWN_FAIL)"
    [[ $loops != 0 ]] && verdict="$verdict, $loops cells in loops"
    f() { [[ $1 == -1 ]] && echo "-" || echo "$1"; }
    echo "| $t | $b | $area | $cells | $ffs | $(f "$r2r") | $(f "$i2r") | $(f "$r2o") | $(f "$i2o") | $w ($wk) | $fmax | $abc | $verdict | $cpu / $secs |"
  done
  echo
  echo "Per block (the worst of its targets):"
  echo
  echo "| block | worst path (ps) | fmax (MHz) | target |"
  echo "|---|---:|---:|---|"
  printf '%s\n' "${rows[@]}" | awk '$4 == "ok" { if (!($2 in w) || $13 > w[$2]) { w[$2] = $13; t[$2] = $1 } ; if (!($2 in o)) o[$2] = ++n; b[o[$2]] = $2 }
    $4 != "ok" { bad[$2] = bad[$2] " " $1; if (!($2 in o)) { o[$2] = ++n; b[n] = $2 } }
    END { for (i = 1; i <= n; i++) { x = b[i]
            if (x in w) printf "| %s | %d | %.0f | %s%s |\n", x, w[x], 1e6 / w[x], t[x], (x in bad) ? " (not measured:" bad[x] ")" : ""
            else printf "| %s | not measured | | %s |\n", x, bad[x] } }'
  for x in "$@"; do
    IFS=: read -r t _ _ <<< "$x"
    m=$(modules "$t")
    if [[ -z $m ]]; then
      hs=missing; read -r hs hw hc _ 2>/dev/null < "build/timing/$t.hier.status" || true
      echo; echo "$t per module: not measured ($hs${hw:+ after $hw s})."
      continue
    fi
    echo
    echo "$t per module (hierarchical synthesis; a module's own cells, paths cut at its ports):"
    echo
    echo "| module | area (um2) | flip-flops | worst (ps) | kind |"
    echo "|---|---:|---:|---:|---|"
    echo "$m" | awk '{ printf "| %s | %s | %s | %s | %s |\n", $1, $2, $3, ($4 < 0 ? "-" : $4), $5 }'
  done
  echo
  echo "Register-to-register critical paths (start -> end):"
  echo
  for r in "${rows[@]}"; do
    read -r t _ _ st _ _ _ _ r2r _ _ _ _ _ _ from to _ <<< "$r"
    [[ $st == ok && $r2r != -1 ]] && echo "- $t: $r2r ps, $from -> $to"
  done
  true
} > "$md"

{
  printf '{\n  "library": "%s",\n  "nominal_mhz": %s, "period_ps": %s, "margin_pct": %s, "limit_ps": %s,\n  "targets": [\n' \
    "$lib" "$mhz" "$period" "$margin" "$limit"
  n=0
  for r in "${rows[@]}"; do
    read -r t b top st secs area cells ffs r2r i2r r2o i2o w abc loops from to wk cpu <<< "$r"
    (( n++ )) && printf ',\n'
    [[ $cpu == - ]] && cpu=null
    printf '    {"target": "%s", "block": "%s", "top": "%s", "status": "%s", "synth_wall_s": %s, "synth_cpu_s": %s' \
      "$t" "$b" "$top" "$st" "$secs" "$cpu"
    if [[ $st == ok ]]; then
      closes=true; (( w > limit )) && closes=false
      printf ', "area_um2": %s, "cells": %s, "flip_flops": %s, "r2r_ps": %s, "i2r_ps": %s, "r2o_ps": %s, "i2o_ps": %s' \
        "$area" "$cells" "$ffs" "$r2r" "$i2r" "$r2o" "$i2o"
      printf ', "worst_ps": %s, "worst_kind": "%s", "fmax_mhz": %s, "abc_stime_ps": %s, "loop_cells": %s, "closes": %s' \
        "$w" "$wk" "$(awk -v w="$w" 'BEGIN { printf "%.1f", 1e6 / w }')" "${abc:-null}" "$loops" "$closes"
      printf ', "r2r_from": "%s", "r2r_to": "%s"' "${from//\\/\\\\}" "${to//\\/\\\\}"
    fi
    printf ', "known_fail": %s, "modules": [' "$([[ $known == *" $t "* ]] && echo true || echo false)"
    modules "$t" | awk '{ printf "%s{\"module\": \"%s\", \"area_um2\": %s, \"flip_flops\": %s, \"worst_ps\": %s, \"worst_kind\": \"%s\"}", (NR > 1 ? ", " : ""), $1, $2, $3, $4, $5 }'
    printf ']}'
  done
  printf '\n  ]\n}\n'
} > "$json"
cat "$md"
echo "timing: $md, $json"
