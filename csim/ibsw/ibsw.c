/* ibsw top: parameters, reset, one cycle's evaluation order, the clock edge
   (docs/ibsw.md; the units are in the other ibsw_*.c files). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ibsw_internal.h"

const char *const ibsw_bug_names[] = {IBSW_BUGS(IBSW_BUG_NAME) NULL};

unsigned ibsw_lane_depth(const ibsw_cfg_t *cfg, unsigned lane) {
  return lane < cfg->num_data_vls ? cfg->buf_depth : cfg->buf15_depth;
}
unsigned ibsw_lft_entries(const ibsw_cfg_t *cfg) { return 64u * cfg->lft_blocks; }
unsigned ibsw_counter_width(const ibsw_cfg_t *cfg, unsigned c) {
  unsigned w = cfg->cnt_w;
  if (c >= IBSW_C_EXT_XMIT_DATA) return cfg->ext_w;
  if (c == IBSW_C_LINK_DOWNED) return w < 8 ? w : 8;
  if (c >= IBSW_C_SYMBOL_ERR) return w < 16 ? w : 16;
  return w;
}
uint32_t ibsw_port_power_mw(const ibsw_cfg_t *cfg) {
  static const uint32_t wp[4] = {210, 770, 260, 950}; /* seed 000 Table 1 */
  return wp[cfg->link_speed & 3u];
}

static int param_ok(const char *name, unsigned long long v, unsigned long long lo, unsigned long long hi) {
  if (v >= lo && v <= hi) return 1;
  fprintf(stderr, "ibsw: parameter %s = %llu out of its legal range %llu..%llu (docs/ibsw.md §2)\n", name, v,
          lo, hi);
  return 0;
}

int ibsw_init(ibsw_state_t *s, const ibsw_cfg_t *cfg) {
  memset(s, 0, sizeof *s);
  unsigned extlo = cfg->cnt_w > 16 ? cfg->cnt_w : 16;
  if (!param_ok("NumPorts", cfg->num_ports, 2, 31) || !param_ok("NumDataVls", cfg->num_data_vls, 2, 7) ||
      !param_ok("BufDepth", cfg->buf_depth, 4, 256) || !param_ok("Buf15Depth", cfg->buf15_depth, 4, 64) ||
      !param_ok("RouteCycles", cfg->route_cycles, 5, 255) ||
      !param_ok("WakeCycles", cfg->wake_cycles, 1, 16777215) ||
      !param_ok("LftBlocks", cfg->lft_blocks, 1, 768) || !param_ok("LinkSpeed", cfg->link_speed, 0, 3) ||
      !param_ok("CntW", cfg->cnt_w, 8, 32) || !param_ok("ExtW", cfg->ext_w, extlo, 64) ||
      !param_ok("BootActive", cfg->boot_active, 0, 1) || !param_ok("bug", cfg->bug, 0, IBSW_BUG_COUNT - 1u))
    return 1;
  const unsigned P = cfg->num_ports, NL = cfg->num_data_vls + 1;
  size_t total = 0;
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++) total += ibsw_lane_depth(cfg, l);
  s->pool = calloc(total, sizeof *s->pool);
  s->lft = malloc(ibsw_lft_entries(cfg));
  if (!s->pool || !s->lft) {
    fprintf(stderr, "ibsw: out of memory\n");
    ibsw_free(s);
    return 1;
  }
  size_t at = 0;
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++) {
      s->mem[n][l] = s->pool + at;
      at += ibsw_lane_depth(cfg, l);
    }
  ibsw_reset(s, cfg);
  return 0;
}

void ibsw_free(ibsw_state_t *s) {
  free(s->pool);
  free(s->lft);
  s->pool = NULL;
  s->lft = NULL;
}

/* Reset (section 5.0, 6.1, 8, 9). */
void ibsw_reset(ibsw_state_t *s, const ibsw_cfg_t *cfg) {
  ibsw_regs_t *r = &s->r;
  const unsigned P = cfg->num_ports, NL = cfg->num_data_vls + 1;
  memset(r, 0, sizeof *r); /* IDLE, FREE, pointers, pend, counters, events, samplers DONE, SMA IDLE */
  for (unsigned o = 0; o <= P; o++)
    for (unsigned l = 0; l < NL; l++) r->cred[o][l] = (uint16_t)ibsw_lane_depth(cfg, l);
  for (unsigned n = 1; n <= P; n++) {
    r->port[n].phys = cfg->boot_active ? IBSW_LINKUP : IBSW_POLLING;
    r->port[n].pstate = cfg->boot_active ? IBSW_ACTIVE : IBSW_DOWN;
    r->port[n].target = IBSW_DISABLED;
  }
  memset(s->lft, 0xFF, ibsw_lft_entries(cfg));
  r->pw = ibsw_power_of(cfg, r);
}

