#!/usr/bin/env bash
# One net, one driver, as yosys reads the RTL: elaborate TOP with its
# parameters, turn processes into logic (proc) and look for nets that two
# drivers fight over. Verilator -Wall does not see every such net (a signal
# set by a continuous assign and defaulted in an always_comb passed its lint;
# yosys resolved it to the constant, so the netlist differed from the RTL),
# so make lint runs this on co-simulation targets (mk/lint.sh, docs/cosim.md).
#   mk/yosys-drivers.sh LABEL TOP "FILES" [Param=Value ...]
# Prints "drivers ok LABEL" or "DRIVERS FAIL LABEL: <yosys warning>" (exit 1).
set -euo pipefail
label=$1 top=$2 files=$3; shift 3
set_params=""
for p in "$@"; do set_params+=" -set ${p%%=*} ${p#*=}"; done
log=$(mktemp); trap 'rm -f "$log"' EXIT
# -defer: modules are elaborated once, with the parameters they get here
if ! yosys -q -l "$log" -p "read_verilog -defer -sv $files; ${set_params:+chparam$set_params $top;} hierarchy -top $top; proc; opt_clean; check" > /dev/null 2>&1; then
  echo "DRIVERS FAIL $label: yosys did not elaborate it:"; grep -E 'ERROR' "$log" | head -5; exit 1
fi
if conflicts=$(grep -E 'Driver-driver conflict|multiple conflicting drivers' "$log"); then
  echo "DRIVERS FAIL $label: a net with two drivers (the netlist would differ from the RTL):"
  sed -n 1,5p <<<"$conflicts"; exit 1
fi
echo "drivers ok $label"
