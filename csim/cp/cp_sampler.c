/*
 * cp_sampler -- chooses which accepted enqueues are samples: random (common_lfsr32) or
 * byte countdown. Spec: docs/cp.md section 6 (and section 3 for the APPLY reloads).
 */
#include "cp_internal.h"

void cp_sampler_eval(const cp_regs_t *act, const common_lfsr32_state_t *lfsr, uint32_t cd, bool enq_ok,
                     uint32_t enq_len, bool apply, const cp_regs_t *next_act, cp_sampler_result_t *r) {
  /* Only accepted enqueues are candidates, and none while MODE is off. */
  const bool candidate = enq_ok && act->mode != CP_MODE_OFF;
  const bool random = act->sample_bytes == 0;

  /* The LFSR steps once per candidate in random mode. A legal APPLY loads SEED; it uses
       common_lfsr32's load port, which has priority over en (so APPLY wins over a step). */
  const common_lfsr32_in_t lin = {.en = candidate && random, .load = apply, .seed = next_act->seed};
  common_lfsr32_out_t lout;
  common_lfsr32_eval(&cp_lfsr_cfg, lfsr, &lin, &lout, &r->lfsr);

  r->sample = false;
  r->cd = cd;
  if (candidate) {
    if (random) {
      /* Compare the state before this cycle's step (state_o). */
      r->sample = lout.state < act->psample;
    } else {
      r->sample = enq_len >= cd;
      r->cd = r->sample ? act->sample_bytes : cd - enq_len;
    }
  }
  /* A legal APPLY reloads the countdown with the new SAMPLE_BYTES, over any update. */
  if (apply) r->cd = next_act->sample_bytes;
}
