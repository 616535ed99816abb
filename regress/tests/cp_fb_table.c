/* CP directed: a table of hand-computed feedback values (docs/cp.md §2, §7).
 *
 * ECM with Qeq = 10000, W = 2 (so D = (2W+1)·Qeq = 50000), BCNMAX = 60000,
 * CPID = 5, and SAMPLE_BYTES = 64 so that every enqueued frame is sampled.
 * Dequeues are never sampled; they move Q between samples. For each sampled
 * enqueue the table gives Q after it, Qoff = Qeq − Q, Qdelta = Q − Qold,
 * Fb = Qoff − 2·Qdelta, QntzFb = min(63, floor(|Fb|·63/50000)) and the message:
 * MAX when Q > 60000, NEG when Fb < 0, POS when Fb > 0 and the frame is
 * tagged with CPID 5, none otherwise. Examples:
 *   row 2:  Q = 10000, Qold = 1000: Qoff = 0, Qdelta = 9000, Fb = −18000,
 *           18000·63/50000 = 22.68 → 22, NEG
 *   |Fb| = 18253 → 22.998 → 22 and 18254 → 23.0004 → 23 (a floor boundary);
 *   |Fb| = 49999 → 62.9987 → 62; 50000 → exactly 63; 50794 = ceil(64·D/63) → clamped 63;
 *   Fb = 0 → no BCN(0,0); Q = 60000 = BCNMAX is not above it → POS; 60064 → MAX.
 * (The values were computed from the spec's formulas independently of the C
 * model and the RTL.) Each event has its own cycle t followed by two idle
 * cycles, so about four samples are in the feedback pipeline at a time: q_o
 * must show Q at t+1, the BCN (or none) must be on the outputs at t+11
 * exactly, not a cycle earlier or later: the latency contract (§10), which
 * this test states on its own (BCN_LAT) rather than taking it from the model.
 */
#include <string.h>

#include "cp_drive.h"

enum { EV_ENQ, EV_DEQ };
enum { BCN_LAT = 11 }; /* docs/cp.md §10: enqueue in t, BCN on the outputs at t+11 */
enum { CPT_NEG = 0, CPT_POS = 1, CPT_MAX = 2, CPT_NONE = 3 };

static const struct {
  int ev, len, tagged, tag_cpid;
  long q, qoff, qdelta, fb;
  int qntz, type;
} table[] = {
    /* ev     len  tagged cpid  Q      Qoff    Qdelta   Fb      Qntz type */
    {EV_ENQ, 1000, 0, 0, 1000, 9000, 1000, 7000, 8, CPT_NONE},
    {EV_ENQ, 9000, 1, 5, 10000, 0, 9000, -18000, 22, CPT_NEG},
    {EV_ENQ, 64, 1, 5, 10064, -64, 64, -192, 0, CPT_NEG},
    {EV_DEQ, 9000, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 1128, 8872, -8936, 26744, 33, CPT_POS},
    {EV_ENQ, 64, 1, 6, 1192, 8808, 64, 8680, 10, CPT_NONE},
    {EV_ENQ, 2936, 1, 5, 4128, 5872, 2936, 0, 0, CPT_NONE},
    {EV_ENQ, 9216, 0, 0, 13344, -3344, 9216, -21776, 27, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 22560, -12560, 9216, -30992, 39, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 31776, -21776, 9216, -40208, 50, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 40992, -30992, 9216, -49424, 62, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 41056, -31056, 64, -31184, 39, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 41120, -31120, 64, -31248, 39, CPT_NEG},
    {EV_DEQ, 4353, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 36831, -26831, -4289, -18253, 22, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 46047, -36047, 9216, -54479, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 55263, -45263, 9216, -63695, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 64479, -54479, 9216, -72911, 63, CPT_MAX},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 2923, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 52404, -42404, -12075, -18254, 23, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 52468, -42468, 64, -42596, 53, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 52532, -42532, 64, -42660, 53, CPT_NEG},
    {EV_ENQ, 2489, 1, 5, 55021, -45021, 2489, -49999, 62, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 55085, -45085, 64, -45213, 56, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 55149, -45149, 64, -45277, 57, CPT_NEG},
    {EV_ENQ, 1617, 1, 5, 56766, -46766, 1617, -50000, 63, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 56830, -46830, 64, -46958, 59, CPT_NEG},
    {EV_ENQ, 64, 0, 0, 56894, -46894, 64, -47022, 59, CPT_NEG},
    {EV_ENQ, 1300, 1, 5, 58194, -48194, 1300, -50794, 63, CPT_NEG},
    {EV_ENQ, 867, 1, 5, 59061, -49061, 867, -50795, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 68277, -58277, 9216, -76709, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 77493, -67493, 9216, -85925, 63, CPT_MAX},
    {EV_ENQ, 64, 0, 0, 77557, -67557, 64, -67685, 63, CPT_MAX},
    {EV_ENQ, 64, 0, 0, 77621, -67621, 64, -67749, 63, CPT_MAX},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 2407, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 38414, -28414, -39207, 50000, 63, CPT_POS},
    {EV_ENQ, 9216, 0, 0, 47630, -37630, 9216, -56062, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 56846, -46846, 9216, -65278, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 66062, -56062, 9216, -74494, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 75278, -65278, 9216, -83710, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 84494, -74494, 9216, -92926, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 93710, -83710, 9216, -102142, 63, CPT_MAX},
    {EV_ENQ, 64, 0, 0, 93774, -83774, 64, -83902, 63, CPT_MAX},
    {EV_ENQ, 64, 0, 0, 93838, -83838, 64, -83966, 63, CPT_MAX},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 1930, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 45892, -35892, -47946, 60000, 63, CPT_POS},
    {EV_ENQ, 9216, 0, 0, 55108, -45108, 9216, -63540, 63, CPT_NEG},
    {EV_ENQ, 9216, 0, 0, 64324, -54324, 9216, -72756, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 73540, -63540, 9216, -81972, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 82756, -72756, 9216, -91188, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 91972, -81972, 9216, -100404, 63, CPT_MAX},
    {EV_ENQ, 9216, 0, 0, 101188, -91188, 9216, -109620, 63, CPT_MAX},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 9216, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_DEQ, 4388, 0, 0, 0, 0, 0, 0, 0, CPT_NONE},
    {EV_ENQ, 64, 1, 5, 60000, -50000, -41188, 32376, 40, CPT_POS},
    {EV_ENQ, 64, 1, 5, 60064, -50064, 64, -50192, 63, CPT_MAX},
};
#define NROWS (sizeof table / sizeof table[0])

