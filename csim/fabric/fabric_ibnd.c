/* Topology files in the ibnetdiscover format (infiniband-diags'
 * ibnetdiscover(8), "TOPOLOGY FILE FORMAT"; ibsim reads the same text):
 * fabric_topo_write_ibnd() and the reader fabric_topo_parse_ibnd() into
 * the generic wiring table. See fabric_topo.h and docs/fabric.md
 * "Topology files" for what is accepted and how it maps. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fabric_topo.h"

/* ---- writer --------------------------------------------------------------------------- */

static void sw_desc(const fabric_topo_t *t, unsigned s, char *buf, size_t len) {
  switch (t->kind) {
    case FABRIC_TOPO_TREE:
      snprintf(buf, len, "sw%u level %u index %u", s, fabric_tree_level(t, s), fabric_tree_index(t, s));
      break;
    case FABRIC_TOPO_TORUS: snprintf(buf, len, "sw%u router x %u y %u", s, s % t->x, s / t->x); break;
    case FABRIC_TOPO_FAT2:
      snprintf(buf, len, "sw%u %s %u", s, s < t->leaves ? "leaf" : "spine",
               s < t->leaves ? s : s - t->leaves);
      break;
    default: snprintf(buf, len, "sw%u", s); break;
  }
}

static const char *kind_name(const fabric_topo_t *t, char *buf, size_t len) {
  switch (t->kind) {
    case FABRIC_TOPO_TREE: snprintf(buf, len, "%u-ary %u-tree", t->k, t->n); break;
    case FABRIC_TOPO_SINGLE: snprintf(buf, len, "single switch"); break;
    case FABRIC_TOPO_TORUS:
      snprintf(buf, len, "%ux%u torus, %u parallel links, %u nodes per router", t->x, t->y, t->p, t->conc);
      break;
    case FABRIC_TOPO_FAT2:
      snprintf(buf, len, "two-level fat tree, radix %u, %u leaves, %u spines", t->radix, t->leaves,
               t->spines);
      break;
    default: snprintf(buf, len, "read from %s", t->src[0] ? t->src : "a file"); break;
  }
  return buf;
}

int fabric_topo_write_ibnd(const fabric_topo_t *t, FILE *out, char *err, size_t errlen) {
  for (unsigned s = 0; s < t->nsw; s++)
    if (fabric_topo_nports(t, s) > FABRIC_IBND_MAX_PORTS) {
      snprintf(err, errlen, "ibnetdiscover format: switch %u has %u ports, at most %u", s,
               fabric_topo_nports(t, s), FABRIC_IBND_MAX_PORTS);
      return -1;
    }
  if ((uint64_t)t->nsw + t->nodes > FABRIC_IBND_MAX_LID) {
    snprintf(err, errlen, "ibnetdiscover format: %u switches and %u nodes need more than %u unicast LIDs",
             t->nsw, t->nodes, FABRIC_IBND_MAX_LID);
    return -1;
  }
  char kb[320], d[80], pd[80];
  fprintf(out,
          "#\n# Topology file: written by netcosim (csim/fabric/fabric_ibnd.c) in the ibnetdiscover format\n"
          "# %s: %u switches, %u nodes\n"
          "# GUIDs derived from the index (no real hardware): switch s 0x%016" PRIx64 " + 16 s,\n"
          "# node d 0x%016" PRIx64 " + 16 d (its port 1: + 1); LIDs: switch s s + 1, node d %u + d\n#\n",
          kind_name(t, kb, sizeof kb), t->nsw, t->nodes, FABRIC_IBND_SW_GUID(0), FABRIC_IBND_NODE_GUID(0),
          t->nsw + 1);
  for (unsigned s = 0; s < t->nsw; s++) {
    const uint64_t g = FABRIC_IBND_SW_GUID(s);
    sw_desc(t, s, d, sizeof d);
    fprintf(out,
            "\nvendid=0x4e4353\ndevid=0x0\nsysimgguid=0x%016" PRIx64 "\nswitchguid=0x%016" PRIx64
            "(%016" PRIx64 ")\n",
            g, g, g);
    fprintf(out, "Switch\t%u \"S-%016" PRIx64 "\"\t\t# \"%s\" base port 0 lid %u lmc 0\n",
            fabric_topo_nports(t, s), g, d, s + 1);
    for (unsigned q = 0; q < fabric_topo_nports(t, s); q++) {
      const fabric_end_t *e = fabric_topo_peer(t, s, q);
      if (e->kind == FABRIC_END_SWITCH) {
        sw_desc(t, e->id, pd, sizeof pd);
        fprintf(out, "[%u]\t\"S-%016" PRIx64 "\"[%u]\t\t# \"%s\" lid %u\n", q + 1, FABRIC_IBND_SW_GUID(e->id),
                e->port + 1u, pd, e->id + 1);
      } else if (e->kind == FABRIC_END_NODE) {
        const uint64_t h = FABRIC_IBND_NODE_GUID(e->id);
        fprintf(out, "[%u]\t\"H-%016" PRIx64 "\"[1](%" PRIx64 ")\t\t# \"node%u\" lid %u\n", q + 1, h, h + 1,
                e->id, t->nsw + 1 + e->id);
      }
    }
  }
  for (unsigned n = 0; n < t->nodes; n++) {
    const uint64_t h = FABRIC_IBND_NODE_GUID(n);
    const fabric_end_t *e = &t->node[n];
    sw_desc(t, e->id, pd, sizeof pd);
    fprintf(out, "\nvendid=0x4e4353\ndevid=0x0\nsysimgguid=0x%016" PRIx64 "\ncaguid=0x%016" PRIx64 "\n", h,
            h);
    fprintf(out, "Ca\t1 \"H-%016" PRIx64 "\"\t\t# \"node%u\"\n", h, n);
    fprintf(out, "[1](%" PRIx64 ")\t\"S-%016" PRIx64 "\"[%u]\t\t# lid %u lmc 0 \"%s\" lid %u\n", h + 1,
            FABRIC_IBND_SW_GUID(e->id), e->port + 1u, t->nsw + 1 + n, pd, e->id + 1);
  }
  if (ferror(out)) {
    snprintf(err, errlen, "ibnetdiscover format: write error: %s", strerror(errno));
    return -1;
  }
  return 0;
}

