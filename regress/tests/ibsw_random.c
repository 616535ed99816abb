/* ibsw random tests, one per target (docs/ibsw.md §14): every port sends on
 * every lane, random packet lengths and DLIDs (some dropped with their
 * codes), LFT entries rewritten during traffic, back-pressure phases (the
 * neighbours' credit returns switch between fast and slow), a subnet
 * manager on port 1 reading every attribute by SubnGet/PerfMgt Get in turn
 * (status 0, the fields it can predict checked). The harness's scoreboard
 * (ibsw_harness.h) checks every packet, error and relay counter. A busy
 * gate as elite4's: >= 90 % of the cycles must have a routed packet in
 * flight (check ibsw.busy). Not yet here (see docs/ibsw.md Status): port
 * turn-off/turn-on during the random run, Sets of every attribute. */
#include "ibsw_harness.h"

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg, top, nmad;
  int mad;
  uint64_t t_go, busy, counted, stop_at;
  /* a port turned off and on again (§6.3-§6.5): port, step, the Set's fields, when */
  unsigned pc_port, pc_step, nblk, ncycles;
  uint64_t pc_t;
  unsigned mad_attr, mad_method, mad_port; /* the MAD out: what it asked */
  uint64_t mad_want;                       /* PortInfo Set: the fields; Get: the pins at the snapshot */
  bool mad_snap;
  cosim_rng_t rng;
} rnd_ctx_t;

static const struct {
  unsigned cls, attr, n, mod; /* mod: 0 = 0, 1 = a port */
} rnd_attrs[] = {
    {0x81, 0x0012, 1, 0}, {0x81, 0x0015, 1, 1}, {0x81, 0x0019, 8, 0}, {0x04, 0x0010, 2, 1},
    {0x04, 0x0011, 3, 1}, {0x04, 0x0012, 4, 1}, {0x04, 0x001D, 4, 1}, {0x04, 0xFF01, 2, 0},
};

static void rnd_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  rnd_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->mad = -1;
  x->h.auto_drained = true; /* a port turned off: its neighbour answers DRAINED after its last TAIL */
  x->top = x->h.lft_entries > 64 ? 63 : x->h.lft_entries - 1;
}

static unsigned rnd_entry(rnd_ctx_t *x) {
  unsigned r = cosim_rng_below(&x->rng, 20);
  if (r == 0) return 0xFF;
  if (r == 1) return x->h.P + 1 + cosim_rng_below(&x->rng, 0xFE - x->h.P);
  return 1 + cosim_rng_below(&x->rng, x->h.P);
}

