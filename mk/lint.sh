#!/usr/bin/env bash
# make lint: every RTL module through `verilator --lint-only -Wall` (default
# parameters, and every co-simulated parameter set), each module's parameter
# limits (rtl/<block>/<block>.limits: legal extremes elaborate, values just
# outside stop with the module's $error), then yosys read + synth of every
# gate-level co-simulation target (the netlist rule of the Makefile), and
# yosys's one-driver-per-net check (mk/yosys-drivers.sh) on the co-simulation
# targets. Waivers live in rtl/lint.vlt, each with a reason.
#
# LINT_SCOPE=full (make lint, nightly) runs everything. LINT_SCOPE=test (make
# test) leaves out what is covered another way or is yosys's half of a check
# Verilator also makes: limit lines marked `ok-target` (a legal extreme that a
# co-simulation target of the same module also sets, so make test lints,
# Verilates and runs it through the target; checked below); yosys's
# elaboration of legal extremes (`ok` lines: Verilator elaborates them, -Wall
# clean; refusals still need both tools); and the driver check of all but one
# target per top module (its `lint-test` target in the .cosim file, else the
# first that is not heavy); and the -Wall lint of the targets make test
# builds, whose Verilated build is that lint (the Makefile's
# VERILATOR_RTL_FLAGS), and of the heavy targets it does not build, but for
# one that stands in for its top's module job. Nightly runs the full scope.
#
# LINT_FILES="rtl/B/F.sv ..." (mk/mutate.sh, after editing one RTL file):
# only the module, limit, target, driver and synthesis jobs of the blocks
# whose .f lists one of these files; a file no other block reads cannot
# change another block's verdict. The project-wide checks still run.
set -euo pipefail
self=$(realpath "$0")
case ${1:-} in
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$self"; exit 0 ;;
  '' | --job) ;;
  *) echo "mk/lint.sh: unknown argument '$1' (mk/lint.sh --help)"; exit 2 ;;
