/* ibsw_full_pop (docs/ibsw.md §5.1 step 3, §5.6): an arrival into a full lane in the cycle that
 * lane pops is pushed, not lost; one into a full lane that does not pop is lost (error 6).
 *
 * Port 3 sends 6-flit packets on lane 0 to port 2, whose neighbour keeps its credits, until
 * port 2's neighbour and port 3's lane 0 (BufDepth flits) are full. Then, four times:
 *  A  the neighbour of port 2 returns one credit in t; §5.6 makes it usable by SA in t+1, which
 *     pops port 3's lane 0 in t+1; port 3's neighbour sends the next flit (a BODY) in t+1 with
 *     no credit: it must be pushed (no event), and the packet delivered intact;
 *  B  the same with a HEAD (a live HEAD taken in its lane's pop cycle: its pend count too);
 *  C  a HEAD into the full lane with no pop: lost, error 6, the lane DROPPING, so the rest of
 *     that packet (sent with credits later) is dropped without an event (§5.1 step 3);
 *  D  a stray BODY into the full lane, no pop, inside a later packet that is open: lost, error 6,
 *     the lane stays OPEN (the packet goes on and is delivered whole).
 * A well-behaved sender cannot make A or B (the pop's credit is on out_credit_o only in t+2):
 * the sender breaks the credit rule exactly then, as ibsw_errors' overflow does (reachable from
 * the ports; the spec says what happens). The test checks that each case happened as planned
 * (the reference buffer full before the arrival, the pop of t+1 on out_credit_o in t+2: check
 * ibsw.full_pop) and the harness's reference judges the rest (ibsw.err, ibsw.route, ibsw.loss,
 * ibsw.counters). Negative: ibsw_full_pop_late (case A's flit one cycle after the pop). */
#include "ibsw_harness.h"

#define FP_SRC   3 /* the sender */
#define FP_DST   2 /* the port whose neighbour holds its credits */
#define FP_LEN   6 /* flits per packet */
#define FP_NPKT  6
#define FP_STILL 12 /* cycles with nothing moving: every front HEAD is through route and VA */
#define FP_NCASE 4

typedef struct {
  ibh_t h;
  ibh_up_t up;
  unsigned phase, ncfg;
  int id[FP_NPKT];
  unsigned cur;  /* packet of the stream being sent */
  unsigned debt; /* credits of port FP_SRC lane 0 owed back: flits sent into a pop with none */
  unsigned still;
  uint64_t t_arr; /* the planned arrival cycle of the current case */
  char kcase;     /* 'A'..'D' while a case is out, 0 none */
  unsigned reached;
  uint64_t t_case[FP_NCASE]; /* each case's arrival cycle */
  unsigned lost_pkt;
  uint64_t t_end;
  bool late; /* ibsw_full_pop_late: case A's flit a cycle after the pop (ibsw.full_pop must fire) */
} fp_ctx_t;

static void fp_init_view(void *ctx, cosim_rng_t *rng, const ibsw_view_t *vw) {
  fp_ctx_t *x = ctx;
  (void)rng;
  ibh_init(&x->h, vw);
  for (unsigned n = 1; n <= x->h.P; n++) x->up.active_mask |= 1u << n;
  x->h.err_counters = true;
  x->lost_pkt = FP_NPKT;
}

static ibh_pkt_t *fp_pkt(fp_ctx_t *x) { return x->cur < FP_NPKT ? &x->h.pkt[x->id[x->cur]] : NULL; }

/* the next flit of the stream as this cycle's put; credit = false sends it without one */
static void fp_put(fp_ctx_t *x, bool credit, bool ovf) {
  ibh_t *h = &x->h;
  if (!credit) h->cred_in[FP_SRC][0]++; /* ibh_put_pkt asks for one; it is not used */
  ibh_put_pkt(h, FP_SRC, x->id[x->cur]);
  if (!credit) {
    h->cred_in[FP_SRC][0]--;
    h->put[FP_SRC].credit = false;
    h->put[FP_SRC].ovf = ovf;
  }
  if (fp_pkt(x)->sent == FP_LEN) x->cur++;
}

