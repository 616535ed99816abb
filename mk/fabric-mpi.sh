#!/usr/bin/env bash
# The fabric core on Open MPI processes (regress/testlist fabric16_mpi*; docs/fabric.md "Parallel"):
#   fabric.mpi   build/bin/elite4_fabric_mpi --test=mpi under mpirun -np N on this machine: the
#                distributed run (a part per process) and the one-process run give identical
#                per-cycle output digests, per-packet records and port counters
#   mk/fabric-mpi.sh [--np=N] [--expect-fail=check:ID --at=CYCLE] [--seed=N --out=D --name=X]
#                    [elite4_fabric_mpi flags, e.g. --nodes=16 --cycles=2000 --inject-bug=fab_mpi_drop_flit]
# A negative: the testlist names the check (a script line has no cycle), --at the cycle it must fire at.
#   fabric.mpi_same_fabric   the ranks must build the same fabric (fabric_mpi_start compares a
#                            fingerprint): --bug=rank_args gives the last rank --link-delay=3 on top of
#                            the others' arguments, and the run must stop saying the fabrics differ
# Builds build/bin/elite4_fabric_mpi first (needs openmpi-bin and libopenmpi-dev: make deps).
# Runs as root too (a container): OMPI_ALLOW_RUN_AS_ROOT. --oversubscribe: more ranks than free
# cores is fine (Open MPI then yields while it waits instead of spinning).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
np=2 args=() expect="" at="" bug=""
for a in "$@"; do
  case $a in
    --bug=rank_args) bug=rank_args ;;
    --np=*) np=${a#--np=} ;;
    --expect-fail=*) expect=${a#--expect-fail=} ;;
    --at=*) at=${a#--at=} ;;
    -h | --help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done
[[ $np =~ ^[0-9]+$ && $np -ge 2 ]] || { echo "fabric-mpi: --np=$np: at least 2 processes" >&2; exit 2; }
if [[ $bug == rank_args ]]; then
  [[ $expect == check:fabric.mpi_same_fabric ]] ||
    { echo "fabric-mpi: --bug=rank_args goes with --expect-fail=check:fabric.mpi_same_fabric" >&2; exit 2; }
elif [[ -n $expect || -n $at ]]; then
  [[ -n $expect && $at =~ ^[0-9]+$ ]] || { echo "fabric-mpi: --expect-fail=check:ID needs --at=CYCLE" >&2; exit 2; }
  args+=("--expect-fail=$expect@$at")
fi
if ! command -v mpirun >/dev/null || ! command -v mpicc >/dev/null; then
  echo "fabric-mpi: mpirun or mpicc missing (make deps: openmpi-bin libopenmpi-dev)" >&2
  exit 2
fi
mkdir -p build
# one build at a time: regress may start several of these lines at once
flock build/.fabric-mpi.lock nice -n 10 make -s -j1 build/bin/elite4_fabric_mpi >&2 || { echo "fabric-mpi: cannot build build/bin/elite4_fabric_mpi" >&2; exit 2; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
sim=build/bin/elite4_fabric_mpi
[[ -z $bug ]] && exec mpirun -np "$np" --oversubscribe --bind-to none $sim --test=mpi "${args[@]}"
# planted: the last rank's fabric differs (3-cycle links); fabric_mpi_start must refuse it
out=$(mpirun --oversubscribe --bind-to none -np $((np - 1)) $sim --test=mpi "${args[@]}" \
  : -np 1 $sim --test=mpi "${args[@]}" --link-delay=3 2>&1)
rc=$?
echo "$out"
first=""
if [[ $rc -ne 0 && $out == *"the ranks built different fabrics"* ]]; then
  echo "check: FAIL fabric.mpi_same_fabric: rank $((np - 1)) (--link-delay=3) built another fabric: refused"
  first="fabric.mpi_same_fabric: the ranks built different fabrics"
else
  echo "check: ok   fabric.mpi_same_fabric: not fired (exit $rc)"
fi
. mk/script-verdict.sh
script_verdict "$first" "${expect#check:}" "mk/fabric-mpi.sh $*"
