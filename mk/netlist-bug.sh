#!/usr/bin/env bash
# mk/netlist-bug.sh NETLIST PORT OUT: a copy of the yosys netlist NETLIST
# (make synth's build/synth/<target>.v) in which bit 0 of output PORT is
# inverted: every driver of PORT now drives PORT__nb and PORT = PORT__nb ^ 1.
# The gate-level lockstep on OUT must fail on PORT: this proves MODE=netlist
# runs the netlist, not the RTL (docs/formal.md). Status 2 if PORT is not a
# single output declaration of the netlist.
set -euo pipefail
in=${1:?usage: mk/netlist-bug.sh NETLIST PORT OUT} port=${2:?} out=${3:?}
decl=$(grep -E "^\s*output (\[[0-9]+:[0-9]+\] )?$port;" "$in" || true)
[[ $(grep -c . <<<"$decl") == 1 && -n $decl ]] || { echo "netlist-bug: no single 'output $port;' in $in" >&2; exit 2; }
range=$(sed -nE 's/^\s*output (\[[0-9]+:[0-9]+\] )?.*/\1/p' <<<"$decl")
hasdecl=0; grep -qE "^\s*(wire|reg) (\[[0-9]+:[0-9]+\] )?$port;" "$in" && hasdecl=1
# rename every use but the port list and the declaration, then drive the port inverted
awk -v p="$port" -v r="$range" -v hasdecl=$hasdecl '
  BEGIN { re = "(^|[^A-Za-z0-9_$\\\\])" p "([^A-Za-z0-9_$]|$)" }
  # the port keeps its output declaration; its wire/reg declaration (or a new
  # wire, if the netlist has none) becomes PORT__nb
  $0 ~ "^[ \t]*output " && $0 ~ " " p ";" { print; if (!hasdecl) print "  wire " r p "__nb;"; next }
  /^module / { inhead = 1 }
  inhead { print; if ($0 ~ /\);/) inhead = 0; next }
  /^endmodule/ { print "  assign " p " = " p "__nb ^ 1'\''b1;"; print; next }
  { while (match($0, re)) {
      pre = substr($0, 1, RSTART - 1); m = substr($0, RSTART, RLENGTH); post = substr($0, RSTART + RLENGTH)
      sub(p, p "__nb", m); $0 = pre m post
    }
    print }' "$in" > "$out.tmp"
cmp -s "$in" "$out.tmp" && { echo "netlist-bug: $port unchanged" >&2; exit 2; }
mv "$out.tmp" "$out"
