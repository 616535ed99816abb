#!/usr/bin/env bash
# make formal [P=<proof>]: prove the RTL's assertions (docs/formal.md), with
# one of two engines per proof line of formal/proofs (column "induction"):
#   pdr: abc's PDR (yosys-abc, shipped with yosys) on an AIGER model from
#        reset, unbounded; negatives: abc finds a trace breaking the bug's
#        assertion, replayed by yosys' simulator into a VCD (aig_* below);
#   yes / no: yosys-smtbmc with z3, as follows.
# Per yes/no line:
#   1. yosys reads the block's RTL with -formal (assertions under `ifndef
#      SYNTHESIS become $assert cells), sets the parameters, async2sync;
#   2. BMC from reset (rst_ni low in step 0, inputs free) to the depth;
#   3. k-induction at the same depth, where the line says so;
#      (--unroll: z3 4.8 stalls on some of the un-unrolled queries, e.g. the
#      credit counter's step 0, and answers the unrolled ones at once);
#   4. each planted bug (rtl/*/*.bugs) on a scratch copy must make the BMC
#      FAIL with exactly that bug's assertion, and writes its trace as VCD.
# Summary: build/formal/summary.txt. Exit 1 if any proof or negative fails.
set -euo pipefail
cd "$(dirname "$0")/.."
# Also a testlist `script` line (regress/testlist, nightly): the runner's
# --name= --seed= --out= are accepted and ignored, and the last line is a
# verdict, TEST PASSED or TEST FAILED.
only=""
for a in "$@"; do
  case $a in
    --help|-h) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    --name=*|--seed=*|--out=*) ;;
    -*) echo "formal: unknown option '$a' (usage: mk/formal.sh [PROOF])" >&2; exit 2 ;;
    *) only=$a ;;
  esac
done
if [[ -n $only ]] && ! awk -v p="$only" '$1 == p { f = 1 } END { exit !f }' formal/proofs; then
  echo "formal: no proof '$only' in formal/proofs" >&2; exit 2
fi
SOLVER=${SOLVER:-z3}
out=build/formal
mkdir -p "$out"
summary=$out/summary.txt
: > "$summary.tmp"
fail=0

# $1 dir holding rtl/  $2 block  $3 top  $4 params  $5 smt2 output
elaborate() {
  local files chp=""
  files=$(tr '\n' ' ' < "$1/rtl/$2/$2.f")
  for p in $4; do chp+=" -set ${p%%=*} ${p#*=}"; done
  (cd "$1" && yosys -q -l "$5.log" -p "read_verilog -sv -formal $files; ${chp:+chparam$chp $3;} \
     prep -top $3; async2sync; dffunmap; write_smt2 -wires $5") >/dev/null
}

printf 'initial\nassume (not [rst_ni])\n' > "$out/reset.smtc"
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { print b - a }'; }

