/* ibsw_sampling (docs/ibsw.md §8.2, §14): PortSamplesControl Sets on port 2
 * under traffic through it both ways. A Set with interval 0 or a bad
 * CounterSelect answers 0x001C; an accepted Set (start s, interval I,
 * CounterSelect 1..4) in e gives STARTED in e+1..S-1, RUNNING in S..S+I,
 * DONE from S+I+1 (S = e+1+s), checked on sample_status_o (e from the first
 * cycle the status leaves DONE); a second Set while not DONE answers 0x0001;
 * the results (PortSamplesResult Get in DONE) equal the events of S..S+I-1
 * counted by the harness from the pins (XmitData/XmitPkts: packet flits and
 * TAILs on the port's output 2 cycles after their SA cycle; RcvData/RcvPkts:
 * flits and TAILs arriving), saturating at 2^CntW - 1 (CntW = 8 on ibsw_p4:
 * the 150-cycle windows saturate XmitData/RcvData); QueueDepth = the data-lane slots of the
 * neighbour's buffer the switch holds credits out for in the state at S (§8.2, §18 point 4):
 * the data-lane packet flits on the port's pins up to S+1 (chosen in SA up to S-1) minus the
 * credits returned up to S-1. Check ibsw.sampling. */
#include "ibsw_harness.h"

#define SP_PORT 2
#define SP_HIST 4096

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg, round;
  int mad;
  uint64_t e, s, I;
  /* per-cycle events on port SP_PORT (ring by cycle) */
  uint8_t xd[SP_HIST], xp[SP_HIST], rd[SP_HIST], rp[SP_HIST];
  uint64_t pcum[SP_HIST], rcum[SP_HIST]; /* data-lane flits on the pins, credits returned: totals up to c */
  uint64_t ptot, rtot;
  uint64_t qd_seen[4];
  cosim_rng_t rng;
} sp_ctx_t;

static void sp_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  sp_ctx_t *x = ctx;
  ibh_init(&x->h, vw);
  cosim_rng_seed(&x->rng, cosim_rng_u64(rng));
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.ret_p = 0.5;
  x->h.vl15_first =
      true; /* the SM's MADs do not wait behind port 1's data (ibsw_p24: 23 ports load port 2) */
  x->mad = -1;
}

static int sp_set(sp_ctx_t *x, uint32_t start, uint32_t intv, unsigned cs0) {
  uint64_t w[2] = {((uint64_t)start << 32) | intv,
                   ((uint64_t)cs0 << 56) | (2ull << 48) | (3ull << 40) | (4ull << 32)};
  return ibh_mad(&x->h, 1, 0x04, 0x02, 0x0010, SP_PORT, w, 2);
}

