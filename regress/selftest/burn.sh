#!/usr/bin/env bash
# regress/selftest/burn.sh: a "script" line for the runner's self-test whose
# CPU is spent in a grandchild (bash -> sh -> awk): the runner's wait4 must
# still count it (regress/selftest/run.sh checks cpu_s).
if [[ ${1:-} == -h || ${1:-} == --help ]]; then echo "usage: regress/selftest/burn.sh [--name= --seed= --out=]"; exit 0; fi
sh -c 'awk "BEGIN { for (i = 0; i < 1e7; i++) s += i * i; print s > \"/dev/null\" }"'
echo "TEST PASSED"
