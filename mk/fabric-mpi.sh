#!/usr/bin/env bash
# The fabric core on Open MPI processes (regress/testlist fabric16_mpi*; docs/fabric.md "Parallel"):
#   fabric.mpi   build/bin/elite4_fabric_mpi --test=mpi under mpirun -np N on this machine: the
#                distributed run (a part per process) and the one-process run give identical
#                per-cycle output digests, per-packet records and port counters
#   mk/fabric-mpi.sh [--np=N] [--expect-fail=check:ID --at=CYCLE] [--seed=N --out=D --name=X]
#                    [elite4_fabric_mpi flags, e.g. --nodes=16 --cycles=2000 --inject-bug=fab_mpi_drop_flit]
# A negative: the testlist names the check (a script line has no cycle), --at the cycle it must fire at.
# Builds build/bin/elite4_fabric_mpi first (needs openmpi-bin and libopenmpi-dev: make deps).
# Runs as root too (a container): OMPI_ALLOW_RUN_AS_ROOT. --oversubscribe: more ranks than free
# cores is fine (Open MPI then yields while it waits instead of spinning).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
np=2 args=() expect="" at=""
for a in "$@"; do
  case $a in
    --np=*) np=${a#--np=} ;;
    --expect-fail=*) expect=${a#--expect-fail=} ;;
    --at=*) at=${a#--at=} ;;
    -h | --help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) args+=("$a") ;;
  esac
done
[[ $np =~ ^[0-9]+$ && $np -ge 2 ]] || { echo "fabric-mpi: --np=$np: at least 2 processes" >&2; exit 2; }
if [[ -n $expect || -n $at ]]; then
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
exec mpirun -np "$np" --oversubscribe --bind-to none build/bin/elite4_fabric_mpi --test=mpi "${args[@]}"