esac
cd "$(dirname "$0")/.."
fail=0
scope=${LINT_SCOPE:-full}
case $scope in full | test) ;; *) echo "mk/lint.sh: LINT_SCOPE='$scope': expected full or test"; exit 2 ;; esac
waivers=rtl/lint.vlt
gates=()
declare -A lint_block # the blocks whose jobs run (all, or those LINT_FILES concern)
n_blocks=0
for f in rtl/*/*.f; do
  b=$(basename "$(dirname "$f")")
  if [[ -z ${LINT_FILES:-} ]]; then lint_block[$b]=1; n_blocks=$((n_blocks + 1)); continue; fi
  for x in $LINT_FILES; do
    if grep -qxF "$x" "$f" && [[ -z ${lint_block[$b]:-} ]]; then lint_block[$b]=1; n_blocks=$((n_blocks + 1)); fi
  done
done
((n_blocks)) || { echo "mk/lint.sh: LINT_FILES='${LINT_FILES:-}': in no block's .f list"; exit 2; }

# The Verilator/yosys elaborations below are independent jobs: they run
# JOBS at a time (the lint step was ~4 CPU-minutes on one core) and print in
# a fixed order. A job is one line of $jobs: "module F MOD", "limit LIM MOD
# EXPECT PARAMS...", "target TARGET BLOCK TOP GATE PARAMS...".
run_job() { # $1 = kind, rest = its fields; prints its verdict, returns 1 on a failure
  local kind=$1; shift
  case $kind in
    module)
      local f=$1 mod=$2 block out
      block=$(basename "$(dirname "$f")")
      if ! out=$(verilator --lint-only -Wall "$waivers" --top-module "$mod" -f "$f" 2>&1); then
        echo "LINT FAIL  $block/$mod"; echo "$out"; return 1
      fi
      echo "lint ok    $block/$mod" ;;
    limit)
      local lim=$1 mod=$2 expect=$3; shift 3
      local params="$*" f=${lim%.limits}.f vout yout vrc yrc name yran=
      # -Werror-USERERROR: Verilator 5.006 takes an elaboration-time $error as a
      # warning and goes on linting the whole design; as an error it stops right
      # after elaborating the parameters (an elan4 refusal: 10 -> 0.9 CPU-s)
      # shellcheck disable=SC2086
      vout=$(verilator --lint-only -Wall -Werror-USERERROR "$waivers" --top-module "$mod" $(sed -E 's/(^| )/\1-G/g' <<<"$params") -f "$f" 2>&1) \
        && vrc=0 || vrc=$?
      # -defer: yosys elaborates each module once, with these parameters
      # (without it, every module first at its defaults: 3x the time on elan4)
      # make test: a legal extreme in Verilator only; yosys's elaboration is
      # most of the line's CPU (ibsw NumPorts=31: Verilator 27 CPU-s, yosys
      # 77; elite4_va_arbiter NumReq=64: 0.2 and 45) and is nightly's
      # (LINT_SCOPE). A refusal needs yosys only when Verilator stopped before
      # the module's $error (e.g. on a zero-width cast): yosys must name it.
      local named="$mod: ([A-Za-z_0-9]+ and )*${params%%=*}( and [A-Za-z_0-9]+)* must"
      if [[ $scope == test && ( $expect == ok* || ( $vrc -ne 0 && $vout =~ $named ) ) ]]; then
        yout="" yrc=$([[ $expect == error ]] && echo 1 || echo 0) yran=" (yosys not run: make test)"
      else
        yout=$(yosys -q -p "read_verilog -defer -sv $(tr '\n' ' ' < "$f"); chparam $(sed -E 's/([A-Za-z_0-9]+)=/-set \1 /g' <<<"$params") $mod; hierarchy -top $mod" 2>&1) \
          && yrc=0 || yrc=$?
      fi
      name=${params%%=*}
      if [[ $expect == ok* ]] && ((vrc || yrc)); then
        echo "LIMIT FAIL $mod $params: legal, but does not elaborate"; echo "$vout"; echo "$yout"; return 1
      elif [[ $expect == error ]] && { ((vrc == 0 || yrc == 0)) || ! grep -qE "$mod: ([A-Za-z_0-9]+ and )*$name( and [A-Za-z_0-9]+)* must" <<<"$vout$yout"; }; then
        echo "LIMIT FAIL $mod $params: illegal, but not refused by both tools (exit status: Verilator $vrc, yosys $yrc$yran) with '$mod: $name must ...'"
        echo "$vout"; echo "$yout"; return 1
      fi
      echo "limit ok   $mod $params ($expect)" ;;
    target)
      local target=$1 block=$2 top=$3; shift 4
      local params="$*" out
      # shellcheck disable=SC2086
      if ! out=$(verilator --lint-only -Wall "$waivers" --top-module "$top" $params -f "rtl/$block/$block.f" 2>&1); then
        echo "LINT FAIL  $target ($top $params)"; echo "$out"; return 1
      fi ;;
    drivers)
      local target=$1 block=$2 top=$3; shift 4
      # shellcheck disable=SC2046
      ./mk/yosys-drivers.sh "$target" "$top" "$(tr '\n' ' ' < "rtl/$block/$block.f")" $(sed 's/-G//g' <<<"$*") ;;
  esac
}
if [[ ${1:-} == --job ]]; then # one job: mk/lint.sh --job DIR N (line N of DIR/jobs)
  # wall, then CPU (user + system, with the tools it ran): CPU does not
  # depend on how loaded the machine is, so it is what the budget tracks
  TIMEFORMAT='%R %U %S'
  # shellcheck disable=SC2046
  { time run_job $(sed -n "$3p" "$2/jobs") > "$2/$3.out" 2>&1 || echo 1 > "$2/$3.failed"; } 2> "$2/$3.time"
  exit 0
fi

scratch=$(mktemp -d); trap 'rm -rf "$scratch"' EXIT
jobs=$scratch/jobs; : > "$jobs"
targets=$(awk -v fmt=sh -f mk/targets.awk rtl/*/*.cosim)
# A target whose parameters are all its top's defaults (none given, or each
# equal to the `parameter ... Name = decimal` default in the top's .sv) is
# linted by exactly the command of that top's module job, so the module job
# is left out (ibsw_p24: 20 CPU-s). An unparsable default keeps the job.
declare -A at_defaults covers
while read -r target block top _ params; do
  same=$(awk -v params="$params" '
    match($0, /parameter +(int +)?(unsigned +)?[A-Za-z_][A-Za-z0-9_]* *= *[0-9]+ *(,|\)|\/\/|$)/) {
      t = substr($0, RSTART, RLENGTH); sub(/^parameter +(int +)?(unsigned +)?/, "", t)
      split(t, kv, / *= */); v = kv[2]; sub(/[^0-9].*$/, "", v); def[kv[1]] = v }
    END { n = split(params, p, " "); ok = 1
          for (i = 1; i <= n; i++) { split(substr(p[i], 3), kv, "="); if (!(kv[1] in def) || def[kv[1]] != kv[2]) ok = 0 }
          print ok }' "rtl/$block/$top.sv")
  [[ $same == 1 ]] && at_defaults[$top]=$target