/* one credit of lane 0 back from port FP_DST's neighbour, as if it freed a slot */
static void fp_credit(fp_ctx_t *x) {
  x->h.occ[FP_DST][0]--;
  x->h.put_cred[FP_DST] |= 1;
}

static bool fp_full(const fp_ctx_t *x) {
  const ibh_t *h = &x->h;
  return h->fq_n[FP_SRC][0] == h->depth[0] && h->occ[FP_DST][0] == h->depth[0] &&
         h->cred_in[FP_SRC][0] == 0 && !x->debt;
}

static bool fp_drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *in) {
  fp_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  cosim_msg_t m;
  if (x->debt && h->cred_in[FP_SRC][0]) { /* the pop's credit pays for the flit sent without one */
    h->cred_in[FP_SRC][0]--;
    x->debt--;
  }
  switch (x->phase) {
    case 0:
      if (ibh_bringup(h, &x->up, prev, &m)) x->phase = 1;
      break;
    case 1:
      if (ibh_cfg_write(h, in, &x->ncfg, h->P, x->ncfg)) {
        h->hold_cred[FP_DST] = true;
        for (unsigned k = 0; k < FP_NPKT; k++) x->id[k] = ibh_data_noq(h, FP_SRC, 0, FP_DST, FP_LEN);
        x->phase = 2;
      }
      break;
    case 2: { /* fill, then each case once the lane is full and still */
      ibh_pkt_t *p = fp_pkt(x);
      if (x->kcase == 'D' && c == x->t_arr) { /* a stray BODY, not the stream's: the packet goes on */
        h->put[FP_SRC] = (ibh_put_t){true, IBH_BODY, 0, 0xD0D0D0D0D0D0D0ull, false, true};
        break;
      }
      if (x->kcase && c == x->t_arr) {
        fp_put(x, false, x->kcase == 'C');
        if (x->kcase != 'C') x->debt++;
        break;
      }
      if (x->kcase) break;
      if (p && h->cred_in[FP_SRC][0]) {
        fp_put(x, true, false);
        x->still = 0;
        break;
      }
      if (!fp_full(x) || ++x->still < FP_STILL) break;
      x->still = 0;
      /* A a BODY, B and C a HEAD next; D inside a packet that is open (not the lost one) */
      const unsigned want = x->reached == 0 ? IBH_BODY : IBH_HEAD;
      const bool now =
          p && (x->reached < 3 ? p->kind[p->sent] == want : p->sent > 0 && x->cur != x->lost_pkt);
      if (x->reached < FP_NCASE && now) {
        x->kcase = (char)('A' + x->reached);
        if (x->kcase >= 'C') {
          x->t_arr = c + 1;
          if (x->kcase == 'C') x->lost_pkt = x->cur;
        } else {
          fp_credit(x); /* in_credit_i in c: SA may use it in c + 1 (§5.6), the lane pops then */
          x->t_arr = c + 1 + x->late;
        }
      } else if (x->reached < FP_NCASE && p) {
        fp_credit(x); /* one flit further, sent with its credit */
      } else {
        h->hold_cred[FP_DST] = false; /* the rest drains */
        x->phase = 3;
      }
      break;
    }
    case 3:
      if (x->cur < FP_NPKT && h->cred_in[FP_SRC][0]) fp_put(x, true, false);
      if (x->cur == FP_NPKT && !h->inflight && !h->fq_n[FP_SRC][0] && !x->t_end) x->t_end = c + 10;
      if (x->t_end && c >= x->t_end) return false;
      break;
  }
  ibh_drive(h, c, rng, prev, in);
  return true;
}

