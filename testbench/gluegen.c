/* gluegen: generate the RTL<->C glue of one co-simulation target.
 *
 *   gluegen --xml T.xml --cosim rtl/B/B.cosim --target T --out DIR
 *
 * Reads the top module's ports and parameters from Verilator's --xml-only
 * output (the RTL is the one source of truth) and the per-port annotations of
 * the block's .cosim file, and writes into DIR:
 *   T_ports.h    T_in_t / T_out_t, an X-macro port list, parameter values,
 *                per-lane accessors (`lanes` lines), the view TOP_view_t and
 *                the T_BIND_TARGET(B) boilerplate for the model binding
 *   T_glue.c     port tables and the cosim_glue_t descriptor
 *   T_rtl.cpp    a C ABI around the Verilated class VT
 *   T_netlist.cpp  the same around VT_netlist (the yosys netlist, `make synth`)
 * Nobody edits these files; change the RTL or the .cosim file instead.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/xpath.h>
#include "clock.h"

#define MAX_PORTS  512
#define MAX_PARAMS 64

typedef struct {
  char name[128];
  unsigned width;
  int is_input;
  int cond; /* outputs: index into outputs of the gating port, -1 */
  int cond_value;
  unsigned lanes; /* from a `lanes` line; 0 = none (one lane if <= 64 bits) */
} port_t;

typedef struct {
  char name[128];
  unsigned long long value;
} param_t;

static port_t in_ports[MAX_PORTS], out_ports[MAX_PORTS];
static unsigned n_in, n_out;
static param_t params[MAX_PARAMS];
static unsigned n_params;
static char top[128], block[128];
static int have_clk, have_rst;

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fputs("gluegen: error: ", stderr);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
  exit(1);
}

static char *attr(xmlNodePtr n, const char *name) { return (char *)xmlGetProp(n, (const xmlChar *)name); }

/* Width of a dtype id: basicdtype with left/right, or 1 bit without. */
static unsigned dtype_width(xmlXPathContextPtr xp, const char *id, const char *port) {
  char q[256];
  snprintf(q, sizeof q, "//typetable/*[@id='%s']", id);
  xmlXPathObjectPtr r = xmlXPathEvalExpression((const xmlChar *)q, xp);
  if (!r || !r->nodesetval || r->nodesetval->nodeNr != 1)
    die("port '%s': dtype %s not found in the XML", port, id);
  xmlNodePtr n = r->nodesetval->nodeTab[0];
  if (strcmp((const char *)n->name, "basicdtype") != 0)
    die("port '%s' has type <%s>: top-level ports of co-simulated blocks must be flat "
        "logic vectors (see docs/conventions.md)",
        port, (const char *)n->name);
  char *l = attr(n, "left"), *rr = attr(n, "right");
  unsigned w = 1;
  if (l && rr) {
    long a = strtol(l, NULL, 10), b = strtol(rr, NULL, 10);
    w = (unsigned)((a > b ? a - b : b - a) + 1);
  }
  xmlFree(l);
  xmlFree(rr);
  xmlXPathFreeObject(r);
  return w;
}

/* Verilator prints constants as e.g. 32'h3 or 32'sh1f. */
static unsigned long long parse_const(const char *s) {
  const char *t = strchr(s, '\'');
  if (!t) return strtoull(s, NULL, 10);
  t++;
  if (*t == 's') t++;
  int base = *t == 'h' ? 16 : *t == 'b' ? 2 : *t == 'o' ? 8 : 10;
  return strtoull(t + 1, NULL, base);
}

