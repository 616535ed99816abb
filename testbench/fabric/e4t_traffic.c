/* elite4 fabric traffic patterns: see e4t_traffic.h. */
#include "e4t_traffic.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[] = {"uniform",   "complement", "hotspot", "bitrev",
                                    "transpose", "replay",     "bursty"};

const char *e4t_pattern_name(e4t_pattern_t p) { return names[p]; }

int e4t_pattern_parse(const char *s, e4t_pattern_t *p) {
  for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++)
    if (!strcmp(s, names[i])) {
      *p = (e4t_pattern_t)i;
      return 0;
    }
  return -EINVAL;
}

static unsigned uniform_other(unsigned n, unsigned src, cosim_rng_t *rng) {
  unsigned d = cosim_rng_below(rng, n - 1);
  return d >= src ? d + 1 : d;
}

static unsigned log2u(unsigned n) {
  unsigned b = 0;
  while ((1u << b) < n) b++;
  return b;
}

/* bit by bit: the address bits of src, reversed */
static unsigned bitrev(unsigned nodes, unsigned src) {
  const unsigned b = log2u(nodes);
  unsigned d = 0;
  for (unsigned i = 0; i < b; i++)
    if (src & (1u << i)) d |= 1u << (b - 1 - i);
  return d;
}

/* the low half of the address bits becomes the high half and back */
static unsigned transpose(unsigned nodes, unsigned src) {
  const unsigned h = log2u(nodes) / 2, lo = src & ((1u << h) - 1), hi = src >> h;
  return lo << h | hi;
}

int e4t_traffic_next(e4t_traffic_t *t, unsigned src, uint64_t cycle, cosim_rng_t *rng) {
  if (t->pattern == E4T_REPLAY) {
    e4t_trace_node_t *q = &t->trace->node[src];
    if (q->next >= q->n || q->cycle[q->next] != cycle) return -1;
    const uint32_t d = q->dst[q->next++];
    if (t->skew && src == 0 && q->next == q->n) return -1; /* planted: node 0's last message lost */
    return (int)d;
  }
  if (t->pattern == E4T_BURSTY) {
    e4t_burst_t *b = &t->burst[src];
    if (!b->on) {
      /* a burst of B packets lasts (B - 1) L + 1 cycles (it ends as its last
       * packet starts), a gap 1 / q: B L / ((B - 1) L + 1 + 1 / q) = load */
      const double load = t->p_pkt * t->flits, B = t->burst_len, L = t->flits,
                   gap = load > 0 ? B * L / load - (B - 1) * L - 1 : 0, q = gap > 1 ? 1 / gap : 1;
      if (!cosim_rng_chance(rng, q)) return -1;
      b->on = true;
      b->wait = 0;
      b->dst = uniform_other(t->nodes, src, rng);
    }
    if (b->wait) {
      b->wait--;
      return -1;
    }
    b->wait = t->flits - 1;
    /* the burst ends after this packet with probability 1 / burst: geometric, mean burst */
    if (cosim_rng_chance(rng, 1.0 / (t->skew ? 2 * t->burst_len : t->burst_len))) b->on = false;
    return (int)b->dst;
  }
  if (!cosim_rng_chance(rng, t->p_pkt)) return -1;
  switch (t->pattern) {
    case E4T_COMPLEMENT: return (int)(t->nodes - 1 - src);
    case E4T_HOTSPOT:
      /* draw always, so a node's stream does not depend on whether it is hot */
      if (cosim_rng_chance(rng, t->hot_frac) && src != t->hot_node) return (int)t->hot_node;
      return (int)uniform_other(t->nodes, src, rng);
    case E4T_BITREV:
    case E4T_TRANSPOSE: {
      unsigned d = t->pattern == E4T_BITREV ? bitrev(t->nodes, src) : transpose(t->nodes, src);
      if (t->skew && src == 1 && (d ^ 1u) != src) d ^= 1u; /* planted: node 1 sends to the wrong partner */
      return d == src ? -1 : (int)d;
    }
    default: return (int)uniform_other(t->nodes, src, rng);
  }
}

