/*
 * cp -- cycle-accurate C model of the ECM/E2CM congestion point: top level.
 * Spec: docs/cp.md sections 1-8 and 10.
 *
 * cp_eval wires the sub-blocks in the spec's order: configuration (section 3), queue
 * monitor (5), sampler (6), flow table (8), feedback (7) and counters, and loads the
 * output registers. Pipeline (sections 7 and 10): cycle t's enqueue is sampled and
 * written into the sample register; at t+1 the feedback unit decides on the registered
 * Q/Qold/table; the decision then waits in a plain delay line (the model does not copy
 * the RTL's arithmetic pipeline) and is on the outputs at t + CP_BCN_LATENCY, the
 * per-flow message one cycle later. The table itself is updated with the event cycle's
 * values (section 8 defines the delayed table by those values); what shows it (ft_full_o,
 * the per-flow message) is delayed to the section 10 cycles.
 */
#include "cp_internal.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const cp_bug_names[] = {"none",
                                    "cp_qold_not_updated",
                                    "cp_quant_off_by_one",
                                    "cp_table_no_free",
                                    "cp_reset_keeps_ev_code",
                                    "cp_fbcn_early",
                                    NULL};

static bool param_ok(const char *name, unsigned v, unsigned lo, unsigned hi) {
  if (v >= lo && v <= hi) return true;
  fprintf(stderr, "cp: %s=%u is illegal (must be %u..%u)\n", name, v, lo, hi);
  return false;
}

int cp_init(cp_state_t *s, const cp_cfg_t *cfg) {
  memset(s, 0, sizeof(*s));
  if (!param_ok("qw", cfg->qw, CP_QW_MIN, CP_QW_MAX) ||
      !param_ok("num_flows", cfg->num_flows, CP_NUM_FLOWS_MIN, CP_NUM_FLOWS_MAX) ||
      !param_ok("flow_w", cfg->flow_w, CP_ID_W_MIN, CP_ID_W_MAX) ||
      !param_ok("node_w", cfg->node_w, CP_ID_W_MIN, CP_ID_W_MAX) ||
      !param_ok("max_frame", cfg->max_frame, CP_MAX_FRAME_MIN, CP_MAX_FRAME_MAX) ||
      !param_ok("bug", cfg->bug, 0, CP_BUG_COUNT - 1u))
    return -EINVAL;
  s->ft = calloc(cfg->num_flows, sizeof(*s->ft));
  if (s->ft == NULL) {
    fprintf(stderr, "cp: out of memory for num_flows=%u\n", cfg->num_flows);
    return -ENOMEM;
  }
  cp_reset(s, cfg);
  return 0;
}

void cp_reset(cp_state_t *s, const cp_cfg_t *cfg) {
  cp_flow_entry_t *ft = s->ft;
  const unsigned ev_code = s->ev_err_code;
  memset(s, 0, sizeof(*s)); /* Q, Qold, sample register, outputs, counters, errors: 0 */
  s->ft = ft;
  /* Planted bug cp_reset_keeps_ev_code: a register the reset forgets. Its reset value is
       0, so the bug is invisible from a zeroed start; the binding's scramble (garbage
       before reset, as the RTL's registers start random) makes it show at cycle 0. */
  if (cfg->bug == CP_BUG_RESET_KEEPS_EV_CODE) s->ev_err_code = ev_code;
  if (ft != NULL) memset(ft, 0, cfg->num_flows * sizeof(*ft)); /* all entries invalid */

  /* Active and shadow take the section 3 reset values. Byte registers are QW bits wide,
       so with QW < 19 the reset values are cut like any stored value (low QW bits). */
  cp_regs_default(&s->active);
  cp_regs_mask(&s->active, cfg->qw);
  s->shadow = s->active;

  /* As if the reset config had been applied: LFSR = SEED, cd = SAMPLE_BYTES. */
  common_lfsr32_reset(&s->lfsr, &cp_lfsr_cfg);
  s->cd = s->active.sample_bytes;
}

static uint32_t mask_bits(uint32_t v, unsigned bits) {
  return bits >= 32 ? v : v & (uint32_t)((UINT32_C(1) << bits) - 1u);
}

/* Section 4: every output is a register. */
static void outputs(const cp_state_t *s, cp_out_t *out) {
  out->q = (uint32_t)s->q;
  out->bcn_valid = s->bcn.valid;
  out->bcn_type = s->bcn.type;
  out->bcn_dst = s->bcn.dst;
  out->bcn_flow = s->bcn.flow;
  out->bcn_cpid = s->bcn_cpid;
  out->bcn_qoff = s->bcn.qoff;
  out->bcn_qdelta = s->bcn.qdelta;
  out->bcn_fb = s->bcn.fb;
  out->bcn_qntzfb = s->bcn.qntzfb;
  out->fbcn_valid = s->fbcn.valid;
  out->fbcn_type = s->fbcn.type;
  out->fbcn_dst = s->fbcn.dst;
  out->fbcn_flow = s->fbcn.flow;
  out->fbcn_qoff = s->fbcn.qoff;
  out->fbcn_qdelta = s->fbcn.qdelta;
  out->fbcn_fb = s->fbcn.fb;
  out->fbcn_qntzfb = s->fbcn.qntzfb;
  out->cfg_err = s->cfg_err;
  out->cfg_err_code = s->cfg_err_code;
  out->ev_err = s->ev_err;
  out->ev_err_code = s->ev_err_code;
  out->ft_full = s->ft_full;
  out->cnt_frames = s->cnt.frames;
  out->cnt_samples = s->cnt.samples;
  out->cnt_bcn_neg = s->cnt.bcn_neg;
  out->cnt_bcn_pos = s->cnt.bcn_pos;
  out->cnt_bcn_max = s->cnt.bcn_max;
  out->cnt_fbcn = s->cnt.fbcn;
  out->cnt_ft_full = s->cnt.ft_full;
  out->cnt_errors = s->cnt.errors;
}