static void read_xml(const char *path) {
  xmlDocPtr doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
  if (!doc) die("cannot parse %s", path);
  xmlXPathContextPtr xp = xmlXPathNewContext(doc);
  xmlXPathObjectPtr mods = xmlXPathEvalExpression((const xmlChar *)"//netlist/module[@topModule='1']", xp);
  if (!mods || !mods->nodesetval || mods->nodesetval->nodeNr != 1) die("%s: no unique top module", path);
  xmlNodePtr m = mods->nodesetval->nodeTab[0];
  char *mn = attr(m, "name");
  snprintf(top, sizeof top, "%s", mn);
  xmlFree(mn);
  for (xmlNodePtr v = m->children; v; v = v->next) {
    if (v->type != XML_ELEMENT_NODE || strcmp((const char *)v->name, "var") != 0) continue;
    char *name = attr(v, "name"), *dir = attr(v, "dir"), *dt = attr(v, "dtype_id");
    char *isparam = attr(v, "param");
    if (isparam && strcmp(isparam, "true") == 0) {
      for (xmlNodePtr c = v->children; c; c = c->next) {
        if (c->type == XML_ELEMENT_NODE && strcmp((const char *)c->name, "const") == 0) {
          char *cv = attr(c, "name");
          if (n_params == MAX_PARAMS) die("too many parameters");
          snprintf(params[n_params].name, sizeof params[0].name, "%s", name);
          params[n_params++].value = parse_const(cv);
          xmlFree(cv);
        }
      }
    } else if (dir) {
      if (strcmp(dir, "inout") == 0) die("port '%s' is inout: not supported", name);
      int is_in = strcmp(dir, "input") == 0;
      unsigned w = dtype_width(xp, dt, name);
      if (strcmp(name, "clk_i") == 0 || strcmp(name, "rst_ni") == 0) {
        if (!is_in || w != 1) die("'%s' must be a 1-bit input", name);
        if (name[0] == 'c')
          have_clk = 1;
        else
          have_rst = 1;
      } else {
        if (n_in == MAX_PORTS || n_out == MAX_PORTS) die("more than %d ports", MAX_PORTS);
        port_t *p = is_in ? &in_ports[n_in++] : &out_ports[n_out++];
        snprintf(p->name, sizeof p->name, "%s", name);
        p->width = w;
        p->is_input = is_in;
        p->cond = -1;
      }
    }
    xmlFree(name);
    xmlFree(dir);
    xmlFree(dt);
    xmlFree(isparam);
  }
  if (!have_clk) die("top module '%s' has no clk_i input (see docs/conventions.md)", top);
  if (!have_rst) die("top module '%s' has no rst_ni input (see docs/conventions.md)", top);
  if (n_out == 0) die("top module '%s' has no outputs: nothing to compare", top);
  xmlXPathFreeObject(mods);
  xmlXPathFreeContext(xp);
  xmlFreeDoc(doc);
}

static int find_in(const char *name) {
  for (unsigned i = 0; i < n_in; i++)
    if (strcmp(in_ports[i].name, name) == 0) return (int)i;
  return -1;
}

/* A lane count: a product of parameter names and decimals, e.g. NumPorts*NumVcs. */
static unsigned long long lane_count(const char *path, int lineno, char *expr) {
  unsigned long long n = 1;
  for (char *f = strtok(expr, "*"); f; f = strtok(NULL, "*")) {
    if (isdigit((unsigned char)*f)) {
      char *end;
      unsigned long long v = strtoull(f, &end, 10);
      if (*end) die("%s:%d: lane count factor '%s' is neither a decimal nor a parameter", path, lineno, f);
      n *= v;
      continue;
    }
    unsigned i = 0;
    while (i < n_params && strcmp(params[i].name, f) != 0) i++;
    if (i == n_params) die("%s:%d: '%s' is not a parameter of %s", path, lineno, f, top);
    n *= params[i].value;
  }
  return n;
}

static int find_out(const char *name) {
  for (unsigned i = 0; i < n_out; i++)
    if (strcmp(out_ports[i].name, name) == 0) return (int)i;
  return -1;
}

/* The .cosim file: "target NAME TOP [P=V ...]", "compare TOP.PORT when [!]PORT"
 * and "gate NAME [nightly]" lines; '#' starts a comment. */
