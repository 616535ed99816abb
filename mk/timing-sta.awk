# make timing: static timing of a netlist mapped onto a liberty library.
#
#   awk -f mk/timing-sta.awk LIB.lib NETLIST.blif
#
# A deliberately small STA, so that the four kinds of path can be told apart
# (abc's `stime -p` gives only the worst one of a combinational network):
#   r2r  flip-flop clock -> flip-flop D (clock-to-Q + logic + setup)
#   i2r  module input    -> flip-flop D (logic + setup)
#   r2o  flip-flop clock -> module output (clock-to-Q + logic)
#   i2o  module input    -> module output (logic only)
# In a hierarchical netlist each module is timed on its own: an instance of
# another module is a boundary (its outputs act as inputs, its inputs as outputs).
#
# Delay model (the library's NLDM tables, nothing else): rising and falling
# edges are propagated separately through each arc according to its
# timing_sense (positive/negative/non unate); an arc's delay and output
# transition are looked up (bilinear, extrapolated at the edges) at the net's
# load (the input pin capacitances it drives, plus OUTLOAD pF on a module
# output) and the input's transition of that edge; a net keeps its worst
# transition per edge. Flip-flops: clock-to-Q (rising_edge arcs) and setup
# (setup_rising constraints) from the library. No wire load, no placement, an
# ideal clock (CLKSLEW ns transition, no skew); asynchronous set/reset pins
# are not timed. Module inputs arrive at 0 with INSLEW ns transition.
#
# Output: one line per module and path kind:
#   path MODULE KIND PS FROM TO      (PS = -1 when the module has no such path)
#   info MODULE cells N ffs N loops N
# -v NEAR=N also prints, per kind, the N worst endpoints grouped by register or
# port (bit index dropped), so one run shows every path group to close:
#   near MODULE KIND PS FROM TO
# -v TRACE=1 also prints the worst path of each kind net by net (trace lines).
# -v BUG=swap_kinds plants a bug (r2r and i2r swapped) for the self-test's negative;
# BUG=near_skips_worst leaves out each kind's worst group from the near lines.
# loops counts cells left unevaluated (a combinational cycle).

BEGIN {
  if (INSLEW == "") INSLEW = 0.1
  if (CLKSLEW == "") CLKSLEW = 0.1
  if (OUTLOAD == "") OUTLOAD = 0.01
  NEG = -1e18
  want["cell_rise"] = want["cell_fall"] = want["rise_transition"] = want["fall_transition"] = 1
  want["rise_constraint"] = want["fall_constraint"] = 1
}