static bool fp_check(void *ctx, uint64_t c, const void *in, const void *out, cosim_msg_t *msg) {
  fp_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  /* the case's own timing first: a miss would show later as some other error */
  if (x->kcase && c == x->t_arr + 1) {
    bool pop = (IBH_GET(h, out.out_credit_o, out, FP_SRC - 1) & 1) != 0;
    if (pop != (x->kcase < 'C')) {
      cosim_fail(msg, "ibsw.full_pop",
                 "case %c: port %u lane 0 %s in cycle %llu, the cycle of the arrival into its full buffer "
                 "(credit back on port %u in %llu)",
                 x->kcase, FP_SRC, pop ? "popped" : "did not pop", (unsigned long long)x->t_arr, FP_DST,
                 (unsigned long long)(x->t_arr - 1));
      return false;
    }
    x->t_case[x->reached++] = x->t_arr;
    x->kcase = 0;
  }
  unsigned before = h->fq_n[FP_SRC][0];
  if (!ibh_check(h, c, in, out, msg)) return false;
  if (x->kcase && c == x->t_arr) {
    /* the reference after this cycle's pops of c-1 and arrivals: full before, one more now (A, B),
     * or still full (C, D: lost) */
    unsigned pops_c1 = (unsigned)(IBH_GET(h, out.out_credit_o, out, FP_SRC - 1) & 1);
    unsigned want = h->depth[0] + (x->kcase < 'C');
    if (before - pops_c1 != h->depth[0] || h->fq_n[FP_SRC][0] != want) {
      cosim_fail(msg, "ibsw.full_pop",
                 "case %c in cycle %llu: port %u lane 0 held %u of %u before the arrival, %u after (%u)",
                 x->kcase, (unsigned long long)c, FP_SRC, before - pops_c1, h->depth[0], h->fq_n[FP_SRC][0],
                 want);
      return false;
    }
  }
  return true;
}

static bool fp_finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  fp_ctx_t *x = ctx;
  ibh_t *h = &x->h;
  (void)cycles;
  if (x->reached < FP_NCASE || x->phase < 3 || !x->t_end) {
    cosim_fail(msg, "ibsw.full_pop",
               "the test did not reach its end (%u of 4 cases, phase %u): too few cycles", x->reached,
               x->phase);
    return false;
  }
  if (h->delivered != FP_NPKT - 1) {
    cosim_fail(msg, "ibsw.full_pop", "%llu packets delivered; %u sent, one of them (%u) lost at its HEAD",
               (unsigned long long)h->delivered, FP_NPKT, x->lost_pkt);
    return false;
  }
  printf("ibsw_full_pop: a BODY (cycle %llu) and a HEAD (%llu) pushed into a full lane in its pop cycle, a "
         "HEAD (%llu, packet %u dropped) and a BODY inside an open packet (%llu) lost into it without one, "
         "%llu packets delivered\n",
         (unsigned long long)x->t_case[0], (unsigned long long)x->t_case[1], (unsigned long long)x->t_case[2],
         x->lost_pkt, (unsigned long long)x->t_case[3], (unsigned long long)h->delivered);
  return ibh_finish(h, msg);
}

static void fp_init_p4(void *ctx, cosim_rng_t *rng) { fp_init_view(ctx, rng, &ibsw_p4_view); }
static void fp_init_late(void *ctx, cosim_rng_t *rng) {
  fp_init_view(ctx, rng, &ibsw_p4_view);
  ((fp_ctx_t *)ctx)->late = true;
}

COSIM_TEST(ibsw_full_pop, .target = &ibsw_p4_target,
           .purpose = "an arrival into a full lane in its pop cycle is pushed; without the pop it is lost",
           .ctx_size = sizeof(fp_ctx_t), .init = fp_init_p4, .drive = fp_drive, .check = fp_check,
           .finish = fp_finish)
COSIM_TEST(ibsw_full_pop_late, .target = &ibsw_p4_target,
           .purpose = "ibsw_full_pop with case A's flit a cycle after the pop: the lane is not full then "
                      "(ibsw.full_pop must fail)",
           .ctx_size = sizeof(fp_ctx_t), .init = fp_init_late, .drive = fp_drive, .check = fp_check,
           .finish = fp_finish)