static void read_cosim(const char *path, const char *target) {
  FILE *f = fopen(path, "r");
  if (!f) die("cannot open %s: %s", path, strerror(errno));
  char line[1024];
  int lineno = 0, found = 0;
  while (fgets(line, sizeof line, f)) {
    lineno++;
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    char *tok[16];
    int nt = 0;
    for (char *t = strtok(line, " \t\r\n"); t && nt < 16; t = strtok(NULL, " \t\r\n")) tok[nt++] = t;
    if (nt == 0) continue;
    if (strcmp(tok[0], "target") == 0) {
      if (nt < 3) die("%s:%d: expected 'target NAME TOP [Param=Value ...]'", path, lineno);
      if (strcmp(tok[1], target) == 0) {
        found = 1;
        if (strcmp(tok[2], top) != 0)
          die("%s:%d: target '%s' names top '%s' but the XML's top is '%s'", path, lineno, target, tok[2],
              top);
      }
    } else if (strcmp(tok[0], "compare") == 0) {
      char *dot = nt == 4 ? strchr(tok[1], '.') : NULL;
      if (!dot || strcmp(tok[2], "when") != 0)
        die("%s:%d: expected 'compare TOP.PORT when [!]PORT'", path, lineno);
      *dot = 0;
      if (strcmp(tok[1], top) != 0) continue; /* another module's annotation */
      int p = find_out(dot + 1);
      if (p < 0) die("%s:%d: '%s' is not an output of %s", path, lineno, dot + 1, top);
      const char *c = tok[3];
      int val = 1;
      if (*c == '!') {
        val = 0;
        c++;
      }
      int ci = find_out(c);
      if (ci < 0) die("%s:%d: condition '%s' is not an output of %s", path, lineno, c, top);
      if (out_ports[ci].width != 1) die("%s:%d: condition '%s' must be 1 bit wide", path, lineno, c);
      if (ci == p) die("%s:%d: '%s' cannot gate itself", path, lineno, c);
      out_ports[p].cond = ci;
      out_ports[p].cond_value = val;
    } else if (strcmp(tok[0], "lanes") == 0) {
      char *dot = nt == 3 ? strchr(tok[1], '.') : NULL;
      if (!dot) die("%s:%d: expected 'lanes TOP.PORT COUNT' (COUNT: Param[*Param...])", path, lineno);
      *dot = 0;
      if (strcmp(tok[1], top) != 0) continue;
      int pi = find_in(dot + 1), po = find_out(dot + 1);
      if (pi < 0 && po < 0) die("%s:%d: '%s' is not a port of %s", path, lineno, dot + 1, top);
      port_t *p = pi >= 0 ? &in_ports[pi] : &out_ports[po];
      if (p->lanes) die("%s:%d: lanes of '%s' declared twice", path, lineno, p->name);
      unsigned long long n = lane_count(path, lineno, tok[2]);
      if (n == 0 || p->width % n != 0)
        die("%s:%d: '%s' is %u bits wide, not %llu equal lanes", path, lineno, p->name, p->width, n);
      if (p->width / n > 64)
        die("%s:%d: lanes of '%s' are %llu bits; at most 64", path, lineno, p->name, p->width / n);
      p->lanes = (unsigned)n;
    } else if (strcmp(tok[0], "gate") == 0 || strcmp(tok[0], "heavy") == 0 ||
               strcmp(tok[0], "lint-test") == 0) {
      /* read by the Makefile (gate, heavy) and mk/lint.sh (lint-test) */
      bool gate_nightly = strcmp(tok[0], "gate") == 0 && nt == 3 && strcmp(tok[2], "nightly") == 0;
      if (nt != 2 && !gate_nightly)
        die("%s:%d: expected '%s TARGET'%s", path, lineno, tok[0],
            strcmp(tok[0], "gate") == 0 ? " or 'gate TARGET nightly'" : "");
    } else {
      die("%s:%d: unknown directive '%s' (expected target, compare, lanes, gate, heavy or lint-test)", path,
          lineno, tok[0]);
    }
  }
  fclose(f);
  if (!found) die("%s: no 'target %s' line", path, target);
  /* block = the folder name of the .cosim file */
  const char *end = strrchr(path, '/');
  const char *beg = end;
  while (beg && beg > path && beg[-1] != '/') beg--;
  if (!end) die("%s: expected rtl/<block>/<block>.cosim", path);
  snprintf(block, sizeof block, "%.*s", (int)(end - beg), beg);
}

static const char *ctype(unsigned w) {
  return w <= 8 ? "uint8_t" : w <= 16 ? "uint16_t" : w <= 32 ? "uint32_t" : w <= 64 ? "uint64_t" : "uint32_t";
}
static unsigned words(unsigned w) { return (w + 31) / 32; }

static FILE *open_out(const char *dir, const char *t, const char *suffix) {
  char p[1024];
  snprintf(p, sizeof p, "%s/%s%s", dir, t, suffix);
  FILE *f = fopen(p, "w");
  if (!f) die("cannot write %s: %s", p, strerror(errno));
  return f;
}

