# Planted-bug simulators as make variables (build/mk/bugs.mk), from
#   rtl/<block>/<block>.bugs   name@@target@@file@@assertion@@old@@new  (mk/rtl-bug.sh)
#   mk/netlist-bugs            target port                            (mk/netlist-bug.sh)
# RTLBUGS / RTLBUG_TARGET_<name>; NETBUGS (gate targets) / NETBUG_PORT_<target>.
{ sub(/^[ \t]*#.*/, "") }
NF == 0 { next }
FILENAME ~ /\.bugs$/ {
  n = split($0, f, "@@")
  if (n != 6) { printf "%s:%d: expected 6 fields split at @@, got %d\n", FILENAME, FNR, n > "/dev/stderr"; exit 1 }
  if (f[1] in seen) { printf "%s:%d: bug '%s' defined twice\n", FILENAME, FNR, f[1] > "/dev/stderr"; exit 1 }
  seen[f[1]] = 1
  printf "RTLBUGS += %s\nRTLBUG_TARGET_%s := %s\n", f[1], f[1], f[2]
  next
}
{
  if (NF != 2) { printf "%s:%d: expected 'target port'\n", FILENAME, FNR > "/dev/stderr"; exit 1 }
  printf "NETBUGS += %s\nNETBUG_PORT_%s := %s\n", $1, $1, $2
}
