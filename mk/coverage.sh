#!/usr/bin/env bash
# make coverage: what the lockstep smoke tests exercise, per block.
#
#   mk/coverage.sh [--jobs N] [--tag TAG] BLOCK...
#
# Builds the coverage flavour of each block's simulator (build/cov/bin/B_sim:
# Verilator --coverage in the RTL, gcc --coverage -O0 in the C), runs the
# block's lockstep tests of TAG (default smoke: the tests `make test` runs,
# without the negative tests, which stop at a planted bug, and without the
# netlist runs, which repeat a lockstep test's stimulus on the synthesised
# RTL), then per block:
#   build/coverage/B.dat        all Verilated instances merged (verilator_coverage --write)
#   build/coverage/B_rtl.info   RTL line+branch points as lcov (a line is hit only if
#                               every point on it is), B_toggle.info the toggle points
#   build/coverage/B_c.info     the block's C models (csim/B/), lines and branches (lcov)
# and build/coverage/index.html (genhtml: RTL lines and C), build/coverage/toggle/
# (toggles), build/coverage/summary.md (figures and every uncovered RTL point).
# Each Verilated instance writes its own .dat (testbench/gluegen.c, cover_write)
# into $NETCOSIM_COVERAGE_DIR; a source point is covered if any instance of its
# module, in any target (parameter set), covered it.
set -euo pipefail
cd "$(dirname "$0")/.."
unset MAKEFLAGS MFLAGS

jobs=$(nproc) tag=smoke blocks=()
while (($#)); do
  case $1 in
    --jobs) jobs=$2; shift 2 ;;
    --tag) tag=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    -*) echo "coverage: unknown option '$1'" >&2; exit 2 ;;
    *) blocks+=("$1"); shift ;;
  esac
