/* ibsw_saturation (docs/ibsw.md §8.1, §14): on ibsw_p4 (CntW = 8: every PortCounters field is 8
 * bits wide, the extended ones 16) every counter is driven past all ones and must stay there,
 * never wrap, while the extended counters go on; then SubnSet PortCounters / PortCountersExtended
 * clear them (0 at e+1, the events from e on counted) and they count again.
 *
 * Port 1: the SM, data, and VL15 packets through port 2; port 2: unknown symbols (SymbolErrorCounter),
 * then 270 link losses, each with a VL15 circuit to it stalled by its neighbour's credits (sunk:
 * PortXmitDiscards; LinkDownedCounter; XmitWait); port 3: data and flits on a bad VL
 * (PortRcvErrors); port 4: data, packets to DLID 0 (RelayErrors) and two-flit MADs (VL15Dropped).
 * Every counter but XmitWait is checked every cycle by the harness's arithmetic (ibsw.counters);
 * XmitWait, which the pins cannot predict, must never go down but by a clear, and reach all ones.
 * PortCounters Gets are checked against the pins of their snapshot cycle. */
#include "ibsw_harness.h"

#define SA_SM 1
#define SA_LD 2 /* link downs */
#define SA_RE 3 /* receive errors */
#define SA_BM 4 /* relay errors and bad MADs */

enum { SAT_XD, SAT_RD, SAT_XP, SAT_RP, SAT_XW, SAT_SYM, SAT_LD, SAT_RE, SAT_RELAY, SAT_DISC, SAT_V15, SAT_N };

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg, ls, loops, nmad, nv15;
  int mad;
  uint64_t t_phase, t_up, snap_at;
  uint64_t snap[4];
  uint64_t xw_prev[IBH_MAXP + 1];
  uint32_t sat, ext_over;
  cosim_rng_t rng;
} sa_ctx_t;

/* the SM's MADs in phase 3, in order: PortCounters (0x12) / PortCountersExtended (0x1D) */
static const struct {
  unsigned method, attr, port;
} sa_seq[] = {{1, 0x12, SA_LD}, {2, 0x12, SA_LD}, {1, 0x12, SA_RE}, {2, 0x12, SA_RE},
              {2, 0x12, SA_BM}, {2, 0x1D, SA_BM}, {1, 0x1D, SA_BM}, {1, 0x12, SA_BM}};

static void sa_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  sa_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.err_counters = true;
  x->h.mad_bad[SA_BM] = true;
  x->h.ret_p = 0.6;
  x->mad = -1;
}

static unsigned sa_peer(sa_ctx_t *x, unsigned n) { /* a data destination among ports 1, 3, 4 */
  static const unsigned d[3] = {SA_SM, SA_RE, SA_BM};
  unsigned k;
  do k = d[cosim_rng_below(&x->rng, 3)];
  while (k == n);
  return k;
}

