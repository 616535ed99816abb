#!/usr/bin/env bash
# make deps: install the Debian packages netcosim needs, only those missing.
# Idempotent, and quick (one dpkg-query) when everything is present.
set -euo pipefail

pkgs=(
  build-essential   # gcc, g++, make
  verilator         # RTL simulation and lint (5.006 on Debian 12)
  yosys             # synthesis and the gate-level netlist (0.23 on Debian 12)
  qflow-tech-osu018 # osu018 0.18 um standard cells (liberty) for make timing
  gtkwave           # waveform viewer, fst2vcd
  libsystemc-dev    # SystemC top level
  libxml2-dev       # gluegen reads Verilator's XML
  zlib1g-dev        # FST writer
  xvfb xauth        # headless GTKWave for make wave-png
  gnuplot-nox       # plots in reports
  lcov              # make coverage: gcov capture and the HTML report (mk/coverage.sh)
  z3                # SMT solver behind yosys-smtbmc (make formal)
  libsqlite3-dev    # results store (testbench/store/, docs/store.md)
  sqlite3           # the sqlite3 shell, to query a results store by hand
  clang libclang-rt-14-dev # libFuzzer for make fuzz (mk/fuzz.sh)
  ibsim-utils       # ibsim (+ libumad2sim0): example topologies for test_fabric (docs/fabric.md); the
                    # simulated subnet OpenSM runs on in mk/opensm-routes.sh (docs/ibsw.md "OpenSM in the loop")
  opensm            # the real subnet manager (3.3.23 on Debian 12; pulls infiniband-diags), run under ibsim
  openmpi-bin libopenmpi-dev # mpirun and mpicc (4.1.4 on Debian 12): build/bin/elite4_fabric_mpi, the fabric
                    # core on processes (docs/fabric.md "Processes (Open MPI)", mk/fabric-mpi.sh)
)

# One dpkg-query for all (one per package was ~0.3 s, and make test's steps
# call make deps 18 times)
installed=$'\n'$(dpkg-query -W -f='${Package} ${Status}\n' "${pkgs[@]}" 2>/dev/null |
  awk '$2 == "install" && $3 == "ok" && $4 == "installed" { print $1 }' || true)$'\n'
missing=()
for p in "${pkgs[@]}"; do
  [[ $installed == *$'\n'$p$'\n'* ]] || missing+=("$p")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

echo "deps: installing ${missing[*]}"
sudo=""
[[ $(id -u) -ne 0 ]] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "deps: done"
