#!/usr/bin/env bash
# The link's pacing rate and cable delay from physical figures (docs/link.md §2),
# in integers: the one helper the .cosim file, the docs and the tests share.
#
#   mk/link-rate.sh --core-ps=P --enc=none|4b5b [--cable-m=M]   prints RateNum=.. RateDen=.. WireCycles=..
#   mk/link-rate.sh --table                                      the expected MB/s per clock and encoding
#   mk/link-rate.sh --check [--cosim=FILE] [--seed=N --out=D --name=X] [--bug=stale_cosim --expect-fail=check:link.rate_helper]
#       every `target` line of FILE (rtl/link/link.cosim) must carry the RateNum,
#       RateDen, CorePs and CableM its preceding `# rate: core_ps=P enc=E cable_m=M`
#       comment gives; --bug=stale_cosim checks a copy whose first RateDen is off by one
#
# Flit time on the wire Tf = bits_per_wire * 750 ps (4 bits, 5 with 4b5b: a 32-bit
# flit over 8 wires at 1,333.3 Mbit/s); flits per cycle = min(1, P / Tf) in lowest
# terms; WireCycles = ceil(M * 4000 / P) (4 ns per metre). Exit: 0 ok, 1 check failed, 2 usage.
set -uo pipefail
cd "$(dirname "$0")/.."

BIT_PS=750
usage() { sed -n '5,15p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
gcd() { local a=$1 b=$2 t; while ((b)); do t=$((a % b)); a=$b; b=$t; done; echo "$a"; }
# rate P ENC M -> "RateNum=.. RateDen=.. WireCycles=.."
rate() {
  local p=$1 enc=$2 m=$3 bits tf num den g
  case $enc in none) bits=4 ;; 4b5b) bits=5 ;; *) echo "link-rate: enc=$enc: expected none or 4b5b" >&2; return 2 ;; esac
  [[ $p =~ ^[0-9]+$ ]] && ((p > 0)) || { echo "link-rate: core_ps=$p: expected a positive integer" >&2; return 2; }
  [[ $m =~ ^[0-9]+$ ]] || { echo "link-rate: cable_m=$m: expected a non-negative integer" >&2; return 2; }
  tf=$((bits * BIT_PS))
  if ((p >= tf)); then num=1 den=1; else g=$(gcd "$p" "$tf"); num=$((p / g)) den=$((tf / g)); fi
  echo "RateNum=$num RateDen=$den WireCycles=$(((m * 4000 + p - 1) / p))"
}

core="" enc="" cable=0 mode="" cosim=rtl/link/link.cosim expect="" bug="" out=build/link-rate
for a in "$@"; do
  case $a in
    --core-ps=*) core=${a#*=} ;; --enc=*) enc=${a#*=} ;; --cable-m=*) cable=${a#*=} ;;
    --table) mode=table ;; --check) mode=check ;; --cosim=*) cosim=${a#*=} ;;
    --expect-fail=check:link.rate_helper) expect=link.rate_helper ;;
    --bug=stale_cosim) bug=stale_cosim ;;
    --seed=*) echo "seed: ${a#*=}" ;; --out=*) out=${a#*=} ;; --name=*) ;;
    -h | --help) usage ;;
    *) echo "link-rate: unknown argument '$a'" >&2; usage ;;
  esac
done

if [[ $mode == table ]]; then
  echo "| core clock | CorePs | wire | RateNum/RateDen | MB/s |"
  echo "|---|---|---|---|---|"
  for p in 4000 3000 2500; do
    for e in none 4b5b; do
      read -r n d _ < <(rate "$p" "$e" 0 | tr '=' ' ' | awk '{ print $2, $4 }')
      echo "| $(awk -v p="$p" 'BEGIN { printf "%.2f MHz", 1e6 / p }') | $p | $e | $n/$d | $(awk -v n="$n" -v d="$d" -v p="$p" 'BEGIN { printf "%.1f", 4e6 * n / (d * p) }') |"
    done
  done
  exit 0
fi

if [[ $mode == check ]]; then
  [[ -f $cosim ]] || { echo "link-rate: --cosim=$cosim: no such file" >&2; exit 2; }
  if [[ $bug == stale_cosim ]]; then # plant: a target whose RateDen no longer matches its clock
    mkdir -p "$out"
    awk '!done && /^target/ && match($0, /RateDen=[0-9]+/) {
      v = substr($0, RSTART + 8, RLENGTH - 8) + 1; $0 = substr($0, 1, RSTART - 1) "RateDen=" v substr($0, RSTART + RLENGTH); done = 1 } 1' \
      "$cosim" > "$out/stale.cosim"
    cosim=$out/stale.cosim
  fi
  fail="" ln=0 want="" n=0
  while IFS= read -r line; do
    ln=$((ln + 1))
    if [[ $line =~ ^#\ rate:\ core_ps=([0-9]+)\ enc=([a-z0-9]+)\ cable_m=([0-9]+) ]]; then
      want=$(rate "${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}" "${BASH_REMATCH[3]}") || exit 2
      want="${want% WireCycles=*} CorePs=${BASH_REMATCH[1]} CableM=${BASH_REMATCH[3]}"
      continue
    fi
    [[ $line =~ ^target[[:space:]] ]] || continue
    [[ -n $want ]] || { echo "link-rate: $cosim:$ln: target without a '# rate:' line above it" >&2; exit 2; }
    n=$((n + 1))
    for kv in $want; do
      grep -qw -- "$kv" <<<"$line" || fail=${fail:-"$cosim:$ln: ${line%% *} ${kv%%=*}: expected $kv ($line)"}
    done
    want=""
  done < "$cosim"
  ((n > 0)) || { echo "link-rate: $cosim has no target" >&2; exit 2; }
  if [[ -n $fail ]]; then
    echo "CHECK FAILED [link.rate_helper]: $fail"
    if [[ $expect == link.rate_helper ]]; then echo "expected failure: check link.rate_helper fired"; echo "TEST PASSED"; exit 0; fi
    echo "rerun: mk/link-rate.sh --check${bug:+ --bug=$bug}"
    echo "TEST FAILED: check link.rate_helper"; exit 1
  fi
  echo "$n targets carry the helper's RateNum, RateDen, CorePs and CableM"
  if [[ -n $expect ]]; then echo "TEST FAILED: expected check:link.rate_helper, the check passed"; exit 1; fi
  echo "TEST PASSED"; exit 0
fi

[[ -n $core && -n $enc ]] || usage
rate "$core" "$enc" "$cable"