void cp_eval(const cp_cfg_t *cfg, const cp_state_t *s, const cp_in_t *in_raw, cp_out_t *out, cp_next_t *nx) {
  outputs(s, out);

  /* The ports are only so wide. */
  cp_in_t in = *in_raw;
  in.cfg_addr = mask_bits(in.cfg_addr, 4);
  in.enq_len = mask_bits(in.enq_len, 16);
  in.enq_flow = mask_bits(in.enq_flow, cfg->flow_w);
  in.enq_src = mask_bits(in.enq_src, cfg->node_w);
  in.enq_tag_cpid = mask_bits(in.enq_tag_cpid, 16);
  in.deq_len = mask_bits(in.deq_len, 16);
  in.deq_flow = mask_bits(in.deq_flow, cfg->flow_w);

  /* Everything below uses the active configuration registered at the start of the
       cycle; a legal APPLY takes effect from the next cycle. */
  const cp_regs_t *act = &s->active;
  const bool on = act->mode != CP_MODE_OFF;

  /* ---- section 3: register port, APPLY --------------------------------------------- */
  cp_config_result_t cr;
  cp_config_eval(cfg, &s->shadow, &in, &cr);
  nx->shadow = cr.shadow;
  nx->apply_ok = cr.apply_ok;
  nx->active = cr.apply_ok ? s->shadow : s->active;
  nx->cfg_err = cr.err;
  nx->cfg_err_code = cr.err ? cr.code : s->cfg_err_code; /* held until the next error */

  /* ---- section 5: queue monitor (in every mode) -------------------------------------- */
  cp_qmon_result_t qm;
  cp_queue_monitor_eval(cfg, s->q, &in, &qm);
  nx->q = qm.q_next;
  nx->enq_ok = qm.enq_ok;
  nx->deq_ok = qm.deq_ok;
  nx->ev_err = qm.err;
  nx->ev_err_code = qm.err ? qm.code : s->ev_err_code;

  /* ---- section 6: sampler ------------------------------------------------------------ */
  cp_sampler_result_t sr;
  cp_sampler_eval(act, &s->lfsr, s->cd, qm.enq_ok, in.enq_len, cr.apply_ok, &nx->active, &sr);
  nx->lfsr = sr.lfsr;
  nx->cd = sr.cd;
  nx->sample = sr.sample;

  /* ---- section 7, cycle t: the sample register captures this cycle's enqueue --------- */
  nx->smp.sample = sr.sample;
  nx->smp.answer_probe = qm.enq_ok && ((act->mode == CP_MODE_E2CM && in.enq_probe) ||
                                       (act->mode == CP_MODE_E2CM_CP && sr.sample));
  nx->smp.src = in.enq_src;
  nx->smp.flow = in.enq_flow;
  nx->smp.tag_ok = in.enq_tagged && in.enq_tag_cpid == act->cpid;

  /* ---- section 8: flow table event updates (any mode except off) --------------------- */
  cp_ft_update_t fu;
  cp_flow_table_eval(cfg, s->ft, on && qm.enq_ok, in.enq_flow, in.enq_len, on && qm.deq_ok, in.deq_flow,
                     in.deq_len, &fu);
  /* ft_full_o: decided in the table cycle t+1 (section 8), on the outputs at t+2 */
  nx->ft_full_pend = fu.full;
  nx->ft_full = s->ft_full_pend;

  /* ---- section 7, cycle t+1: feedback on the registered sample, Q, Qold and table ---- */
  const cp_sample_reg_t *smp = &s->smp;
  cp_fb_stage_t *dec = &nx->fbp[0]; /* this decision enters the feedback pipeline */
  cp_msg_t m;

  memset(dec, 0, sizeof(*dec));
  dec->sample = smp->sample;
  dec->cpid = act->cpid;
  nx->qold = s->qold;
  if (smp->sample) {
    /* D is a function of the active configuration (docs/cp.md §3): computed here,
           not kept as a register of its own */
    const bool bcn =
        cp_feedback_queue(act, cp_derive_d(act->w, act->qeq), s->q, s->qold, smp->tag_ok, cfg->bug, &m);
    if (bcn) {
      m.valid = true;
      m.dst = smp->src;
      m.flow = smp->flow;
      dec->bcn = m;
    }
    /* Qold <- Q at every sample, message or not (planted bug cp_qold_not_updated:
           only with a message). */
    if (bcn || cfg->bug != CP_BUG_QOLD_NOT_UPDATED) nx->qold = s->q;
  }

  if (smp->answer_probe) {
    const int idx = cp_ft_find(cfg, s->ft, smp->flow);
    const bool fbcn = cp_feedback_flow(act, cp_derive_d(act->w, act->qeq_flow), idx >= 0 ? &s->ft[idx] : NULL,
                                       cfg->bug, &m);
    if (fbcn) {
      m.valid = true;
      m.dst = smp->src;
      m.flow = smp->flow;
      dec->fbcn = m;
    }
    /* Qold_flow <- the Q_flow just used, for every answered probe with an entry. */
    if (idx >= 0) cp_flow_table_write_qold(s->ft, &fu, (unsigned)idx, s->ft[idx].q);
  }

  /* ---- section 10: the decision waits CP_FB_STAGES cycles, then the output registers
       load it. With no message the data outputs keep their values; only valid drops. */
  for (unsigned k = 1; k < CP_FB_STAGES; k++) nx->fbp[k] = s->fbp[k - 1];
  const cp_fb_stage_t *out_st = &s->fbp[CP_FB_STAGES - 1];
  nx->bcn = s->bcn;
  nx->bcn.valid = false;
  nx->bcn_cpid = s->bcn_cpid;
  if (out_st->bcn.valid) {
    nx->bcn = out_st->bcn;
    nx->bcn_cpid = out_st->cpid;
  }
  /* the per-flow message waits one cycle more (t+12, section 10; planted bug
       cp_fbcn_early: it does not) */
  const bool fbcn_early = cfg->bug == CP_BUG_FBCN_EARLY;
  nx->fbcn_late = fbcn_early ? (cp_msg_t){0} : out_st->fbcn;
  const cp_msg_t *fbcn_out = fbcn_early ? &out_st->fbcn : &s->fbcn_late;
  nx->fbcn = s->fbcn;
  nx->fbcn.valid = false;
  if (fbcn_out->valid) nx->fbcn = *fbcn_out;

  /* A legal APPLY clears Qold and every Qold_flow; it wins over this cycle's
       feedback writes. */
  if (cr.apply_ok) nx->qold = 0;
  nx->ft_clear_qold = cr.apply_ok;
  /* Section 8: while MODE is off the table is kept empty, so no entry outlives
       frames that leave unseen. */
  nx->ft_invalidate = !on;

  nx->ft_nwr = fu.n;
  for (unsigned i = 0; i < fu.n; i++) nx->ft_wr[i] = fu.wr[i];

  /* ---- counters: t's event pulses wait one cycle (visible at t+2); the messages
       leaving the pipeline are counted as they leave (visible with them) ----------- */
  nx->pend.frame = qm.enq_ok;
  nx->pend.ft_full = fu.full;
  nx->pend.ev_err = qm.err;
  nx->pend.cfg_err = cr.err;
  const cp_count_events_t ev = {
      .frame = s->pend.frame,
      .sample = out_st->sample,
      .bcn = out_st->bcn.valid,
      .bcn_type = out_st->bcn.type,
      .fbcn = fbcn_out->valid,
      .ft_full = s->pend.ft_full,
      .ev_err = s->pend.ev_err,
      .cfg_err = s->pend.cfg_err,
  };
  cp_counters_eval(&s->cnt, &ev, &nx->cnt);
}

