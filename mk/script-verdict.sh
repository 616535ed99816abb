# Sourced by the script tests of regress/testlist (mk/*-smoke.sh, mk/fuzz.sh):
# the verdict of a script test from its first failed check, the same rule as
# the simulators' --expect-fail (docs/cosim.md): a negative passes only if
# exactly the check it names fires.
#   script_verdict FIRST EXPECT RERUN
# FIRST = "<check id>: <message>" of the first failure, or empty; EXPECT = the
# check id a negative expects, or empty; RERUN = the one-line rerun command.
# Prints the verdict and exits 0 (TEST PASSED) or 1 (TEST FAILED).
script_verdict() {
  local first=$1 expect=$2 rerun=$3 got=${1%%: *}
  if [[ -n $expect ]]; then
    if [[ $got == "$expect" ]]; then
      echo "expected failure caught: check:$first"
      echo "TEST PASSED"; exit 0
    fi
    echo "rerun: $rerun"
    echo "TEST FAILED: expected check:$expect, got ${first:+check:}${first:-a pass}"; exit 1
  fi
  if [[ -n $first ]]; then
    echo "rerun: $rerun"
    echo "TEST FAILED: check:$first"; exit 1
  fi
  echo "TEST PASSED"; exit 0
}

# The options of a deterministic self-test with one planted bug (mk/lint-*-test.sh):
#   script_det_args SCRIPT BUG "$@"
# --bug=BUG, --expect-fail=check:ID, and the runner's --seed/--out/--name
# (ignored: nothing there is random). Sets $bug, $expect and $rerun, prints
# the seed line; anything else is a usage error (exit 2).
script_det_args() {
  local self=$1 known=$2 a
  shift 2
  bug="" expect=""
  for a in "$@"; do
    case $a in
      "--bug=$known") bug=$known ;;
      --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
      --seed=* | --out=* | --name=*) ;;
      *) echo "$self: unknown option '$a' (--bug=$known, --expect-fail=check:ID)"; exit 2 ;;
    esac
  done
  echo "seed: none (deterministic)"
  rerun="$self $*"
}
