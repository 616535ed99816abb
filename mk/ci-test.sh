#!/usr/bin/env bash
# Unit test of mk/ci.awk (run by `make unit`): t(0.975, df) against published
# two-sided 95 % Student t table values (4 decimals), and a mean/interval
# computed by hand. Exit 1 on any mismatch.
set -uo pipefail
cd "$(dirname "$0")/.."
pass=0; fail=0
near() { # what got want tol
  if awk -v g="$2" -v w="$3" -v t="$4" 'BEGIN{ d = g - w; if (d < 0) d = -d; exit !(d <= t) }'; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1)); echo "  WRONG $1: got $2, want $3 (tolerance $4)"
  fi
}
# published values of t(0.975, df)
for p in 1:12.7062 2:4.3027 3:3.1824 4:2.7764 5:2.5706 9:2.2622 10:2.2281 19:2.0930 29:2.0452 30:2.0423 \
         40:2.0211 60:2.0003 120:1.9799 1000:1.9623; do
  df=${p%%:*} want=${p#*:}
  near "t(0.975, $df)" "$(awk -v ci_main=1 -v ci_t="$df" -f mk/ci.awk </dev/null)" "$want" 0.00006
done
# {1, 2, 3, 4, 5}: mean 3, sd sqrt(2.5) = 1.581139, hw = 2.776445 * 1.581139 / sqrt(5) = 1.963243
out=$(printf 'a 1\na 2\na 3\na 4\na 5\nb 7\nb 7\nc 10\n' | awk -v ci_main=1 -f mk/ci.awk)
IFS=, read -r k n mean sd hw lo hi < <(grep '^a,' <<<"$out")
near "n" "$n" 5 0; near "mean" "$mean" 3 1e-12; near "sd" "$sd" 1.5811388 1e-6
near "hw" "$hw" 1.963243 1e-5; near "lo" "$lo" 1.036757 1e-5; near "hi" "$hi" 4.963243 1e-5
# no spread: zero width; one sample: zero width (no interval), n reported
IFS=, read -r k n mean sd hw lo hi < <(grep '^b,' <<<"$out"); near "b hw" "$hw" 0 0; near "b mean" "$mean" 7 0
IFS=, read -r k n mean sd hw lo hi < <(grep '^c,' <<<"$out"); near "c n" "$n" 1 0; near "c hw" "$hw" 0 0
# a planted error must be caught: t(0.975, 4) is not the normal 1.96
if awk -v g="$(awk -v ci_main=1 -v ci_t=4 -f mk/ci.awk </dev/null)" 'BEGIN{exit !(g < 2.0)}'; then
  fail=$((fail + 1)); echo "  WRONG t(0.975, 4) looks like a normal quantile"
else pass=$((pass + 1)); fi
echo "ci.awk: $pass passed, $fail failed"
[[ $fail -eq 0 ]]
