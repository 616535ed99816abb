# The mutants of SystemVerilog (.sv) and C (.c) sources, for mk/mutate.sh.
#
#   awk -f mk/mutants.awk FILE...
#
# One line per mutant, tab-separated:  file  line  col  kind  old  new
# Applying it replaces `old`, which starts at column `col` of line `line`, by
# `new` (line numbers never change). Kinds and operators:
#   rel    < <=, > >=, == !=  (both ways; a `<=` outside parentheses in .sv is
#          a nonblocking assignment and is left alone)
#   arith  binary + -, ++ --, += -=
#   logic  && ||, binary & |, &= |=
#   const  an integer literal +1 and -1 (SV sized literals wrap at their width,
#          so 1'b0 <-> 1'b1), SV '0 <-> '1
#   neg    !x -> x; cond -> !(cond) for if/while conditions and ternary conditions
#   del    a one-line statement ending in `;` becomes empty (`{}` in C, `;` in SV)
#
# Lines that are not logic make no mutants: comments, blank lines, preprocessor
# lines, begin/end/braces, the module header (ports and parameter defaults; its
# localparams are mutated), function signatures, declarations without an
# initializer. In a declaration with an initializer only the initializer is
# mutated, and it is not deleted. Text inside string literals is never touched.
# mawk-compatible: no gawk extensions, no \b, no {n} intervals.

BEGIN { OFS = "\t" }

FNR == 1 {
  sv = FILENAME ~ /\.sv$/
  in_cmt = 0; in_hdr = 0; depth = 0; prev_end = "{"
}

{
  line = $0
  mask = blank_comments_and_strings(line)
  code = trim(mask)
  if (code == "") next
  start_depth = depth
  depth += count(mask, "{") - count(mask, "}")
  end_tok = last_token(code)
  if (code ~ /begin[ \t]*:[ \t]*[A-Za-z0-9_]+$/) end_tok = "begin"  # begin : gen_label

  lo = first_nonspace(mask); hi = length(rtrim(mask))
  skip = 0
  if (sv) {
    if (code ~ /^module[ \t]/) in_hdr = 1
    if (in_hdr) {
      if (code ~ /\);$/) in_hdr = 0
      if (code !~ /^localparam[ \t]/) skip = 1
    }
    if (code ~ /^(parameter|function|endfunction|module|endmodule)([^A-Za-z0-9_]|$)/) skip = 1
  } else {
    if (code ~ /^#/ || start_depth == 0) skip = 1 # preprocessor, file scope (signatures, tables)
  }
  decl = is_decl(code)
  if (!skip && decl) {
    eq = assign_col(mask)
    if (eq) lo = eq + 1
    else skip = 1
  }
  if (!skip) {
    scan(lo, hi)
    negate_conditions(lo, hi)
    if (!decl) delete_statement(lo, hi)
  }
  prev_end = end_tok
}

# --- the line, with comments and string contents blanked (columns kept) --------

function blank_comments_and_strings(s,    out, i, c, n, q) {
  out = ""; n = length(s); i = 1
  while (i <= n) {
    c = substr(s, i, 1)
    if (in_cmt) {
      if (substr(s, i, 2) == "*/") { out = out "  "; i += 2; in_cmt = 0 } else { out = out " "; i++ }
    } else if (substr(s, i, 2) == "/*") {
      out = out "  "; i += 2; in_cmt = 1
    } else if (substr(s, i, 2) == "//") {
      while (i <= n) { out = out " "; i++ }
    } else if (c == "\"" || (c == "'" && !sv)) {
      q = c; out = out c; i++
      while (i <= n && substr(s, i, 1) != q) {
        if (substr(s, i, 1) == "\\") { out = out "_"; i++ }
        out = out "_"; i++
      }
      if (i <= n) { out = out q; i++ }
    } else {
      out = out c; i++
    }
  }
  return out
}

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
function rtrim(s) { sub(/[ \t]+$/, "", s); return s }
function first_nonspace(s) { match(s, /[^ \t]/); return RSTART }
function count(s, ch,    n, i) { n = 0; for (i = 1; i <= length(s); i++) if (substr(s, i, 1) == ch) n++; return n }
function is_ident(c) { return c ~ /^[A-Za-z0-9_$]$/ }
function last_token(s) { if (match(s, /[A-Za-z_][A-Za-z0-9_]*$/)) return substr(s, RSTART); return substr(s, length(s)) }