static void upper(char *dst, const char *src, size_t n) {
  size_t i = 0;
  for (; src[i] && i + 1 < n; i++) dst[i] = (char)toupper((unsigned char)src[i]);
  dst[i] = 0;
}

static void emit_struct(FILE *f, const char *t, const char *kind, port_t *ps, unsigned n) {
  fprintf(f, "typedef struct %s_%s {\n", t, kind);
  for (unsigned i = 0; i < n; i++) {
    if (ps[i].width > 64)
      fprintf(f, "  uint32_t %s[%u]; /* %u bits, word 0 = bits 31:0 */\n", ps[i].name, words(ps[i].width),
              ps[i].width);
    else
      fprintf(f, "  %s %s; /* %u bit%s */\n", ctype(ps[i].width), ps[i].name, ps[i].width,
              ps[i].width == 1 ? "" : "s");
  }
  fprintf(f, "} %s_%s_t;\n\n", t, kind);
}

static unsigned lane_n(const port_t *p) { return p->lanes ? p->lanes : p->width <= 64 ? 1 : 0; }
static unsigned lane_w(const port_t *p) { return lane_n(p) ? p->width / lane_n(p) : 0; }

static void emit_lane_fields(FILE *f, const port_t *ps, unsigned n) {
  for (unsigned i = 0; i < n; i++) fprintf(f, "cosim_lane_t %s; ", ps[i].name);
}

/* Per-lane accessors of one target, the view (its parameters and lane
 * descriptors, one type per top module, so code written against it serves
 * every target of the module) and the binding's target boilerplate. */
static void emit_lanes(FILE *f, const char *t, const char *T) {
  for (int dir = 0; dir < 2; dir++) {
    port_t *ps = dir ? out_ports : in_ports;
    unsigned n = dir ? n_out : n_in;
    const char *kind = dir ? "out" : "in";
    for (unsigned i = 0; i < n; i++) {
      const port_t *p = &ps[i];
      if (!p->lanes) continue;
      char P[160];
      upper(P, p->name, sizeof P);
      const char *vt = lane_w(p) > 32 ? "uint64_t" : "uint32_t";
      fprintf(f, "#define %s_%s_LANES %uu\n#define %s_%s_LANE_W %uu\n", T, P, p->lanes, T, P, lane_w(p));
      fprintf(f,
              "static inline %s %s_%s_get(const %s_%s_t *s, unsigned lane) {\n"
              "  return (%s)cosim_bits_get(&s->%s, sizeof s->%s, lane * %uu, %uu);\n}\n",
              vt, t, p->name, t, kind, vt, p->name, p->name, lane_w(p), lane_w(p));
      fprintf(f,
              "static inline void %s_%s_set(%s_%s_t *s, unsigned lane, %s v) {\n"
              "  cosim_bits_set(&s->%s, sizeof s->%s, lane * %uu, %uu, v);\n}\n",
              t, p->name, t, kind, vt, p->name, p->name, lane_w(p), lane_w(p));
    }
  }
  char V[160];
  upper(V, top, sizeof V);
  fprintf(f, "\n/* The view of a %s target: parameters as elaborated and every port's lanes. */\n", top);
  fprintf(f, "#ifndef %s_VIEW_T_DEFINED\n#define %s_VIEW_T_DEFINED\n", V, V);
  fprintf(f, "typedef struct %s_view {\n  const cosim_glue_t *glue;\n  struct { ", top);
  for (unsigned i = 0; i < n_params; i++) fprintf(f, "unsigned long long %s; ", params[i].name);
  if (n_params == 0) fprintf(f, "int none_; ");
  fprintf(f, "} param;\n  struct { ");
  emit_lane_fields(f, in_ports, n_in);
  if (n_in == 0) fprintf(f, "int none_; ");
  fprintf(f, "} in;\n  struct { ");
  emit_lane_fields(f, out_ports, n_out);
  fprintf(f, "} out;\n} %s_view_t;\n#endif\n", top);
  fprintf(f, "extern const %s_view_t %s_view;\n\n", top, t);
  fprintf(f,
          "/* The model binding's target: B_create(const %s_view_t *, unsigned bug), B_reset,\n"
          " * B_eval, B_commit, B_destroy, B_bug_names, B_scramble (see cosim_model_ops_t). */\n",
          top);
  fprintf(f,
          "#define %s_BIND_TARGET(B) \\\n"
          "  static void *%s_##B##_create(unsigned bug) { return B##_create(&%s_view, bug); } \\\n"
          "  const cosim_target_t %s_target = {&%s_glue, {%s_##B##_create, B##_reset, B##_eval, \\\n"
          "    B##_commit, B##_destroy, B##_bug_names, B##_scramble}};\n\n",
          T, t, t, t, t, t);
}

