#!/usr/bin/env bash
# make mutate: mutation testing of one block. Every line of logic in the
# block's RTL and C models is edited, one simple edit at a time (mutants from
# mk/mutants.awk); each mutant is rebuilt and the block's smoke regression run.
# A mutant the tests do not notice is a hole in the tests, or an edit with no
# observable effect (an equivalent mutant); build/mutate/B/report.txt lists them.
# Equivalent mutants, once understood, are listed with the reason in
# docs/mutation/B.equiv and leave the kill rate's denominator (docs/mutation.md).
#
#   mk/mutate.sh [--block B] [--files "GLOB..."] [--max N] [--seed S] [--ids "I..."]
#                [--jobs N] [--timeout S] [--netlist] [--asan] [--min-rate P] [--budget S]
#                [--no-extra] [--list] [--report]
#
#   --block    the block (default common): its testlist lines, simulator and targets
#   --files    sources to mutate (default "rtl/B/*.sv csim/B/*.c", without the
#              csim unit tests test_*.c)
#   --max N    a sample of N mutants, the same one for the same --seed (default 1)
#   --ids      only these mutant ids (as numbered in build/mutate/mutants.tsv)
#   --jobs     parallel make and test jobs (default: all cores)
#   --timeout  seconds one test run may take (default 20; a mutant can loop forever)
#   --netlist  also run the netlist tests (yosys per RTL mutant: slower; they
#              repeat a lockstep test's stimulus against the synthesised RTL)
#   --asan     use the sanitizer build, as `make test` does (slower)
#   --min-rate exit 1 if the kill rate is below P percent (nightly: 95)
#   --budget S start no new mutant after S seconds, then report what ran (the
#              sample runs in a random order, so a cut-short run is still a sample)
#   --no-extra leave out the B_* experiments' smoke tests (their build and runs, e.g.
#              elan4_fabric's elite4 RTL, can exceed a budget): a mutant only they
#              would kill counts as SURVIVED, so the rate is a lower bound
#   --list     print the mutants and stop
#   --report   only rewrite the report from the last run's results (e.g. an interrupted one)
#
# Per mutant: apply it in place, rebuild (C: the object and the link; RTL: only
# the co-simulation targets whose design contains the mutated module), run the
# smoke regression of the block, restore the file (git checkout). A mutant the
# smoke tests miss is then tried on what else `make test` runs: the smoke tests
# of the experiments built on the block (blocks named B_*: cp_hotspot,
# elite4_fabric_core), the C unit tests for a C mutant, `make lint` for an RTL
# mutant. Outcomes:
#   KILLED    a smoke test of B failed     EXTRA    only a smoke test of a B_* failed
#   UNIT      only the C unit tests failed LINT     only make lint failed
#   INVALID   the mutant does not build    EQUIV    passed; listed in docs/mutation/B.equiv
#   SURVIVED  everything passed
# kill rate = (KILLED + EXTRA + UNIT + LINT) / (run - INVALID - EQUIV).
set -euo pipefail
cd "$(dirname "$0")/.."
unset MAKEFLAGS MFLAGS # run from `make mutate`: the sub-makes below get their own -j

block=common files="" max=0 seed=1 ids="" jobs=$(nproc) timeout=20 netlist=0 asan=0 list_only=0 min_rate=0 budget=0 report_only=0 no_extra=0
usage() { sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit "$1"; }
while (($#)); do
  case $1 in
    --block) block=$2; shift 2 ;;
    --files) files=$2; shift 2 ;;
    --max) max=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --ids) ids=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --timeout) timeout=$2; shift 2 ;;
    --netlist) netlist=1; shift ;;
    --asan) asan=1; shift ;;
    --no-extra) no_extra=1; shift ;;
    --list) list_only=1; shift ;;
    --min-rate) min_rate=$2; shift 2 ;;
    --budget) budget=$2; shift 2 ;;
    --report) report_only=1; shift ;;
    -h | --help) usage 0 ;;
    *) echo "mutate: unknown argument '$1'" >&2; usage 2 ;;
  esac
done
[[ $max =~ ^[0-9]+$ && $seed =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ && $timeout =~ ^[1-9][0-9]*$ && $min_rate =~ ^[0-9]+$ && $budget =~ ^[0-9]+$ ]] ||
  { echo "mutate: --max, --seed, --jobs, --timeout, --min-rate and --budget take numbers" >&2; exit 2; }
