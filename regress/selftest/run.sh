#!/usr/bin/env bash
# The regression runner's self-test (make test): negatives that name the
# wrong check id, port or cycle, or expect a failure that does not come, must
# FAIL; malformed testlists must stop the runner with status 2 and name the
# file, line and field. Usage: regress/selftest/run.sh [BIN_DIR]
set -uo pipefail
cd "$(dirname "$0")/../.."
if [[ ${1:-} == -h || ${1:-} == --help ]]; then
  echo "usage: regress/selftest/run.sh [BIN_DIR]   (default build/bin; make test passes build/asan/bin)"; exit 0
fi
bin_dir=${1:-build/bin}
out=build/regress-selftest
rm -rf "$out"
fail=0
bad() { echo "selftest FAIL: $*"; fail=1; }

build/bin/regress --tag selftest --testlist regress/selftest/testlist --bin-dir "$bin_dir" --out "$out" \
  --jobs 2 > "$out.log" 2>&1
[[ $? -eq 1 ]] || bad "regress should exit 1 (some runs fail on purpose); see $out.log"
while read -r name; do
  line=$(grep "\"test\": \"$name\"" "$out/summary.json" || true)
  [[ -n $line ]] || { bad "$name did not run"; continue; }
  case $name in
    st_pass_*) [[ $line == *'"status": "passed"'* ]] || bad "$name should pass: $line" ;;
    st_fail_*) [[ $line == *'"status": "failed"'* ]] || bad "$name should fail (a negative passing for the wrong reason)" ;;
  esac
done < <(awk '!/^#/ && NF >= 5 {print $1}' regress/selftest/testlist)

# malformed testlists: status 2, file:line: field
check_bad() { # file line field-text
  local msg
  msg=$(build/bin/regress --tag negative --testlist "regress/selftest/$1" --bin-dir "$bin_dir" --out "$out/bad" 2>&1)
  local rc=$?
  [[ $rc -eq 2 ]] || bad "$1: exit $rc, expected 2"
  [[ $msg == *"regress/selftest/$1:$2: field '$3'"* ]] || bad "$1: message does not name line $2 and field '$3': $msg"
  [[ $msg != *"TEST FAILED"* ]] || bad "$1: a usage error printed TEST FAILED"
}
check_bad bare_check.testlist 2 "extra args"
check_bad no_cycle.testlist 3 "extra args"
check_bad no_expect.testlist 2 tags
check_bad bad_seeds.testlist 2 seeds

# CPU accounting: a grandchild's CPU is counted (wait4), and a simulator's recorded build CPU
# (<binary>.build-cpu, mk/planted_bugs.mk) counts once for its line, not once per seed
cpu_bin="$out/cpu-bin"
mkdir -p "$cpu_bin"
ln -sf "$(realpath "$bin_dir/common_sim")" "$cpu_bin/common_sim"
echo 12.500 > "$cpu_bin/common_sim.build-cpu"
build/bin/regress --tag cpu --testlist regress/selftest/cpu.testlist --bin-dir "$cpu_bin" --out "$out/cpu" \
  --jobs 2 > "$out/cpu.log" 2>&1 || bad "the CPU lines should pass; see $out/cpu.log"
burn=$(grep '"test": "st_cpu_grandchild"' "$out/cpu/summary.json" | sed 's/.*"cpu_s": \([0-9.]*\).*/\1/')
awk -v c="${burn:-0}" 'BEGIN { exit !(c >= 0.2) }' || bad "st_cpu_grandchild: cpu_s ${burn:-none}, want >= 0.2 (its grandchild's CPU lost)"
builds=$(grep '"test": "st_cpu_build"' "$out/cpu/summary.json" | sed 's/.*"build_cpu_s": \([0-9.]*\).*/\1/' | sort | tr '\n' ' ')
[[ $builds == "0.000 12.500 " ]] || bad "st_cpu_build: build_cpu_s of its two runs '$builds', want '0.000 12.500 '"
grep -q '(12.5 s of it building' "$out/cpu.log" || bad "the CPU total does not name the 12.5 s of building; see $out/cpu.log"

if [[ $fail -eq 0 ]]; then echo "regress selftest: passed (wrong id, port, cycle and missing failures all fail their negative; CPU of grandchildren and of a line's own build counted)"; fi
exit $fail