static bool sa_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  sa_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned V = h->V;
  cosim_msg_t m;
  unsigned ph2 = (unsigned)IBH_GET(h, out.phys_state_o, prev, SA_LD - 1);
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1 && ibh_cfg_write(h, in, &x->ncfg, h->P, x->ncfg)) {
    x->phase = 2;
    x->t_phase = c;
  }
  if (x->phase >= 2 && x->phase <= 3) { /* data between ports 1, 3, 4 until the end */
    if (h->qn[SA_SM] < 2) {
      if (x->phase == 2 && x->ls < 4 && c % 2 == 0) /* VL15 through port 2 (error 4 while it is down) */
        ibh_vl15_raw(h, SA_SM, (0xFFFFull << 48) | SA_LD, 3);
      else
        ibh_data(h, SA_SM, cosim_rng_below(&x->rng, V), sa_peer(x, SA_SM), 2 + cosim_rng_below(&x->rng, 4));
    }
    if (h->qn[SA_RE] < 2 && x->phase == 2 && x->ls < 4 && c % 4 == 0)
      ibh_vl15_raw(h, SA_RE, (0xFFFFull << 48) | SA_LD, 3); /* a second circuit waits for port 2 */
    else if (h->qn[SA_RE] < 2)
      ibh_data(h, SA_RE, cosim_rng_below(&x->rng, V), sa_peer(x, SA_RE), 2 + cosim_rng_below(&x->rng, 4));
    if (h->qn[SA_BM] < 2) {
      unsigned r = x->phase == 2 ? cosim_rng_below(&x->rng, 3) : 2;
      if (r == 0)
        ibh_data(h, SA_BM, cosim_rng_below(&x->rng, V), 0, 2); /* DLID 0: error 2 */
      else if (r == 1 && x->nv15 < 300 && ++x->nv15)
        ibh_vl15_raw(h, SA_BM, 0xFFFFull << 48, 2); /* a 2-flit MAD: error 9 */
      else
        ibh_data(h, SA_BM, cosim_rng_below(&x->rng, V), sa_peer(x, SA_BM), 2 + cosim_rng_below(&x->rng, 4));
    }
  }
  if (x->phase == 2) {
    if (c % 2 == 0 && h->ecnt[SA_RE][2] < 300) /* a BODY on VL 9: error 5 */
      h->put[SA_RE] = (ibh_put_t){true, IBH_BODY, 9, 0x9999, false, false};
    switch (x->ls) {
      case 0: /* unknown symbols: error 12 */
        if (h->ecnt[SA_LD][0] < 300)
          h->put[SA_LD] = (ibh_put_t){true, IBH_SYM, 0, 5, false, false};
        else
          x->ls = 1;
        break;
      case 1:                       /* LinkUp: let a VL15 circuit to the port stall on its credits */
        if (ph2 == IBH_PH_LINKUP) { /* the neighbour's buffer went with the link (its last flits too) */
          if (x->loops) ibh_link_lost(h, SA_LD);
          h->ts_every[SA_LD] = 0;
          h->hold_cred[SA_LD] = true;
          x->t_up = c;
          x->ls = 2;
        }
        break;
      case 2: /* the link is lost (error 13), the stalled circuit sunk (15), then it trains again */
        if (c >= x->t_up + 14) {
          h->put[SA_LD] = (ibh_put_t){true, IBH_SYM, 0, IBH_TS1, false, false};
          h->ts_every[SA_LD] = IBH_TS2;
          x->loops++;
          x->ls = 5;
        }
        break;
      case 5: /* the loss is seen: PhysState leaves LinkUp */
        if (ph2 != IBH_PH_LINKUP) x->ls = h->ecnt[SA_LD][1] >= 260 && h->ecnt[SA_LD][3] >= 260 ? 3 : 1;
        break;
      case 3:
        if (ph2 == IBH_PH_LINKUP) {
          ibh_link_lost(h, SA_LD);
          h->hold_cred[SA_LD] = false;
          h->ts_every[SA_LD] = 0;
          x->ls = 4;
        }
        break;
      default: break;
    }
    if (x->ls == 4 && h->ecnt[SA_RE][2] >= 300 && h->ecnt[SA_BM][4] >= 260 && c > x->t_phase + 100) {
      x->phase = 3;
      x->t_phase = c;
    }
  } else if (x->phase == 3 && x->mad < 0 && c > x->t_phase + 20) { /* the SM reads and clears */
    if (x->nmad < sizeof sa_seq / sizeof sa_seq[0]) {
      uint64_t w[4] = {~0ull, ~0ull, ~0ull, ~0ull};
      x->mad =
          ibh_mad(h, SA_SM, 0x04, sa_seq[x->nmad].method, sa_seq[x->nmad].attr, sa_seq[x->nmad].port, w, 4);
      x->nmad++;
    } else {
      x->phase = 4;
      x->t_phase = c;
    }
  } else if (x->phase == 4 && c > x->t_phase + 200) {
    return false;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static uint64_t sa_pin(const ibh_t *h, const void *out, unsigned n, unsigned k) {
  unsigned i = n - 1;
  switch (k) {
    case SAT_XD: return IBH_GET(h, out.cnt_xmit_data_o, out, i);
    case SAT_RD: return IBH_GET(h, out.cnt_rcv_data_o, out, i);
    case SAT_XP: return IBH_GET(h, out.cnt_xmit_pkts_o, out, i);
    case SAT_RP: return IBH_GET(h, out.cnt_rcv_pkts_o, out, i);
    case SAT_XW: return IBH_GET(h, out.cnt_xmit_wait_o, out, i);
    case SAT_SYM: return IBH_GET(h, out.cnt_symbol_err_o, out, i);
    case SAT_LD: return IBH_GET(h, out.cnt_link_downed_o, out, i);
    case SAT_RE: return IBH_GET(h, out.cnt_rcv_err_o, out, i);
    case SAT_RELAY: return IBH_GET(h, out.cnt_relay_err_o, out, i);
    case SAT_DISC: return IBH_GET(h, out.cnt_xmit_discards_o, out, i);
    default: return IBH_GET(h, out.cnt_vl15_dropped_o, out, i);
  }
}

static bool sa_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  sa_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  ibh_mad_t *y = x->mad >= 0 ? &h->mad[x->mad] : NULL;
  bool clr_now[IBH_MAXP + 1] = {false}; /* a PortCounters clear shows in this cycle */
  for (unsigned n = 1; n <= h->P; n++) clr_now[n] = (h->clr_what[n] & 1) && c == h->clr_e[n] + 1;
  if (!ibh_check(h, c, in, out, msg)) return false;
  for (unsigned n = 1; n <= h->P; n++) {
    uint64_t xw = sa_pin(h, out, n, SAT_XW);
    if (clr_now[n] ? xw != 0 : xw < x->xw_prev[n]) {
      cosim_fail(msg, "ibsw.counters", "port %u: PortXmitWait %llu after %llu%s", n, (unsigned long long)xw,
                 (unsigned long long)x->xw_prev[n],
                 clr_now[n] ? " (cleared: 0 expected)" : " (it went down)");
      return false;
    }
    x->xw_prev[n] = xw;
    for (unsigned k = 0; k < SAT_N; k++) {
      unsigned w = k == SAT_LD ? (h->cntw < 8 ? h->cntw : 8) : k <= SAT_XW ? h->cntw : h->c16;
      if (sa_pin(h, out, n, k) == ibh_cnt_max(w)) x->sat |= 1u << k;
    }
    const uint64_t ext[4] = {
        IBH_GET(h, out.ext_xmit_data_o, out, n - 1), IBH_GET(h, out.ext_rcv_data_o, out, n - 1),
        IBH_GET(h, out.ext_xmit_pkts_o, out, n - 1), IBH_GET(h, out.ext_rcv_pkts_o, out, n - 1)};
    for (unsigned k = 0; k < 4; k++)
      if (ext[k] > ibh_cnt_max(h->cntw)) x->ext_over |= 1u << k;
  }
  if (!y) return true;
  const unsigned method = sa_seq[x->nmad - 1].method, attr = sa_seq[x->nmad - 1].attr,
                 port = sa_seq[x->nmad - 1].port;
  /* the Set's execute cycle e, from the harness's view of its TAIL: the clear (§8.1) */
  if (y->t_exec && y->t_exec == c + 1 && method == 2) ibh_clear(h, port, attr == 0x12 ? 1 : 2, c + 1);
  if (y->t_exec && c == y->t_exec + 1) { /* the snapshot cycle (§7.3): what a Get must show */
    unsigned i = port - 1;
    if (attr == 0x12) {
      x->snap[0] = sa_pin(h, out, port, SAT_XD) << 32 | sa_pin(h, out, port, SAT_RD);
      x->snap[1] = sa_pin(h, out, port, SAT_XP) << 32 | sa_pin(h, out, port, SAT_RP);
      x->snap[2] = sa_pin(h, out, port, SAT_XW) << 32 | sa_pin(h, out, port, SAT_SYM) << 16 |
                   sa_pin(h, out, port, SAT_LD) << 8;
      x->snap[3] = sa_pin(h, out, port, SAT_RE) << 48 | sa_pin(h, out, port, SAT_RELAY) << 32 |
                   sa_pin(h, out, port, SAT_DISC) << 16 | sa_pin(h, out, port, SAT_V15);
    } else {
      x->snap[0] = IBH_GET(h, out.ext_xmit_data_o, out, i);
      x->snap[1] = IBH_GET(h, out.ext_rcv_data_o, out, i);
      x->snap[2] = IBH_GET(h, out.ext_xmit_pkts_o, out, i);
      x->snap[3] = IBH_GET(h, out.ext_rcv_pkts_o, out, i);
    }
  }
  if (y->done) {
    bool ok = (y->resp[2] & 0xFFFF) == 0 && y->nresp == 7;
    for (unsigned k = 0; k < 4 && ok; k++) ok = y->resp[3 + k] == x->snap[k];
    if (!ok) {
      cosim_fail(msg, "ibsw.counters",
                 "%s of %s port %u: status 0x%04llx, words %016llx %016llx %016llx %016llx; the pins in the "
                 "snapshot cycle %llu: %016llx %016llx %016llx %016llx",
                 method == 1 ? "Get" : "Set", attr == 0x12 ? "PortCounters" : "PortCountersExtended", port,
                 (unsigned long long)(y->resp[2] & 0xFFFF), (unsigned long long)y->resp[3],
                 (unsigned long long)y->resp[4], (unsigned long long)y->resp[5],
                 (unsigned long long)y->resp[6], (unsigned long long)(y->t_exec + 1),
                 (unsigned long long)x->snap[0], (unsigned long long)x->snap[1],
                 (unsigned long long)x->snap[2], (unsigned long long)x->snap[3]);
      return false;
    }
    y->used = false;
    x->mad = -1;
  }
  return true;
}