static void emit_lane_inits(FILE *f, const char *t, const char *kind, const port_t *ps, unsigned n) {
  fprintf(f, "  {");
  for (unsigned i = 0; i < n; i++)
    fprintf(f, "%s{offsetof(%s_%s_t, %s), sizeof(((%s_%s_t *)0)->%s), %u, %u}", i ? ",\n   " : "", t, kind,
            ps[i].name, t, kind, ps[i].name, lane_w(&ps[i]), lane_n(&ps[i]));
  if (n == 0) fprintf(f, "0");
  fprintf(f, "}");
}

static void emit_header(const char *dir, const char *t) {
  char T[160];
  upper(T, t, sizeof T);
  FILE *f = open_out(dir, t, "_ports.h");
  fprintf(f, "/* GENERATED by gluegen from rtl/%s (module %s). Do not edit. */\n", block, top);
  fprintf(f,
          "#ifndef %s_PORTS_H\n#define %s_PORTS_H\n\n#include <stdint.h>\n#include \"cosim.h\"\n#include "
          "\"cosim_lanes.h\"\n\n",
          T, T);
  fprintf(f, "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n");
  fprintf(f, "/* Parameters as elaborated by Verilator. */\n");
  for (unsigned i = 0; i < n_params; i++)
    fprintf(f, "#define %s_PARAM_%s %lluULL\n", T, params[i].name, params[i].value);
  fprintf(f, "\n");
  emit_struct(f, t, "in", in_ports, n_in);
  emit_struct(f, t, "out", out_ports, n_out);
  fprintf(f, "/* X-macro port lists: X(name, width_bits) */\n#define %s_INPUTS(X)", T);
  for (unsigned i = 0; i < n_in; i++) fprintf(f, " \\\n  X(%s, %u)", in_ports[i].name, in_ports[i].width);
  fprintf(f, "\n#define %s_OUTPUTS(X)", T);
  for (unsigned i = 0; i < n_out; i++) fprintf(f, " \\\n  X(%s, %u)", out_ports[i].name, out_ports[i].width);
  fprintf(f, "\n\nextern const cosim_glue_t %s_glue;\n\n", t);
  emit_lanes(f, t, T);
  fprintf(f, "void *%s_rtl_new(const char *trace_path, uint64_t seed);\n", t);
  fprintf(f, "void %s_rtl_trace_open(void *h, const char *trace_path);\n", t);
  fprintf(f, "void %s_rtl_reset(void *h);\n", t);
  fprintf(f, "void %s_rtl_step(void *h, const %s_in_t *in, %s_out_t *out);\n", t, t, t);
  fprintf(f, "void %s_rtl_free(void *h);\n\n", t);
  fprintf(f, "#ifdef __cplusplus\n}\n#endif\n#endif\n");
  fclose(f);
}

static void emit_ports_table(FILE *f, const char *t, const char *kind, port_t *ps, unsigned n) {
  fprintf(f, "static const cosim_port_t %s_ports[] = {\n", kind);
  for (unsigned i = 0; i < n; i++)
    fprintf(f, "  {\"%s\", %u, sizeof(((%s_%s_t *)0)->%s), offsetof(%s_%s_t, %s), %d, %d},\n", ps[i].name,
            ps[i].width, t, kind, ps[i].name, t, kind, ps[i].name, ps[i].cond, ps[i].cond_value);
  if (n == 0) fprintf(f, "  {0}\n");
  fprintf(f, "};\n\n");
}