/* ---- reader --------------------------------------------------------------------------- */

enum { REC_SWITCH = 1, REC_CA = 2 };

typedef struct {
  uint32_t line;
  uint16_t port, peer_port;
  const char *pid; /* the peer's id, between the quotes */
  size_t pidlen;
} pline_t;

typedef struct {
  uint8_t type;
  uint16_t nports;
  uint32_t line;
  const char *id;
  size_t idlen;
  uint32_t first, n; /* its port lines: pl[first .. first + n) */
  uint32_t index;    /* switch index, or the first node of a Ca */
  uint32_t *byport;  /* [nports + 1]: port line index + 1, 0 none */
} rec_t;

typedef struct {
  const char *name, *p, *end;
  uint32_t line;
  char *err;
  size_t errlen;
  rec_t *rec;
  size_t nrec, caprec;
  pline_t *pl;
  size_t npl, cappl;
  uint32_t *ports; /* the byport arrays, one allocation */
  uint32_t *hash;  /* id -> record index + 1 */
  size_t hcap;
} parser_t;

static int fail(parser_t *P, uint32_t line, const char *field, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static int fail(parser_t *P, uint32_t line, const char *field, const char *fmt, ...) {
  char msg[400];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  if (line)
    snprintf(P->err, P->errlen, "%s:%u: %s: %s", P->name, line, field, msg);
  else
    snprintf(P->err, P->errlen, "%s: %s: %s", P->name, field, msg);
  return -1;
}

/* text for messages: printable, at most 40 characters */
static const char *shown(const char *s, size_t n, char *buf, size_t len) {
  size_t k = 0;
  for (size_t i = 0; i < n && k + 4 < len && i < 40; i++) buf[k++] = s[i] >= 32 && s[i] < 127 ? s[i] : '?';
  if (n > 40 && k + 4 < len) buf[k++] = '.', buf[k++] = '.', buf[k++] = '.';
  buf[k] = 0;
  return buf;
}

static bool is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r'; }
static unsigned hexval(char c) { return c <= '9' ? (unsigned)(c - '0') : (unsigned)((c | 32) - 'a' + 10); }

/* 1..16 hex digits at s[0..n) -> *v */
static bool parse_guid(const char *s, size_t n, uint64_t *v) {
  if (n < 1 || n > 16) return false;
  uint64_t x = 0;
  for (size_t i = 0; i < n; i++) {
    if (!is_hex(s[i])) return false;
    x = x << 4 | hexval(s[i]);
  }
  *v = x;
  return true;
}

/* An id "S-<guid>", "H-<guid>", "R-<guid>" (ibnetdiscover) must carry a GUID;
 * any other quoted string is a plain name (ibsim's net files). */
static int check_id(parser_t *P, uint32_t line, const char *field, const char *id, size_t n) {
  char b[64];
  uint64_t g;
  if (n == 0) return fail(P, line, field, "empty node id \"\"");
  if (n >= 2 && id[1] == '-' && (id[0] == 'S' || id[0] == 'H' || id[0] == 'R') &&
      !parse_guid(id + 2, n - 2, &g))
    return fail(P, line, field, "bad GUID in \"%s\" (expected %c- and 1 to 16 hex digits)",
                shown(id, n, b, sizeof b), id[0]);
  return 0;
}

/* Line cursor helpers: c points into the current line, e is its end. */
static void skip_sp(const char **c, const char *e) {
  while (*c < e && is_space(**c)) (*c)++;
}
/* a decimal number of at most 9 digits */
static bool read_uint(const char **c, const char *e, unsigned *v) {
  unsigned x = 0, k = 0;
  while (*c < e && **c >= '0' && **c <= '9' && k < 10) x = x * 10 + (unsigned)(*(*c)++ - '0'), k++;
  *v = x;
  return k >= 1 && k <= 9;
}
/* "[N]" -> N; returns 0 ok, 1 missing ('[' absent), -1 malformed */
static int read_bracket(const char **c, const char *e, unsigned *v) {
  if (*c >= e || **c != '[') return 1;
  (*c)++;
  if (!read_uint(c, e, v) || *c >= e || **c != ']') return -1;
  (*c)++;
  return 0;
}
/* optional "(hex GUID)"; returns 0 ok or absent, -1 malformed */
static int read_paren_guid(const char **c, const char *e) {
  if (*c >= e || **c != '(') return 0;
  const char *s = ++(*c);
  while (*c < e && **c != ')') (*c)++;
  uint64_t g;
  if (*c >= e || !parse_guid(s, (size_t)(*c - s), &g)) return -1;
  (*c)++;
  return 0;
}
/* optional "[ext N]" (ibnetdiscover -g) */
static int read_ext(const char **c, const char *e) {
  static const char tag[] = "[ext ";
  if ((size_t)(e - *c) < sizeof tag - 1 || memcmp(*c, tag, sizeof tag - 1)) return 0;
  *c += sizeof tag - 1;
  unsigned v;
  if (!read_uint(c, e, &v) || *c >= e || **c != ']') return -1;
  (*c)++;
  return 0;
}
/* what may end a line: nothing, a comment, or ibsim's link width "w=N" */
static bool line_end_ok(const char *c, const char *e) {
  skip_sp(&c, e);
  if (c == e || *c == '#') return true;
  if (e - c >= 2 && c[0] == 'w' && c[1] == '=') {
    c += 2;
    unsigned v;
    if (!read_uint(&c, e, &v) || (v != 1 && v != 2 && v != 4 && v != 8 && v != 12)) return false;
    skip_sp(&c, e);
    return c == e || *c == '#';
  }
  return false;
}

static int grow(void **p, size_t *cap, size_t n, size_t size) {
  if (n < *cap) return 0;
  size_t c = *cap ? *cap * 2 : 64;
  void *q = realloc(*p, c * size);
  if (!q) return -1;
  *p = q;
  *cap = c;
  return 0;
}

/* "key=0x<hex>" lines before a node: the value must be a number (GUID for *guid). */
static int keyval_line(parser_t *P, const char *key, size_t klen, const char *v, const char *e,
                       uint64_t *pend_sw, uint64_t *pend_ca) {
  char fld[24];
  snprintf(fld, sizeof fld, "%.*s", (int)klen, key);
  const char *c = v;
  if (e - c < 3 || c[0] != '0' || (c[1] | 32) != 'x')
    return fail(P, P->line, fld, "expected 0x and hex digits");
  c += 2;
  const char *s = c;
  while (c < e && is_hex(*c)) c++;
  uint64_t g;
  if (!parse_guid(s, (size_t)(c - s), &g))
    return fail(P, P->line, fld, "bad %s (1 to 16 hex digits)", strstr(fld, "guid") ? "GUID" : "value");
  if (!strcmp(fld, "switchguid")) {
    if (read_paren_guid(&c, e)) return fail(P, P->line, fld, "bad port GUID in parentheses");
    *pend_sw = g;
  }
  if (!strcmp(fld, "caguid")) *pend_ca = g;
  if (!line_end_ok(c, e)) return fail(P, P->line, fld, "unexpected text after the value");
  return 0;
}

static int header_line(parser_t *P, uint8_t type, const char *kw, const char *c, const char *e,
                       uint64_t *pend_sw, uint64_t *pend_ca) {
  char b[64];
  unsigned np;
  skip_sp(&c, e);
  if (c == e) return fail(P, P->line, "port count", "truncated line: expected the port count after %s", kw);
  if (!read_uint(&c, e, &np) || np < 1 || np > FABRIC_IBND_MAX_PORTS || (c < e && !is_space(*c)))
    return fail(P, P->line, "port count", "expected a number 1..%u after %s", FABRIC_IBND_MAX_PORTS, kw);
  skip_sp(&c, e);
  if (c == e) return fail(P, P->line, "node id", "truncated line: expected the quoted node id");
  if (*c != '"')
    return fail(P, P->line, "node id", "expected a quoted node id such as \"S-0002c90200000001\"");
  const char *id = ++c;
  while (c < e && *c != '"') c++;
  if (c == e) return fail(P, P->line, "node id", "truncated line: the node id's closing quote is missing");
  const size_t n = (size_t)(c - id);
  c++;
  if (check_id(P, P->line, "node id", id, n)) return -1;
  if (n >= 2 && id[1] == '-' && id[0] != (type == REC_SWITCH ? 'S' : 'H'))
    return fail(P, P->line, "node id", "a %s's id starts with %s-, not \"%s\"", kw,
                type == REC_SWITCH ? "S" : "H", shown(id, n, b, sizeof b));
  uint64_t *pend = type == REC_SWITCH ? pend_sw : pend_ca, g;
  if (*pend && n >= 2 && id[1] == '-' && parse_guid(id + 2, n - 2, &g) && g != *pend)
    return fail(P, P->line, type == REC_SWITCH ? "switchguid" : "caguid",
                "0x%016" PRIx64 " above does not match the node id \"%s\"", *pend, shown(id, n, b, sizeof b));
  *pend_sw = *pend_ca = 0;
  if (!line_end_ok(c, e)) return fail(P, P->line, "node id", "unexpected text after the node id");
  if (P->nrec >= FABRIC_TOPO_MAX_NODES)
    return fail(P, P->line, "node id", "more than %u nodes", FABRIC_TOPO_MAX_NODES);
  if (grow((void **)&P->rec, &P->caprec, P->nrec, sizeof *P->rec))
    return fail(P, P->line, kw, "out of memory");
  P->rec[P->nrec++] = (rec_t){type, (uint16_t)np, P->line, id, n, (uint32_t)P->npl, 0, 0, NULL};
  return 0;
}

static int port_line(parser_t *P, const char *c, const char *e) {
  if (!P->nrec) return fail(P, P->line, "port", "a port line before any Switch or Ca line");
  rec_t *r = &P->rec[P->nrec - 1];
  unsigned p, q;
  int k = read_bracket(&c, e, &p);
  if (k) return fail(P, P->line, "port", "expected [N], the local port number");
  if (p < 1 || p > r->nports)
    return fail(P, P->line, "port", "port [%u] out of range 1..%u (the %s at line %u declares %u ports)", p,
                r->nports, r->type == REC_SWITCH ? "Switch" : "Ca", r->line, r->nports);
  if (read_paren_guid(&c, e)) return fail(P, P->line, "port GUID", "bad port GUID in parentheses");
  if (read_ext(&c, e)) return fail(P, P->line, "port", "bad [ext N]");
  skip_sp(&c, e);
  if (c == e) return fail(P, P->line, "peer", "truncated line: expected the quoted peer id after [%u]", p);
  if (*c != '"') return fail(P, P->line, "peer", "expected the quoted peer id after [%u]", p);
  const char *id = ++c;
  while (c < e && *c != '"') c++;
  if (c == e) return fail(P, P->line, "peer", "truncated line: the peer id's closing quote is missing");
  const size_t n = (size_t)(c - id);
  c++;
  if (check_id(P, P->line, "peer", id, n)) return -1;
  k = read_bracket(&c, e, &q);
  if (k > 0)
    return fail(P, P->line, "peer port", "truncated line: expected [N], the peer's port, after the peer id");
  if (k < 0) return fail(P, P->line, "peer port", "expected [N], the peer's port number");
  if (q < 1 || q > FABRIC_IBND_MAX_PORTS)
    return fail(P, P->line, "peer port", "port [%u] out of range 1..%u", q, FABRIC_IBND_MAX_PORTS);
  if (read_paren_guid(&c, e)) return fail(P, P->line, "peer port GUID", "bad port GUID in parentheses");
  if (read_ext(&c, e)) return fail(P, P->line, "peer port", "bad [ext N]");
  if (!line_end_ok(c, e)) return fail(P, P->line, "peer port", "unexpected text after the peer's port");
  for (uint32_t i = r->first; i < P->npl; i++)
    if (P->pl[i].port == p)
      return fail(P, P->line, "port", "port [%u] listed twice (first at line %u)", p, P->pl[i].line);
  if (grow((void **)&P->pl, &P->cappl, P->npl, sizeof *P->pl))
    return fail(P, P->line, "port", "out of memory");
  P->pl[P->npl++] = (pline_t){P->line, (uint16_t)p, (uint16_t)q, id, n};
  r->n++;
  return 0;
}

static uint64_t hash_id(const char *s, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
  return h;
}
static rec_t *find(parser_t *P, const char *id, size_t n) {
  for (size_t i = hash_id(id, n) & (P->hcap - 1);; i = (i + 1) & (P->hcap - 1)) {
    if (!P->hash[i]) return NULL;
    rec_t *r = &P->rec[P->hash[i] - 1];
    if (r->idlen == n && !memcmp(r->id, id, n)) return r;
  }
}

static int parse_lines(parser_t *P) {
  uint64_t pend_sw = 0, pend_ca = 0;
  char b[64];
  for (const char *s = P->p; s < P->end;) {
    const char *e = memchr(s, '\n', (size_t)(P->end - s));
    if (!e) e = P->end;
    P->line++;
    const char *c = s;
    s = e < P->end ? e + 1 : e;
    skip_sp(&c, e);
    if (c == e || *c == '#') continue;
    if (*c == '[') {
      if (port_line(P, c, e)) return -1;
      continue;
    }
    const char *kw = c;
    while (c < e && ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || *c == '-')) c++;
    const size_t kl = (size_t)(c - kw);
#define KW(x) (kl == sizeof(x) - 1 && !memcmp(kw, x, kl))
    if (c < e && *c == '=' &&
        (KW("vendid") || KW("devid") || KW("sysimgguid") || KW("switchguid") || KW("caguid") ||
         KW("routerguid"))) {
      if (keyval_line(P, kw, kl, c + 1, e, &pend_sw, &pend_ca)) return -1;
    } else if (KW("Switch") && (c == e || is_space(*c))) {
      if (header_line(P, REC_SWITCH, "Switch", c, e, &pend_sw, &pend_ca)) return -1;
    } else if ((KW("Ca") || KW("Hca")) && (c == e || is_space(*c))) {
      if (header_line(P, REC_CA, KW("Ca") ? "Ca" : "Hca", c, e, &pend_sw, &pend_ca)) return -1;
    } else if (KW("Rt") && (c == e || is_space(*c))) {
      return fail(P, P->line, "keyword",
                  "routers (Rt) are not supported: the wiring table has switches and nodes");
    } else if (KW("Non-Chassis") || KW("Chassis")) {
      /* ibnetdiscover -g grouping headers: no wiring in them */
    } else if (KW("include") || KW("do")) {
      return fail(P, P->line, "keyword", "ibsim's '%s' extension is not supported",
                  shown(kw, kl, b, sizeof b));
    } else {
      size_t n = 0;
      while (kw + n < e && !is_space(kw[n]) && kw[n] != '=') n++;
      return fail(P, P->line, "keyword",
                  "unknown keyword '%s' (expected Switch, Ca, Hca, vendid=, devid=, "
                  "sysimgguid=, switchguid=, caguid= or a [port] line)",
                  shown(kw, n ? n : 1, b, sizeof b));
    }
#undef KW
  }
  return 0;
}

