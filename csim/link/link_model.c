/*
 * link_model -- a link from physical figures (docs/link.md §2, §8).
 */
#include "link_model.h"

static unsigned gcd(unsigned a, unsigned b) {
  while (b) {
    unsigned t = a % b;
    a = b;
    b = t;
  }
  return a;
}

void link_rate(unsigned core_ps, bool enc_4b5b, unsigned *num, unsigned *den) {
  const unsigned tf = (enc_4b5b ? 5u : 4u) * LINK_BIT_PS; /* a flit's time on the 8 wires */
  if (core_ps >= tf) {
    *num = *den = 1; /* the core, not the wire, limits the port */
    return;
  }
  const unsigned g = gcd(core_ps, tf);
  *num = core_ps / g;
  *den = tf / g;
}

int link_model_init(link_model_t *m, const link_model_cfg_t *c) {
  unsigned num = 1, den = 1;
  if (c->core_ps) link_rate(c->core_ps, c->enc_4b5b, &num, &den);
  m->cfg = (link_cfg_t){c->num_vcs, num, den, c->core_ps, c->cable_m, c->align_cycles, c->train_cycles, 0};
  return link_init(&m->s, &m->cfg);
}

void link_model_eval(link_model_t *m, const link_in_t *in, link_out_t *out) {
  link_eval(&m->cfg, &m->s, in, out, &m->nx);
}
void link_model_commit(link_model_t *m) { link_commit(&m->cfg, &m->s, &m->nx); }
void link_model_step(link_model_t *m, const link_in_t *in, link_out_t *out) {
  link_model_eval(m, in, out);
  link_model_commit(m);
}
void link_model_free(link_model_t *m) { link_free(&m->s); }
