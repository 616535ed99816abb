#!/usr/bin/env bash
# make unit's runner: the C unit-test binaries, JOBS at a time (they are
# independent, each single-threaded; run one after another they left a core
# idle for most of make test's unit step). Each one's output is printed whole,
# in the order given, under "== <binary>"; the step fails if any one fails,
# and the failing binaries are named last with the command that reruns each.
set -uo pipefail
(($#)) || { echo "usage: mk/run-units.sh <unit binary>..."; exit 2; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
i=0
for u in "$@"; do i=$((i + 1)); echo "$i $u"; done > "$out/list"
# shellcheck disable=SC2016
xargs -P "${JOBS:-2}" -L 1 sh -c '"$2" > "$0/$1.out" 2>&1 || echo $? > "$0/$1.failed"' "$out" < "$out/list"
failed=()
while read -r n u; do
  echo "== $u"; cat "$out/$n.out"
  [[ -f $out/$n.failed ]] && failed+=("$u (exit status $(cat "$out/$n.failed"))")
done < "$out/list"
((${#failed[@]} == 0)) && exit 0
for f in "${failed[@]}"; do echo "UNIT FAIL  $f; rerun: ${f%% *}"; done
exit 1