/* configuration: register writes, then APPLY */
static const cp_cfg_write_t config[] = {
    {0, 1}, {1, 10000}, {2, 2}, {4, 64}, {5, 60000}, {8, 5}, {15, 0},
};
#define NCFG        (sizeof config / sizeof config[0])
#define FIRST_EVENT (NCFG + 1)

typedef struct {
  unsigned checked, messages;
} cpt_t;

static bool drive(void *ctx, uint64_t c, cosim_rng_t *rng, const void *prev, void *iv) {
  (void)ctx;
  (void)rng;
  (void)prev;
  cp_q20_f8_in_t *in = iv;
  if (c < NCFG) {
    cp_drive_cfg(in, config[c].addr, config[c].data);
    return true;
  }
  if (c < FIRST_EVENT) return true;
  if (c > FIRST_EVENT + 3 * (NROWS - 1) + BCN_LAT) return false; /* the last BCN was seen */
  uint64_t k = (c - FIRST_EVENT) / 3, phase = (c - FIRST_EVENT) % 3;
  if (k >= NROWS || phase != 0) return true;
  if (table[k].ev == EV_ENQ) {
    in->enq_valid_i = 1;
    in->enq_len_i = (uint16_t)table[k].len;
    in->enq_flow_i = 3;
    in->enq_src_i = 9;
    in->enq_tagged_i = (uint8_t)table[k].tagged;
    in->enq_tag_cpid_i = (uint16_t)table[k].tag_cpid;
  } else {
    in->deq_valid_i = 1;
    in->deq_len_i = (uint16_t)table[k].len;
    in->deq_flow_i = 3;
  }
  return true;
}

static int64_t sext(uint32_t v, unsigned bits) {
  return (int64_t)((uint64_t)v << (64 - bits)) >> (64 - bits);
}

