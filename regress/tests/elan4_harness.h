/* What the elan4 tests share: the first inputs of a drive (e4h_drive_base),
 * the test's own local memory behind lm_* (docs/elan4.md §3.3: a read's data LmLatency cycles
 * after its request, writes stored), credit returns on in_credit_i, and a
 * failure with its cycle. The tests' reference, never the model's code. */
#ifndef NETCOSIM_ELAN4_HARNESS_H
#define NETCOSIM_ELAN4_HARNESS_H

#include "bind/elan4.h"

enum { E4H_MEMDW = 1u << 19, E4H_RDQ = 16 }; /* local memory in dwords; reads in flight (> LmLatency) */

typedef struct {
  uint64_t mem[E4H_MEMDW]; /* dword addressed, 0 where never written */
  int64_t lat;             /* LmLatency */
  bool rd_due[E4H_RDQ];    /* by cycle mod E4H_RDQ: a read's data is due */
  uint32_t rd_addr[E4H_RDQ];
} e4h_lm_t;

static inline uint64_t e4h_lm_get(const e4h_lm_t *m, uint32_t a) { return a < E4H_MEMDW ? m->mem[a] : 0; }
/* check(): a write seen on lm_* (outside the modelled memory: dropped) */
static inline void e4h_lm_write(e4h_lm_t *m, uint32_t a, uint64_t d) {
  if (a < E4H_MEMDW) m->mem[a] = d;
}
/* check(): a read seen on lm_* in `cycle`, answered LmLatency cycles later */
static inline void e4h_lm_read(e4h_lm_t *m, uint64_t cycle, uint32_t a) {
  const unsigned k = (unsigned)((cycle + (uint64_t)m->lat) % E4H_RDQ);
  m->rd_due[k] = true;
  m->rd_addr[k] = a;
}
/* drive(): the answer due in `cycle`, if any (true, *data) */
static inline bool e4h_lm_answer(e4h_lm_t *m, uint64_t cycle, uint64_t *data) {
  const unsigned k = (unsigned)(cycle % E4H_RDQ);
  if (!m->rd_due[k]) return false;
  m->rd_due[k] = false;
  *data = e4h_lm_get(m, m->rd_addr[k]);
  return true;
}
/* drive(): one credit per VC that has some owed (the in_credit_i bits) */
static inline uint64_t e4h_credits(unsigned *owed, unsigned nvc) {
  uint64_t cr = 0;
  for (unsigned v = 0; v < nvc; v++)
    if (owed[v]) {
      owed[v]--;
      cr |= 1u << v;
    }
  return cr;
}
/* drive()'s first inputs, the same in every directed test: the node id, the
   host memory always ready, local memory's answer due this cycle, and one
   credit per VC that has some owed */
static inline void e4h_drive_base(const elan4_view_t *vw, void *in, e4h_lm_t *lm, uint64_t cycle,
                                  unsigned node, unsigned *owed, unsigned nvc) {
  uint64_t rd;
  cosim_lane_set(&vw->in.node_i, in, 0, node);
  cosim_lane_set(&vw->in.hm_ready_i, in, 0, 1);
  if (e4h_lm_answer(lm, cycle, &rd)) {
    cosim_lane_set(&vw->in.lm_rvalid_i, in, 0, 1);
    cosim_lane_set(&vw->in.lm_rdata_i, in, 0, rd);
  }
  cosim_lane_set(&vw->in.in_credit_i, in, 0, e4h_credits(owed, nvc));
}
/* drive(): one PIO request on ht_* (whole dwords: be 0xFF) */
static inline void e4h_drive_pio(const elan4_view_t *vw, void *in, bool write, uint32_t addr, uint64_t data,
                                 uint8_t tag) {
  cosim_lane_set(&vw->in.ht_valid_i, in, 0, 1);
  cosim_lane_set(&vw->in.ht_write_i, in, 0, write);
  cosim_lane_set(&vw->in.ht_addr_i, in, 0, addr);
  cosim_lane_set(&vw->in.ht_data_i, in, 0, data);
  cosim_lane_set(&vw->in.ht_be_i, in, 0, 0xFF);
  cosim_lane_set(&vw->in.ht_tag_i, in, 0, tag);
}
/* drive(): a TOKEN on in_* for VC vc, ack (1) or nack (0) */
static inline void e4h_drive_token(const elan4_view_t *vw, void *in, unsigned vc, bool ack) {
  cosim_lane_set(&vw->in.in_valid_i, in, 0, 1);
  cosim_lane_set(&vw->in.in_kind_i, in, 0, 3);
  cosim_lane_set(&vw->in.in_vc_i, in, 0, vc);
  cosim_lane_set(&vw->in.in_data_i, in, 0, ack);
}
static inline bool e4h_fail_at(cosim_msg_t *msg, const char *id, const char *what, uint64_t cycle) {
  cosim_fail(msg, id, "%s (cycle %llu)", what, (unsigned long long)cycle);
  return false;
}
/* Port access in a test's drive() and check(), which name their context g
   (with g->vw the target's view), their input struct in, their output
   struct out and their failure message msg. */
#define IN(port, v)   cosim_lane_set(&g->vw->in.port, in, 0, (v))
#define INP(port)     cosim_lane_get(&g->vw->in.port, in, 0)
#define OUT(port)     cosim_lane_get(&g->vw->out.port, out, 0)
#define CNT(k)        cosim_lane_get(&g->vw->out.cnt_o, out, (k))
#define FAIL(id, ...) (cosim_fail(msg, id, __VA_ARGS__), false)

/* a test's init() for one target: fn(ctx, &view) */
#define E4H_INIT(name, fn, view)                  \
  static void name(void *ctx, cosim_rng_t *rng) { \
    (void)rng;                                    \
    fn(ctx, &view);                               \
  }

#endif
