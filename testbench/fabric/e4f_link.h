/* elite4 fabric: one direction of a link in one cycle, delay lines, and the
 * mapping between a link and port p of the elite4_p8 target's flat buses.
 *
 * Link-latency convention (docs/elite4.md "Fabrics"): what an instance puts
 * on its outputs in fabric cycle c is on its neighbour's inputs in cycle
 * c + D (D = --link-delay, default 1). A switch's outputs are registers, so
 * with D = 1 a link is exactly the one register stage between blocks of docs/architecture.md ("Clocks and time"). */
#ifndef E4F_LINK_H
#define E4F_LINK_H

#include <stdbool.h>
#include <stdint.h>

#include "bind/elite4.h"

#ifdef __cplusplus
extern "C" {
#endif

#define E4F_PORTS          ((unsigned)ELITE4_P8_PARAM_NumPorts) /* 8: ports 0..3 down, 4..7 up */
#define E4F_VCS            ((unsigned)ELITE4_P8_PARAM_NumVcs)   /* 2 */
#define E4F_DEPTH          ((unsigned)ELITE4_P8_PARAM_BufDepth) /* 8 flits = credits per VC */
#define E4F_DOWN           4u                                   /* radix: ports 0..3 down */
#define E4F_MAX_LINK_DELAY 64u

/* One direction of a link in one cycle: at most one flit, plus one credit
 * return per VC for flits that travelled the other way. */
typedef struct {
  bool valid;
  uint8_t kind, vc;
  uint32_t data;
  bool credit[E4F_VCS];
} e4f_flit_t;

/* Port p of a switch's inputs from / outputs to a link. */
void e4f_link_to_in(elite4_p8_in_t *in, unsigned p, const e4f_flit_t *f);
void e4f_link_from_out(const elite4_p8_out_t *out, unsigned p, e4f_flit_t *f);

/* n link directions, each a D-stage delay line. In cycle c, e4f_line_rx()
 * gives what was sent in cycle c - D (zero before that), and e4f_line_tx()
 * the slot to fill for cycle c; read every receiver before writing. */
typedef struct {
  unsigned n, delay;
  e4f_flit_t *slot; /* [delay][n] */
} e4f_lines_t;

int e4f_lines_init(e4f_lines_t *l, unsigned n, unsigned delay);
void e4f_lines_free(e4f_lines_t *l);
static inline e4f_flit_t *e4f_line_rx(e4f_lines_t *l, uint64_t c, unsigned i) {
  return &l->slot[(size_t)(c % l->delay) * l->n + i];
}
/* the same slot: once read, it is overwritten with this cycle's flit */
static inline e4f_flit_t *e4f_line_tx(e4f_lines_t *l, uint64_t c, unsigned i) { return e4f_line_rx(l, c, i); }

#ifdef __cplusplus
}
#endif
#endif