static void emit_rtl_ops(FILE *f, const char *t, const char *flavour) {
  fprintf(f, "void *%s_%s_new(const char *trace_path, uint64_t seed);\n", t, flavour);
  fprintf(f, "void %s_%s_trace_open(void *h, const char *trace_path);\n", t, flavour);
  fprintf(f, "void %s_%s_reset(void *h);\n", t, flavour);
  fprintf(f, "void %s_%s_step(void *h, const %s_in_t *in, %s_out_t *out);\n", t, flavour, t, t);
  fprintf(f, "void %s_%s_free(void *h);\n", t, flavour);
  fprintf(f, "const char *%s_%s_assert_failed(void *h);\n", t, flavour);
  fprintf(f, "static void %s_step_v(void *h, const void *in, void *out) { %s_%s_step(h, in, out); }\n",
          flavour, t, flavour);
  fprintf(f,
          "static const cosim_rtl_ops_t %s_ops = {%s_%s_new, %s_%s_trace_open, %s_%s_reset, "
          "%s_step_v, %s_%s_free, %s_%s_assert_failed};\n\n",
          flavour, t, flavour, t, flavour, t, flavour, flavour, t, flavour, t, flavour);
}

/* The netlist flavour exists only in binaries built after `make synth`;
 * those compile this file with -DNETCOSIM_NETLIST. A binary without a
 * target's Verilated RTL (a `heavy` target in the sanitizer build, docs/cosim.md)
 * compiles it with -DNETCOSIM_NO_RTL: its RTL ops are all NULL. */
static void emit_glue_c(const char *dir, const char *t) {
  FILE *f = open_out(dir, t, "_glue.c");
  fprintf(f, "/* GENERATED by gluegen from rtl/%s (module %s). Do not edit. */\n", block, top);
  fprintf(f, "#include <stddef.h>\n#include \"%s_ports.h\"\n\n", t);
  emit_ports_table(f, t, "in", in_ports, n_in);
  emit_ports_table(f, t, "out", out_ports, n_out);
  fprintf(f, "#ifndef NETCOSIM_NO_RTL\n");
  emit_rtl_ops(f, t, "rtl");
  fprintf(f,
          "#define RTL_OPS rtl_ops\n#else\n#define RTL_OPS {NULL, NULL, NULL, NULL, NULL, NULL}\n#endif\n");
  fprintf(f, "#ifdef NETCOSIM_NETLIST\n");
  emit_rtl_ops(f, t, "netlist");
  fprintf(f, "#define NETLIST_OPS (&netlist_ops)\n#else\n#define NETLIST_OPS NULL\n#endif\n\n");
  fprintf(f,
          "const cosim_glue_t %s_glue = {\n  \"%s\", \"%s\", \"%s\",\n  sizeof(%s_in_t), sizeof(%s_out_t),\n"
          "  in_ports, out_ports, %u, %u,\n  RTL_OPS, NETLIST_OPS\n};\n",
          t, t, top, block, t, t, n_in, n_out);
  fprintf(f, "\nconst %s_view_t %s_view = {\n  &%s_glue,\n  {", top, t, t);
  for (unsigned i = 0; i < n_params; i++) fprintf(f, "%s%lluULL", i ? ", " : "", params[i].value);
  if (n_params == 0) fprintf(f, "0");
  fprintf(f, "},\n");
  emit_lane_inits(f, t, "in", in_ports, n_in);
  fprintf(f, ",\n");
  emit_lane_inits(f, t, "out", out_ports, n_out);
  fprintf(f, "\n};\n");
  fclose(f);
}

