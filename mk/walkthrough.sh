#!/usr/bin/env bash
# The README's "Debugging a failure", executed as written (make test runs it):
# each command of the walk-through, and what the README says it shows.
# Usage: mk/walkthrough.sh
set -uo pipefail
cd "$(dirname "$0")/.."
if [[ ${1:-} == -h || ${1:-} == --help ]]; then echo "usage: mk/walkthrough.sh   (runs README's debugging steps, checks their outcome)"; exit 0; fi
fail=0
log=build/walkthrough
mkdir -p "$log"
bad() { echo "walkthrough FAIL: $*"; fail=1; }
run() { # name, make args... -> $out, $rc
  local n=$1; shift
  make --no-print-directory "$@" > "$log/$n.log" 2>&1; rc=$?
  out=$(cat "$log/$n.log")
}
T="T=common_fifo_directed SEED=1"

# 0. make a real failure: a planted model bug
run fail sim $T BUG=fifo_full_early
[[ $rc -ne 0 ]] || bad "step 0: make sim ... BUG=fifo_full_early passed"
[[ $out == *"MISMATCH at cycle 4"* ]] || bad "step 0: no MISMATCH at cycle 4"
[[ $out == *"full_o"*"<-- differs"* ]] || bad "step 0: the differing port is not marked"
[[ $out == *"TEST FAILED: output full_o differs at cycle 4 (model 0x1, rtl 0x0)"* ]] || bad "step 0: verdict line"
rerun=$(grep '^rerun: ' "$log/fail.log" | sed 's/^rerun: //')
[[ $rerun == "make sim T=common_fifo_directed SEED=1 BUG=fifo_full_early WAVES=1" ]] || bad "step 0: rerun line '$rerun'"
view=build/sim/common_fifo_directed.1/view.gtkw
# the marker of cycle 4: 4 cycles of the nominal clock (testbench/clock.h) plus a quarter cycle
cyc_ps=$(awk '$2 == "NETCOSIM_CYCLE_PS" { sub(/ULL$/, "", $3); print $3 }' testbench/clock.h)
grep -q "^\*-6.000000 $((4 * cyc_ps + cyc_ps / 4)) " "$view" 2>/dev/null || bad "step 0: view has no marker on cycle 4"
grep -q '^-divergence$' "$view" 2>/dev/null || bad "step 0: view has no divergence group"
grep -q 'model.full_o' "$view" 2>/dev/null || bad "step 0: view does not show the model's full_o"

# 1. the rerun line, as printed: the same failure, with a trace of the whole run
read -r -a cmd <<< "${rerun#make }"
run rerun "${cmd[@]}"
[[ $out == *"TEST FAILED: output full_o differs at cycle 4"* ]] || bad "step 1: the rerun line did not fail the same way"
[[ $out == *"rerun: $rerun"* ]] || bad "step 1: the rerun's own rerun line differs"

# 2. the waveform of that failing run, as a PNG (make waves needs a display)
run png wave-png $T BUG=fifo_full_early
png=build/sim/common_fifo_directed.1/waves.png
[[ $rc -eq 0 && $(stat -c %s "$png" 2>/dev/null || echo 0) -gt 20000 ]] || bad "step 2: no PNG ($out)"
[[ $out == *"reusing the view of the run with these options"* ]] || bad "step 2: wave-png did not show the failing run's view"
grep -q 'differs at cycle 4' "$view" || bad "step 2: the view is not the failing run's"
# ... and without the bug it is another run's view, never the failing one's
run png_nobug wave-png $T
grep -q 'differs at cycle 4' "$view" && bad "step 2: without BUG, wave-png reused the failing run's view"
env -u DISPLAY make --no-print-directory waves $T BUG=fifo_full_early > "$log/nodisplay.log" 2>&1
[[ $? -ne 0 ]] && grep -q 'DISPLAY is not set' "$log/nodisplay.log" || bad "step 2: make waves without a display did not say so"

# 3. model or RTL? each side alone against the scoreboard
run model sim $T BUG=fifo_full_early MODE=model
[[ $rc -ne 0 && $out == *"verdict: the C model alone fails the test's scoreboard"* ]] || bad "step 3: MODE=model verdict"
[[ $out == *"rerun: make sim T=common_fifo_directed SEED=1 MODE=model BUG=fifo_full_early"* ]] || bad "step 3: rerun line drops MODE or BUG"
run rtl sim $T MODE=rtl
[[ $rc -eq 0 && $out == *"verdict: the RTL alone passes the test's scoreboard"* ]] || bad "step 3: MODE=rtl verdict"

# bad input: a usage error, never a verdict
run badseed sim $T SEED=abc
[[ $rc -ne 0 && $out == *"SEED='abc'"* && $out != *"TEST FAILED"* ]] || bad "SEED=abc is not a usage error"

if [[ $fail -eq 0 ]]; then echo "walkthrough: README's debugging steps do what it says (logs in $log/)"; fi
exit $fail
