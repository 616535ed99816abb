/*
 * cp_queue_monitor -- the queue occupancy Q and the acceptance of enqueue/dequeue events.
 * Spec: docs/cp.md section 5.
 */
#include "cp_internal.h"

static bool len_ok(const cp_cfg_t *cfg, uint32_t len) { return len >= CP_MIN_FRAME && len <= cfg->max_frame; }

void cp_queue_monitor_eval(const cp_cfg_t *cfg, uint64_t q, const cp_in_t *in, cp_qmon_result_t *r) {
  const bool enq_len_ok = len_ok(cfg, in->enq_len);
  const bool deq_len_ok = len_ok(cfg, in->deq_len);

  /* The dequeue is checked first and only against the bytes present at the start of the
       cycle: a frame cannot leave in the cycle it arrives. */
  r->deq_ok = in->deq_valid && deq_len_ok && in->deq_len <= q;
  const uint64_t after_deq = q - (r->deq_ok ? in->deq_len : 0u);
  /* The enqueue may use the room this cycle's dequeue frees. */
  r->enq_ok = in->enq_valid && enq_len_ok && after_deq + in->enq_len <= cp_qmax(cfg);
  r->q_next = after_deq + (r->enq_ok ? in->enq_len : 0u);

  /* The first applicable code; with two rejections that is the smaller one. */
  r->code = 0;
  if (in->enq_valid && !enq_len_ok)
    r->code = CP_EV_ERR_ENQ_LEN;
  else if (in->deq_valid && !deq_len_ok)
    r->code = CP_EV_ERR_DEQ_LEN;
  else if (in->enq_valid && !r->enq_ok)
    r->code = CP_EV_ERR_OVERFLOW;
  else if (in->deq_valid && !r->deq_ok)
    r->code = CP_EV_ERR_UNDERFLOW;
  r->err = r->code != 0;
}