done
[[ $jobs =~ ^[1-9][0-9]*$ ]] || { echo "coverage: --jobs takes a number, not '$jobs'" >&2; exit 2; }
((${#blocks[@]})) || { echo "usage: mk/coverage.sh [--jobs N] [--tag TAG] BLOCK..." >&2; exit 2; }
for b in "${blocks[@]}"; do
  [[ -f rtl/$b/$b.cosim ]] || { echo "coverage: no block '$b' (rtl/$b/$b.cosim)" >&2; exit 2; }
done

cov=build/cov out=build/coverage
lcov_rc=(--rc lcov_branch_coverage=1)
t_start=$(date +%s)

echo "coverage: building the coverage flavour (build/cov/)"
# smoke lockstep-runs no heavy target (their smoke lines are model runs): their RTL
# is left out of the flavour then, as from make test's sanitizer build (Makefile)
heavy=1; [[ $tag == smoke ]] && heavy=0
mkdir -p build
make -j"$jobs" COV_HEAVY=$heavy build/bin/regress $(printf "$cov/bin/%s_sim " "${blocks[@]}") > "$cov.build.log" 2>&1 ||
  { tail -30 "$cov.build.log"; echo "coverage: build failed (log: $cov.build.log)" >&2; exit 1; }

rm -rf "$cov/dat" "$cov/regress" "$out"
mkdir -p "$cov/dat" "$out"
find "$cov/obj" -name '*.gcda' -delete

# The lockstep tests: the blocks' TAG tests, not negative, not netlist, not model-only.
testlist=$cov/testlist
awk -v blocks=" ${blocks[*]} " -v tag="$tag" '
  { sub(/#.*/, "") }
  NF >= 5 && index(blocks, " " $2 " ") && ("," $5 ",") ~ ("," tag ",") && ("," $5 ",") !~ /,(negative|netlist),/ &&
  $0 !~ /--mode=(model|netlist)/' regress/testlist > "$testlist"
[[ -s $testlist ]] || { echo "coverage: no $tag lockstep test of ${blocks[*]}" >&2; exit 2; }
echo "coverage: running $(wc -l < "$testlist") lockstep tests ($tag, negatives and netlist runs excluded)"
NETCOSIM_COVERAGE_DIR=$PWD/$cov/dat build/bin/regress --tag "$tag" --jobs "$jobs" --bin-dir "$cov/bin" \
  --out "$cov/regress" --testlist "$testlist" > "$cov/regress.log" 2>&1 ||
  { tail -20 "$cov/regress.log"; echo "coverage: a test failed (log: $cov/regress.log)" >&2; exit 1; }

# C: one capture of every object, then each block's models.
lcov -q "${lcov_rc[@]}" --capture --directory "$cov/obj" --output-file "$out/c_all.info" 2>"$out/lcov.log"

# Points of a merged .dat, summed over instances: FILE<TAB>LINE<TAB>TYPE<TAB>WHAT<TAB>RANGE<TAB>COUNT.
# TYPE line/branch/user/toggle; WHAT the statement kind (block, if, else, case...)
# or the toggled bit; the hierarchy is dropped, so the instances of a module merge.
points() {
  awk '
    /^C / {
      k = $0; sub(/^C \047/, "", k); c = k; sub(/\047 [0-9]+$/, "", k); sub(/.*\047 /, "", c)
      n = split(k, kv, "\001"); delete v
      for (i = 2; i <= n; i++) { j = index(kv[i], "\002"); v[substr(kv[i], 1, j - 1)] = substr(kv[i], j + 1) }
      t = v["page"]; sub(/^v_/, "", t); sub(/\/.*/, "", t)
      key = v["f"] "\t" v["l"] "\t" t "\t" v["o"] (t == "toggle" ? "" : "@" v["n"]) "\t" (v["S"] == "" ? v["l"] : v["S"])
      sum[key] += c
    }
    END { for (key in sum) print key "\t" sum[key] }' "$1" | sort -t$'\t' -k1,1 -k2,2n -k4,4
}

# lcov from points: each line gets the smallest count of the points on it
# (a block point covers its whole range), so one uncovered point shows red.
to_info() { # points-file type-regex
  awk -F'\t' -v types="$2" '
    $3 ~ types {
      # RANGE: lines as Verilator lists them, e.g. 45-46 or 219,222-225
      nr = split($3 == "line" ? $5 : $2, rs, ",")
      for (r = 1; r <= nr; r++) {
        lo = rs[r]; hi = rs[r]; sub(/-.*/, "", lo); sub(/.*-/, "", hi)
        for (l = lo + 0; l <= hi + 0; l++) if (!(($1, l) in da) || $6 < da[$1, l]) da[$1, l] = $6
      }
      files[$1] = 1
    }
    END {
      print "TN:verilator_coverage"
      for (f in files) {
        print "SF:" ENVIRON["PWD"] "/" f
        fflush()
        for (k in da) { split(k, p, SUBSEP); if (p[1] == f) print "DA:" p[2] "," da[k] | "sort -t: -k2,2n" }
        close("sort -t: -k2,2n")
        print "end_of_record"
      }
    }' "$1"
}

pct() { awk -v h="$1" -v t="$2" 'BEGIN { if (t) printf "%.1f %% (%d/%d)", 100 * h / t, h, t; else printf "n/a (0 points)" }'; }

summary=$out/summary.md
{
  echo "# Coverage of the lockstep $tag tests"
  echo
  echo "\`make coverage\` ($(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + local changes')):"
  echo "$(wc -l < "$testlist") tests, their seeds as in regress/testlist. RTL: Verilator points merged over"
  echo "instances and parameter sets, rtl/<block>/ only; lines = line and branch points. C: gcov of"
  echo "csim/<block>/*.c (the models, not their unit tests)."
  echo
  echo "| block | RTL lines | RTL toggles | RTL user | C lines | C branches |"
  echo "|---|---:|---:|---:|---:|---:|"
} > "$summary"
details=$out/uncovered.md
: > "$details"
rtl_infos=() c_infos=() tog_infos=()
for b in "${blocks[@]}"; do
  targets=$(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim | awk -v b="$b" '$2 == b { print $1 }')
  dats=()
  for t in $targets; do for d in "$cov/dat/$t".*.dat; do [[ -f $d ]] && dats+=("$d"); done; done
  ((${#dats[@]})) || { echo "coverage: no coverage data for block $b (did its tests run its RTL?)" >&2; exit 1; }
  verilator_coverage --write "$out/$b.dat" "${dats[@]}"
  # The block's own sources: the common modules inside elite4 and cp are
  # measured by common's tests (and would appear in two blocks' reports).
  points "$out/$b.dat" | awk -F'\t' -v d="rtl/$b/" 'index($1, d) == 1' > "$out/$b.points"
  to_info "$out/$b.points" '^(line|branch|user)$' > "$out/${b}_rtl.info"
  to_info "$out/$b.points" '^toggle$' > "$out/${b}_toggle.info"
  rtl_infos+=("$out/${b}_rtl.info") tog_infos+=("$out/${b}_toggle.info")
  read -r lh lt th tt uh ut < <(awk -F'\t' '
    { cov = $6 > 0 }
    $3 == "line" || $3 == "branch" { lt++; lh += cov }
    $3 == "toggle" { tt++; th += cov }
    $3 == "user" { ut++; uh += cov }
    END { print lh + 0, lt + 0, th + 0, tt + 0, uh + 0, ut + 0 }' "$out/$b.points")
  lcov -q "${lcov_rc[@]}" --extract "$out/c_all.info" "$PWD/csim/$b/*" --output-file "$out/${b}_c.info" 2>>"$out/lcov.log"
  c_infos+=("$out/${b}_c.info")
  read -r clh clt cbh cbt < <(awk -F'[:,]' '
    /^LH:/ { lh += $2 } /^LF:/ { lf += $2 } /^BRH:/ { bh += $2 } /^BRF:/ { bf += $2 }
    END { print lh + 0, lf + 0, bh + 0, bf + 0 }' "$out/${b}_c.info")
  echo "| $b | $(pct "$lh" "$lt") | $(pct "$th" "$tt") | $(pct "$uh" "$ut") | $(pct "$clh" "$clt") | $(pct "$cbh" "$cbt") |" >> "$summary"
  {
    echo
    echo "## $b: uncovered RTL line and branch points ($((lt - lh)))"
    echo
    awk -F'\t' '($3 == "line" || $3 == "branch") && $6 == 0 {
        src = ""; n = 0
        while ((getline l < $1) > 0) if (++n == $2) { src = l; break }
        close($1); sub(/^[ \t]+/, "", src)
        w = $4; sub(/@.*/, "", w)
        printf "- `%s:%s` (%s %s, lines %s): `%s`\n", $1, $2, $3, w, $5, src
      }' "$out/$b.points"
    echo
    echo "## $b: toggle points never toggled ($((tt - th)))"
    echo
    awk -F'\t' '$3 == "toggle" && $6 == 0 { printf "- `%s:%s` %s\n", $1, $2, $4 }' "$out/$b.points"
  } >> "$details"
done
{
  echo
  echo "Report: build/coverage/index.html (RTL lines and C), build/coverage/toggle/index.html (toggles)."
  cat "$details"
} >> "$summary"

genhtml -q "${lcov_rc[@]}" --branch-coverage --title "netcosim: lockstep $tag tests" --prefix "$PWD" \
  --output-directory "$out" "${rtl_infos[@]}" "${c_infos[@]}" > "$out/genhtml.log" 2>&1 ||
  { cat "$out/genhtml.log"; exit 1; }
genhtml -q --title "netcosim: RTL toggles, lockstep $tag tests" --prefix "$PWD" \
  --output-directory "$out/toggle" "${tog_infos[@]}" >> "$out/genhtml.log" 2>&1 || { cat "$out/genhtml.log"; exit 1; }

sed -n '/^| block/,/^$/p' "$summary"
echo "coverage: $(($(date +%s) - t_start)) s; report $out/index.html, figures $summary"