# A declaration: SV variable/localparam, or a C local.
function is_decl(s) {
  if (sv) return s ~ /^(logic|bit|byte|int|integer|genvar|wire|reg|localparam|automatic)([^A-Za-z0-9_]|$)/
  if (s ~ /^(const|static|unsigned|signed|int|long|short|bool|char|size_t|u?int[0-9]+_t|double|float|struct|enum)([^A-Za-z0-9_]|$)/) return 1
  return s ~ /^[A-Za-z_][A-Za-z0-9_]*_t[ \t*]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(=|;|\[)/  # a typedef name_t: cp_regs_t st = *r;
}

# Column of the first plain `=` (not part of == != <= >=), or 0.
function assign_col(s,    i, c, p, nx) {
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1); p = substr(s, i - 1, 1); nx = substr(s, i + 1, 1)
    if (c == "=" && nx != "=" && p !~ /[=!<>+\-*\/&|^%]/) return i
  }
  return 0
}

function emit(col, kind, old, new) { print FILENAME, FNR, col, kind, old, new }

# --- operators and literals -----------------------------------------------------

function scan(lo, hi,    i, c, rest, op, par, operand, n, k) {
  par = 0; operand = 0; i = lo
  while (i <= hi) {
    c = substr(mask, i, 1); rest = substr(mask, i, hi - i + 1)
    if (c == " " || c == "\t") { i++; continue }
    if (c == "\"" || (c == "'" && !sv)) {             # blanked string or char literal
      match(rest, /^.[^"']*./); i += RLENGTH; operand = 1; continue
    }
    if (c ~ /[0-9]/ || (sv && c == "'")) {
      n = literal(i, rest)
      if (n > 0) { i += n; operand = 1; continue }
    }
    if (is_ident(c)) {                                # a name (or a float: 1.5)
      match(rest, c ~ /[0-9]/ ? "^[A-Za-z0-9_.]+" : "^[A-Za-z0-9_$]+")
      operand = substr(rest, 1, RLENGTH) !~ /^(return|case|else)$/; i += RLENGTH
      if (sv && substr(mask, i, 2) == "'(") i++       # CntW'(x): a cast
      continue
    }
    if (c == "(" || c == "[") { par++; i++; operand = 0; continue }
    if (c == ")" || c == "]") { par--; i++; operand = 1; continue }
    op = ""
    for (k = 3; k >= 1 && op == ""; k--) if (is_op(substr(rest, 1, k))) op = substr(rest, 1, k)
    if (op == "") { i++; operand = 0; continue }
    mutate_op(i, op, operand, par)
    i += length(op)
    operand = (op == "++" || op == "--") ? operand : 0
  }
}

function is_op(s) {
  return s ~ /^(<<<|>>>|<<=|>>=|===|!==|->|<<|>>|<=|>=|==|!=|&&|\|\||&=|\|=|\^=|\+=|-=|\*=|\/=|\+\+|--|\+:|-:|::|=>|[<>&|+\-!~^*\/%=?:])$/
}

function mutate_op(col, op, binary, par) {
  if (op == "<")  emit(col, "rel", op, "<=")
  if (op == "<=" && (par > 0 || !sv)) emit(col, "rel", op, "<")
  if (op == ">")  emit(col, "rel", op, ">=")
  if (op == ">=") emit(col, "rel", op, ">")
  if (op == "==") emit(col, "rel", op, "!=")
  if (op == "!=") emit(col, "rel", op, "==")
  if (op == "&&") emit(col, "logic", op, "||")
  if (op == "||") emit(col, "logic", op, "&&")
  if (op == "&" && binary) emit(col, "logic", op, "|")
  if (op == "|" && binary) emit(col, "logic", op, "&")
  if (op == "&=") emit(col, "logic", op, "|=")
  if (op == "|=") emit(col, "logic", op, "&=")
  if (op == "+" && binary) emit(col, "arith", op, "-")
  if (op == "-" && binary) emit(col, "arith", op, "+")
  if (op == "++") emit(col, "arith", op, "--")
  if (op == "--") emit(col, "arith", op, "++")
  if (op == "+=") emit(col, "arith", op, "-=")
  if (op == "-=") emit(col, "arith", op, "+=")
  if (op == "!")  emit(col, "neg", op, "")
}

# A literal at column col (rest = the text from there): emits its tweaks and
# returns its length, or 0 if it is not a literal (e.g. the 32 of a 32'(x) cast).
function literal(col, rest,    tok, w, base, digits, v, m, up, d, suffix) {
  if (sv) {
    if (match(rest, /^'[01]/)) {
      tok = substr(rest, 1, 2)
      emit(col, "const", tok, tok == "'0" ? "'1" : "'0")
      return 2
    }
    if (match(rest, /^[0-9]+'[sS]?[bBhHdD][0-9a-fA-F_]+/)) {
      tok = substr(rest, 1, RLENGTH)
      w = tok; sub(/'.*/, "", w); w += 0
      base = tok; sub(/^[0-9]+'[sS]?/, "", base); base = substr(base, 1, 1)
      digits = tok; sub(/^[0-9]+'[sS]?[bBhHdD]/, "", digits); gsub(/_/, "", digits)
      m = 2 ^ w
      v = parse_num(digits, tolower(base) == "b" ? 2 : tolower(base) == "h" ? 16 : 10)
      up = digits ~ /[A-F]/
      match(tok, /^[0-9]+'[sS]?[bBhHdD]/); d = substr(tok, 1, RLENGTH)
      emit_sized(col, tok, d, (v + 1) % m, base, length(digits), up)
      if ((v + m - 1) % m != (v + 1) % m) emit_sized(col, tok, d, (v + m - 1) % m, base, length(digits), up)
      return length(tok)
    }
    if (match(rest, /^[0-9]+'/)) return 0
    if (match(rest, /^[0-9]+/) && substr(rest, RLENGTH + 1, 1) !~ /[.A-Za-z_]/) {
      tok = substr(rest, 1, RLENGTH)
      emit(col, "const", tok, tok + 1)
      if (tok + 0 > 0) emit(col, "const", tok, tok - 1)
      return length(tok)
    }
    return 0
  }
  if (match(rest, /^0[xX][0-9a-fA-F]+[uUlL]*/)) {
    tok = substr(rest, 1, RLENGTH)
    if (substr(rest, RLENGTH + 1, 1) ~ /[.A-Za-z0-9_]/) return 0
    digits = substr(tok, 3); sub(/[uUlL]+$/, "", digits)
    suffix = substr(tok, 3 + length(digits))
    v = parse_num(digits, 16); up = digits ~ /[A-F]/
    emit(col, "const", tok, substr(tok, 1, 2) radix(v + 1, 16, length(digits), up) suffix)
    if (v > 0) emit(col, "const", tok, substr(tok, 1, 2) radix(v - 1, 16, length(digits), up) suffix)
    return length(tok)
  }
  if (match(rest, /^[0-9]+[uUlL]*/)) {
    tok = substr(rest, 1, RLENGTH)
    if (substr(rest, RLENGTH + 1, 1) ~ /[.eExX0-9A-Za-z_]/) return 0
    digits = tok; sub(/[uUlL]+$/, "", digits); suffix = substr(tok, length(digits) + 1)
    emit(col, "const", tok, (digits + 1) suffix)
    if (digits + 0 > 0) emit(col, "const", tok, (digits - 1) suffix)
    return length(tok)
  }
  return 0
}

function emit_sized(col, tok, prefix, v, base, nd, up,    s, b) {
  b = tolower(base)
  if (b == "b") s = radix(v, 2, nd, 0)
  else if (b == "h") s = radix(v, 16, nd, up)
  else s = sprintf("%d", v)
  emit(col, "const", tok, prefix s)
}

function parse_num(s, b,    v, i, d) {
  v = 0; s = tolower(s)
  for (i = 1; i <= length(s); i++) { d = index("0123456789abcdef", substr(s, i, 1)) - 1; v = v * b + d }
  return v
}
# v in base b, at least nd digits; exact below 2^53.
function radix(v, b, nd, up,    s, d, digs) {
  digs = up ? "0123456789ABCDEF" : "0123456789abcdef"
  s = ""
  do { d = v % b; s = substr(digs, d + 1, 1) s; v = (v - d) / b } while (v > 0)
  while (length(s) < nd) s = "0" s
  return s
}

# --- negation insertion -----------------------------------------------------------

# if (cond) / while (cond) -> if (!(cond)); `x ? a : b` -> `!x ? a : b` when x is
# the whole condition (a name, a member, an index or a parenthesised expression).
function negate_conditions(lo, hi,    i, j, k, s, cond, p) {
  s = mask
  for (i = lo; i <= hi; i++) {
    if (is_ident(substr(s, i - 1, 1))) continue
    if (substr(s, i, 2) == "if" || substr(s, i, 5) == "while") {
      j = i + (substr(s, i, 2) == "if" ? 2 : 5)
      if (is_ident(substr(s, j, 1))) continue
      while (substr(s, j, 1) == " ") j++
      if (substr(s, j, 1) != "(") continue
      p = match_paren(s, j)
      if (!p) continue
      cond = substr(line, j + 1, p - j - 1)
      if (cond !~ /^!/) emit(j + 1, "neg", cond, "!(" cond ")")
    }
  }
  for (i = lo; i <= hi; i++) {
    if (substr(s, i, 1) != "?") continue
    j = i - 1
    while (j >= lo && substr(s, j, 1) == " ") j--
    p = j
    if (substr(s, j, 1) == ")") {
      j = match_paren_back(s, j)
      if (!j) continue
      if (sv && substr(s, j - 1, 1) == "'") continue    # a cast, not a condition
    } else {
      while (j >= lo && (is_ident(substr(s, j, 1)) || substr(s, j, 1) == "." || substr(s, j - 1, 2) == "->" ||
                         substr(s, j, 2) == "->" || substr(s, j, 1) ~ /[\[\]]/)) j--
      j++
    }
    if (j > p || substr(s, j, 1) ~ /[0-9']/) continue
    # the operand must be the whole condition: preceded by = ( , ? : or `return`
    k = j - 1
    while (k >= lo && substr(s, k, 1) == " ") k--
    if (k >= lo && substr(s, k, 1) !~ /[=(,?:]/ && substr(s, k - 5, 6) != "return") continue
    if (k >= lo && substr(s, k, 1) == "=" && substr(s, k - 1, 1) ~ /[=!<>]/) continue
    cond = substr(line, j, p - j + 1)
    if (cond ~ /^!/) continue
    emit(j, "neg", cond, "!" cond)
  }
}

function match_paren(s, j,    d, i, c) {
  d = 0
  for (i = j; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c == "(") d++
    if (c == ")" && --d == 0) return i
  }
  return 0
}
function match_paren_back(s, j,    d, i, c) {
  d = 0
  for (i = j; i >= 1; i--) {
    c = substr(s, i, 1)
    if (c == ")") d++
    if (c == "(" && --d == 0) return i
  }
  return 0
}

# --- statement deletion -------------------------------------------------------------

# A statement that starts and ends on this line: the previous code line ended
# one (; { } ) begin end else :), this one ends in `;`. An `if (...)`, `else`
# or `case X:` in front stays, only the statement after it goes.
function delete_statement(lo, hi,    s, i, p, stmt) {
  if (substr(mask, hi, 1) != ";") return
  if (prev_end !~ /^([;{})]|begin|end|else|:)$/) return
  i = lo
  while (1) {
    s = substr(mask, i, hi - i + 1)
    if (match(s, /^(\}[ \t]*)?else[ \t]+/) || match(s, /^end[ \t]+else[ \t]+/)) { i += RLENGTH; continue }
    if (match(s, /^(if|while|for)[ \t]*\(/)) {
      p = match_paren(mask, i + RLENGTH - 1)
      if (!p) return
      i = p + 1
      while (substr(mask, i, 1) == " ") i++
      continue
    }
    if (match(s, /^(case[ \t][^:]+|default[ \t]*):[ \t]*/)) { i += RLENGTH; continue }
    break
  }
  stmt = substr(line, i, hi - i + 1)
  if (stmt !~ /[A-Za-z0-9_]/ || is_decl(stmt)) return
  if (stmt ~ /^\(void\)/ || stmt ~ /^return[ \t]+[^;]/) return  # compile errors, not mutants
  emit(i, "del", stmt, sv ? ";" : "{}")
}
