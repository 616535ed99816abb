/* elite4 fabric traffic patterns: see e4t_traffic.h. */
#include "e4t_traffic.h"

#include <errno.h>
#include <string.h>

static const char *const names[] = {"uniform", "complement", "hotspot"};

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

int e4t_traffic_next(const e4t_traffic_t *t, unsigned src, cosim_rng_t *rng) {
  if (!cosim_rng_chance(rng, t->p_pkt)) return -1;
  switch (t->pattern) {
    case E4T_COMPLEMENT: return (int)(t->nodes - 1 - src);
    case E4T_HOTSPOT:
      /* draw always, so a node's stream does not depend on whether it is hot */
      if (cosim_rng_chance(rng, t->hot_frac) && src != t->hot_node) return (int)t->hot_node;
      return (int)uniform_other(t->nodes, src, rng);
    default: return (int)uniform_other(t->nodes, src, rng);
  }
}