/* Both ends of every link agree; every peer is declared; then the table. */
static int build(parser_t *P, fabric_topo_t *t) {
  char b[64], b2[64];
  P->hcap = 64;
  while (P->hcap < 2 * P->nrec) P->hcap *= 2;
  P->hash = calloc(P->hcap, sizeof *P->hash);
  size_t nports = 0;
  for (size_t i = 0; i < P->nrec; i++) nports += P->rec[i].nports + 1u;
  P->ports = calloc(nports ? nports : 1, sizeof *P->ports);
  if (!P->hash || !P->ports) return fail(P, 0, "file", "out of memory");
  unsigned nsw = 0, maxp = 1;
  size_t off = 0;
  for (size_t i = 0; i < P->nrec; i++) {
    rec_t *r = &P->rec[i];
    rec_t *o = find(P, r->id, r->idlen);
    if (o)
      return fail(P, r->line, "node id", "\"%s\" declared twice (first at line %u)",
                  shown(r->id, r->idlen, b, sizeof b), o->line);
    size_t h = hash_id(r->id, r->idlen) & (P->hcap - 1);
    while (P->hash[h]) h = (h + 1) & (P->hcap - 1);
    P->hash[h] = (uint32_t)i + 1;
    r->byport = P->ports + off;
    off += r->nports + 1u;
    for (uint32_t k = r->first; k < r->first + r->n; k++) r->byport[P->pl[k].port] = k + 1;
    if (r->type == REC_SWITCH) {
      r->index = nsw++;
      if (r->nports > maxp) maxp = r->nports;
    }
  }
  if (!nsw) return fail(P, 0, "Switch", "no Switch in the file");
  unsigned nodes = 0;
  for (size_t i = 0; i < P->nrec; i++) {
    rec_t *r = &P->rec[i];
    for (uint32_t k = r->first; k < r->first + r->n; k++) {
      const pline_t *l = &P->pl[k];
      rec_t *o = find(P, l->pid, l->pidlen);
      if (!o)
        return fail(P, l->line, "peer", "\"%s\" is never declared (no Switch or Ca line with that id)",
                    shown(l->pid, l->pidlen, b, sizeof b));
      if (l->pidlen >= 2 && l->pid[1] == '-' && l->pid[0] != (o->type == REC_SWITCH ? 'S' : 'H'))
        return fail(P, l->line, "peer", "\"%s\" is declared as a %s at line %u",
                    shown(l->pid, l->pidlen, b, sizeof b), o->type == REC_SWITCH ? "Switch" : "Ca", o->line);
      if (l->peer_port > o->nports)
        return fail(P, l->line, "peer port", "port [%u] out of range 1..%u of \"%s\" (declared at line %u)",
                    l->peer_port, o->nports, shown(l->pid, l->pidlen, b, sizeof b), o->line);
      if (r->type == REC_CA && o->type == REC_CA)
        return fail(P, l->line, "peer",
                    "a link between two Ca is not supported (the wiring table joins nodes to switches)");
      if (o == r && l->peer_port == l->port)
        return fail(P, l->line, "peer port", "port [%u] linked to itself", l->port);
      const uint32_t m = o->byport[l->peer_port];
      if (!m)
        return fail(P, l->line, "peer port",
                    "links to \"%s\"[%u], but that node's block (line %u) lists no port [%u]: the link's two "
                    "ends disagree",
                    shown(l->pid, l->pidlen, b, sizeof b), l->peer_port, o->line, l->peer_port);
      const pline_t *back = &P->pl[m - 1];
#ifndef FABRIC_IBND_PLANTED_BUG /* defined only by mk/fuzz.sh --bug=ends_unchecked: the fuzz negative */
      if (find(P, back->pid, back->pidlen) != r || back->peer_port != l->port)
        return fail(P, back->line, "peer",
                    "port [%u] links to \"%s\"[%u], but \"%s\"[%u] (line %u) links to this port: the link's "
                    "two ends disagree",
                    back->port, shown(back->pid, back->pidlen, b, sizeof b), back->peer_port,
                    shown(r->id, r->idlen, b2, sizeof b2), l->port, l->line);
#else
      (void)back, (void)b2;
#endif
    }
    if (r->type == REC_CA) {
      r->index = nodes;
      nodes += r->n;
    }
  }
  if (!nodes) return fail(P, 0, "Ca", "no Ca port is linked to a switch (the wiring table needs a node)");
  memset(t, 0, sizeof *t);
  t->kind = FABRIC_TOPO_READ;
  t->nsw = nsw;
  t->nodes = nodes;
  t->sw_ports = maxp;
  snprintf(t->src, sizeof t->src, "%s", P->name);
  t->peer = calloc((size_t)nsw * maxp, sizeof *t->peer);
  t->node = calloc(nodes, sizeof *t->node);
  t->nports = calloc(nsw, sizeof *t->nports);
  t->sw_line = calloc(nsw, sizeof *t->sw_line);
  t->line = calloc((size_t)nsw * maxp, sizeof *t->line);
  if (!t->peer || !t->node || !t->nports || !t->sw_line || !t->line) {
    fabric_topo_free(t);
    return fail(P, 0, "file", "out of memory");
  }
  for (size_t i = 0; i < P->nrec; i++) {
    const rec_t *r = &P->rec[i];
    if (r->type == REC_SWITCH) {
      t->nports[r->index] = r->nports;
      t->sw_line[r->index] = r->line;
      continue;
    }
    /* a Ca's linked ports are nodes, in port order */
    uint32_t d = r->index;
    for (unsigned p = 1; p <= r->nports; p++) {
      if (!r->byport[p]) continue;
      const pline_t *l = &P->pl[r->byport[p] - 1];
      const rec_t *o = find(P, l->pid, l->pidlen);
      t->node[d] = (fabric_end_t){FABRIC_END_SWITCH, (uint16_t)(l->peer_port - 1), o->index};
      t->peer[(size_t)o->index * maxp + l->peer_port - 1] = (fabric_end_t){FABRIC_END_NODE, 0, d};
      d++;
    }
  }
  for (size_t i = 0; i < P->nrec; i++) {
    const rec_t *r = &P->rec[i];
    if (r->type != REC_SWITCH) continue;
    for (uint32_t k = r->first; k < r->first + r->n; k++) {
      const pline_t *l = &P->pl[k];
      const rec_t *o = find(P, l->pid, l->pidlen);
      const size_t at = (size_t)r->index * maxp + l->port - 1;
      t->line[at] = l->line;
      if (o->type == REC_SWITCH)
        t->peer[at] = (fabric_end_t){FABRIC_END_SWITCH, (uint16_t)(l->peer_port - 1), o->index};
    }
  }
  return 0;
}

