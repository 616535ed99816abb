/*
 * link -- top: tx, forward cable, alignment, rx, the reverse credit sideband
 * and the four counters (docs/link.md §3, §5, §8).
 */
#include "link.h"

#include <errno.h>
#include <stdio.h>

const char *const link_bug_names[] = {"none",
                                      "link_slot_late",
                                      "link_err_forwards",
                                      "link_err_silent",
                                      "link_crc_one_vc",
                                      "link_credit_short",
                                      "link_wire_short",
                                      "link_reset_keeps_cnt",
                                      NULL};

unsigned link_wire_cycles(unsigned core_ps, unsigned cable_m) {
  return (unsigned)(((uint64_t)cable_m * LINK_PS_PER_M + core_ps - 1u) / core_ps);
}

static unsigned fwd_stages(const link_cfg_t *cfg) {
  unsigned w = link_wire_cycles(cfg->core_ps, cfg->cable_m);
  return cfg->bug == LINK_BUG_WIRE_SHORT && w ? w - 1 : w;
}
static unsigned ralign_stages(const link_cfg_t *cfg) {
  return cfg->bug == LINK_BUG_CREDIT_SHORT ? cfg->align_cycles - 1 : cfg->align_cycles;
}

unsigned link_latency(const link_cfg_t *cfg) { return 1 + fwd_stages(cfg) + cfg->align_cycles; }

static int bad(const char *field, unsigned v, const char *legal) {
  fprintf(stderr, "link: %s=%u is illegal (must be %s)\n", field, v, legal);
  return -EINVAL;
}

int link_init(link_state_t *s, const link_cfg_t *cfg) {
  *s = (link_state_t){0};
  if (cfg->num_vcs != 2 && cfg->num_vcs != 4) return bad("num_vcs", cfg->num_vcs, "2 or 4");
  if (cfg->rate_den < 1 || cfg->rate_den > LINK_MAX_RATE_DEN)
    return bad("rate_den", cfg->rate_den, "1..1024");
  if (cfg->rate_num < 1 || cfg->rate_num > cfg->rate_den)
    return bad("rate_num", cfg->rate_num, "1..rate_den");
  if (cfg->core_ps < LINK_MIN_CORE_PS || cfg->core_ps > LINK_MAX_CORE_PS)
    return bad("core_ps", cfg->core_ps, "1000..100000");
  if (cfg->cable_m > LINK_MAX_CABLE_M) return bad("cable_m", cfg->cable_m, "0..100");
  if (link_wire_cycles(cfg->core_ps, cfg->cable_m) > LINK_MAX_WIRE_CYCLES)
    return bad("cable_m", cfg->cable_m, "at most 256 wire cycles at this core_ps");
  if (cfg->align_cycles < 1 || cfg->align_cycles > LINK_MAX_ALIGN_CYCLES)
    return bad("align_cycles", cfg->align_cycles, "1..16");
  if (cfg->train_cycles > LINK_MAX_TRAIN_CYCLES) return bad("train_cycles", cfg->train_cycles, "0..4095");
  if (cfg->bug >= LINK_BUG_COUNT) return bad("bug", cfg->bug, "0..7");
  if (link_wire_init(&s->fwd, fwd_stages(cfg)) || link_wire_init(&s->align, cfg->align_cycles - 1) ||
      link_wire_init(&s->rev, link_wire_cycles(cfg->core_ps, cfg->cable_m)) ||
      link_wire_init(&s->ralign, ralign_stages(cfg)) || link_wire_init(&s->errline, LINK_CRC_LAG)) {
    link_free(s);
    fprintf(stderr, "link: out of memory\n");
    return -ENOMEM;
  }
  link_reset(s, cfg);
  return 0;
}