done <<<"$targets"
for f in rtl/*/*.f; do
  block=$(basename "$(dirname "$f")")
  [[ -n ${lint_block[$block]:-} ]] || continue
  for sv in $(grep "^rtl/$block/" "$f"); do
    mod=$(basename "$sv" .sv)
    [[ $mod == *_pkg ]] && continue
    if [[ -n ${at_defaults[$mod]:-} ]]; then echo "lint ok    $block/$mod: as target ${at_defaults[$mod]} (its defaults)"; continue; fi
    echo "module $f $mod" >> "$jobs"
  done
done

# Parameter limits (rtl/<block>/<block>.limits): each legal extreme must
# elaborate in Verilator (-Wall clean) and yosys; each value just outside must
# stop both, one of them with the module's own "<module>: <Param> must" $error
# (or "<module>: <A> and <Param> must" for a check shared by parameters; the
# other tool may stop earlier, e.g. on a zero-width cast). Every block has the
# file: a missing one is an error, not a block that silently skips the check.
for f in rtl/*/*.f; do
  lim=${f%.f}.limits
  if [[ ! -f $lim ]]; then
    echo "LIMIT FAIL $(basename "$(dirname "$f")"): no $lim (each parameter's legal extremes, and one past each; docs/cosim.md)"
    fail=1
  fi
done
heavy=" $(awk '$1 == "heavy" { printf "%s ", $2 }' rtl/*/*.cosim)"
for lim in rtl/*/*.limits; do
  [[ -n ${lint_block[$(basename "$(dirname "$lim")")]:-} ]] || continue
  while read -r mod expect params; do
    [[ -z $mod || $mod == \#* ]] && continue
    case $expect in
      ok | error) ;;
      ok-target)
        # the claim "a target sets this too" is checked here, in every scope
        if ! by=$(awk -v mod="$mod" -v want="$params" '
               $3 == mod { have = " "; for (i = 5; i <= NF; i++) have = have substr($i, 3) " "
                           n = split(want, w, " "); ok = 1
                           for (i = 1; i <= n; i++) if (index(have, " " w[i] " ") == 0) ok = 0
                           if (ok) { print $1; exit } }' <<<"$targets") || [[ -z $by ]]; then
          echo "LIMIT FAIL $lim: $mod ok-target $params: no co-simulation target of $mod sets all of that (mark it ok)"
          fail=1
        fi
        [[ -n ${by:-} ]] && covers[$by]=1 # the target whose lint stands in for this line (kept below)
        [[ $scope == test ]] && continue ;;
      *) echo "LIMIT FAIL $lim: $mod '$expect': expected ok, ok-target or error"; fail=1; continue ;;
    esac
    echo "limit $lim $mod $expect $params" >> "$jobs"
  done < "$lim"
done

# the driver check: in full on every target; in make test once per top
# module, on its `lint-test` target (a .cosim line naming its smallest
# target: elan4_min's check is half elan4_default's CPU) or else on its first
# target that is not heavy
declare -A drivers_top
while read -r t; do
  top=$(awk -v t="$t" '$1 == t { print $3 }' <<<"$targets")
  [[ -n $top ]] || { echo "LINT FAIL  lint-test $t: no such co-simulation target"; fail=1; continue; }
  drivers_top[$top]=$t
done < <(awk '{ sub(/#.*/, "") } $1 == "lint-test" { print $2 }' rtl/*/*.cosim)
while read -r target block top gate params; do
  [[ -n ${lint_block[$block]:-} ]] || continue
  # make test: a target it builds is linted by its own Verilation (the Makefile's
  # VERILATOR_RTL_FLAGS: -Wall, these waivers, warnings fatal); of the heavy
  # ones (not built there) only one standing in for its top's module job at
  # the defaults (ibsw_p24) or for a limit line marked ok-target (elan4_max);
  # the others' -Wall runs are nightly's
  if [[ $scope == test && $heavy != *" $target "* ]]; then
    echo "lint ok    $target: by its Verilated build (-Wall, make test)"
  elif [[ $scope == test && ${at_defaults[$top]:-} != "$target" && -z ${covers[$target]:-} ]]; then
    echo "lint       $target: heavy, its -Wall lint is nightly's (LINT_SCOPE=full)"
  else
    echo "target $target $block $top $gate $params" >> "$jobs"
  fi
  # a `gate T nightly` netlist is built by nightly (and make build-netlist), not make test
  if [[ $gate == gate || ( $gate == gate-nightly && $scope == full ) ]]; then gates+=("$target"); fi
  if [[ $scope == test && -z ${drivers_top[$top]:-} && $heavy != *" $target "* ]]; then drivers_top[$top]=$target; fi
  if [[ $scope == full || ${drivers_top[$top]:-} == "$target" ]]; then
    echo "drivers $target $block $top $gate $params" >> "$jobs"
  fi