int fabric_topo_parse_ibnd(fabric_topo_t *t, const char *name, const char *buf, size_t len, char *err,
                           size_t errlen) {
  parser_t P;
  memset(&P, 0, sizeof P);
  memset(t, 0, sizeof *t);
  P.name = name;
  P.p = buf;
  P.end = buf + len;
  P.err = err;
  P.errlen = errlen;
  int rc = parse_lines(&P);
  if (!rc) rc = build(&P, t);
  free(P.rec);
  free(P.pl);
  free(P.ports);
  free(P.hash);
  return rc;
}

int fabric_topo_read_ibnd(fabric_topo_t *t, const char *path, char *err, size_t errlen) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    return -1;
  }
  size_t cap = 1 << 16, n = 0;
  char *buf = malloc(cap);
  for (size_t k; buf && (k = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += k;
    if (n == cap) {
      char *b2 = cap < ((size_t)1 << 30) ? realloc(buf, cap * 2) : NULL;
      if (!b2) {
        free(buf);
        buf = NULL;
        break;
      }
      buf = b2;
      cap *= 2;
    }
  }
  const bool bad = ferror(f) != 0;
  fclose(f);
  if (!buf || bad) {
    free(buf);
    snprintf(err, errlen, "%s: cannot read (%s)", path, bad ? "read error" : "out of memory or over 1 GB");
    return -1;
  }
  int rc = fabric_topo_parse_ibnd(t, path, buf, n, err, errlen);
  free(buf);
  return rc;
}
