#!/usr/bin/env bash
# make test's step timer: mk/step.sh NAME FILE CMD [ARG...] runs CMD and
# appends "NAME <wall> s (cpu <user>+<system> s)" to FILE (CPU of CMD and
# everything it ran); exits with CMD's status. A script, not the shell
# keyword in the recipe: bash prints `time` of a job started with & on its
# own stderr, ignoring the group's redirection, so a step run beside another
# lost its line.
set -uo pipefail
(($# >= 3)) || { echo "usage: mk/step.sh NAME FILE CMD [ARG...]"; exit 2; }
name=$1 file=$2
shift 2
TIMEFORMAT="$name %0R s (cpu %0U+%0S s)"
{ time "$@" 2>&3; } 3>&2 2>> "$file"
