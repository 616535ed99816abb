# ci.awk -- mean and 95 % confidence interval (Student t, n-1 degrees of
# freedom), shared by the claims of every block (mk/claims.sh). Library
# functions, and a main program when run with -v ci_main=1:
#
#   awk -v ci_main=1 -f mk/ci.awk  < "key value" lines
#     -> "key,n,mean,sd,hw,lo,hi" per key (first-seen order); hw = t(0.975, n-1) * sd / sqrt(n)
#   awk -v ci_main=1 -v ci_t=DF -f mk/ci.awk   -> t(0.975, DF) alone
#
# t(0.975, df) is computed, not tabled: P(|T| <= t) for integer df has the
# closed form of Abramowitz & Stegun 26.7.3-4 (a finite series in
# cos(theta), theta = atan(t / sqrt(df))), solved for 0.95 by bisection.
# mk/ci-test.sh checks it against published table values.

# P(|T| <= t), T Student t with integer df >= 1.
function ci_tabs(t, df,    th, c, s, c2, term, sum, k) {
  th = atan2(t, sqrt(df)); c = cos(th); s = sin(th); c2 = c * c
  if (df % 2 == 1) {
    if (df == 1) return 2 * th / 3.14159265358979323846
    term = c; sum = c
    for (k = 3; k <= df - 2; k += 2) { term *= c2 * (k - 1) / k; sum += term }
    return 2 / 3.14159265358979323846 * (th + s * sum)
  }
  term = 1; sum = 1
  for (k = 2; k <= df - 2; k += 2) { term *= c2 * (k - 1) / k; sum += term }
  return s * sum
}

# t such that P(|T| <= t) = 0.95 (the two-sided 95 % quantile), df >= 1.
function ci_t975(df,    lo, hi, mid, i) {
  df = int(df)
  if (df < 1) return -1
  lo = 0; hi = 1000
  for (i = 0; i < 200; i++) {
    mid = (lo + hi) / 2
    if (ci_tabs(mid, df) < 0.95) lo = mid; else hi = mid
  }
  return (lo + hi) / 2
}

# Accumulate sample x under key k (Welford: stable mean and variance).
function ci_add(k, x,    d) {
  if (!(k in ci_n)) { ci_n[k] = 0; ci_m[k] = 0; ci_q[k] = 0; ci_order[++ci_nkeys] = k }
  ci_n[k]++
  d = x - ci_m[k]; ci_m[k] += d / ci_n[k]; ci_q[k] += d * (x - ci_m[k])
}
function ci_mean(k) { return ci_m[k] }
function ci_sd(k) { return ci_n[k] > 1 ? sqrt(ci_q[k] / (ci_n[k] - 1)) : 0 }
# Half-width of the 95 % interval; 0 with fewer than 2 samples.
function ci_hw(k) { return ci_n[k] > 1 ? ci_t975(ci_n[k] - 1) * ci_sd(k) / sqrt(ci_n[k]) : 0 }
function ci_lo(k) { return ci_m[k] - ci_hw(k) }
function ci_hi(k) { return ci_m[k] + ci_hw(k) }

ci_main && ci_t == "" && NF >= 2 { ci_add($1, $2 + 0) }
# (no exit here: a program loaded after this library keeps its own END)
function ci_print(    i, k) {
  if (ci_t != "") { printf "%.6f\n", ci_t975(ci_t); return }
  print "key,n,mean,sd,hw,lo,hi"
  for (i = 1; i <= ci_nkeys; i++) {
    k = ci_order[i]
    printf "%s,%d,%.10g,%.10g,%.10g,%.10g,%.10g\n", k, ci_n[k], ci_mean(k), ci_sd(k), ci_hw(k), ci_lo(k), ci_hi(k)
  }
}
END { if (ci_main) ci_print() }
