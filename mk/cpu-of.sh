#!/usr/bin/env bash
# mk/cpu-of.sh FILE CMD [ARGS...]: run CMD and append the CPU seconds it took
# (user + system of it and of everything it ran and waited for, bash's
# `times`) to FILE, one number a line; exits with CMD's status. The bug
# simulators' build rules (mk/planted_bugs.mk) sum these into
# <binary>.build-cpu, which the regression runner counts as the CPU of the
# line that runs that binary (docs/cosim.md "make test's budget").
set -uo pipefail
if [[ ${1:-} == -h || ${1:-} == --help || $# -lt 2 ]]; then
  echo "usage: mk/cpu-of.sh FILE CMD [ARGS...]"; [[ $# -ge 2 ]] || exit 2; exit 0
fi
out=$1; shift
"$@"; rc=$?
# the second line of `times`: the children's user and system time, e.g. "0m12.345s 0m1.000s"
# (`times` in this shell, not in a command substitution's subshell, which has no children)
tmp=$(mktemp)
times > "$tmp"
read -r u s < <(sed -n 2p "$tmp")
rm -f "$tmp"
sec() { awk -v t="$1" 'BEGIN { split(t, a, "m"); sub("s", "", a[2]); printf "%.3f", a[1] * 60 + a[2] }'; }
awk -v u="$(sec "$u")" -v s="$(sec "$s")" 'BEGIN { printf "%.3f\n", u + s }' >> "$out"
exit $rc