/* One C++ shim per Verilated flavour: cls is the Verilated class prefix. */
static void emit_shim(const char *dir, const char *t, const char *flavour, const char *cls) {
  char sfx[64];
  snprintf(sfx, sizeof sfx, "_%s.cpp", flavour);
  FILE *f = open_out(dir, t, sfx);
  fprintf(f, "// GENERATED by gluegen from rtl/%s (module %s). Do not edit.\n", block, top);
  fprintf(f, "// C ABI around the Verilated class %s; one clock cycle per step.\n", cls);
  fprintf(
      f, "#include <cstring>\n#include <memory>\n#include \"verilated.h\"\n#include \"verilated_fst_c.h\"\n");
  fprintf(f, "#include <string>\n#include \"vl_assert.h\"\n");
  fprintf(f, "#include \"%s.h\"\n#include \"%s_ports.h\"\n\n", cls, t);
  fprintf(f,
          "namespace {\n// %u MHz nominal clock (testbench/clock.h): one cycle is %llu ps, the rising edge "
          "at mid-cycle.\n"
          "constexpr uint64_t kCyclePs = %llu, kHalfPs = %llu;\n"
          "struct Rtl {\n  std::unique_ptr<VerilatedContext> ctx;\n  std::unique_ptr<%s> top;\n"
          "  std::unique_ptr<VerilatedFstC> fst;\n  uint64_t cycle = 0;\n"
          "  std::string assert_label;  // the first assertion that failed in a step\n};\n\n",
          NETCOSIM_CLOCK_MHZ, NETCOSIM_CYCLE_PS, NETCOSIM_CYCLE_PS, NETCOSIM_CYCLE_PS / 2, cls);
  fprintf(f, "void apply(%s *top, const %s_in_t *in) {\n", cls, t);
  for (unsigned i = 0; i < n_in; i++) {
    if (in_ports[i].width > 64)
      fprintf(f, "  for (int w = 0; w < %u; w++) top->%s[w] = in->%s[w];\n", words(in_ports[i].width),
              in_ports[i].name, in_ports[i].name);
    else
      fprintf(f, "  top->%s = in->%s;\n", in_ports[i].name, in_ports[i].name);
  }
  fprintf(f, "}\n\nvoid sample(const %s *top, %s_out_t *out) {\n", cls, t);
  for (unsigned i = 0; i < n_out; i++) {
    if (out_ports[i].width > 64)
      fprintf(f, "  for (int w = 0; w < %u; w++) out->%s[w] = top->%s[w];\n", words(out_ports[i].width),
              out_ports[i].name, out_ports[i].name);
    else
      fprintf(f, "  out->%s = top->%s;\n", out_ports[i].name, out_ports[i].name);
  }
  fprintf(f,
          "}\n\nvoid zero_inputs(%s *top) {\n  %s_in_t z;\n  std::memset(&z, 0, sizeof z);\n"
          "  apply(top, &z);\n}\n\nvoid dump(Rtl *r, uint64_t t) {\n  if (r->fst) r->fst->dump(t);\n}\n"
          "}  // namespace\n\n",
          cls, t);
  fprintf(
      f,
      "extern \"C\" void %s_%s_trace_open(void *h, const char *path) {\n"
      "  Rtl *r = static_cast<Rtl *>(h);\n  if (r->fst || !path) return;\n"
      "  r->fst.reset(new VerilatedFstC);\n  r->top->trace(r->fst.get(), 99);\n  r->fst->open(path);\n}\n\n",
      t, flavour);
  fprintf(f,
          "extern \"C\" void *%s_%s_new(const char *trace_path, uint64_t seed) {\n  Rtl *r = new Rtl;\n"
          "  r->ctx.reset(new VerilatedContext);\n  r->ctx->traceEverOn(true);\n"
          "  r->ctx->fatalOnError(false);\n"
          "  // Registers start from random values (--x-initial unique) drawn from the\n"
          "  // test's seed, not from 0: the reset alone must bring them to the model's.\n"
          "  r->ctx->randReset(2);\n"
          "  r->ctx->randSeed(static_cast<int>(seed %% 2147483646u) + 1);  // 0 would mean time\n"
          "  r->top.reset(new %s{r->ctx.get(), \"TOP\"});\n"
          "  %s_%s_trace_open(r, trace_path);\n  return r;\n}\n\n",
          t, flavour, cls, t, flavour);
  fprintf(f,
          "extern \"C\" void %s_%s_reset(void *h) {\n  Rtl *r = static_cast<Rtl *>(h);\n"
          "  zero_inputs(r->top.get());\n  r->top->clk_i = 0;\n  r->top->rst_ni = 1;\n  r->top->eval();\n"
          "  r->top->rst_ni = 0;  // asynchronous, active low\n  r->top->eval();\n"
          "  for (int i = 0; i < 2; i++) {\n    r->top->clk_i = 1;\n    r->top->eval();\n"
          "    r->top->clk_i = 0;\n    r->top->eval();\n  }\n  r->top->rst_ni = 1;\n  r->top->eval();\n"
          "  r->cycle = 0;\n}\n\n",
          t, flavour);
  fprintf(f,
          "extern \"C\" void %s_%s_step(void *h, const %s_in_t *in, %s_out_t *out) {\n"
          "  Rtl *r = static_cast<Rtl *>(h);\n  %s *top = r->top.get();\n  const uint64_t t = r->cycle * "
          "kCyclePs;\n"
          "  const unsigned long asserts = netcosim_vl_assert_count();\n"
          "  top->clk_i = 0;\n  apply(top, in);\n  top->eval();\n  sample(top, out);\n  dump(r, t);\n"
          "  top->clk_i = 1;\n  top->eval();\n  dump(r, t + kHalfPs);\n  r->cycle++;\n"
          "  // an assertion that failed during this model's step is this model's\n"
          "  if (netcosim_vl_assert_count() != asserts && r->assert_label.empty())\n"
          "    r->assert_label = netcosim_vl_assert_label(asserts);\n}\n\n",
          t, flavour, t, t, cls);
  fprintf(f,
          "extern \"C\" const char *%s_%s_assert_failed(void *h) {\n  Rtl *r = static_cast<Rtl *>(h);\n"
          "  return r->assert_label.empty() ? nullptr : r->assert_label.c_str();\n}\n\n",
          t, flavour);
  /* make coverage (VM_COVERAGE=1): each instance writes its own file into
   * $NETCOSIM_COVERAGE_DIR (default .), as its context's counters die with it. */
  fprintf(
      f,
      "#if VM_COVERAGE\n#include <unistd.h>\n#include <cstdio>\n#include <cstdlib>\n"
      "static void cover_write(VerilatedContext *ctx) {\n  static unsigned n;\n  char p[4096];\n"
      "  const char *d = std::getenv(\"NETCOSIM_COVERAGE_DIR\");\n"
      "  std::snprintf(p, sizeof p, \"%%s/%s.%%ld.%%u.dat\", d ? d : \".\", (long)getpid(), n++);\n"
      "  ctx->coveragep()->write(p);\n}\n#else\nstatic void cover_write(VerilatedContext *) {}\n#endif\n\n",
      t);
  fprintf(f,
          "extern \"C\" void %s_%s_free(void *h) {\n  Rtl *r = static_cast<Rtl *>(h);\n"
          "  if (r->fst) {\n    r->fst->dump(r->cycle * kCyclePs);\n    r->fst->close();\n  }\n"
          "  r->top->final();\n  cover_write(r->ctx.get());\n  delete r;\n}\n",
          t, flavour);
  fclose(f);
}

