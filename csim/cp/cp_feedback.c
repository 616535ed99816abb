/*
 * cp_feedback -- the feedback unit's decisions, one cycle after the sample: queue-level
 * (ECM) BCN for a sample, per-flow (E2CM) BCN for an answered probe.
 * Spec: docs/cp.md sections 2 and 7.
 */
#include "cp_internal.h"

/* Section 2, one formula for both levels:
   Qoff = Qeq - Q, Qdelta = Q - Qold, Fb = Qoff - W*Qdelta, QntzFb = quantise(|Fb|). */
static void compute(uint64_t q, uint64_t qold, uint64_t qeq, uint32_t w, uint64_t d, unsigned bug,
                    cp_msg_t *m) {
  m->qoff = (int64_t)qeq - (int64_t)q;
  m->qdelta = (int64_t)q - (int64_t)qold;
  m->fb = m->qoff - (int64_t)w * m->qdelta;
  m->qntzfb = cp_quantise((uint64_t)(m->fb < 0 ? -m->fb : m->fb), d, bug);
}

bool cp_feedback_queue(const cp_regs_t *act, uint64_t d, uint64_t q, uint64_t qold, bool tag_ok, unsigned bug,
                       cp_msg_t *m) {
  compute(q, qold, act->qeq, act->w, d, bug, m);
  /* Conditions in the order of the section 7 table. MAX keeps the computed fields. */
  if (q > act->bcnmax) {
    m->type = CP_BCN_MAX;
    m->qntzfb = CP_QNTZ_MAX;
    return true;
  }
  if (m->fb < 0) {
    m->type = CP_BCN_NEG;
    return true;
  }
  if (m->fb > 0 && tag_ok) {
    m->type = CP_BCN_POS;
    return true;
  }
  /* Fb == 0, or positive but untagged: "no BCN(0,0), no self-increase". */
  return false;
}

bool cp_feedback_flow(const cp_regs_t *act, uint64_t df, const cp_flow_entry_t *e, unsigned bug,
                      cp_msg_t *m) {
  if (e == NULL) /* the flow has no entry: nothing to answer with */
    return false;
  compute(e->q, e->qold, act->qeq_flow, act->w, df, bug, m);
  if (e->q > act->bcnmax_flow) {
    m->type = CP_BCN_MAX;
    m->qntzfb = CP_QNTZ_MAX;
    return true;
  }
  if (m->fb < 0) {
    m->type = CP_BCN_NEG;
    return true;
  }
  if (m->fb > 0) { /* probes are answered whatever their tag */
    m->type = CP_BCN_POS;
    return true;
  }
  return false;
}