static bool check(void *ctx, uint64_t c, const void *iv, const void *ov, cosim_msg_t *msg) {
  (void)iv;
  cpt_t *t = ctx;
  const cp_q20_f8_out_t *o = ov;
  const unsigned qw = (unsigned)CP_Q20_F8_PARAM_QW;
  if (o->cfg_err_o || o->ev_err_o) {
    cosim_fail(msg, "cp.unexpected_error", "unexpected error: cfg_err %u (code %u), ev_err %u (code %u)",
               o->cfg_err_o, o->cfg_err_code_o, o->ev_err_o, o->ev_err_code_o);
    return false;
  }
  if (c < FIRST_EVENT + 1) return true;
  /* q_o one cycle after each enqueue */
  const uint64_t kq = (c - FIRST_EVENT - 1) / 3, pq = (c - FIRST_EVENT - 1) % 3;
  if (kq < NROWS && pq == 0 && table[kq].ev == EV_ENQ && o->q_o != (uint32_t)table[kq].q) {
    cosim_fail(msg, "cp.q_after_enqueue", "row %u: q_o = %u one cycle after the enqueue, expected %ld",
               (unsigned)kq, o->q_o, table[kq].q);
    return false;
  }
  /* The BCN of row k (event at t_k = FIRST_EVENT + 3k) shows at t_k + BCN_LAT exactly:
       rows are 3 cycles apart, so a BCN in any other cycle is one cycle early or late. */
  if (c < FIRST_EVENT + BCN_LAT) {
    if (o->bcn_valid_o) {
      cosim_fail(msg, "cp.bcn_early", "BCN %u cycles after the first event (latency contract: %d)",
                 (unsigned)(c - FIRST_EVENT), BCN_LAT);
      return false;
    }
    return true;
  }
  const uint64_t k = (c - FIRST_EVENT - BCN_LAT) / 3, phase = (c - FIRST_EVENT - BCN_LAT) % 3;
  if (phase == 2 && o->bcn_valid_o) {
    cosim_fail(msg, "cp.bcn_early", "row %u: BCN %d cycles after the enqueue (latency contract: %d)",
               (unsigned)k + 1, BCN_LAT - 1, BCN_LAT);
    return false;
  }
  if (phase == 1 && o->bcn_valid_o) {
    cosim_fail(msg, "cp.bcn_late", "row %u: BCN %d cycles after the enqueue (latency contract: %d)",
               (unsigned)k, BCN_LAT + 1, BCN_LAT);
    return false;
  }
  if (phase != 0 || k >= NROWS) return true;
  const bool want = table[k].ev == EV_ENQ && table[k].type != CPT_NONE;
  if (o->bcn_valid_o != want) {
    cosim_fail(msg, "cp.bcn_valid", "row %u: bcn_valid_o = %u %d cycles after the %s, expected %u",
               (unsigned)k, o->bcn_valid_o, BCN_LAT, table[k].ev == EV_ENQ ? "enqueue" : "dequeue", want);
    return false;
  }
  if (table[k].ev != EV_ENQ) return true;
  t->checked++;
  if (!want) return true;
  t->messages++;
  int64_t qoff = sext(o->bcn_qoff_o, qw + 1), qd = sext(o->bcn_qdelta_o, qw + 1),
          fb = sext(o->bcn_fb_o, qw + 5);
  if (o->bcn_type_o != table[k].type || qoff != table[k].qoff || qd != table[k].qdelta || fb != table[k].fb ||
      o->bcn_qntzfb_o != table[k].qntz || o->bcn_cpid_o != 5 || o->bcn_dst_o != 9 || o->bcn_flow_o != 3) {
    cosim_fail(msg, "cp.bcn_fields",
               "row %u (Q %ld): BCN type %u Qoff %lld Qdelta %lld Fb %lld QntzFb %u cpid %u dst %u flow %u; "
               "expected type %d Qoff %ld Qdelta %ld Fb %ld QntzFb %d cpid 5 dst 9 flow 3",
               (unsigned)k, table[k].q, o->bcn_type_o, (long long)qoff, (long long)qd, (long long)fb,
               o->bcn_qntzfb_o, o->bcn_cpid_o, o->bcn_dst_o, o->bcn_flow_o, table[k].type, table[k].qoff,
               table[k].qdelta, table[k].fb, table[k].qntz);
    return false;
  }
  return true;
}

static bool finish(void *ctx, uint64_t cycles, cosim_msg_t *msg) {
  (void)cycles;
  const cpt_t *t = ctx;
  unsigned enq = 0;
  for (unsigned k = 0; k < NROWS; k++) enq += table[k].ev == EV_ENQ;
  if (t->checked != enq) {
    cosim_fail(msg, "cp.rows_checked", "only %u of %u table rows were checked", t->checked, enq);
    return false;
  }
  return true;
}

COSIM_TEST(cp_fb_table, .target = &cp_q20_f8_target,
           .purpose = "hand-computed Qoff/Qdelta/Fb/QntzFb/type table, BCN at exactly t+11",
           .ctx_size = sizeof(cpt_t), .drive = drive, .check = check, .finish = finish)