static bool rnd_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  rnd_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  cosim_msg_t m;
  if (!x->stop_at) x->stop_at = ~0ull;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) {
    IBH_SET(h, in.cfg_valid_i, in, 0, 1);
    if (x->ncfg == 0) {
      IBH_SET(h, in.cfg_sel_i, in, 0, 1);
      IBH_SET(h, in.cfg_data_i, in, 0, x->top);
    } else {
      IBH_SET(h, in.cfg_addr_i, in, 0, x->ncfg);
      IBH_SET(h, in.cfg_data_i, in, 0, rnd_entry(x));
    }
    if (++x->ncfg > x->top) {
      x->phase = 2;
      x->t_go = c;
    }
  } else if (x->phase == 2) {
    for (unsigned n = 1; n <= P; n++) {
      if (n == x->pc_port && x->pc_step) continue; /* its neighbour goes quiet: it must send DRAINED */
      if (c - x->t_go >= x->stop_at) break;        /* ibsw_p4_random_idle: the busy gate's negative */
      while (h->qn[n] < 3) {
        unsigned d = cosim_rng_chance(&x->rng, 0.03) ? x->top + 1 : 1 + cosim_rng_below(&x->rng, x->top);
        if (ibh_data(h, n, cosim_rng_below(&x->rng, h->V), d, 2 + cosim_rng_below(&x->rng, 9)) < 0) break;
      }
    }
    if (cosim_rng_chance(&x->rng, 0.02)) { /* an LFT rewrite during traffic */
      IBH_SET(h, in.cfg_valid_i, in, 0, 1);
      IBH_SET(h, in.cfg_addr_i, in, 0, 1 + cosim_rng_below(&x->rng, x->top));
      IBH_SET(h, in.cfg_data_i, in, 0, rnd_entry(x));
    }
    if ((c / 500) % 2 == 0)
      h->ret_p = 0.95;
    else
      h->ret_p = 0.15; /* back-pressure phase */
    /* a port cycle every 1,500 cycles: Disabled (drain), Polling (its neighbour trains), Armed, Active */
    if (!x->pc_step && P >= 3 && h->W <= 4096 && c > x->t_go + 200 && (c - x->t_go) % 1500 == 0) {
      x->pc_port = 2 + cosim_rng_below(&x->rng, P - 1);
      x->pc_step = 1;
    }
    unsigned ph = x->pc_step ? (unsigned)IBH_GET(h, out.phys_state_o, prev, x->pc_port - 1) : 0;
    if (x->pc_step == 2 && ph == IBH_PH_DISABLED) { /* off: a while, then wake it */
      x->pc_step = 3;
      x->pc_t = c;
    } else if (x->pc_step == 4 && ph == IBH_PH_POLLING) {
      h->ts2[x->pc_port] = true;
      x->pc_step = 5;
    } else if (x->pc_step == 5 && ph == IBH_PH_LINKUP) {
      x->pc_step = 6;
    }
    if (x->mad < 0) {
      uint64_t w[8] = {0};
      static const unsigned pc_set[8] = {0, 3, 0, 2, 0, 0, 3, 4}; /* per step: 0 none, else the Set */
      if (x->pc_step && pc_set[x->pc_step] && (x->pc_step != 3 || c > x->pc_t + 100)) {
        unsigned v = pc_set[x->pc_step];
        w[0] = x->pc_step >= 6 ? (uint64_t)v << 60 : (uint64_t)v << 56;
        x->mad_attr = 0x15;
        x->mad_method = 2;
        x->mad_port = x->pc_port;
        x->mad = ibh_mad(h, 1, 0x81, 0x02, 0x15, x->pc_port, w, 1);
      } else if (x->nmad % 4 == 3 && c > x->t_go + 1000) {
        /* an LFT block Set during traffic: it applies from e+1 (§5.7). Not in the first 1,000 cycles:
         * the stimulus there is the one the RTL-bug negatives (ibsw_rtlbug_*) were measured on */
        unsigned blk =
            cosim_rng_chance(&x->rng, 0.7) ? 0 : cosim_rng_below(&x->rng, (unsigned)h->vw->param.LftBlocks);
        for (unsigned k = 0; k < 64; k++) w[k / 8] |= (uint64_t)(rnd_entry(x) & 0xFF) << (8 * (k % 8));
        x->mad_attr = 0x19;
        x->mad_method = 2;
        x->mad = ibh_mad(h, 1, 0x81, 0x02, 0x19, blk, w, 8);
        x->nmad++;
        x->nblk++;
      } else {
        unsigned k = x->nmad++ % (sizeof rnd_attrs / sizeof rnd_attrs[0]);
        unsigned mod = rnd_attrs[k].mod ? 1 + cosim_rng_below(&x->rng, P) : 0;
        x->mad_attr = rnd_attrs[k].attr;
        x->mad_method = 1;
        x->mad_port = mod;
        x->mad = ibh_mad(h, 1, rnd_attrs[k].cls, 0x01, rnd_attrs[k].attr, mod, w, rnd_attrs[k].n);
      }
      x->mad_snap = false;
    }
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool rnd_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  rnd_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  if (!ibh_check(h, c, in, out, msg)) return false;
  if (x->phase == 2) {
    x->counted++;
    x->busy += h->inflight > 0;
  }
  if (x->mad >= 0 && h->mad[x->mad].t_exec && c == h->mad[x->mad].t_exec + 1 && x->mad_attr == 0x15) {
    unsigned i = x->mad_port - 1; /* the snapshot cycle (§7.3): PortInfo shows the pins of now */
    x->mad_want = IBH_GET(h, out.port_state_o, out, i) << 60 | IBH_GET(h, out.phys_state_o, out, i) << 56 |
                  IBH_GET(h, out.draining_o, out, i) << 47 | (uint64_t)x->mad_port << 32;
    x->mad_snap = true;
  }
  if (x->mad >= 0 && h->mad[x->mad].done) {
    ibh_mad_t *y = &h->mad[x->mad];
    unsigned st = (unsigned)(y->resp[2] & 0xFFFF), attr = (unsigned)((y->resp[2] >> 32) & 0xFFFF);
    unsigned mod = (unsigned)((y->resp[2] >> 16) & 0xFFFF);
    bool ok = st == 0 && y->nresp == 3 + y->n && ((y->resp[2] >> 48) & 0xFF) == 0x81;
    if (ok && attr == 0x0012 && ((y->resp[2] >> 56) & 0xFF) == 0x81) /* SwitchInfo */
      ok = (y->resp[3] >> 48) == h->lft_entries && ((y->resp[3] >> 32) & 0xFFFF) == h->top &&
           ((y->resp[3] >> 24) & 0xFF) == h->P && ((y->resp[3] >> 16) & 0xFF) == h->V &&
           ((y->resp[3] >> 8) & 0xFF) == h->R;
    if (ok && attr == 0x0015) /* PortInfo: the port's pins in the snapshot cycle */
      ok = x->mad_snap && (y->resp[3] & 0xFF0080FF00000000ull) == x->mad_want;
    if (ok && attr == 0x0015 && x->mad_method == 2) { /* the port cycle's Set went in: its next step */
      if (x->pc_step == 1 || x->pc_step == 3 || x->pc_step == 6)
        x->pc_step++;
      else if (x->pc_step == 7) {
        x->pc_step = 0;
        x->ncycles++;
      }
    }
    if (!ok) {
      cosim_fail(msg, "ibsw.mad_status",
                 "%s of attribute 0x%04x (AttrMod %u): status 0x%04x, %u words, "
                 "w0 0x%016llx (PortInfo expected 0x%016llx)",
                 x->mad_method == 2 ? "Set" : "Get", attr, mod, st, y->nresp, (unsigned long long)y->resp[3],
                 (unsigned long long)x->mad_want);
      return false;
    }
    y->used = false;
    x->mad = -1;
  }
  return true;
}

