# Turns rtl/<block>/<block>.cosim files into make variables (build/mk/targets.mk).
# Per target T: BLOCK_T, TOP_T, VPARAMS_T (Verilator -G flags), YPARAMS_T (yosys chparam).
# "gate T" lines: T's yosys netlist is built and co-simulated (GATE_TARGETS).
# "gate T nightly": the same, but its netlist (a minute of yosys and one of
# C++) is left out of the sanitizer binaries make test runs (GATE_NIGHTLY_TARGETS).
# With -v fmt=sh: one line per target instead, "T BLOCK TOP GATE -GP=V ...", for scripts.
FNR == 1 { n = split(FILENAME, parts, "/"); block = parts[n - 1] }
{ sub(/#.*/, "") }
# "heavy T" lines: T's Verilated RTL is left out of the sanitizer binaries
# (make test's), whose runs of T are model-only (HEAVY_TARGETS, docs/cosim.md).
$1 == "heavy" { printf "HEAVY_TARGETS += %s\n", $2 > (fmt == "sh" ? "/dev/null" : "/dev/stdout"); next }
$1 == "gate" {
  if (NF > 3 || (NF == 3 && $3 != "nightly")) { printf "%s:%d: expected 'gate T' or 'gate T nightly'\n", FILENAME, FNR > "/dev/stderr"; exit 1 }
  gate[$2] = NF == 3 ? "gate-nightly" : "gate"
  printf "GATE_TARGETS += %s\n", $2 > (fmt == "sh" ? "/dev/null" : "/dev/stdout")
  if (NF == 3) printf "GATE_NIGHTLY_TARGETS += %s\n", $2 > (fmt == "sh" ? "/dev/null" : "/dev/stdout")
  next
}
$1 == "target" {
  t = $2
  if (t in seen) { printf "%s:%d: target '%s' defined twice\n", FILENAME, FNR, t > "/dev/stderr"; exit 1 }
  seen[t] = 1
  vp = ""; yp = ""
  for (i = 4; i <= NF; i++) {
    if ($i !~ /^[A-Za-z_][A-Za-z0-9_]*=[0-9]+$/) {
      printf "%s:%d: parameter '%s' must be Name=decimal\n", FILENAME, FNR, $i > "/dev/stderr"; exit 1
    }
    split($i, kv, "=")
    vp = vp " -G" kv[1] "=" kv[2]
    yp = yp " -set " kv[1] " " kv[2]
  }
  if (fmt == "sh") { line[t] = t " " block " " $3; params[t] = vp; order[++nt] = t; next }
  printf "TARGETS_%s += %s\nBLOCK_%s := %s\nTOP_%s := %s\n", block, t, t, block, t, $3
  printf "VPARAMS_%s :=%s\nYPARAMS_%s :=%s\n", t, vp, t, yp
  blocks[block] = 1
}
END {
  if (fmt == "sh") { for (k = 1; k <= nt; k++) print line[order[k]], (order[k] in gate) ? gate[order[k]] : "-", params[order[k]] }
  else for (b in blocks) printf "BLOCKS += %s\n", b
}
