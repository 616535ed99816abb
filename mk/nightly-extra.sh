#!/usr/bin/env bash
# Extra nightly steps, run by `make regress R=nightly` after the tagged tests:
# a sampled mutation run per block (docs/mutation.md). The sample changes
# every day (SEED = day of the year) so that the nights cover the whole list;
# each block must kill MUTATE_MIN % of its non-equivalent sampled mutants.
#
#   mk/nightly-extra.sh [BLOCK...]     (default: every block with rtl/<b>/<b>.cosim)
#   MUTATE_MAX (default 10), MUTATE_SEED (default: day of the year), MUTATE_MIN (default 95), JOBS
set -uo pipefail
cd "$(dirname "$0")/.."
max=${MUTATE_MAX:-10} seed=${MUTATE_SEED:-$((10#$(date -u +%j)))} min=${MUTATE_MIN:-95} jobs=${JOBS:-$(nproc)}
blocks=("$@")
if ((${#blocks[@]} == 0)); then
  for c in rtl/*/*.cosim; do blocks+=("$(basename "$c" .cosim)"); done
fi
fail=()
for b in "${blocks[@]}"; do
  echo "== nightly mutation sample: make mutate B=$b MAX=$max SEED=$seed MIN=$min"
  ./mk/mutate.sh --block "$b" --max "$max" --seed "$seed" --min-rate "$min" --jobs "$jobs" || fail+=("$b")
done
if ((${#fail[@]})); then
  for b in "${fail[@]}"; do echo "nightly mutation: FAILED block $b; rerun: make mutate B=$b MAX=$max SEED=$seed MIN=$min"; done
  exit 1
fi
echo "nightly mutation: ${blocks[*]} passed (MAX=$max SEED=$seed MIN=$min)"
