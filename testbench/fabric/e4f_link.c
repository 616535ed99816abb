/* elite4 fabric links: see e4f_link.h. */
#include "e4f_link.h"

#include <errno.h>
#include <stdlib.h>

/* VcW of the target: 1 bit for 2 VCs, 2 for 4 (docs/elite4.md §2). */
#define E4F_VCW (E4F_VCS == 2 ? 1u : 2u)

void e4f_link_to_in(elite4_p8_in_t *in, unsigned p, const e4f_flit_t *f) {
  E4_SET(in, in_valid_i, p, 1, f->valid);
  E4_SET(in, in_kind_i, 2 * p, 2, f->kind);
  E4_SET(in, in_vc_i, E4F_VCW * p, E4F_VCW, f->vc);
  E4_SET(in, in_data_i, 32 * p, 32, f->data);
  for (unsigned v = 0; v < E4F_VCS; v++) E4_SET(in, in_credit_i, p * E4F_VCS + v, 1, f->credit[v]);
}

void e4f_link_from_out(const elite4_p8_out_t *out, unsigned p, e4f_flit_t *f) {
  f->valid = E4_GET(out, out_valid_o, p, 1);
  f->kind = (uint8_t)E4_GET(out, out_kind_o, 2 * p, 2);
  f->vc = (uint8_t)E4_GET(out, out_vc_o, E4F_VCW * p, E4F_VCW);
  f->data = E4_GET(out, out_data_o, 32 * p, 32);
  for (unsigned v = 0; v < E4F_VCS; v++) f->credit[v] = E4_GET(out, out_credit_o, p * E4F_VCS + v, 1);
}

int e4f_lines_init(e4f_lines_t *l, unsigned n, unsigned delay) {
  l->n = n;
  l->delay = delay;
  l->slot = calloc((size_t)n * delay, sizeof *l->slot);
  return l->slot ? 0 : -ENOMEM;
}

void e4f_lines_free(e4f_lines_t *l) {
  free(l->slot);
  l->slot = NULL;
}
