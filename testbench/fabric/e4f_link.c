/* elite4 fabric links: see e4f_link.h. */
#include "e4f_link.h"

#include <errno.h>
#include <stdlib.h>

/* Through the per-lane accessors gluegen writes from rtl/elite4/elite4.cosim's
 * `lanes` lines: no field width is written here. */
void e4f_link_to_in(elite4_p8_in_t *in, unsigned p, const e4f_flit_t *f) {
  elite4_p8_in_valid_i_set(in, p, f->valid);
  elite4_p8_in_kind_i_set(in, p, f->kind);
  elite4_p8_in_vc_i_set(in, p, f->vc);
  elite4_p8_in_data_i_set(in, p, f->data);
  for (unsigned v = 0; v < E4F_VCS; v++) elite4_p8_in_credit_i_set(in, p * E4F_VCS + v, f->credit[v]);
}

void e4f_link_from_out(const elite4_p8_out_t *out, unsigned p, e4f_flit_t *f) {
  f->valid = elite4_p8_out_valid_o_get(out, p);
  f->kind = (uint8_t)elite4_p8_out_kind_o_get(out, p);
  f->vc = (uint8_t)elite4_p8_out_vc_o_get(out, p);
  f->data = elite4_p8_out_data_o_get(out, p);
  for (unsigned v = 0; v < E4F_VCS; v++) f->credit[v] = elite4_p8_out_credit_o_get(out, p * E4F_VCS + v);
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