static bool rnd_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  rnd_ctx_t *x = ctx;
  (void)cycles;
  if (x->phase < 2 || x->busy * 100 < 90 * x->counted) {
    cosim_fail(msg, "ibsw.busy", "traffic in flight in %llu of %llu cycles (90 %% needed; phase %u)",
               (unsigned long long)x->busy, (unsigned long long)x->counted, x->phase);
    return false;
  }
  printf(
      "ibsw random: %llu packets delivered, %llu dropped with their codes, %u MADs (%u LFT block Sets), %u "
      "ports turned off and on; busy %llu %%\n",
      (unsigned long long)x->h.delivered, (unsigned long long)x->h.dropped, x->nmad, x->nblk, x->ncycles,
      (unsigned long long)(100 * x->busy / (x->counted ? x->counted : 1)));
  return true; /* packets still queued at the end are not losses: the run stops under load */
}

#define RND_TARGET(T)                                                                                  \
  static void rnd_init_##T(void *ctx, cosim_rng_t *rng) { rnd_init_view(ctx, rng, &ibsw_##T##_view); } \
  COSIM_TEST(ibsw_##T##_random, .target = &ibsw_##T##_target,                                          \
             .purpose = "random traffic, MADs, LFT rewrites", .ctx_size = sizeof(rnd_ctx_t),           \
             .init = rnd_init_##T, .drive = rnd_drive, .check = rnd_check, .finish = rnd_finish)
RND_TARGET(p4)
/* the busy gate's negative: injection stops 1,000 cycles into the traffic phase (check ibsw.busy) */
static void rnd_init_p4_idle(void *ctx, cosim_rng_t *rng) {
  rnd_init_view(ctx, rng, &ibsw_p4_view);
  ((rnd_ctx_t *)ctx)->stop_at = 1000;
}
COSIM_TEST(ibsw_p4_random_idle, .target = &ibsw_p4_target, .purpose = "ibsw_p4_random that stops injecting",
           .ctx_size = sizeof(rnd_ctx_t), .init = rnd_init_p4_idle, .drive = rnd_drive, .check = rnd_check,
           .finish = rnd_finish)
RND_TARGET(p24)
RND_TARGET(p2_max)
RND_TARGET(p31)
RND_TARGET(p8_w24)
