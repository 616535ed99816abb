/* ibsw_route and ibsw_lft: docs/ibsw.md §5.2 (the decision at arrival, from the state at
   t) and §5.7 (the table's configuration port; the SMA's block writes are in ibsw_sma.c). */
#include "ibsw_internal.h"

static unsigned lft_read(const ibsw_ctx_t *x, unsigned d) {
  if (ibsw_bug(x, IBSW_BUG_LFT_ENTRY_OFF_BY_ONE)) d++; /* planted: LFT[d+1] */
  if (d >= ibsw_lft_entries(x->cfg)) return 0xFF;
  if (ibsw_bug(x, IBSW_BUG_LFT_BLOCK_APPLIES_SAME_CYCLE) && x->nx->lft_blk_valid && d / 64u == x->nx->lft_blk)
    return x->nx->lft_blk_e[d % 64u]; /* planted: the Set executing now is already seen */
  return x->s->lft[d];
}

/* Returns true with *egr (0..P) if the HEAD is routed; else false with the error *code. */
bool ibsw_route(const ibsw_ctx_t *x, unsigned n, unsigned l, uint64_t head, unsigned *egr, unsigned *code) {
  const ibsw_regs_t *r = &x->s->r;
  const unsigned d = (unsigned)(head >> 48), P = x->P;
  if (l < x->V) {
    if (d == 0 || d == 0xFFFF || d > r->lft_top) {
      *code = 2;
      return false;
    }
    const unsigned e = lft_read(x, d);
    if (e == 0xFF) {
      *code = ibsw_bug(x, IBSW_BUG_NO_PATH_CODED_BAD_EGRESS) ? 3 : 1;
      return false;
    }
    if (e == 0 || e > P || e == n) {
      *code = 3;
      return false;
    }
    if (!ibsw_port_data_ok(&r->port[e])) {
      *code = 4;
      return false;
    }
    *egr = e;
    return true;
  }
  if (d != 0xFFFF) {
    *code = 2;
    return false;
  }
  const unsigned tag = (unsigned)(head & 31u);
  if (tag > P || tag == n) {
    *code = 3;
    return false;
  }
  if (tag >= 1 && (r->port[tag].phys != IBSW_LINKUP || r->port[tag].draining)) {
    *code = 4;
    return false;
  }
  *egr = tag;
  return true;
}

/* §5.7: the configuration port writes at the end of c (and wins over a Set's block). */
void ibsw_lft(ibsw_ctx_t *x) {
  const ibsw_in_t *in = x->in;
  if (!in->cfg_valid) return;
  if ((in->cfg_sel & 3u) == 0) {
    if (in->cfg_addr >= ibsw_lft_entries(x->cfg)) return;
    x->nx->lft_cfg_valid = 1;
    x->nx->lft_cfg_addr = in->cfg_addr;
    x->nx->lft_cfg_val = (uint8_t)in->cfg_data;
  } else if ((in->cfg_sel & 3u) == 1) {
    if (in->cfg_data > ibsw_lft_entries(x->cfg) - 1u) return;
    x->nx->r.lft_top = in->cfg_data;
  }
}
