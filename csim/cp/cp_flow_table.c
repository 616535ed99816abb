/*
 * cp_flow_table -- the E2CM per-flow table {valid, flow, q, qold}.
 * Spec: docs/cp.md section 8.
 */
#include "cp_internal.h"

int cp_ft_find(const cp_cfg_t *cfg, const cp_flow_entry_t *ft, uint32_t flow) {
  for (unsigned i = 0; i < cfg->num_flows; i++)
    if (ft[i].valid && ft[i].flow == flow) return (int)i;
  return -1;
}

static int lowest_free(const cp_cfg_t *cfg, const cp_flow_entry_t *ft) {
  for (unsigned i = 0; i < cfg->num_flows; i++)
    if (!ft[i].valid) return (int)i;
  return -1;
}

/* The next value of entry idx: a copy in u, made from the registered entry on first use,
   so several updates to one entry in a cycle combine. */
static cp_flow_entry_t *touch(const cp_flow_entry_t *ft, cp_ft_update_t *u, unsigned idx) {
  for (unsigned i = 0; i < u->n; i++)
    if (u->wr[i].idx == idx) return &u->wr[i].e;
  u->wr[u->n].idx = idx;
  u->wr[u->n].e = ft[idx];
  return &u->wr[u->n++].e;
}

void cp_flow_table_eval(const cp_cfg_t *cfg, const cp_flow_entry_t *ft, bool enq, uint32_t enq_flow,
                        uint32_t enq_len, bool deq, uint32_t deq_flow, uint32_t deq_len, cp_ft_update_t *u) {
  u->n = 0;
  u->full = false;

  /* Both lookups (and the free-entry search) are on the registered table: a dequeue of
       a flow with no entry at the start of the cycle does not touch an entry allocated in
       this cycle, and an entry freed in this cycle is not free for this cycle's enqueue. */
  const int enq_hit = enq ? cp_ft_find(cfg, ft, enq_flow) : -1;
  const int deq_hit = deq ? cp_ft_find(cfg, ft, deq_flow) : -1;

  if (enq) {
    if (enq_hit >= 0) {
      touch(ft, u, (unsigned)enq_hit)->q += enq_len;
    } else {
      const int fr = lowest_free(cfg, ft);
      if (fr >= 0) {
        cp_flow_entry_t *e = touch(ft, u, (unsigned)fr);
        e->valid = true;
        e->flow = enq_flow;
        e->q = enq_len;
        e->qold = 0;
      } else {
        u->full = true; /* the frame is not tracked */
      }
    }
  }
  if (deq_hit >= 0) {
    /* Saturate at 0: a frame counted nowhere (table full at its arrival) may leave
           from an entry. Same flow as the enqueue: q' = max(0, q + enq_len - deq_len). */
    cp_flow_entry_t *e = touch(ft, u, (unsigned)deq_hit);
    e->q = e->q > deq_len ? e->q - deq_len : 0u;
  }

  for (unsigned i = 0; i < u->n; i++) {
    cp_flow_entry_t *e = &u->wr[i].e;
    /* q is a QW-bit register. With consistent traffic q <= Q <= QMax and this never
           cuts anything; it only defines what happens with inconsistent dequeues. */
    e->q &= cp_qmax(cfg);
    /* An entry whose q is 0 after the update becomes invalid (planted bug
           cp_table_no_free: never). */
    if (e->q == 0 && cfg->bug != CP_BUG_TABLE_NO_FREE) e->valid = false;
  }
}

void cp_flow_table_write_qold(const cp_flow_entry_t *ft, cp_ft_update_t *u, unsigned idx, uint64_t qold) {
  /* idx held the flow at the start of the cycle, so no allocation can have reused it in
       this cycle: "still holding that flow" is "still valid". */
  cp_flow_entry_t *e = touch(ft, u, idx);
  if (e->valid) e->qold = qold;
}