[[ $block =~ ^[a-z0-9_]+$ && -d rtl/$block ]] || { echo "mutate: --block: no block '$block' (rtl/$block/)" >&2; exit 2; }

out=build/mutate/$block
mkdir -p "$out/log" "$out/orig"
t_start=$(date +%s)

# --- what to mutate -------------------------------------------------------------
srcs=()
if [[ -z $files ]]; then
  for f in rtl/"$block"/*.sv csim/"$block"/*.c; do
    [[ -f $f && $(basename "$f") != test_* ]] && srcs+=("$f")
  done
else
  for f in $files; do [[ -f $f ]] && srcs+=("$f"); done
fi
((${#srcs[@]})) || { echo "mutate: no source files for block '$block'" >&2; exit 2; }
for f in "${srcs[@]}"; do
  # Mutants are undone by restoring the committed file: local edits would be lost.
  git ls-files --error-unmatch "$f" >/dev/null 2>&1 || { echo "mutate: $f is not tracked by git" >&2; exit 2; }
  ((report_only)) || git diff --quiet HEAD -- "$f" || { echo "mutate: $f has uncommitted changes; commit or stash them first" >&2; exit 2; }
done

# All mutants, numbered in file order; ids stay the same whatever is sampled.
all=$out/mutants.tsv
# --report keeps the run's own list (mk/mutants.awk may have changed since)
((report_only)) && [[ -s $all ]] || for f in "${srcs[@]}"; do
  awk -f mk/mutants.awk "$f" | sort -t$'\t' -k2,2n -k3,3n -s
done | awk -F'\t' -v OFS='\t' '{ print NR, $0 }' > "$all"
total=$(wc -l < "$all")

# The mutants to run: all, --ids, or a sample of --max (Park-Miller, exact in
# any awk, so a seed picks the same sample everywhere), kept in file order.
sel=$out/selected.tsv
if ((report_only)) && [[ -s $sel ]]; then
  :
elif [[ -n $ids ]]; then
  awk -F'\t' -v ids=" $ids " 'index(ids, " " $1 " ")' "$all" > "$sel"
elif ((max > 0 && max < total)); then
  awk -F'\t' -v n="$max" -v seed="$seed" '
    { row[NR] = $0 }
    END {
      x = seed % 2147483647; if (x <= 0) x += 2147483646
      for (i = 1; i <= NR; i++) idx[i] = i
      for (i = 1; i <= n; i++) {           # partial Fisher-Yates
        x = (x * 48271) % 2147483647
        j = i + x % (NR - i + 1)
        t = idx[i]; idx[i] = idx[j]; idx[j] = t
        pick[idx[i]] = 1
      }
      for (i = 1; i <= NR; i++) if (i in pick) print row[i]
    }' "$all" > "$sel"
else
  cp "$all" "$sel"
fi
# The key of each mutant: FILE: `LINE` -> `LINE AFTER THE EDIT` (blanks at
# both ends removed): stable across edits elsewhere in the file, unlike ids
# and line numbers.
keys=$out/keys.tsv
awk -F'\t' -v OFS='\t' '
  { f = $2; if (!(f in done)) { n = 0; while ((getline l < f) > 0) src[f, ++n] = l; close(f); done[f] = 1 }
    o = src[f, $3]; l = substr(o, 1, $4 - 1) $7 substr(o, $4 + length($6))
    sub(/^[ \t]+/, "", o); sub(/[ \t]+$/, "", o); sub(/^[ \t]+/, "", l); sub(/[ \t]+$/, "", l)
    print $1, f ": `" o "` -> `" l "`" }' "$all" > "$keys"
n_sel=$(wc -l < "$sel")
if ((list_only)); then
  awk -F'\t' '{ printf "%5d  %s:%s:%s  %-5s  `%s` -> `%s`\n", $1, $2, $3, $4, $5, $6, $7 }' "$sel"
  echo "$n_sel of $total mutants"
  exit 0
fi

# --- how to build and test it ------------------------------------------------------
bin_dir=build/bin
((asan)) && bin_dir=build/asan/bin
goals=("$bin_dir/${block}_sim" build/bin/regress)
((netlist)) && goals+=("$bin_dir/${block}_netlist_sim")

# The block's smoke tests (netlist ones only with --netlist), for regress --testlist.
testlist=$out/testlist
awk -v b="$block" -v nl="$netlist" '
  { sub(/#.*/, "") }
  NF >= 5 && $2 == b && ("," $5 ",") ~ /,smoke,/ && (nl || ("," $5 ",") !~ /,netlist,/)' regress/testlist > "$testlist"
