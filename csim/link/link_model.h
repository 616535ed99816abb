/*
 * link_model -- a link built from physical figures, for fabrics (docs/link.md §8):
 * core clock period, cable metres and the wire encoding give RateNum/RateDen and
 * the cable's cycles by docs/link.md §2's formula; one call steps a cycle.
 * C only (no co-simulation target of its own: it is the link model underneath).
 */
#ifndef LINK_MODEL_H
#define LINK_MODEL_H

#include <stdbool.h>

#include "link.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
  unsigned num_vcs;      /* 2 or 4 */
  unsigned core_ps;      /* core clock period, ps */
  unsigned cable_m;      /* metres */
  bool enc_4b5b;         /* 4b5b encoding on the wire (Table 2) */
  unsigned align_cycles; /* receiver alignment after training, 1..16 */
  unsigned train_cycles; /* 0..4095 */
} link_model_cfg_t;

typedef struct {
  link_cfg_t cfg;
  link_state_t s;
  link_next_t nx;
} link_model_t;

/* flits per core cycle = min(1, core_ps / (bits_per_wire * 750 ps)) in lowest terms */
void link_rate(unsigned core_ps, bool enc_4b5b, unsigned *num, unsigned *den);
/* 0 or -EINVAL (one line on stderr naming the field) */
int link_model_init(link_model_t *m, const link_model_cfg_t *c);
void link_model_eval(link_model_t *m, const link_in_t *in, link_out_t *out); /* pure */
void link_model_commit(link_model_t *m);                                     /* the edge */
void link_model_step(link_model_t *m, const link_in_t *in, link_out_t *out); /* eval + commit */
void link_model_free(link_model_t *m);

#ifdef __cplusplus
}
#endif

#endif /* LINK_MODEL_H */
