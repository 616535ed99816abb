#!/usr/bin/env bash
# Self-test of lint's one-driver-per-net check (mk/yosys-drivers.sh, check
# lint.drivers): elan4_link_tx as it is must pass; with --bug=rabn_default it
# gets back the bug Verilator's lint missed (rabn, set by a continuous assign,
# also defaulted to 0 in the always_comb; commit 7519dbe) in a scratch copy,
# and the check must fire.
#   mk/lint-drivers-test.sh [--bug=rabn_default] [--expect-fail=check:lint.drivers] [--seed=N --out=D --name=X]
# (--seed, --out and --name come from the regression runner; nothing here is random)
set -uo pipefail
cd "$(dirname "$0")/.."
. mk/script-verdict.sh
script_det_args mk/lint-drivers-test.sh rabn_default "$@"
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
dut=rtl/elan4/elan4_link_tx.sv
if [[ -n $bug ]]; then
  sed "s/rv = 1'b0; rack = 1'b0;/rv = 1'b0; rack = 1'b0; rabn = 1'b0;/" "$dut" > "$scratch/elan4_link_tx.sv"
  if cmp -s "$dut" "$scratch/elan4_link_tx.sv"; then
    echo "mk/lint-drivers-test.sh: planting $bug failed: '$dut' no longer has the line it edits"; exit 2
  fi
  dut=$scratch/elan4_link_tx.sv
fi
files="$(grep -v '/elan4_link_tx.sv$' rtl/elan4/elan4.f | tr '\n' ' ') $dut"
first=""
if ! out=$(./mk/yosys-drivers.sh elan4_link_tx elan4_link_tx "$files"); then
  first="lint.drivers: $(head -1 <<<"$out")"
fi
echo "$out"
script_verdict "$first" "$expect" "$rerun"