void link_reset(link_state_t *s, const link_cfg_t *cfg) {
  s->tx = (link_tx_state_t){0};
  link_wire_reset(&s->fwd);
  link_wire_reset(&s->align);
  link_wire_reset(&s->rev);
  link_wire_reset(&s->ralign);
  link_wire_reset(&s->errline);
  s->rx.rxq = 0;
  s->rx.crcerr = false;
  const common_crc32_cfg_t ccfg = {0};
  for (unsigned v = 0; v < LINK_MAX_VCS; v++) common_crc32_reset(&s->rx.crc[v], &ccfg);
  s->crq = 0;
  s->cnt_tx_flits = s->cnt_tx_err = s->cnt_rx_flits = 0;
  if (cfg->bug != LINK_BUG_RESET_KEEPS_CNT) s->cnt_crc_err = 0;
}

void link_eval(const link_cfg_t *cfg, const link_state_t *s, const link_in_t *in, link_out_t *out,
               link_next_t *nx) {
  bool accept, offslot; /* this cycle's offer; the counters use the registered ones */
  link_tx_eval(cfg, &s->tx, in, &out->slot, &out->up, &nx->tx, &accept, &offslot);
  out->tx_err = s->tx.err;

  /* forward: tx register -> cable -> alignment -> rx */
  nx->fwd_in = s->tx.txq;
  nx->align_in = link_wire_out(&s->fwd, nx->fwd_in);
  const uint64_t f = link_wire_out(&s->align, nx->align_in);
  link_rx_eval(cfg, &s->rx, f, &nx->rx);
  out->rx = link_flit_unpack(s->rx.rxq);
  nx->err_in = s->rx.crcerr; /* the flag lags its TAIL by LINK_CRC_LAG cycles (docs/link.md §6.1) */
  out->crc_err = link_wire_out(&s->errline, nx->err_in);

  /* reverse sideband: credit register -> cable -> alignment (its last stage is the output) */
  const unsigned vmask = (1u << cfg->num_vcs) - 1u;
  nx->crq = in->rx_credit & vmask;
  nx->rev_in = s->crq;
  nx->ralign_in = link_wire_out(&s->rev, nx->rev_in);
  out->tx_credit = (unsigned)link_wire_out(&s->ralign, nx->ralign_in);

  /* counters: wrap at 2^32 */
  out->cnt_tx_flits = s->cnt_tx_flits;
  out->cnt_tx_err = s->cnt_tx_err;
  out->cnt_rx_flits = s->cnt_rx_flits;
  out->cnt_crc_err = s->cnt_crc_err;
  /* each counter increments from a register (docs/link.md §3) */
  nx->cnt_tx_flits = s->cnt_tx_flits + (s->tx.accepted ? 1u : 0u);
  nx->cnt_tx_err = s->cnt_tx_err + (s->tx.err ? 1u : 0u);
  nx->cnt_rx_flits = s->cnt_rx_flits + (link_flit_unpack(f).valid ? 1u : 0u);
  nx->cnt_crc_err = s->cnt_crc_err + (out->crc_err ? 1u : 0u);
}

void link_commit(const link_cfg_t *cfg, link_state_t *s, const link_next_t *nx) {
  (void)cfg;
  s->tx = nx->tx;
  link_wire_commit(&s->fwd, nx->fwd_in);
  link_wire_commit(&s->align, nx->align_in);
  s->rx = nx->rx;
  s->crq = nx->crq;
  link_wire_commit(&s->rev, nx->rev_in);
  link_wire_commit(&s->ralign, nx->ralign_in);
  link_wire_commit(&s->errline, nx->err_in);
  s->cnt_tx_flits = nx->cnt_tx_flits;
  s->cnt_tx_err = nx->cnt_tx_err;
  s->cnt_rx_flits = nx->cnt_rx_flits;
  s->cnt_crc_err = nx->cnt_crc_err;
}

void link_free(link_state_t *s) {
  link_wire_free(&s->fwd);
  link_wire_free(&s->align);
  link_wire_free(&s->rev);
  link_wire_free(&s->ralign);
  link_wire_free(&s->errline);
}
