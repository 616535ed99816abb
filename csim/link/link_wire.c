/*
 * link_wire -- a delay line of n stages (docs/link.md §5): the cable, and the
 * receiver's alignment line. A ring of n words: the oldest is the output;
 * at the edge the input overwrites it and becomes the newest.
 */
#include "link.h"

#include <errno.h>
#include <stdlib.h>

/* Packed flit: data [31:0], vc [33:32], kind [35:34], valid [36]. */
uint64_t link_flit_pack(const link_flit_t *f) {
  if (!f->valid) return 0; /* an empty stage is all zeros */
  return (uint64_t)f->data | (uint64_t)(f->vc & 3u) << 32 | (uint64_t)(f->kind & 3u) << 34 |
         (uint64_t)1 << 36;
}

link_flit_t link_flit_unpack(uint64_t w) {
  link_flit_t f = {(w >> 36) & 1u, (unsigned)(w >> 34) & 3u, (unsigned)(w >> 32) & 3u, (uint32_t)w};
  return f;
}

int link_wire_init(link_wire_t *w, unsigned n) {
  w->n = n;
  w->head = 0;
  w->w = NULL;
  if (n) {
    w->w = calloc(n, sizeof *w->w);
    if (!w->w) return -ENOMEM;
  }
  return 0;
}

void link_wire_reset(link_wire_t *w) {
  for (unsigned k = 0; k < w->n; k++) w->w[k] = 0;
  w->head = 0;
}

uint64_t link_wire_out(const link_wire_t *w, uint64_t in) { return w->n ? w->w[w->head] : in; }

uint64_t link_wire_next(const link_wire_t *w, uint64_t in) {
  return w->n > 1 ? w->w[w->head + 1 == w->n ? 0 : w->head + 1] : in;
}

void link_wire_commit(link_wire_t *w, uint64_t in) {
  if (!w->n) return;
  w->w[w->head] = in;
  w->head = w->head + 1 == w->n ? 0 : w->head + 1;
}

void link_wire_free(link_wire_t *w) {
  free(w->w);
  w->w = NULL;
}