# ---- engine pdr: abc's property-directed reachability on an AIGER model ----
# $1 dir holding rtl/  $2 block  $3 top  $4 params  $5 output prefix (absolute)
# [$6 the one assertion to keep]. Writes $5.aig/.aim (the model), $5.il (the
# design before bit-blasting, on which a counterexample is replayed).
# The initial state is the reset state: yosys `sim` clocks one cycle with
# rst_ni low and keeps the registers' values as their init values (registers
# without a reset stay free). An assertion in an always_ff is sampled by a
# flip-flop whose enable starts at 0, so nothing is judged before the first
# clock edge after reset. Afterwards every input is free (further resets too).
aig_elaborate() {
  local files chp="" rst="" keep="" src
  files=$(tr '\n' ' ' < "$1/rtl/$2/$2.f")
  # a proof environment formal/<top>.sv (assumptions about the inputs, around the module)
  src=$1/rtl/$2/$3.sv
  [[ -f formal/$3.sv ]] && { files+=" $PWD/formal/$3.sv"; src=formal/$3.sv; }
  for p in $4; do chp+=" -set ${p%%=*} ${p#*=}"; done
  # a module without rst_ni (combinational, e.g. cp_quantiser) has no reset to apply
  grep -qw rst_ni "$src" && rst="sim -clock clk_i -resetn rst_ni -rstlen 1 -n 1 -w;"
  [[ -n ${6:-} ]] && keep="delete t:\$assert n:$6 n:*.$6 %u %d;"
  (cd "$1" && yosys -q -l "$5.log" -p "read_verilog -sv -formal $files; ${chp:+chparam$chp $3;} \
     prep -top $3; flatten; async2sync; $rst setattr -set init 1'b0 w:*formal*_EN; \
     setundef -undriven -anyseq; write_rtlil $5.il; $keep opt -fast; delete -output; techmap; opt -fast; \
     memory_map; opt -full; simplemap; dffunmap; abc -g AND -fast; opt_clean; \
     write_aiger -zinit -map $5.aim $5.aig") >/dev/null 2>&1 \
    || { echo "formal: yosys could not build the model, see $5.log" >&2; rm -f "$5.aig"; }
}
# $1 prefix: runs abc on $1.aig; prints proved | failed (then $1.aiw holds the
# counterexample) | unknown. Without latches the property is combinational and
# abc's SAT sweeping (iprove) decides it faster than pdr.
aig_prove() {
  local latches cmd
  [[ -f $1.aig ]] || { echo unknown; return; }
  latches=$(head -1 "$1.aig" | awk '{ print $4 }')
  cmd="read_aiger $1.aig; fold; strash; pdr; write_cex -a $1.aiw"
  [[ $latches == 0 && ${2:-} != cex ]] && cmd="read_aiger $1.aig; strash; iprove"
  timeout "${PDR_TIMEOUT:-900}" yosys-abc -c "$cmd" < /dev/null > "$1.abc.log" 2>&1 || true
  if grep -q 'Property proved\|^UNSATISFIABLE' "$1.abc.log"; then echo proved
  elif grep -q 'was asserted in frame\|^SATISFIABLE' "$1.abc.log"; then echo failed
  else echo unknown; fi
}
# $1 prefix $2 vcd: replays $1.aiw on $1.il with yosys' simulator (an
# independent check that the trace is real) and prints the failed assertions.
aig_replay() {
  local clk="-clock clk_i" add="" w=$1.aiw
  if ! grep -q 'wire input [0-9]* \\clk_i$' "$1.il"; then
    # combinational: sim needs a clock, and judges an assertion at a step, so a
    # dummy clock and abc's one frame twice (its "# DONE" marker dropped)
    clk="-clock formal_clk" add="add -input formal_clk 1;" w=$1.replay.aiw
    { sed -n 1p "$1.aiw"; sed -n '2s/#.*//p' "$1.aiw"; sed -n '2s/#.*//p' "$1.aiw"; } > "$w"
  fi
  yosys -p "read_rtlil $1.il; $add sim $clk -r $w -map $1.aim -vcd $2" < /dev/null > "$1.replay.log" 2>&1 || true
  sed -n 's/.*Assert [^ ]*\.\([A-Za-z0-9_]*\) (.*failed.*/\1/p' "$1.replay.log" | sort -u | tr '\n' ' '
}

