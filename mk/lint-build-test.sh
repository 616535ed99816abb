#!/usr/bin/env bash
# Self-test of the lint a target's Verilated build does (check lint.build_wall):
# make test lints the targets it builds only through their build
# (VERILATOR_RTL_FLAGS: -Wall, rtl/lint.vlt's waivers, warnings fatal;
# mk/lint.sh). common_fifo_w8_d5 Verilated with those flags, exactly as the
# Makefile does, must pass as it is; with --bug=latch a scratch copy of
# common_fifo.sv gets an always_comb that infers a latch (its only warning, one
# only the full elaboration reports: --xml-only misses it), and the build must stop.
#   mk/lint-build-test.sh [--bug=latch] [--expect-fail=check:lint.build_wall] [--seed=N --out=D --name=X]
# (--seed, --out and --name come from the regression runner; nothing here is random)
set -uo pipefail
cd "$(dirname "$0")/.."
. mk/script-verdict.sh
script_det_args mk/lint-build-test.sh latch "$@"
flags=$(make -s --no-print-directory verilator-rtl-flags) || { echo "mk/lint-build-test.sh: make verilator-rtl-flags failed"; exit 2; }
scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
dut=rtl/common/common_fifo.sv
if [[ -n $bug ]]; then
  awk '/^endmodule/ && !done { print "  /* verilator lint_off UNUSEDSIGNAL */ logic planted_l; /* verilator lint_on UNUSEDSIGNAL */"; print "  always_comb if (push_i) planted_l = pop_i;"; done = 1 } { print }' \
    "$dut" > "$scratch/common_fifo.sv"
  if cmp -s "$dut" "$scratch/common_fifo.sv"; then
    echo "mk/lint-build-test.sh: planting $bug failed: '$dut' has no endmodule line"; exit 2
  fi
  dut=$scratch/common_fifo.sv
fi
sed "s#^rtl/common/common_fifo.sv\$#$dut#" rtl/common/common.f > "$scratch/common.f"
first=""
# shellcheck disable=SC2086
if ! out=$(verilator $flags --prefix Vcommon_fifo_w8_d5 --top-module common_fifo -GWidth=8 -GDepth=5 \
             -f "$scratch/common.f" -Mdir "$scratch/verilated" 2>&1); then
  first="lint.build_wall: $(grep -m1 '%Warning\|%Error' <<<"$out")"
fi
echo "$out" | head -20
script_verdict "$first" "$expect" "$rerun"