void e4t_trace_free(e4t_trace_t *t) {
  if (t->node)
    for (unsigned n = 0; n < t->nodes; n++) {
      free(t->node[n].cycle);
      free(t->node[n].dst);
    }
  free(t->node);
  memset(t, 0, sizeof *t);
}

/* one unsigned decimal field of a line: 0, or -1 (not a number) */
static int field(char **p, uint64_t *v) {
  while (**p == ' ' || **p == '\t') (*p)++;
  if (**p < '0' || **p > '9') return -1;
  char *end;
  errno = 0;
  unsigned long long x = strtoull(*p, &end, 10);
  if (errno || (*end && *end != ' ' && *end != '\t' && *end != '\n' && *end != '\r' && *end != '#'))
    return -1;
  *p = end;
  *v = x;
  return 0;
}

int e4t_trace_load(e4t_trace_t *t, const char *path, unsigned nodes, uint64_t cycles, char *err, size_t len) {
  memset(t, 0, sizeof *t);
  FILE *f = fopen(path, "r");
  if (!f) {
    snprintf(err, len, "%s: cannot open the trace: %s", path, strerror(errno));
    return -1;
  }
  t->nodes = nodes;
  t->node = calloc(nodes, sizeof *t->node);
  char line[512];
  unsigned ln = 0;
  int rc = t->node ? 0 : -1;
  if (rc) snprintf(err, len, "%s: out of memory", path);
  static const char *const fname[3] = {"cycle", "src", "dst"};
  while (!rc && fgets(line, sizeof line, f)) {
    ln++;
    char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '#' || *p == '\n' || *p == '\r' || !*p) continue;
    uint64_t v[3];
    for (unsigned i = 0; i < 3 && !rc; i++)
      if (field(&p, &v[i])) {
        snprintf(err, len, "%s:%u: field %s: expected an unsigned decimal number (format: CYCLE SRC DST)",
                 path, ln, fname[i]);
        rc = -1;
      }
    if (rc) break;
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (*p && *p != '#') {
      snprintf(err, len, "%s:%u: more than three fields (format: CYCLE SRC DST)", path, ln);
      rc = -1;
    } else if (v[0] >= cycles) {
      snprintf(err, len, "%s:%u: field cycle: %" PRIu64 " is outside the injection window 0..%" PRIu64, path,
               ln, v[0], cycles - 1);
      rc = -1;
    } else if (v[1] >= nodes || v[2] >= nodes) {
      snprintf(err, len, "%s:%u: field %s: %" PRIu64 " is not a node (0..%u)", path, ln,
               v[1] >= nodes ? "src" : "dst", v[1] >= nodes ? v[1] : v[2], nodes - 1);
      rc = -1;
    } else if (v[1] == v[2]) {
      snprintf(err, len, "%s:%u: field dst: a node does not send to itself (%" PRIu64 ")", path, ln, v[2]);
      rc = -1;
    } else {
      e4t_trace_node_t *q = &t->node[v[1]];
      if (q->n && v[0] <= q->cycle[q->n - 1]) {
        snprintf(err, len,
                 "%s:%u: field cycle: %" PRIu64 " is not after node %" PRIu64 "'s previous message (%u)",
                 path, ln, v[0], v[1], q->cycle[q->n - 1]);
        rc = -1;
      } else {
        if (q->n == q->cap) {
          uint32_t nc = q->cap ? 2 * q->cap : 64;
          uint32_t *a = realloc(q->cycle, nc * sizeof *a), *b = a ? realloc(q->dst, nc * sizeof *b) : NULL;
          if (a) q->cycle = a;
          if (b) q->dst = b;
          if (!a || !b) {
            snprintf(err, len, "%s: out of memory", path);
            rc = -1;
            break;
          }
          q->cap = nc;
        }
        q->cycle[q->n] = (uint32_t)v[0];
        q->dst[q->n++] = (uint32_t)v[2];
        t->messages++;
      }
    }
  }
  if (!rc && ferror(f)) {
    snprintf(err, len, "%s: read error", path);
    rc = -1;
  }
  fclose(f);
  if (rc) e4t_trace_free(t);
  return rc;
}