# ---------------------------------------------------------------- liberty --
FNR == 1 { fileno++ }
fileno == 1 {
  line = $0
  if (line ~ /^[ \t]*cell[ \t]*\(/) {
    c = line; sub(/^[^(]*\(/, "", c); sub(/\).*/, "", c); gsub(/[" ]/, "", c)
    cell = c; iscell[cell] = 1; pin = ""; next
  }
  if (cell == "") next
  if (line ~ /^[ \t]*area[ \t]*:/) { a = line; sub(/.*:/, "", a); sub(/;.*/, "", a); area[cell] = a + 0; next }
  if (line ~ /^[ \t]*ff[ \t]*\(/) { seq[cell] = 1; next }
  if (line ~ /^[ \t]*latch[ \t]*\(/) { seq[cell] = 1; next }
  if (line ~ /^[ \t]*pin[ \t]*\(/) {
    p = line; sub(/^[^(]*\(/, "", p); sub(/\).*/, "", p); gsub(/[" ]/, "", p)
    pin = p; npins[cell]++; next
  }
  if (line ~ /^[ \t]*direction[ \t]*:/) { d = line; sub(/.*:[ \t]*/, "", d); sub(/;.*/, "", d); dir[cell, pin] = d; next }
  if (line ~ /^[ \t]*capacitance[ \t]*:/) { v = line; sub(/.*:/, "", v); sub(/;.*/, "", v); cap[cell, pin] = v + 0; next }
  if (line ~ /^[ \t]*timing[ \t]*\([ \t]*\)/) { rel = ""; ttype = "combinational"; tsense = "non_unate"; next }
  if (line ~ /^[ \t]*related_pin[ \t]*:/) { r = line; sub(/.*:/, "", r); gsub(/[" ;\t]/, "", r); rel = r; next }
  if (line ~ /^[ \t]*timing_type[ \t]*:/) { r = line; sub(/.*:/, "", r); gsub(/[ ;\t]/, "", r); ttype = r; next }
  if (line ~ /^[ \t]*timing_sense[ \t]*:/) { r = line; sub(/.*:/, "", r); gsub(/[ ;\t]/, "", r); tsense = r; next }
  if (line ~ /^[ \t]*index_[12][ \t]*\(/) {
    if (kind == "") next
    k = (line ~ /index_1/) ? 1 : 2
    s = line; sub(/^[^"]*"/, "", s); sub(/".*/, "", s); n = split(s, xs, /[ ,]+/)
    m = 0; for (i = 1; i <= n; i++) if (xs[i] != "") { m++; tix[k, m] = xs[i] + 0 }
    tn[k] = m; next
  }
  if (line ~ /^[ \t]*values[ \t]*\(/) { if (kind != "") { invals = 1; vals = "" } }
  if (invals) {
    # only what is inside quotes: the numbers (the word "values" holds an e)
    s = line; if (s ~ /values[ \t]*\(/) sub(/^[^"]*/, "", s)
    gsub(/[^0-9eE.+-]/, " ", s); vals = vals " " s
    if (line ~ /\)[ \t]*;/) { invals = 0; store_table() }
    next
  }
  if (line ~ /^[ \t]*[a-z_]+[ \t]*\(/) {
    g = line; sub(/^[ \t]*/, "", g); sub(/[ \t]*\(.*/, "", g)
    kind = (g in want) ? g : ""; tn[1] = tn[2] = 0
  }
  next
}

function store_table(   id, n, vv, i, j, k) {
  # A table belongs to (cell, pin, related pin, timing type, kind).
  id = cell SUBSEP pin SUBSEP rel SUBSEP ttype SUBSEP kind
  n = split(vals, vv, /[ ]+/)
  k = 0
  T[id, "n1"] = tn[1]; T[id, "n2"] = (tn[2] > 0) ? tn[2] : 1
  for (i = 1; i <= tn[1]; i++) T[id, "x", i] = tix[1, i]
  for (j = 1; j <= tn[2]; j++) T[id, "y", j] = tix[2, j]
  for (i = 1; i <= n; i++) if (vv[i] != "") { k++; flat[k] = vv[i] + 0 }
  for (i = 1; i <= T[id, "n1"]; i++)
    for (j = 1; j <= T[id, "n2"]; j++) T[id, "v", i, j] = flat[(i - 1) * T[id, "n2"] + j]
  T[id] = 1
  if (ttype == "combinational" || ttype == "") { arc[cell, pin, rel] = 1; sense[cell, pin, rel] = tsense }
  else if (ttype == "rising_edge" || ttype == "falling_edge") clkq[cell, pin] = rel SUBSEP ttype
  else if (ttype == "setup_rising" || ttype == "setup_falling") setupk[cell, pin] = rel SUBSEP ttype
}

# position of v on table axis: segment index (1..n-1) in SEG, fraction returned
function axis(id, ax, v, n,   i) {
  if (n < 2) { SEG = 1; return 0 }
  for (i = 1; i < n - 1; i++) if (v < T[id, ax, i + 1]) break
  SEG = i
  return (v - T[id, ax, i]) / (T[id, ax, i + 1] - T[id, ax, i])
}

function lookup(id, a, b,   n1, n2, f1, f2, i, j, v00, v10, v01, v11) {
  if (!(id in T)) return 0
  n1 = T[id, "n1"]; n2 = T[id, "n2"]
  f1 = axis(id, "x", a, n1); i = SEG
  if (n2 < 2) {
    if (n1 < 2) return T[id, "v", 1, 1]
    return T[id, "v", i, 1] + f1 * (T[id, "v", i + 1, 1] - T[id, "v", i, 1])
  }
  f2 = axis(id, "y", b, n2); j = SEG
  if (n1 < 2) return T[id, "v", 1, j] + f2 * (T[id, "v", 1, j + 1] - T[id, "v", 1, j])
  v00 = T[id, "v", i, j]; v10 = T[id, "v", i + 1, j]; v01 = T[id, "v", i, j + 1]; v11 = T[id, "v", i + 1, j + 1]
  return (1 - f1) * (1 - f2) * v00 + f1 * (1 - f2) * v10 + (1 - f1) * f2 * v01 + f1 * f2 * v11
}

function max2(a, b) { return a > b ? a : b }

# delay of arc c/rp -> c/op (timing type tt) for output edge e ("rise" or "fall");
# the output transition is left in DTR
function arcdelay(c, op, rp, tt, e, load, slew,   base) {
  base = c SUBSEP op SUBSEP rp SUBSEP tt SUBSEP
  DTR = lookup(base e "_transition", load, slew)
  return lookup(base "cell_" e, load, slew)
}

# ------------------------------------------------------------------- blif --
fileno == 2 {
  line = $0
  while (line ~ /\\$/ && (getline nxt) > 0) { sub(/\\$/, "", line); line = line " " nxt }
  n = split(line, f, /[ \t]+/)
  if (f[1] == ".model") { model = f[2]; models[++nmodels] = model; first[model] = ni + 1; last[model] = ni; next }
  if (f[1] == ".inputs") { for (i = 2; i <= n; i++) { minp[model, ++nin[model]] = f[i]; portdir[model, f[i]] = "input" }; next }
  if (f[1] == ".outputs") { for (i = 2; i <= n; i++) { mout[model, ++nout[model]] = f[i]; portdir[model, f[i]] = "output" }; next }
  if (f[1] == ".subckt") {
    ni++; itype[ni] = f[2]; s = ""
    for (i = 3; i <= n; i++) s = s " " f[i]
    ipins[ni] = substr(s, 2); last[model] = ni; next
  }
  if (f[1] == ".names") {
    # a wire (buffer) or a constant: zero delay; the last name is the output
    ni++; itype[ni] = ".names"; s = ""
    for (i = 2; i < n; i++) s = s " I" (i - 1) "=" f[i]
    s = s " O=" f[n]
    ipins[ni] = substr(s, 2); last[model] = ni; next
  }
  next
}

# ------------------------------------------------------------------ timing --
# Per net n, track t (1: from module inputs, 2: from flip-flops) and edge e
# ("rise", "fall"): arrival A[n, t, e] (ns, NEG when no such path), worst
# transition S[n, e], and the predecessor P[n, t, e] = "net" SUBSEP "edge".
END {
  E[1] = "rise"; E[2] = "fall"; OTHER["rise"] = "fall"; OTHER["fall"] = "rise"
  for (mi = 1; mi <= nmodels; mi++) time_model(models[mi])
}

function pdir(ty, p) {
  if (ty == ".names") return (p == "O") ? "output" : "input"
  if (ty in iscell) return dir[ty, p]
  return portdir[ty, p]
}

function source(net, ain, areg, srise, sfall) {
  A[net, 1, "rise"] = A[net, 1, "fall"] = ain
  A[net, 2, "rise"] = A[net, 2, "fall"] = areg
  S[net, "rise"] = srise; S[net, "fall"] = sfall
  src[net] = net; queue[++qt] = net
}

function time_model(m,   k, n, pp, i, eq, p, net, ty, q, key, cnt, ffs, loops, setup, ck, kk, cka, fk, kn, e, d) {
  split("", load); split("", fo); split("", pend); split("", drv); split("", A); split("", S); split("", P)
  split("", src); split("", outs); split("", ins); split("", queue)
  cnt = 0; ffs = 0; loops = 0; qh = 0; qt = 0
  # pass 1: pins, loads, fanouts, drivers
  for (k = first[m]; k <= last[m]; k++) {
    ty = itype[k]; cnt += (ty != ".names")
    if (seq[ty]) ffs++
    n = split(ipins[k], pp, " ")
    outs[k] = ""; ins[k] = ""
    for (i = 1; i <= n; i++) {
      eq = index(pp[i], "="); p = substr(pp[i], 1, eq - 1); net = substr(pp[i], eq + 1)
      if (pdir(ty, p) == "output") { outs[k] = outs[k] " " p "=" net; drv[net] = k; continue }
      ins[k] = ins[k] " " p "=" net
      if (ty in iscell) load[net] += cap[ty, p]
      else if (ty != ".names") load[net] += OUTLOAD
      if (ty == ".names" || ((ty in iscell) && !seq[ty])) { fo[net] = fo[net] " " k; pend[k]++ }
    }
  }
  for (i = 1; i <= nout[m]; i++) load[mout[m, i]] += OUTLOAD
  # sources: module inputs and submodule outputs (arrive at 0), flip-flop outputs
  for (i = 1; i <= nin[m]; i++) source(minp[m, i], 0, NEG, INSLEW, INSLEW)
  for (k = first[m]; k <= last[m]; k++) {
    ty = itype[k]
    if (ty == ".names" || ((ty in iscell) && !seq[ty])) continue
    n = split(outs[k], pp, " ")
    for (i = 1; i <= n; i++) {
      eq = index(pp[i], "="); p = substr(pp[i], 1, eq - 1); net = substr(pp[i], eq + 1)
      if (ty in iscell) {
        split(clkq[ty, p], cka, SUBSEP)
        source(net, NEG, NEG, INSLEW, INSLEW)
        for (kk = 1; kk <= 2; kk++) {
          e = E[kk]; A[net, 2, e] = arcdelay(ty, p, cka[1], cka[2], e, load[net], CLKSLEW); S[net, e] = DTR
        }
      } else source(net, 0, NEG, INSLEW, INSLEW)
    }
  }
  # nets nobody drives: no path starts there
  for (net in fo) if (!(net in drv) && !(net in src)) source(net, NEG, NEG, INSLEW, INSLEW)
  # cells without inputs (constants) first, then topological order (Kahn)
  for (k = first[m]; k <= last[m]; k++) {
    ty = itype[k]
    if ((ty == ".names" || ((ty in iscell) && !seq[ty])) && pend[k] == 0) evaluate(k)
  }
  while (qh < qt) {
    net = queue[++qh]
    n = split(fo[net], fk, " ")
    for (i = 1; i <= n; i++) {
      k = fk[i]
      if (--pend[k] > 0) continue
      evaluate(k)
    }
  }
  for (k = first[m]; k <= last[m]; k++) if (pend[k] > 0) loops++
  # endpoints
  split("", best); split("", bfrom); split("", bto); split("", gbest); split("", gfrom); split("", bnet)
  for (kk = 1; kk <= 4; kk++) best[kk] = -1
  for (i = 1; i <= nout[m]; i++) {
    net = mout[m, i]
    for (kk = 1; kk <= 2; kk++) endpoint(net, E[kk], 0, "out:" net, 0)
  }
  for (k = first[m]; k <= last[m]; k++) {
    ty = itype[k]
    if (ty == ".names" || ((ty in iscell) && !seq[ty])) continue
    n = split(ins[k], pp, " ")
    for (i = 1; i <= n; i++) {
      eq = index(pp[i], "="); p = substr(pp[i], 1, eq - 1); net = substr(pp[i], eq + 1)
      if (ty in iscell) {
        if (!((ty, p) in setupk)) continue
        split(setupk[ty, p], cka, SUBSEP)
        key = ty SUBSEP p SUBSEP cka[1] SUBSEP cka[2] SUBSEP
        q = outs[k]; sub(/^ [^=]*=/, "", q); sub(/ .*/, "", q)
        for (kk = 1; kk <= 2; kk++) {
          e = E[kk]; setup = lookup(key e "_constraint", CLKSLEW, S[net, e])
          endpoint(net, e, setup, "ff:" q, 1)
        }
      } else for (kk = 1; kk <= 2; kk++) endpoint(net, E[kk], 0, "sub:" ty "." p, 0)
    }
  }
  split("r2r i2r r2o i2o", kn, " ")
  for (kk = 1; kk <= 4; kk++)
    printf "path %s %s %.0f %s %s\n", m, kn[kk], best[kk] < 0 ? -1 : best[kk] * 1000, (kk in bfrom) ? bfrom[kk] : "-", (kk in bto) ? bto[kk] : "-"
  printf "info %s cells %d ffs %d loops %d\n", m, cnt, ffs, loops
  if (NEAR > 0) near_report(m, kn)
  if (TRACE != "") for (kk = 1; kk <= 4; kk++) if (kk in bnet) trace_path(m, kn[kk], bnet[kk])
}

# -v TRACE=1: the worst path of each kind, net by net from its end back to
# its start, with the arrival time at each (named nets show where time goes)
#   trace MODULE KIND PS NET EDGE
function trace_path(m, kind, key,   y, net, t, e, guard, x) {
  split(key, y, SUBSEP); net = y[1]; t = y[2]; e = y[3]; guard = 0
  while (guard++ < 100000) {
    printf "trace %s %s %.0f %s %s\n", m, kind, A[net, t, e] * 1000, net, e
    if (net in src) break
    x = P[net, t, e]
    if (x == "") break
    split(x, y, SUBSEP); net = y[1]; e = y[2]
  }
}

# the NEAR worst endpoint groups per kind (selection by repeated maximum:
# groups are few, hundreds at most)
function near_report(m, kn,   kk, g, j, top, topg, sp, done) {
  split("", done)
  for (kk = 1; kk <= 4; kk++)
    for (j = 1; j <= NEAR; j++) {
      top = -1; topg = ""
      for (g in gbest) {
        split(g, sp, SUBSEP)
        if (sp[1] != kk || (g in done)) continue
        if (gbest[g] > top) { top = gbest[g]; topg = g }
      }
      if (topg == "") break
      done[topg] = 1; split(topg, sp, SUBSEP)
      if (BUG == "near_skips_worst" && j == 1) continue  # planted bug (mk/timing-sta-test.sh)
      printf "near %s %s %.0f %s %s\n", m, kn[kk], top * 1000, gfrom[topg], sp[2]
    }
}

# the start point of the worst path into (net, edge) along track t
function origin(net, t, e,   guard, x, y) {
  guard = 0
  while (!(net in src) && guard++ < 1000000) {
    x = P[net, t, e]
    if (x == "") break
    split(x, y, SUBSEP); net = y[1]; e = y[2]
  }
  return net
}

function endpoint(net, e, extra, name, tofl,   a, kk, t, g) {
  if (!((net, 1, e) in A)) return
  for (t = 1; t <= 2; t++) {
    if (A[net, t, e] < NEG / 2) continue
    a = A[net, t, e] + extra
    kk = (t == 2) ? (tofl ? 1 : 3) : (tofl ? 2 : 4)
    if (BUG == "swap_kinds") kk = (kk == 1) ? 2 : (kk == 2) ? 1 : kk  # planted bug (mk/timing-sta-test.sh)
    if (a > best[kk]) { best[kk] = a; bfrom[kk] = origin(net, t, e); bto[kk] = name; bnet[kk] = net SUBSEP t SUBSEP e }
    if (NEAR > 0) {
      g = name; sub(/\[[0-9]+\]$/, "", g); g = kk SUBSEP g
      if (!(g in gbest) || a > gbest[g]) { gbest[g] = a; gfrom[g] = origin(net, t, e) }
    }
  }
}

function evaluate(k,   ty, n, no, pp, po, i, j, eq, p, net, o, onet, d, kk, e, ie, sn, t, a, x, tr, c1, c2) {
  ty = itype[k]
  n = split(ins[k], pp, " "); no = split(outs[k], po, " ")
  for (j = 1; j <= no; j++) {
    eq = index(po[j], "="); o = substr(po[j], 1, eq - 1); onet = substr(po[j], eq + 1)
    for (kk = 1; kk <= 2; kk++) {
      e = E[kk]
      A[onet, 1, e] = A[onet, 2, e] = NEG; P[onet, 1, e] = P[onet, 2, e] = ""; tr = 0
      for (i = 1; i <= n; i++) {
        eq = index(pp[i], "="); p = substr(pp[i], 1, eq - 1); net = substr(pp[i], eq + 1)
        if (ty == ".names") sn = "positive_unate"
        else if ((ty, o, p) in arc) sn = sense[ty, o, p]
        else continue
        # input edges that can cause this output edge
        c1 = (sn == "negative_unate") ? OTHER[e] : e
        c2 = (sn == "non_unate") ? OTHER[e] : ""
        for (x = 1; x <= 2; x++) {
          ie = (x == 1) ? c1 : c2
          if (ie == "") continue
          if (ty == ".names") { d = 0; DTR = S[net, ie] }
          else d = arcdelay(ty, o, p, "combinational", e, load[onet], S[net, ie])
          if (DTR > tr) tr = DTR
          for (t = 1; t <= 2; t++) {
            a = A[net, t, ie]
            if (a < NEG / 2) continue
            if (a + d > A[onet, t, e]) { A[onet, t, e] = a + d; P[onet, t, e] = net SUBSEP ie }
          }
        }
      }
      S[onet, e] = (tr > 0) ? tr : INSLEW
    }
    if (n == 0) src[onet] = onet
    queue[++qt] = onet
  }
}
