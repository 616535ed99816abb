/* Port widths of the common blocks as docs/common.md derives them from the
 * parameters. The lockstep compares values, so a port that is wider than the
 * spec says (a wrong $clog2 in a localparam) passes it as long as every value
 * fits; the scoreboards check the widths once, before the first cycle's outputs. */
#ifndef COMMON_WIDTHS_H
#define COMMON_WIDTHS_H

#include "bind/common.h"

static inline unsigned spec_clog2(unsigned long long n) {
  unsigned w = 0;
  while ((1ULL << w) < n) w++;
  return w;
}

typedef struct {
  const char *port;
  unsigned bits;
} spec_width_t;

static inline bool spec_widths_check(const cosim_glue_t *g, const spec_width_t *w, unsigned n,
                                     cosim_msg_t *msg) {
  for (unsigned k = 0; k < n; k++) {
    unsigned got = cosim_port_width(g, w[k].port);
    if (got != w[k].bits) {
      cosim_fail(msg, "widths.port", "port %s of %s is %u bits wide, the spec says %u", w[k].port, g->name,
                 got, w[k].bits);
      return false;
    }
  }
  return true;
}

#endif
