#!/usr/bin/env bash
# make wave-png: render a GTKWave view (.gtkw with its [dumpfile]) to a PNG,
# headless, under Xvfb. Usage: wave-png.sh VIEW.gtkw OUT.png
set -euo pipefail
view=$1 png=$2
[[ -f $view ]] || { echo "wave-png: no view file $view (run the test with WAVES=1 first)"; exit 1; }
tcl=$(mktemp --suffix=.tcl)
trap 'rm -f "$tcl"' EXIT
rm -f "$png"
cat > "$tcl" <<TCL
gtkwave::/Edit/Set_Trace_Max_Hier 1
gtkwave::/File/Grab_To_File $(realpath -m "$png")
gtkwave::/File/Quit
TCL
timeout 120 xvfb-run -a -s "-screen 0 1400x720x24" gtkwave -S "$tcl" "$view" > "${png%.png}.gtkwave.log" 2>&1 || true
size=$(stat -c %s "$png" 2>/dev/null || echo 0)
if [[ $size -lt 4096 ]]; then
  echo "wave-png: GTKWave produced no picture (see ${png%.png}.gtkwave.log)"; exit 1
fi
echo "wave-png: $png ($size bytes)"