done <<<"$targets"

n=$(wc -l < "$jobs")
seq 1 "$n" | xargs -P "${JOBS:-2}" -I{} "$self" --job "$scratch" {}
for ((i = 1; i <= n; i++)); do
  cat "$scratch/$i.out"
  [[ -f $scratch/$i.failed ]] && fail=1
done
# where lint's time goes: CPU seconds per kind of job, and the five costliest jobs
for ((i = 1; i <= n; i++)); do
  read -r w u s < "$scratch/$i.time"
  echo "$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f", u + s }') ${w}s-wall $(sed -n "${i}p" "$jobs" | cut -d' ' -f1-5)"
done > "$scratch/times"
awk '{ cpu[$3] += $1; n[$3]++; all += $1 }
     END { printf "cpu        %.0f s in all;", all; for (k in cpu) printf " %s %d jobs %.0f s;", k, n[k], cpu[k]; print "" }' "$scratch/times"
# sed, not head: head may exit before sort has written everything, and under
# pipefail sort's SIGPIPE (141) then fails lint (it did, once, in make test)
sort -rn "$scratch/times" | sed -n '1,5s/^/costliest  /p'

# yosys reads and synthesizes the gate-level targets (at least one per block)
# through the same make rule that builds the netlists MODE=netlist runs.
# make test (LINT_SCOPE=test) runs lint beside its build, which synthesizes
# the same netlists for its gate-level simulators (a yosys error stops it):
# synthesizing them here too would be a second make writing the same files.
if [[ $scope == test ]]; then
  echo "synth      the gate targets: by make test's netlist build"
elif ((${#gates[@]})); then
  files=(); for t in "${gates[@]}"; do files+=("build/synth/$t.v"); done
  if ! out=$(make -s -k -O -j"${JOBS:-2}" --no-print-directory "${files[@]}" 2>&1) \
     || grep -v '^  SYNTH ' <<<"$out" | grep -qi 'error'; then
    echo "SYNTH FAIL (yosys, build/synth/<target>.log)"; echo "$out"; fail=1
  fi
  for t in "${gates[@]}"; do
    [[ -s build/synth/$t.v ]] && echo "synth ok   $t" || { echo "SYNTH FAIL $t: no build/synth/$t.v"; fail=1; }
  done
fi

# one nominal clock: testbench/clock.h (simulation, reports) and mk/clock.mk (timing-check) agree
mhz_h=$(awk '$1 == "#define" && $2 == "NETCOSIM_CLOCK_MHZ" { print $3 }' testbench/clock.h)
ps_h=$(awk '$1 == "#define" && $2 == "NETCOSIM_CYCLE_PS" { sub(/ULL$/, "", $3); print $3 }' testbench/clock.h)
mhz_mk=$(awk '$1 == "NOMINAL_MHZ" { print $3 }' mk/clock.mk)
if [[ -z $mhz_h || $mhz_h != "$mhz_mk" || $((ps_h * mhz_h)) -ne 1000000 ]]; then
  echo "CLOCK FAIL testbench/clock.h says ${mhz_h:-?} MHz / ${ps_h:-?} ps, mk/clock.mk NOMINAL_MHZ says ${mhz_mk:-?}"; fail=1
else
  echo "clock ok   $mhz_h MHz in testbench/clock.h and mk/clock.mk"
fi

# the project's files point only inside the project (docs/architecture.md, docs/conventions.md)
if out=$(git ls-files -z | xargs -0 grep -nI -e '\.\./shared/' -e 'ARCHITECTURE\.md' -e 'CONVENTIONS\.md' -- 2>/dev/null | grep -v '^mk/lint.sh:'); then
  echo "REFS FAIL  these lines point outside the project:"; echo "$out"; fail=1
else
  echo "refs ok    no file points outside the project"
fi

# one C style (.clang-format) for csim/, testbench/ and regress/
if ! out=$(git ls-files -z -- 'csim/*.[ch]' 'testbench/*.[ch]' 'regress/*.[ch]' | xargs -0 clang-format --dry-run --Werror 2>&1); then
  echo "FORMAT FAIL (fix with: make format)"; { grep -E '^[^ ].*(error|warning):' <<<"$out" || true; } | sed -n 1,20p; fail=1
else
  echo "format ok  csim/ testbench/ regress/ follow .clang-format"
fi

# scoreboards judge models with their own code, never the models' (mk/scoreboard-lint.sh)
./mk/scoreboard-lint.sh || fail=1

[[ $fail -eq 0 ]] && echo "lint: all clean" || { echo "lint: FAILED"; exit 1; }