void cp_commit(const cp_cfg_t *cfg, cp_state_t *s, const cp_next_t *nx) {
  s->shadow = nx->shadow;
  s->active = nx->active;
  s->q = nx->q;
  common_lfsr32_commit(&cp_lfsr_cfg, &s->lfsr, &nx->lfsr);
  s->cd = nx->cd;
  s->smp = nx->smp;
  s->qold = nx->qold;
  memcpy(s->fbp, nx->fbp, sizeof(s->fbp));
  s->fbcn_late = nx->fbcn_late;
  for (unsigned i = 0; i < nx->ft_nwr; i++) s->ft[nx->ft_wr[i].idx] = nx->ft_wr[i].e;
  if (nx->ft_invalidate)
    for (unsigned i = 0; i < cfg->num_flows; i++) s->ft[i].valid = false;
  if (nx->ft_clear_qold)
    for (unsigned i = 0; i < cfg->num_flows; i++) s->ft[i].qold = 0; /* the occupancies are kept */
  s->bcn = nx->bcn;
  s->bcn_cpid = nx->bcn_cpid;
  s->fbcn = nx->fbcn;
  s->cfg_err = nx->cfg_err;
  s->cfg_err_code = nx->cfg_err_code;
  s->ev_err = nx->ev_err;
  s->ev_err_code = nx->ev_err_code;
  s->ft_full = nx->ft_full;
  s->ft_full_pend = nx->ft_full_pend;
  s->cnt = nx->cnt;
  s->pend = nx->pend;
}

void cp_free(cp_state_t *s) {
  free(s->ft);
  s->ft = NULL;
}
