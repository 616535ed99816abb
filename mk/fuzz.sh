#!/usr/bin/env bash
# libFuzzer runs of the kit's parsers (make fuzz; regress/testlist fuzz_*; docs/fabric.md "Fuzzing"):
#   mk/fuzz.sh [--target=ibnd] [--time=S] [--bug=ends_unchecked --expect-fail=check:fuzz.ibnd] [--seed=N]
# Builds build/fuzz/fuzz_<target> with Debian's clang (-fsanitize=fuzzer,address,undefined) from
# fuzz/fuzz_<target>.c, seeds its corpus from fuzz/corpus/<target>/ (plus, for ibnd, the committed
# topology files and ibsim's example nets when installed) and runs it for S seconds (default 60).
# A crash, leak, undefined behaviour or a failed consistency check (the target aborts) fails
# check fuzz.<target> and keeps the input as build/fuzz/<target>/crash-*.
# --bug=ends_unchecked builds the reader without its "both ends of a link agree" check
# (FABRIC_IBND_PLANTED_BUG): the run must find an input the target refuses (the negative).
set -uo pipefail
cd "$(dirname "$0")/.."
target=ibnd time=60 bug="" expect="" seed=1
for a in "$@"; do
  case $a in
    --target=*) target=${a#--target=} ;; --time=*) time=${a#--time=} ;;
    --bug=ends_unchecked) bug=ends_unchecked ;; --expect-fail=check:*) expect=${a#--expect-fail=check:} ;;
    --seed=*) seed=${a#--seed=} ;;
    --out=* | --name=*) ;; # the runner's; the output goes to build/fuzz/
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "fuzz: unknown argument '$a'" >&2; exit 2 ;;
  esac
done
[[ $seed =~ ^[0-9]+$ ]] || { echo "fuzz: --seed=$seed is not a number" >&2; exit 2; }
[[ $time =~ ^[0-9]+$ && $time -ge 1 ]] || { echo "fuzz: --time=$time: expected seconds >= 1" >&2; exit 2; }
case $target in
  ibnd) srcs=(fuzz/fuzz_ibnd.c csim/fabric/fabric_ibnd.c csim/fabric/fabric_topo.c csim/fabric/fabric.c) ;;
  *) echo "fuzz: --target=$target: the targets are: ibnd" >&2; exit 2 ;;
esac
command -v clang > /dev/null || { echo "fuzz: clang is missing (make deps)" >&2; exit 2; }
echo "seed: $seed"
name=$target${bug:+_$bug}
dir=build/fuzz/$name
bin=build/fuzz/fuzz_$name
mkdir -p "$dir/corpus"
flags=(-std=c11 -O1 -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -Icsim)
[[ -n $bug ]] && flags+=(-DFABRIC_IBND_PLANTED_BUG)
if ! clang "${flags[@]}" "${srcs[@]}" -o "$bin" 2> "$dir/build.log"; then
  cat "$dir/build.log" >&2
  echo "fuzz: cannot build $bin" >&2; exit 2
fi
seeds=(fuzz/corpus/$target)
if [[ $target == ibnd ]]; then
  seeds+=(testbench/fabric/topos)
  [[ -d /usr/share/doc/ibsim-utils/net-examples ]] && seeds+=(/usr/share/doc/ibsim-utils/net-examples)
fi
rm -f "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-*
# the working corpus grows across runs (build/); the seeds are read-only inputs
"$bin" "$dir/corpus" "${seeds[@]}" -seed="$seed" -max_total_time="$time" -timeout=10 -rss_limit_mb=2048 \
  -max_len=65536 -artifact_prefix="$dir/" -print_final_stats=1 > "$dir/run.log" 2>&1
rc=$?
grep -E '^(#[0-9]+ *DONE|stat::number_of_executed_units|stat::peak_rss_mb)' "$dir/run.log" | head -3
art=$(ls "$dir"/crash-* "$dir"/leak-* "$dir"/timeout-* "$dir"/oom-* 2> /dev/null | head -1)
first=""
if [[ $rc -ne 0 || -n $art ]]; then
  why=$(grep -m1 -E 'ERROR: (AddressSanitizer|LeakSanitizer|libFuzzer)|runtime error|deadly signal' "$dir/run.log")
  first="fuzz.$target: ${why:-exit $rc} (input ${art:-none kept}; log $dir/run.log)"
  echo "check: FAIL $first"
  [[ -n $art ]] && echo "reproduce: $bin $art"
else
  echo "check: ok   fuzz.$target: ${time} s, no crash, leak, UB or refused table"
fi
. mk/script-verdict.sh
script_verdict "$first" "$expect" "mk/fuzz.sh $*"
