#!/usr/bin/env bash
# make formal [P=<proof>]: prove the RTL's assertions with yosys-smtbmc
# (docs/formal.md). Per proof line of formal/proofs:
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
only=${1:-}
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

while read -r name block top depth ind bugs params; do
  [[ -z $name || $name == \#* ]] && continue
  [[ -n $only && $name != "$only" ]] && continue
  d=$out/$name; rm -rf "$d"; mkdir -p "$d"
  t0=$(now)
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
[[ $fail == 0 ]] && echo "formal: all proofs passed, all negatives failed as planted" \
  || { echo "formal: FAILED (see $out/<proof>/*.log)"; exit 1; }