[[ -s $testlist ]] || { echo "mutate: no smoke test of block '$block' in regress/testlist" >&2; exit 2; }
n_tests=$(wc -l < "$testlist")
# Smoke tests of the experiments built on the block (B_*), for survivors.
xtestlist=$out/testlist.extra
awk -v b="$block" -v nl="$netlist" '
  { sub(/#.*/, "") }
  NF >= 5 && index($2, b "_") == 1 && ("," $5 ",") ~ /,smoke,/ && (nl || ("," $5 ",") !~ /,netlist,/)' regress/testlist > "$xtestlist"
((no_extra)) && : > "$xtestlist"
xgoals=()
for x in $(awk '{ print $2 }' "$xtestlist" | sort -u); do xgoals+=("$bin_dir/${x}_sim"); done

# Documented equivalent mutants: an entry is the mutant's key line, as the
# report prints it after `key:` (FILE: `LINE` -> `LINE AFTER THE EDIT`), and
# one or more indented lines saying why no test can see it.
equiv_file=docs/mutation/$block.equiv
equiv=$out/equiv.tsv
: > "$equiv"
if [[ -f $equiv_file ]]; then
  awk -v F="$equiv_file" '
    function flush() { if (key != "") { if (why == "") { print F ":" kl ": entry without a reason (indented lines after it)" > "/dev/stderr"; bad = 1 } else print key "\t" why } key = ""; why = "" }
    /^[ \t]*(#|$)/ { next }
    /^[ \t]/ { w = $0; sub(/^[ \t]+/, "", w); why = why (why == "" ? "" : " ") w; next }
    { flush(); if (index($0, ": ") == 0) { print F ":" NR ": expected a key line, FILE: `LINE` -> `MUTATED LINE`" > "/dev/stderr"; bad = 1; next }
      key = $0; sub(/[ \t]+$/, "", key); kl = NR }
    END { flush(); exit bad }' "$equiv_file" > "$equiv" || exit 2
fi

targets=()
while read -r t b _; do [[ $b == "$block" ]] && targets+=("$t"); done < <(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim)
units=()
for u in csim/"$block"/test_*.c; do [[ -f $u ]] && units+=("build/asan/bin/$(basename "$u" .c)"); done

run_smoke() { # log [testlist timeout] -> status of regress
  local tl=${2:-$testlist} to=${3:-$timeout}
  rm -rf "$out/run"
  timeout $((to * $(wc -l < "$tl") + 60)) build/bin/regress --tag smoke --jobs "$jobs" --bin-dir "$bin_dir" \
    --out "$out/run" --testlist "$tl" --timeout "$to" > "$1" 2>&1
}
# The B_* tests are whole experiments (a minute each on a busy machine): 15x the timeout.
run_extra() { run_smoke "$1" "$xtestlist" $((timeout * 15)); } # log -> status

results=$out/results.tsv
if ((report_only)); then
  [[ -s $results ]] || { echo "mutate: --report: no results in $results" >&2; exit 2; }
  k=$(wc -l < "$results")
else
echo "mutate: block $block, ${#srcs[@]} files, $n_sel of $total mutants; $n_tests smoke tests" \
  "($( ((netlist)) && echo "with" || echo "without") netlist runs, $( ((asan)) && echo "ASan" || echo "plain") build)"
echo "mutate: baseline build and regression"
make -j"$jobs" "${goals[@]}" "${xgoals[@]}" > "$out/log/baseline.build" 2>&1 || { cat "$out/log/baseline.build"; exit 1; }
run_smoke "$out/log/baseline.regress" || { tail -20 "$out/log/baseline.regress"; echo "mutate: the unmutated block fails its tests" >&2; exit 1; }
if [[ -s $xtestlist ]]; then
  run_extra "$out/log/baseline.extra" || { tail -20 "$out/log/baseline.extra"; echo "mutate: the unmutated ${block}_* smoke tests fail" >&2; exit 1; }
fi

# Which targets contain which module, from the elaborated designs: an RTL
# mutant rebuilds only the targets that instantiate its module.
declare -A modules=()
for t in "${targets[@]}"; do
  modules[$t]=" $(grep -o '<module [^>]*origName="[^"]*"' "build/xml/$t.xml" | sed 's/.*origName="//; s/"$//' | tr '\n' ' ')"
done
affected() { # file -> the targets built from it
  local m t any=0
  [[ $1 == *.sv ]] || return 0
  m=$(basename "$1" .sv)
  for t in "${targets[@]}"; do [[ ${modules[$t]} == *" $m "* ]] && { echo "$t"; any=1; }; done
  # not a module (a package such as elite4_pkg): every target of the block
  ((any)) || printf '%s\n' "${targets[@]}"
  return 0
}

for f in "${srcs[@]}"; do cp "$f" "$out/orig/${f//\//_}"; done
current=""
restore() { # put the committed file back (git checkout; cat if git saw no change)
  [[ -n $current ]] || return 0
  git checkout -q -- "$current"
  local orig=$out/orig/${current//\//_}
  [[ -f $orig ]] && { cmp -s "$current" "$orig" || cat "$orig" > "$current"; }
  current=""
}
trap restore EXIT
trap 'restore; exit 130' INT TERM

apply() { # id file: replace old by new at line:col, checking old is there
  local tmp=$out/apply.tmp
  awk -F'\t' -v id="$1" '
    NR == FNR { if ($1 == id) { ln = $3; col = $4; old = $6; new = $7 }; next }
    FNR == ln {
      if (substr($0, col, length(old)) != old) { print "mutate: " FILENAME ":" ln " has changed" > "/dev/stderr"; exit 3 }
      $0 = substr($0, 1, col - 1) new substr($0, col + length(old))
    }
    { print }' "$sel" "$2" > "$tmp" || return 1
  current=$2
  cat "$tmp" > "$2"
}

# The most telling failure of a regression: a mismatch naming port and cycle,
# then a scoreboard check (cycle), an end-of-run check, a model refusing its
# configuration, a negative test that stopped catching its bug, a crash or
# timeout. Runs in testlist order.
classify() { # summary.json -> "class<TAB>test.seed: reason"
  awk '
    /"status": "failed"/ {
      t = $0; sub(/.*"test": "/, "", t); sub(/".*/, "", t)
      s = $0; sub(/.*"seed": /, "", s); sub(/,.*/, "", s)
      r = $0; sub(/.*"reason": "/, "", r); sub(/", "rerun".*/, "", r)
      if (r ~ /^expected a failure .*, got: output [^ ]+ differs at cycle/) c = "port"   # negative test, other port
      else if (r ~ /^expected a failure/) c = "negative"
      else if (r ~ /^output [^ ]+ differs at cycle [0-9]+/) c = "port"
      else if (r ~ /^check failed at cycle [0-9]+/) c = "check"
      else if (r ~ /^final check failed/) c = "final"
      else if (r ~ /rejected its configuration/) c = "setup"
      else c = "crash"
      if (!(c in first)) first[c] = t "." s ": " r
    }
    END {
      n = split("port check final setup negative crash", order, " ")
      for (i = 1; i <= n; i++) if (order[i] in first) { print order[i] "\t" first[order[i]]; exit }
      print "crash\tregress failed without a failing run (see the log)"
    }' "$1"
}

: > "$results"
declare -A dirty=()   # targets last built from a mutant: rebuilt at the next build
k=0
# Run order: random (seeded), so that a run cut short by --budget is a sample too.
order=$out/order.tsv
awk -v seed="$seed" 'BEGIN { x = seed % 2147483647; if (x <= 0) x += 2147483646 }
  { x = (x * 48271) % 2147483647; printf "%d\t%s\n", x, $0 }' "$sel" | sort -n | cut -f2- > "$order"
while IFS=$'\t' read -r id file line col kind old new; do
  if ((budget && $(date +%s) - t_start >= budget)); then
    echo "mutate: --budget $budget s used up after $k of $n_sel mutants"; break
  fi
  k=$((k + 1))
  t0=$(date +%s.%N)
  log=$out/log/$id.log
  apply "$id" "$file" || { echo "mutate: cannot apply mutant #$id" >&2; exit 1; }
  # Rebuild the targets of this mutant and those of the last one (now restored);
  # make must keep the others: their sources are newer, their contents the same.
  for t in $(affected "$file"); do dirty[$t]=1; done
  rebuild=" ${!dirty[*]} " keep=()
  for t in "${targets[@]}"; do
    [[ $rebuild == *" $t "* ]] && continue
    keep+=(-o "build/xml/$t.xml")
    ((netlist)) && keep+=(-o "build/synth/$t.v")
  done
  dirty=()
  for t in $(affected "$file"); do dirty[$t]=1; done
  status="" class="-" reason=""
  if ! timeout 900 make -j"$jobs" "${keep[@]}" "${goals[@]}" > "$log" 2>&1; then
    status=INVALID
    reason=$(grep -m1 -E 'error|Error' "$log" | cut -c1-200 || true)
  elif ! run_smoke "$log.regress"; then
    status=KILLED
    IFS=$'\t' read -r class reason < <(classify "$out/run/summary.json" 2>/dev/null || printf 'crash\tno summary\n')
  elif [[ -s $xtestlist ]] && ! { make -j"$jobs" "${keep[@]}" "${xgoals[@]}" >> "$log" 2>&1 &&
        run_extra "$log.extra"; }; then
    status=EXTRA
    IFS=$'\t' read -r class reason < <(classify "$out/run/summary.json" 2>/dev/null || printf 'crash\tno summary\n')
  elif [[ $file == *.c ]] && ((${#units[@]})); then
    status=SURVIVED
    if ! (make -j"$jobs" "${units[@]}" && for u in "${units[@]}"; do "$u" || exit 1; done) >> "$log" 2>&1; then
      status=UNIT reason=$(grep -m1 -E 'FAIL|error' "$log" | cut -c1-200 || true)
    fi
  elif [[ $file == *.sv ]]; then
    status=SURVIVED
    # make test's lint (LINT_SCOPE=test) of the blocks that read the file
    if ! LINT_SCOPE=test LINT_FILES="$file" JOBS=$jobs ./mk/lint.sh >> "$log" 2>&1; then
      status=LINT
      reason="$(grep -m1 'FAIL' "$log" || true): $(sed -n '/FAIL/,$p' "$log" | grep -m1 -E '%(Error|Warning)|ERROR' || true)"
      reason=${reason:0:200}
    fi
  else
    status=SURVIVED
  fi
  key=$(awk -F'\t' -v id="$id" '$1 == id { print $2; exit }' "$keys")
  if [[ $status == SURVIVED ]] && awk -F'\t' -v k="$key" '$1 == k { f = 1 } END { exit !f }' "$equiv"; then
    status=EQUIV reason=$(awk -F'\t' -v k="$key" '$1 == k { print $2; exit }' "$equiv")
  fi
  restore
  secs=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$status" "$class" "$secs" "$file" "$line" "$kind" \
    "$old" "$new" "$reason" >> "$results"
  printf '[%*d/%d] #%-4s %-8s %s:%s %s `%s` -> `%s`  %ss%s\n' ${#n_sel} "$k" "$n_sel" "$id" "$status" "$file" "$line" \
    "$kind" "$old" "$new" "$secs" "${reason:+  ($reason)}"
done < "$order"

# Leave the build as the committed sources make it.
make -j"$jobs" "${goals[@]}" > "$out/log/final.build" 2>&1 || echo "mutate: warning: the final rebuild failed" >&2
fi

# --- report -----------------------------------------------------------------------------
# The equivalence list as it is now decides EQUIV (also for --report).
awk -F'\t' -v OFS='\t' 'FILENAME == ARGV[1] { eq[$1] = $2; next } FILENAME == ARGV[2] { ks[$1] = $2; next }
  $2 == "EQUIV" && !(ks[$1] in eq) { $2 = "SURVIVED"; $10 = "" }
  $2 == "SURVIVED" && (ks[$1] in eq) { $2 = "EQUIV"; $10 = eq[ks[$1]] }
  { print }' "$equiv" "$keys" "$results" > "$results.tmp" && mv "$results.tmp" "$results"
# An RTL mutant whose build stopped on a Verilator -Wall warning, or on the
# design's own elaboration check ($error, -Werror-USERERROR: the mutant made a
# legal configuration illegal), is killed by lint, not invalid: make test's
# Verilated build is the RTL's -Wall lint (the Makefile's
# VERILATOR_RTL_FLAGS), and a mutant that trips it never reaches a
# simulator. Its build log has the warning or the USERERROR, and no other
# Verilator error but the "Exiting due to N ..." that follows; a mutant
# Verilator cannot parse or elaborate has an error of its own.
while IFS=$'\t' read -r id st _; do
  [[ $st == INVALID ]] || continue
  l=$out/log/$id.log
  [[ -f $l ]] && grep -qE '^%(Warning-|Error-USERERROR)' "$l" && grep -q '^%Error: Exiting due to [0-9]* ' "$l" &&
    ! grep -E '^%Error' "$l" | grep -qvE '^%Error(: Exiting due to [0-9]* |-USERERROR)' || continue
  w=$(grep -m1 -E '^%(Warning-|Error-USERERROR)' "$l" | cut -c1-200)
  awk -F'\t' -v OFS='\t' -v id="$id" -v w="$w" '$1 == id { $2 = "LINT"; $10 = "make test'"'"'s -Wall Verilation: " w } { print }' \
    "$results" > "$results.tmp" && mv "$results.tmp" "$results"
done < "$results"
wall=$(($(date +%s) - t_start))
((report_only)) && wall=$(awk -F'\t' '{ s += $4 } END { printf "%d", s }' "$results")
report=$out/report.txt
{
  echo "mutation testing of block $block: $(date -u '+%Y-%m-%d %H:%M UTC'), commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo ' + local changes')"
  echo "command: make mutate B=$block$( ((max)) && echo " MAX=$max SEED=$seed")  (mk/mutate.sh --block $block${files:+ --files \"$files\"}$( ((max)) && echo " --max $max --seed $seed")${ids:+ --ids \"$ids\"}$( ((netlist)) && echo " --netlist")$( ((asan)) && echo " --asan")$( ((no_extra)) && echo " --no-extra")$( ((budget)) && echo " --budget $budget"))"
  echo "files:   ${srcs[*]}"
  echo "tests:   $n_tests smoke tests of $block ($( ((netlist)) && echo "netlist runs included" || echo "netlist runs skipped: they repeat lockstep stimulus against the synthesised RTL"));" \
    "$( ((asan)) && echo "sanitizer build" || echo "plain build, no sanitizers")"
  echo "         smoke survivors then tried on the smoke tests of ${block}_* ($(wc -l < "$xtestlist") tests), the C unit tests (C mutants)" \
    "or make lint (RTL mutants)"
  echo
  awk -F'\t' -v total="$total" -v wall="$wall" '
    { n++; st[$2]++; if ($2 == "KILLED") cl[$3]++; secs += $4
      f = $5; files[f] = 1; fs[f, $2]++; fn[f]++ }
    END {
      printf "mutants run                     %5d  (of %d generated)\n", n, total
      printf "killed by the smoke tests       %5d\n", st["KILLED"]
      printf "  first by a port+cycle mismatch %4d\n", cl["port"]
      printf "  by a scoreboard check (cycle) %5d\n", cl["check"]
      printf "  by an end-of-run check only   %5d\n", cl["final"]
      printf "  by a model refusing its config %4d\n", cl["setup"]
      printf "  by a negative test only       %5d\n", cl["negative"]
      printf "  by a crash or timeout only    %5d\n", cl["crash"]
      printf "killed by a B_* smoke test only %5d\n", st["EXTRA"]
      printf "killed by the C unit tests only %5d\n", st["UNIT"]
      printf "killed by make lint only        %5d\n", st["LINT"]
      printf "invalid (does not build)        %5d\n", st["INVALID"]
      printf "documented equivalent           %5d\n", st["EQUIV"]
      printf "survived                        %5d\n", st["SURVIVED"]
      k = st["KILLED"] + st["EXTRA"] + st["UNIT"] + st["LINT"]; d = n - st["INVALID"] - st["EQUIV"]
      if (d) printf "kill rate                       %5.1f %%  (%d killed / (%d run - %d invalid - %d equivalent))\n", 100 * k / d, k, n, st["INVALID"], st["EQUIV"]
      else printf "kill rate                         n/a  (no mutant left to judge: %d run - %d invalid - %d equivalent)\n", n, st["INVALID"], st["EQUIV"]
      printf "wall time                       %5d s (%.1f s per mutant)\n\n", wall, n ? secs / n : 0
      printf "%-34s %6s %6s %6s %6s %6s %7s %6s %6s\n", "file", "total", "killed", "extra", "unit", "lint", "invalid", "equiv", "surv."
      for (f in files) printf "%-34s %6d %6d %6d %6d %6d %7d %6d %6d\n", f, fn[f], fs[f, "KILLED"], fs[f, "EXTRA"], fs[f, "UNIT"], fs[f, "LINT"], fs[f, "INVALID"], fs[f, "EQUIV"], fs[f, "SURVIVED"] | "sort"
      close("sort")
    }' "$results"
  for s in SURVIVED EQUIV EXTRA LINT UNIT INVALID; do
    n=$(awk -F'\t' -v s="$s" '$2 == s' "$results" | wc -l)
    ((n)) || continue
    case $s in
      SURVIVED) echo; echo "SURVIVED ($n): no test noticed these edits (a test hole, or an equivalent mutant to list in $equiv_file)" ;;
      EQUIV) echo; echo "DOCUMENTED EQUIVALENT ($n): survived, and $equiv_file says why no test can see them" ;;
      EXTRA) echo; echo "KILLED BY A ${block}_* SMOKE TEST ONLY ($n): the block's own smoke tests pass" ;;
      LINT) echo; echo "KILLED BY LINT ONLY ($n): make lint fails, or make test's -Wall Verilation of the target stops the build" ;;
      UNIT) echo; echo "KILLED BY THE C UNIT TESTS ONLY ($n): the smoke tests pass, make unit fails" ;;
      INVALID) echo; echo "INVALID ($n): the mutant does not build" ;;
    esac
    # fields: id status class secs file line kind old new reason (new may be empty)
    awk -F'\t' -v s="$s" '$2 == s {
      printf "  #%-4s %s:%s  %s  `%s` -> `%s`\n", $1, $5, $6, $7, $8, $9
      src = ""; n = 0
      while ((getline l < $5) > 0) if (++n == $6) { src = l; break }
      close($5); sub(/^ +/, "", src)
      printf "        | %s\n", src
      m = ""
      while ((getline l < KEYS) > 0) { split(l, kv, "\t"); if (kv[1] == $1) { m = kv[2]; break } }
      close(KEYS)
      if (s == "SURVIVED") printf "        key: %s\n", m
      if (s != "SURVIVED" && $10 != "") printf "        > %s\n", $10
    }' KEYS="$keys" "$results"
  done
  # An entry of the equivalence list that a test kills is wrong; one that
  # matches no mutant is stale (its line changed): both need a look.
  awk -F'\t' -v F="$equiv_file" 'FILENAME == ARGV[1] { eq[$1] = 1; next }
       FILENAME == ARGV[2] { ks[$1] = $2; gen[$2] = 1; next }
       $2 ~ /^(KILLED|EXTRA|UNIT|LINT)$/ && (ks[$1] in eq) { if (!h1++) print "\nLISTED AS EQUIVALENT IN " F " BUT KILLED (remove them):"; print "  #" $1 " " ks[$1] }
       END { for (e in eq) if (!(e in gen) && index(SRCS, " " substr(e, 1, index(e, ": ") - 1) " ")) {
               if (!h2++) print "\nSTALE ENTRIES OF " F " (no such mutant any more):"; print "  " e } }' \
    SRCS=" ${srcs[*]} " "$equiv" "$keys" "$results"
} > "$report"
sed -n '/^mutants run/,/^$/p' "$report"
grep -A1000 -E '^(LISTED AS EQUIVALENT|STALE ENTRIES)' "$report" || true
echo "report: $report"
rate=$(sed -n 's/^kill rate *\([0-9.]*\) %.*/\1/p' "$report")
if ((min_rate)) && [[ -n $rate ]] && awk -v r="$rate" -v m="$min_rate" 'BEGIN { exit !(r + 0 < m + 0) }'; then
  echo "mutate: FAILED: block $block kill rate $rate % is below $min_rate % (survivors in $report)"; exit 1
fi
