#!/usr/bin/env bash
# make wave-png: render a GTKWave view (.gtkw with its [dumpfile]) to a PNG,
# headless, under Xvfb. Usage: wave-png.sh VIEW.gtkw OUT.png
# The view's "[*] zoom FROM TO" line (ps, written by testbench/waves.c) is the
# window shown: the cycles around a divergence, not the whole run.
set -euo pipefail
if [[ ${1:-} == -h || ${1:-} == --help || $# -ne 2 ]]; then
  echo "usage: mk/wave-png.sh VIEW.gtkw OUT.png   (make wave-png T=<test> ... calls it)"
  [[ $# -eq 2 || ${1:-} == -h || ${1:-} == --help ]] && exit 0 || exit 2
fi
view=$1 png=$2
[[ -f $view ]] || { echo "wave-png: no view file $view (run the test with WAVES=1 first)" >&2; exit 2; }
command -v xvfb-run >/dev/null || { echo "wave-png: xvfb-run is missing (make deps installs xvfb)" >&2; exit 2; }
tcl=$(mktemp --suffix=.tcl)
trap 'rm -f "$tcl"' EXIT
rm -f "$png"
zoom=$(awk '/^\[\*\] zoom [0-9]+ [0-9]+$/ {print $3, $4; exit}' "$view")
{
  echo "gtkwave::/Edit/Set_Trace_Max_Hier 1"
  [[ -n $zoom ]] && echo "gtkwave::setZoomRangeTimes $zoom"
  echo "gtkwave::/File/Grab_To_File $(realpath -m "$png")"
  echo "gtkwave::/File/Quit"
} > "$tcl"
timeout 120 xvfb-run -a -s "-screen 0 1400x900x24" gtkwave -S "$tcl" "$view" > "${png%.png}.gtkwave.log" 2>&1 || true
size=$(stat -c %s "$png" 2>/dev/null || echo 0)
if [[ $size -lt 4096 ]]; then
  echo "wave-png: GTKWave produced no picture (see ${png%.png}.gtkwave.log)" >&2; exit 1
fi
echo "wave-png: $png ($size bytes)"