int main(int argc, char **argv) {
  const char *xml = NULL, *cosim = NULL, *target = NULL, *out = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      printf("usage: gluegen --xml F --cosim F --target T --out DIR\n"
             "  F (xml): verilator --xml-only of the target; F (cosim): rtl/<block>/<block>.cosim;\n"
             "  writes DIR/T_ports.h, T_glue.c, T_rtl.cpp, T_netlist.cpp (docs/cosim.md)\n");
      return 0;
    }
    if (!strcmp(argv[i], "--xml") && i + 1 < argc)
      xml = argv[++i];
    else if (!strcmp(argv[i], "--cosim") && i + 1 < argc)
      cosim = argv[++i];
    else if (!strcmp(argv[i], "--target") && i + 1 < argc)
      target = argv[++i];
    else if (!strcmp(argv[i], "--out") && i + 1 < argc)
      out = argv[++i];
    else
      die("unknown argument '%s' (usage: gluegen --xml F --cosim F --target T --out DIR)", argv[i]);
  }
  if (!xml || !cosim || !target || !out) die("usage: gluegen --xml F --cosim F --target T --out DIR");
  for (const char *c = target; *c; c++)
    if (!isalnum((unsigned char)*c) && *c != '_') die("target name '%s' is not a C identifier", target);
  read_xml(xml);
  read_cosim(cosim, target);
  emit_header(out, target);
  emit_glue_c(out, target);
  char cls[200];
  snprintf(cls, sizeof cls, "V%s", target);
  emit_shim(out, target, "rtl", cls);
  snprintf(cls, sizeof cls, "V%s_netlist", target);
  emit_shim(out, target, "netlist", cls);
  return 0;
}