void ibsw_raise(ibsw_ctx_t *x, unsigned n, unsigned code) {
  static const int8_t cnt_of[16] = {-1,
                                    IBSW_C_RELAY_ERR,
                                    IBSW_C_RELAY_ERR,
                                    IBSW_C_RELAY_ERR,
                                    IBSW_C_RELAY_ERR,
                                    IBSW_C_RCV_ERR,
                                    IBSW_C_RCV_ERR,
                                    IBSW_C_RCV_ERR,
                                    IBSW_C_RCV_ERR,
                                    IBSW_C_VL15_DROPPED,
                                    IBSW_C_SYMBOL_ERR,
                                    IBSW_C_RCV_ERR,
                                    IBSW_C_SYMBOL_ERR,
                                    IBSW_C_LINK_DOWNED,
                                    IBSW_C_SYMBOL_ERR,
                                    IBSW_C_XMIT_DISCARDS};
  x->nx->r.ev_err[n] |= (uint16_t)(1u << code);
  if (code == 13 && ibsw_bug(x, IBSW_BUG_LINK_LOSS_NOT_COUNTED)) return;
  ibsw_count(x, n, (unsigned)cnt_of[code], 1);
}

void ibsw_sma_raise(ibsw_ctx_t *x, unsigned code) {
  x->nx->r.sma_ev_err |= (uint16_t)(1u << code);
  x->nx->r.sma_ev_n++;
}

void ibsw_push(ibsw_ctx_t *x, unsigned n, unsigned l, const ibsw_entry_t *e) {
  const ibsw_lane_t *ln = &x->s->r.ln[n][l];
  const unsigned depth = ibsw_lane_depth(x->cfg, l);
  x->nx->push[n][l] = 1;
  x->nx->push_pos[n][l] = (uint16_t)((ln->rd + ln->cnt) % depth);
  x->nx->push_e[n][l] = *e;
  x->nx->r.ln[n][l].cnt++;
}

static void outputs(const ibsw_cfg_t *cfg, const ibsw_regs_t *r, ibsw_out_t *out) {
  const unsigned P = cfg->num_ports;
  memset(out, 0, sizeof *out);
  for (unsigned n = 1; n <= P; n++) {
    const ibsw_flit_t *f = &r->oreg[n];
    out->valid[n] = f->valid;
    out->kind[n] = f->kind;
    out->vl[n] = f->vl;
    out->data[n] = f->data;
    out->credit[n] = r->crout[n];
    const ibsw_port_t *p = &r->port[n];
    out->port_state[n] = p->pstate;
    out->phys_state[n] = p->phys;
    out->draining[n] = p->draining;
    out->power_on[n] =
        p->phys == IBSW_POLLING || p->phys == IBSW_TRAINING || p->phys == IBSW_LINKUP || p->phys == IBSW_LER;
    out->err[n] = r->err_r[n];
    out->err_code[n] = r->err_code_r[n];
    out->sample_status[n] = r->smp[n].status;
    for (unsigned k = 0; k < IBSW_NCNT; k++) out->cnt[n][k] = r->cnt[n][k];
  }
  out->power_mw = r->pw;
  out->energy = r->energy;
  out->sma_err = r->sma_err_r;
  out->sma_err_code = r->sma_err_code_r;
  out->cnt_sma_dropped = r->sma_dropped;
}

void ibsw_eval(const ibsw_cfg_t *cfg, const ibsw_state_t *s, const ibsw_in_t *in, ibsw_out_t *out,
               ibsw_next_t *nx) {
  outputs(cfg, &s->r, out);
  nx->r = s->r;
  memset(nx->push, 0, sizeof nx->push);
  nx->lft_blk_valid = nx->lft_cfg_valid = 0;
  memset(nx->r.ev, 0, sizeof nx->r.ev);
  memset(nx->r.ev_err, 0, sizeof nx->r.ev_err);
  nx->r.sma_ev_err = 0;
  nx->r.sma_ev_n = 0;
  ibsw_ctx_t x;
  memset(&x, 0, sizeof x);
  x.cfg = cfg;
  x.s = s;
  x.in = in;
  x.nx = nx;
  x.P = cfg->num_ports;
  x.V = cfg->num_data_vls;
  x.NL = x.V + 1;
  x.slot = (s->r.cycle % (8u >> cfg->link_speed)) == 0;
  ibsw_port_fsm(&x);
  ibsw_front_unit(&x);
  ibsw_vl_alloc(&x);
  ibsw_switch_alloc(&x);
  ibsw_crossbar(&x);
  ibsw_sma(&x); /* before ARRIVE: its LFT write is what a planted bug lets arrivals see */
  ibsw_input_unit(&x);
  ibsw_credits(&x);
  ibsw_lft(&x);
  ibsw_counters(&x);
  ibsw_sampler(&x);
  ibsw_power(&x);
  nx->r.cycle = s->r.cycle + 1;
}

void ibsw_commit(const ibsw_cfg_t *cfg, ibsw_state_t *s, const ibsw_next_t *nx) {
  const unsigned P = cfg->num_ports, NL = cfg->num_data_vls + 1;
  s->r = nx->r;
  for (unsigned n = 0; n <= P; n++)
    for (unsigned l = 0; l < NL; l++)
      if (nx->push[n][l]) s->mem[n][l][nx->push_pos[n][l]] = nx->push_e[n][l];
  if (nx->lft_blk_valid) memcpy(&s->lft[64u * nx->lft_blk], nx->lft_blk_e, 64);
  if (nx->lft_cfg_valid) s->lft[nx->lft_cfg_addr] = nx->lft_cfg_val; /* the port wins (5.7) */
}