while read -r name block top depth ind bugs params; do
  [[ -z $name || $name == \#* ]] && continue
  [[ -n $only && $name != "$only" ]] && continue
  d=$out/$name; rm -rf "$d"; mkdir -p "$d"
  t0=$(now)
  if [[ $ind == pdr ]]; then
    # unbounded proof of every assertion at once; the depth column is unused
    aig_elaborate . "$block" "$top" "$params" "$PWD/$d/design"
    res=$(aig_prove "$PWD/$d/design")
    t1=$(now)
    failed=""
    [[ $res == failed ]] && failed=$(aig_replay "$PWD/$d/design" "$d/design.cex.vcd")
    [[ $res == proved ]] || fail=1
    printf '%-22s %-22s pdr (abc, unbounded) %-6s (%5.1fs)%s\n' "$name" "$top" "$res" "$(secs $t0 $t1)" \
      "${failed:+  fails: $failed(trace $d/design.cex.vcd)}" | tee -a "$summary.tmp"
    for bug in ${bugs//,/ }; do
      bd=$PWD/$d/bug.$bug
      read -r _ label < <(mk/rtl-bug.sh "$bug" "$bd")
      vcd=$out/$name.$bug.vcd
      t1=$(now)
      # the bug's own assertion alone: abc finds a trace that breaks it ...
      aig_elaborate "$bd" "$block" "$top" "$params" "$bd/design" "$label"
      res=$(aig_prove "$bd/design" cex)
      # ... and yosys' simulator, replaying it on the design, sees that assertion fail
      failed=""
      [[ $res == failed ]] && failed=$(aig_replay "$bd/design" "$vcd")
      frame=$(sed -n 's/.*was asserted in frame \([0-9]*\).*/\1/p' "$bd/design.abc.log" | head -1)
      if [[ " $failed" == *" $label "* ]]; then
        printf '  negative %-24s fails as expected: %s at frame %s (%.1fs), trace %s\n' "$bug" "$label" "$frame" \
          "$(secs $t1 "$(now)")" "$vcd" | tee -a "$summary.tmp"
      else
        printf '  NEGATIVE %-24s did not fail with %s (abc: %s; replay: %s)\n' "$bug" "$label" "$res" \
          "${failed:-none}" | tee -a "$summary.tmp"
        fail=1
      fi
    done
    continue
  fi
  elaborate . "$block" "$top" "$params" "$PWD/$d/design.smt2"
  # a module without rst_ni (combinational, e.g. cp_quantiser) has no reset to assume
  smtc=$out/reset.smtc
  grep -q '^; yosys-smt2-input rst_ni ' "$d/design.smt2" || { smtc=$d/none.smtc; : > "$smtc"; }
  yosys-smtbmc -s "$SOLVER" --unroll --presat -t "$depth" --smtc "$smtc" "$d/design.smt2" > "$d/bmc.log" 2>&1 || true
  t1=$(now)
  if grep -q 'Status: PASSED' "$d/bmc.log"; then bmc=passed; else bmc=FAILED; fail=1; fi
  indr=-
  if [[ $ind == yes ]]; then
    yosys-smtbmc -s "$SOLVER" --unroll -i -t "$depth" --dump-vcd "$d/induction.vcd" "$d/design.smt2" > "$d/ind.log" 2>&1 || true
    if grep -q 'Status: PASSED' "$d/ind.log"; then indr=passed; else indr=FAILED; fail=1; fi
  fi
  t2=$(now)
  printf '%-22s %-22s depth %-3s bmc %-6s (%5.1fs)  %d-induction %-6s (%5.1fs)\n' "$name" "$top" "$depth" \
    "$bmc" "$(awk -v a=$t0 -v b=$t1 'BEGIN { print b - a }')" "$depth" "$indr" "$(awk -v a=$t1 -v b=$t2 'BEGIN { print b - a }')" | tee -a "$summary.tmp"
  [[ $bmc == passed ]] || sed -n '/failed/,$p' "$d/bmc.log" | head -5
  [[ $indr != FAILED ]] || grep -i 'failed\|assert' "$d/ind.log" | head -5
  # negatives: every planted bug must break the proof, with its own assertion
  for bug in ${bugs//,/ }; do
    bd=$PWD/$d/bug.$bug
    read -r _ label < <(mk/rtl-bug.sh "$bug" "$bd")
    elaborate "$bd" "$block" "$top" "$params" "$bd/design.smt2"
    vcd=$out/$name.$bug.vcd
    yosys-smtbmc -s "$SOLVER" --unroll --presat -t "$depth" --smtc "$smtc" --dump-vcd "$vcd" \
      "$bd/design.smt2" > "$bd/bmc.log" 2>&1 || true
    step=$(sed -n 's/.*Checking assertions in step \([0-9]*\).*/\1/p' "$bd/bmc.log" | tail -1)
    if grep -q 'Status: FAILED' "$bd/bmc.log" && grep -q "Assert failed in $top: \(.*\.\)\?$label\$" "$bd/bmc.log"; then
      printf '  negative %-24s fails as expected: %s at step %s, trace %s\n' "$bug" "$label" "$step" "$vcd" \
        | tee -a "$summary.tmp"
    else
      printf '  NEGATIVE %-24s did not fail with %s:\n' "$bug" "$label" | tee -a "$summary.tmp"
      grep -i 'assert\|status' "$bd/bmc.log" | head -5; fail=1
    fi
  done
done < formal/proofs
mv "$summary.tmp" "$summary"
[[ $fail == 0 ]] && { echo "formal: all proofs passed, all negatives failed as planted"; echo "TEST PASSED"; } \
  || { echo "rerun: make formal${only:+ P=$only}"; echo "TEST FAILED: formal: a proof or a negative failed (see $out/<proof>/*.log)"; exit 1; }