static bool sa_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  sa_ctx_t *x = ctx;
  static const char *const name[SAT_N] = {"PortXmitData",      "PortRcvData",   "PortXmitPkts",
                                          "PortRcvPkts",       "PortXmitWait",  "SymbolErrorCounter",
                                          "LinkDownedCounter", "PortRcvErrors", "PortRcvSwitchRelayErrors",
                                          "PortXmitDiscards",  "VL15Dropped"};
  (void)cycles;
  if (x->phase < 4) {
    cosim_fail(msg, "ibsw.counters",
               "the test did not reach its end (phase %u, %u link losses): too few cycles", x->phase,
               x->loops);
    return false;
  }
  for (unsigned k = 0; k < SAT_N; k++)
    if (!((x->sat >> k) & 1)) {
      cosim_fail(msg, "ibsw.counters", "%s never reached all ones: the test saturates nothing there",
                 name[k]);
      return false;
    }
  if (x->ext_over != 15) {
    cosim_fail(msg, "ibsw.counters", "an extended counter never went past the 32-bit field's maximum");
    return false;
  }
  printf("ibsw_saturation: all 11 PortCounters at all ones and held (CntW %u), extended counters past them, "
         "cleared and counting again; %u link losses, %llu packets sunk\n",
         x->h.cntw, x->loops, (unsigned long long)x->h.sunk);
  return ibh_finish(&x->h, msg);
}

static void sa_init_p4(void *ctx, cosim_rng_t *rng) { sa_init_view(ctx, rng, &ibsw_p4_view); }

COSIM_TEST(ibsw_saturation, .target = &ibsw_p4_target,
           .purpose = "every counter saturates at all ones, never wraps, clears by Set; extended ones go on",
           .ctx_size = sizeof(sa_ctx_t), .init = sa_init_p4, .drive = sa_drive, .check = sa_check,
           .finish = sa_finish)
