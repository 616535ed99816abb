#!/usr/bin/env bash
# Part of make lint: scoreboards never judge a model with the model's own
# code. No test, harness or scoreboard (regress/tests/, testbench/ref/,
# testbench/fabric/, testbench/ibfabric/, testbench/elan4fab/) may call a function declared in csim/*/*.h: they reach
# a model only through its co-simulation target's ops (testbench/bind/), and
# keep their own references (e.g. testbench/ref/crc32_ref.h). Types and
# constants from csim headers (flit kinds, tag values) are allowed.
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t fns < <(grep -hoE '^[A-Za-z_0-9 ]*[ *]((common|elite4|cp|link|ibsw|elan4)_[a-z0-9_]+)\(' csim/*/*.h |
  grep -oE '(common|elite4|cp|link|ibsw|elan4)_[a-z0-9_]+\($' | tr -d '(' | sort -u)
((${#fns[@]} > 10)) || { echo "scoreboard lint: found only ${#fns[@]} model functions in csim/*/*.h"; exit 1; }
pat="\\b($(IFS='|'; echo "${fns[*]}"))[[:space:]]*\\("
files=(regress/tests/*.[ch] testbench/ref/*.h testbench/fabric/*.[ch] testbench/ibfabric/*.[ch] testbench/elan4fab/*.[ch])
if hits=$(grep -nE "$pat" "${files[@]}" | grep -vE ':[0-9]+:\s*(/?\*|//)'); then
  echo "SCOREBOARD LINT FAIL: a test/scoreboard calls a C model function (use the target's ops or an own reference):"
  echo "$hits"
  exit 1
fi
echo "scoreboard lint ok (${#files[@]} files, ${#fns[@]} model functions)"