static bool sp_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  sp_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned P = h->P;
  cosim_msg_t m;
  if (x->phase == 0 && ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
  if (x->phase == 1) {
    if (ibh_cfg_write(h, in, &x->ncfg, P, x->ncfg)) x->phase = 2;
  }
  if (x->phase >= 2) { /* traffic through port 2 both ways (port 1 carries the SM's MADs too) */
    for (unsigned n = 1; n <= P; n++)
      while (h->qn[n] < 2) {
        unsigned d = n == SP_PORT ? (cosim_rng_chance(&x->rng, 0.5) ? 1 : P) : SP_PORT;
        if (d == n || ibh_data(h, n, cosim_rng_below(&x->rng, h->V), d, 2 + cosim_rng_below(&x->rng, 5)) < 0)
          break;
      }
  }
  if (x->mad < 0 && x->phase >= 2) {
    if (x->phase == 2)
      x->mad = sp_set(x, 5, 0, 1); /* interval 0: 0x001C */
    else if (x->phase == 3)
      x->mad = sp_set(x, 5, 40, 9); /* CounterSelect 9: 0x001C */
    else if (x->phase == 4)
      x->mad = sp_set(x, 7 * x->round, 150 + 10 * x->round,
                      1); /* accepted; long enough for the next Set to find it busy */
    else if (x->phase == 5)
      x->mad = sp_set(x, 0, 10, 1); /* while not DONE: 0x0001 */
    else if (x->phase == 6 && x->e && c > x->s + x->I + 4 &&
             IBH_GET(h, out.sample_status_o, prev, SP_PORT - 1) == 0) {
      uint64_t w[3] = {0};
      x->mad = ibh_mad(h, 1, 0x04, 0x01, 0x0011, SP_PORT, w, 3);
    } else if (x->phase == 8)
      return false;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool sp_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  sp_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  const unsigned i = SP_PORT - 1;
  unsigned k = c % SP_HIST;
  /* events of cycle c: arrivals now; transmissions of SA cycle c show on the pins in c+2 */
  bool iv = IBH_GET(h, in.in_valid_i, in, i) && IBH_GET(h, in.in_kind_i, in, i) != IBH_SYM &&
            IBH_GET(h, out.phys_state_o, out, i) == IBH_PH_LINKUP;
  x->rd[k] = iv;
  x->rp[k] = iv && IBH_GET(h, in.in_kind_i, in, i) == IBH_TAIL;
  bool ov = IBH_GET(h, out.out_valid_o, out, i) && IBH_GET(h, out.out_kind_o, out, i) != IBH_SYM;
  if (c >= 2) {
    x->xd[(c - 2) % SP_HIST] = ov;
    x->xp[(c - 2) % SP_HIST] = ov && IBH_GET(h, out.out_kind_o, out, i) == IBH_TAIL;
  }
  bool odata = ov && ibh_lane_of_vl(h, (unsigned)IBH_GET(h, out.out_vl_o, out, i)) < h->V;
  uint64_t cr = IBH_GET(h, in.in_credit_i, in, i);
  x->ptot += odata;
  if (IBH_GET(h, out.phys_state_o, out, i) == IBH_PH_LINKUP)
    x->rtot += (unsigned)__builtin_popcountll(cr & ((1ull << h->V) - 1));
  x->pcum[k] = x->ptot;
  x->rcum[k] = x->rtot;
  if (!ibh_check(h, c, in, out, msg)) return false;
  unsigned st = (unsigned)IBH_GET(h, out.sample_status_o, out, i);
  if (x->phase == 4 || x->phase == 5 || x->phase == 6) {
    if (!x->e && st != 0) { /* the first cycle out of DONE is e+1 */
      x->e = c - 1;
      x->s = x->e + 1 + 7 * x->round;
      x->I = 150 + 10 * x->round;
    }
    if (x->e && c > x->e) {
      unsigned want = c < x->s ? 1 : c <= x->s + x->I ? 2 : 0;
      if (st != want) {
        cosim_fail(msg, "ibsw.sampling",
                   "port %u: SampleStatus %u in cycle %llu; expected %u (Set in %llu, S = %llu, "
                   "I = %llu)",
                   SP_PORT, st, (unsigned long long)c, want, (unsigned long long)x->e,
                   (unsigned long long)x->s, (unsigned long long)x->I);
        return false;
      }
    }
  }
  if (x->mad >= 0 && h->mad[x->mad].done) {
    ibh_mad_t *y = &h->mad[x->mad];
    unsigned status = (unsigned)(y->resp[2] & 0xFFFF);
    unsigned want = x->phase <= 3 ? 0x001C : x->phase == 5 ? 0x0001 : 0;
    if (status != want) {
      cosim_fail(msg, "ibsw.sampling", "phase %u: PortSamples%s answered 0x%04x, expected 0x%04x", x->phase,
                 x->phase == 6 ? "Result Get" : "Control Set", status, want);
      return false;
    }
    if (x->phase == 6) {
      uint64_t r[4] = {0};
      for (uint64_t t = x->s; t < x->s + x->I; t++) {
        unsigned q = t % SP_HIST;
        r[0] += 2u * x->xd[q];
        r[1] += 2u * x->rd[q];
        r[2] += x->xp[q];
        r[3] += x->rp[q];
      }
      uint64_t mx = (1ull << h->cntw) - 1;
      uint64_t got[4] = {y->resp[3] >> 32, y->resp[3] & 0xFFFFFFFF, y->resp[4] >> 32,
                         y->resp[4] & 0xFFFFFFFF};
      for (unsigned j = 0; j < 4; j++) {
        uint64_t w = r[j] > mx ? mx : r[j];
        if (got[j] != w) {
          cosim_fail(msg, "ibsw.sampling",
                     "port %u: Result%u = %llu, the events of S..S+I-1 (%llu..%llu) are %llu", SP_PORT, j,
                     (unsigned long long)got[j], (unsigned long long)x->s,
                     (unsigned long long)(x->s + x->I - 1), (unsigned long long)w);
          return false;
        }
      }
      uint64_t qd = x->pcum[(x->s + 1) % SP_HIST] - x->rcum[(x->s - 1) % SP_HIST];
      if ((y->resp[5] >> 32) != qd) {
        cosim_fail(
            msg, "ibsw.sampling",
            "port %u: QueueDepth %llu; in the state at S = %llu the neighbour holds %llu data-lane flits "
            "not credited back",
            SP_PORT, (unsigned long long)(y->resp[5] >> 32), (unsigned long long)x->s,
            (unsigned long long)qd);
        return false;
      }
      x->qd_seen[x->round & 3] = qd;
      if ((y->resp[5] & 3) != 0) {
        cosim_fail(msg, "ibsw.sampling", "PortSamplesResult SampleStatus %u in DONE",
                   (unsigned)(y->resp[5] & 3));
        return false;
      }
      x->round++;
      x->e = 0;
      x->phase = x->round < 3 ? 4 : 8;
    } else {
      x->phase = x->phase == 5 ? 6 : x->phase + 1;
    }
    y->used = false;
    x->mad = -1;
  }
  return true;
}

static bool sp_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  sp_ctx_t *x = ctx;
  (void)cycles;
  if (x->phase < 8) {
    cosim_fail(msg, "ibsw.sampling", "the test did not reach its end (phase %u, round %u)", x->phase,
               x->round);
    return false;
  }
  printf(
      "ibsw_sampling: %u sample windows, statuses, results and QueueDepth (%llu, %llu, %llu) exact; refused "
      "Sets answered\n",
      x->round, (unsigned long long)x->qd_seen[0], (unsigned long long)x->qd_seen[1],
      (unsigned long long)x->qd_seen[2]);
  return true;
}

static void sp_init_p4(void *ctx, cosim_rng_t *rng) { sp_init_view(ctx, rng, &ibsw_p4_view); }
static void sp_init_p24(void *ctx, cosim_rng_t *rng) { sp_init_view(ctx, rng, &ibsw_p24_view); }

COSIM_TEST(ibsw_sampling, .target = &ibsw_p4_target,
           .purpose = "PortSamplesControl/Result: status cycles, results, refusals",
           .ctx_size = sizeof(sp_ctx_t), .init = sp_init_p4, .drive = sp_drive, .check = sp_check,
           .finish = sp_finish)
COSIM_TEST(ibsw_p24_sampling, .target = &ibsw_p24_target, .purpose = "ibsw_sampling on the 24-port switch",
           .ctx_size = sizeof(sp_ctx_t), .init = sp_init_p24, .drive = sp_drive, .check = sp_check,
           .finish = sp_finish)
