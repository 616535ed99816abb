/*
 * Unit tests for the ibsw C model, written from docs/ibsw.md (numbers from its §11
 * contracts, §5.2 drops, §6 port FSM, §7 MADs, §8 counters, §9 power).
 *
 *   test_ibsw [--seed=N]
 *
 * Prints the seed, one line per failed check, a rerun line on failure, and ends with
 * "N passed, N failed". Each scenario takes the planted bug to run with: with none it must
 * pass; test_bugs runs each bug of §14 in the scenario that names its check and requires
 * that scenario to fail. Setting up a state the harness cannot reach through pins (a port
 * Disabled at the start of a wake test) writes the model's port registers directly; every
 * behaviour checked goes through ibsw_eval.
 */
#define _POSIX_C_SOURCE 200809L

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "unit.h"

#include "ibsw.h"

/* ---- harness ---------------------------------------------------------------------- */
#define QMAX   4096
#define LOGMAX 8192

typedef struct {
  uint8_t kind, vl;
  uint64_t data;
} fl_t;
typedef struct {
  uint64_t c;
  fl_t f;
} logf_t;

typedef struct {
  ibsw_cfg_t cfg;
  ibsw_state_t s;
  ibsw_next_t nx;
  ibsw_in_t in;
  ibsw_out_t out;
  uint64_t c; /* the cycle the next step runs */
  fl_t q[IBSW_MAXP1][QMAX];
  unsigned qh[IBSW_MAXP1], qt[IBSW_MAXP1];
  logf_t log[IBSW_MAXP1][LOGMAX];
  unsigned nlog[IBSW_MAXP1];
  bool auto_credit; /* return every credit the cycle after the flit left */
  /* per cycle (c < LOGMAX): out_credit, err (code | 0x80 when err_o), phys, sample status */
  uint8_t cr[IBSW_MAXP1][LOGMAX], er[IBSW_MAXP1][LOGMAX], ph[IBSW_MAXP1][LOGMAX], ss[IBSW_MAXP1][LOGMAX];
  uint32_t pw[LOGMAX];
} sw_t;

static ibsw_cfg_t cfg_p4(unsigned bug, unsigned boot) {
  return (ibsw_cfg_t){4, 2, 4, 4, 5, 4, 1, 3, 8, 16, boot, bug};
}
static ibsw_cfg_t cfg_p24(unsigned bug, unsigned boot) {
  return (ibsw_cfg_t){24, 4, 16, 8, 25, 1024, 64, 3, 32, 64, boot, bug};
}

static sw_t *sw_new(ibsw_cfg_t cfg) {
  sw_t *w = calloc(1, sizeof *w);
  w->cfg = cfg;
  if (ibsw_init(&w->s, &w->cfg)) {
    free(w);
    return NULL;
  }
  return w;
}
static void sw_free(sw_t *w) {
  ibsw_free(&w->s);
  free(w);
}
static void enq(sw_t *w, unsigned n, unsigned kind, unsigned vl, uint64_t data) {
  w->q[n][w->qt[n]++ % QMAX] = (fl_t){(uint8_t)kind, (uint8_t)vl, data};
}
/* one cycle: queued flits (one per port), then eval (w->out = outputs of cycle w->c), commit */
static void step(sw_t *w) {
  for (unsigned n = 1; n <= w->cfg.num_ports; n++)
    if (w->qh[n] != w->qt[n] && !w->in.valid[n]) {
      const fl_t *f = &w->q[n][w->qh[n]++ % QMAX];
      w->in.valid[n] = 1;
      w->in.kind[n] = f->kind;
      w->in.vl[n] = f->vl;
      w->in.data[n] = f->data;
    }
  ibsw_eval(&w->cfg, &w->s, &w->in, &w->out, &w->nx);
  ibsw_commit(&w->cfg, &w->s, &w->nx);
  memset(&w->in, 0, sizeof w->in);
  for (unsigned n = 1; n <= w->cfg.num_ports && w->c < LOGMAX; n++) {
    w->cr[n][w->c] = w->out.credit[n];
    w->er[n][w->c] = (uint8_t)(w->out.err_code[n] | (w->out.err[n] ? 0x80 : 0));
    w->ph[n][w->c] = w->out.phys_state[n];
    w->ss[n][w->c] = w->out.sample_status[n];
    w->pw[w->c] = w->out.power_mw;
  }
  for (unsigned n = 1; n <= w->cfg.num_ports; n++) {
    if (w->out.valid[n] && w->out.kind[n] != IBSW_SYM && w->nlog[n] < LOGMAX)
      w->log[n][w->nlog[n]++] = (logf_t){w->c, {w->out.kind[n], w->out.vl[n], w->out.data[n]}};
    if (w->auto_credit && w->out.valid[n] && w->out.kind[n] != IBSW_SYM)
      w->in.credit[n] = (uint8_t)(1u << (w->out.vl[n] == 15 ? w->cfg.num_data_vls : w->out.vl[n]));
  }
  w->c++;
}
static void run_to(sw_t *w, uint64_t c) {
  while (w->c < c) step(w);
}
static void cfg_write(sw_t *w, unsigned sel, unsigned addr, unsigned data) {
  w->in.cfg_valid = 1;
  w->in.cfg_sel = (uint8_t)sel;
  w->in.cfg_addr = (uint16_t)addr;
  w->in.cfg_data = (uint16_t)data;
  step(w);
}
static uint64_t dhead(unsigned dlid, uint32_t opaque) { return ((uint64_t)dlid << 48) | opaque; }
static void packet(sw_t *w, unsigned n, unsigned vl, uint64_t head, unsigned bodies) {
  enq(w, n, IBSW_HEAD, vl, head);
  for (unsigned k = 0; k < bodies; k++) enq(w, n, IBSW_BODY, vl, 0x1000u + k);
  enq(w, n, IBSW_TAIL, vl, 0x2000u);
}
/* the first logged flit of port o at or after cycle c0, or NULL */
static const logf_t *out_at(const sw_t *w, unsigned o, uint64_t c0) {
  for (unsigned k = 0; k < w->nlog[o]; k++)
    if (w->log[o][k].c >= c0) return &w->log[o][k];
  return NULL;
}
/* A MAD (§7.1) on port n: route to the SMA (tag 0), return route `ret`. */
static void mad(sw_t *w, unsigned n, unsigned cls, unsigned method, unsigned attr, unsigned mod, uint64_t ret,
                const uint64_t *data, unsigned nd) {
  enq(w, n, IBSW_HEAD, 15, UINT64_C(0xFFFF) << 48);
  enq(w, n, IBSW_BODY, 15, (UINT64_C(0x1234) << 48) | ret);
  enq(w, n, nd ? IBSW_BODY : IBSW_TAIL, 15,
      ((uint64_t)cls << 56) | ((uint64_t)method << 48) | ((uint64_t)attr << 32) | ((uint64_t)mod << 16));
  for (unsigned k = 0; k < nd; k++) enq(w, n, k + 1 == nd ? IBSW_TAIL : IBSW_BODY, 15, data[k]);
}
/* the response (flits of VL15 on port o from cycle c0): returns its length */
static unsigned resp_at(const sw_t *w, unsigned o, uint64_t c0, uint64_t *words, uint64_t *head_cycle) {
  unsigned n = 0;
  for (unsigned k = 0; k < w->nlog[o]; k++) {
    const logf_t *l = &w->log[o][k];
    if (l->c < c0 || l->f.vl != 15) continue;
    if (n == 0 && head_cycle) *head_cycle = l->c;
    if (n < 16) words[n] = l->f.data;
    n++;
    if (l->f.kind == IBSW_TAIL) break;
  }
  return n;
}
/* all ports LinkUp/Active by the registers (a setup shortcut, see the header) */
static void force_port(sw_t *w, unsigned n, unsigned phys, unsigned pstate) {
  w->s.r.port[n].phys = (uint8_t)phys;
  w->s.r.port[n].pstate = (uint8_t)pstate;
}

/* Run a scenario with its output captured (for the planted bugs): its number of failed
   checks, and whether a failed check's message carries the tag "[<check>]". */
typedef void (*scen_t)(tctx_t *t, unsigned bug);
static unsigned long run_quiet(scen_t f, unsigned bug, const char *check, bool *named) {
  tctx_t t = {0, 0, 1};
  char tag[64];
  snprintf(tag, sizeof tag, "[%s]", check);
  *named = false;
  fflush(stdout);
  FILE *tmp = tmpfile();
  const int saved = dup(fileno(stdout));
  if (tmp) dup2(fileno(tmp), fileno(stdout));
  f(&t, bug);
  fflush(stdout);
  if (saved >= 0) {
    dup2(saved, fileno(stdout));
    close(saved);
  }
  if (tmp) {
    rewind(tmp);
    char line[1024];
    while (fgets(line, sizeof line, tmp))
      if (!strncmp(line, "FAIL ", 5) && strstr(line, tag)) *named = true;
    fclose(tmp);
  }
  return t.failed;
}

/* Two switches joined port a of A <-> port b of B, latency lk each way (§3.4's
   fabric_connect): flits and credits. */
typedef struct {
  sw_t *a, *b;
  unsigned pa, pb, lk;
  ibsw_in_t ab[16], ba[16]; /* delay lines: what arrives k cycles later */
} pair_t;
static void pair_step(pair_t *p) {
  const unsigned i = (unsigned)(p->a->c % 16);
  /* what left lk cycles ago arrives now */
  p->b->in.valid[p->pb] = p->ab[i].valid[0];
  p->b->in.kind[p->pb] = p->ab[i].kind[0];
  p->b->in.vl[p->pb] = p->ab[i].vl[0];
  p->b->in.data[p->pb] = p->ab[i].data[0];
  p->b->in.credit[p->pb] = p->ab[i].credit[0];
  p->a->in.valid[p->pa] = p->ba[i].valid[0];
  p->a->in.kind[p->pa] = p->ba[i].kind[0];
  p->a->in.vl[p->pa] = p->ba[i].vl[0];
  p->a->in.data[p->pa] = p->ba[i].data[0];
  p->a->in.credit[p->pa] = p->ba[i].credit[0];
  step(p->a);
  step(p->b);
  const unsigned j = (unsigned)((p->a->c - 1 + p->lk) % 16);
  memset(&p->ab[j], 0, sizeof p->ab[j]);
  memset(&p->ba[j], 0, sizeof p->ba[j]);
  p->ab[j].valid[0] = p->a->out.valid[p->pa];
  p->ab[j].kind[0] = p->a->out.kind[p->pa];
  p->ab[j].vl[0] = p->a->out.vl[p->pa];
  p->ab[j].data[0] = p->a->out.data[p->pa];
  p->ab[j].credit[0] = p->a->out.credit[p->pa];
  p->ba[j].valid[0] = p->b->out.valid[p->pb];
  p->ba[j].kind[0] = p->b->out.kind[p->pb];
  p->ba[j].vl[0] = p->b->out.vl[p->pb];
  p->ba[j].data[0] = p->b->out.data[p->pb];
  p->ba[j].credit[0] = p->b->out.credit[p->pb];
}

/* A MAD through port n, run until its response is out (or `limit` cycles): its status,
   words in w[], the response HEAD's cycle in *hc; returns -1 without a response. */
static int do_mad(sw_t *w, unsigned n, unsigned cls, unsigned method, unsigned attr, unsigned mod,
                  const uint64_t *data, unsigned nd, uint64_t *words, uint64_t *t_head, uint64_t *hc) {
  const uint64_t t = w->c;
  if (t_head) *t_head = t;
  static const uint64_t zero[16];
  if (!data) { /* a Get carries the attribute's N words too (§7.2: exactly 3 + N flits) */
    nd = cls == 0x81                        ? (attr == 0x0019 ? 8 : 1)
         : attr == 0x0010 || attr == 0xFF01 ? 2
         : attr == 0x0011                   ? 3
                                            : 4;
    data = zero;
  }
  mad(w, n, cls, method, attr, mod, n, data, nd);
  for (unsigned k = 0; k < 600; k++) {
    step(w);
    uint64_t r[16];
    const unsigned len = resp_at(w, n, t, r, hc);
    if (len && r[0] >> 63 && w->nlog[n] && w->log[n][w->nlog[n] - 1].f.kind == IBSW_TAIL &&
        w->log[n][w->nlog[n] - 1].f.vl == 15) {
      memcpy(words, r, sizeof r);
      return (int)(r[2] & 0xFFFF);
    }
  }
  return -1;
}

/* ---- scenarios -------------------------------------------------------------------- */

static void test_params(tctx_t *t) {
  static const struct {
    unsigned field;
    unsigned long long lo, hi;
    const char *name;
  } f[] = {{0, 2, 31, "NumPorts"},   {1, 2, 7, "NumDataVls"},    {2, 4, 256, "BufDepth"},
           {3, 4, 64, "Buf15Depth"}, {4, 5, 255, "RouteCycles"}, {5, 1, 16777215, "WakeCycles"},
           {6, 1, 768, "LftBlocks"}, {7, 0, 3, "LinkSpeed"},     {8, 8, 32, "CntW"},
           {9, 32, 64, "ExtW"},      {10, 0, 1, "BootActive"}};
  for (unsigned k = 0; k < sizeof f / sizeof f[0]; k++)
    for (int side = 0; side < 4; side++) {
      ibsw_cfg_t c = cfg_p24(0, 0);
      unsigned *fld[] = {&c.num_ports,  &c.num_data_vls, &c.buf_depth, &c.buf15_depth, &c.route_cycles, NULL,
                         &c.lft_blocks, &c.link_speed,   &c.cnt_w,     &c.ext_w,       &c.boot_active};
      const bool legal = side >= 2;
      unsigned long long v = side == 0   ? f[k].lo - 1
                             : side == 1 ? f[k].hi + 1
                             : side == 2 ? f[k].lo
                                         : f[k].hi;
      if (side == 0 && f[k].lo == 0) continue;
      if (f[k].field == 5)
        c.wake_cycles = (uint32_t)v;
      else
        *fld[f[k].field] = (unsigned)v;
      ibsw_state_t s;
      capture_t cap;
      char msg[512];
      capture_begin(&cap);
      const int rc = ibsw_init(&s, &c);
      capture_end(&cap, msg, sizeof msg);
      if (!rc) ibsw_free(&s);
      CHECK(t, (rc == 0) == legal, "%s = %llu: init %s", f[k].name, v, rc ? "refused" : "accepted");
      if (!legal)
        CHECK(t, strstr(msg, f[k].name) != NULL, "%s = %llu: message names it: %s", f[k].name, v, msg);
    }
  ibsw_cfg_t c = cfg_p24(0, 0);
  c.cnt_w = 32;
  c.ext_w = 31; /* ExtW >= max(16, CntW) */
  ibsw_state_t s;
  capture_t cap;
  char msg[512];
  capture_begin(&cap);
  const int rc = ibsw_init(&s, &c);
  capture_end(&cap, msg, sizeof msg);
  CHECK(t, rc != 0 && strstr(msg, "ExtW"), "ExtW below CntW refused: %s", msg);
}

static void sc_reset(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 0));
  ibsw_scramble(&w->s, &w->nx, &w->cfg, 7);
  ibsw_reset(&w->s, &w->cfg);
  step(w); /* cycle 0 */
  const uint32_t pw = 43400 + 4 * 950;
  CHECK(t, w->out.power_mw == pw && w->out.energy == 0, "reset: power %u energy %" PRIu64, w->out.power_mw,
        w->out.energy);
  for (unsigned n = 1; n <= 4; n++)
    CHECK(t,
          w->out.phys_state[n] == IBSW_POLLING && w->out.port_state[n] == IBSW_DOWN && w->out.power_on[n] &&
              !w->out.valid[n] && !w->out.err[n] && w->out.cnt[n][IBSW_C_RCV_DATA] == 0,
          "reset: port %u Polling/Down, idle", n);
  run_to(w, 6);
  CHECK(t, w->out.energy == 5ull * pw, "energy after 5 cycles %" PRIu64, w->out.energy);
  CHECK(t, w->ph[1][2] == IBSW_POLLING, "still polling");
  /* Polling sends TS1 every cycle: chosen in 0, on the pins from 2 */
  sw_t *v = sw_new(cfg_p4(bug, 0));
  step(v);
  CHECK(t, !v->out.valid[1], "cycle 0: nothing on the pins");
  step(v);
  CHECK(t, !v->out.valid[1], "cycle 1: nothing on the pins");
  step(v);
  CHECK(t, v->out.valid[1] && v->out.kind[1] == IBSW_SYM && v->out.data[1] == IBSW_SYM_TS1, "cycle 2: TS1");
  sw_free(v);
  sw_free(w);
}

/* §11: HEAD exactly R, BODY 3, pop -> out_credit 1, VL15 tag removed, pacing slots. */
static void latency_one(tctx_t *t, ibsw_cfg_t cfg) {
  sw_t *w = sw_new(cfg);
  const unsigned R = cfg.route_cycles, D = 8u >> cfg.link_speed;
  w->auto_credit = true;
  cfg_write(w, 1, 0, 60); /* <= Top_max at LftBlocks 1 */
  cfg_write(w, 0, 7, 3);
  cfg_write(w, 0, 8, 3);
  run_to(w, 8);
  const uint64_t t0 = w->c;
  packet(w, 1, 1, dhead(7, 0xABCD), 1);
  run_to(w, t0 + R + 20 * D);
  const logf_t *h = out_at(w, 3, 0);
  const uint64_t slack = (D - (t0 + R - 2) % D) % D; /* SA waits for its slot (§3.4) */
  CHECK(t,
        h && h->c == t0 + R + slack && h->f.kind == IBSW_HEAD && h->f.vl == 1 &&
            h->f.data == dhead(7, 0xABCD),
        "[ibsw.latency] R=%u D=%u: HEAD in %" PRIu64 " out %" PRIu64 " (expected %" PRIu64 ")", R, D, t0,
        h ? h->c : 0, t0 + R + slack);
  if (D == 1) {
    CHECK(t,
          w->nlog[3] >= 3 && w->log[3][1].c == t0 + R + 1 && w->log[3][1].f.kind == IBSW_BODY &&
              w->log[3][2].c == t0 + R + 2 && w->log[3][2].f.kind == IBSW_TAIL,
          "BODY, TAIL follow back to back");
    CHECK(t,
          !(w->cr[1][t0 + R - 2] & 2) && (w->cr[1][t0 + R - 1] & 2) && (w->cr[1][t0 + R] & 2) &&
              (w->cr[1][t0 + R + 1] & 2) && !(w->cr[1][t0 + R + 2] & 2),
          "out_credit (1, lane 1) in t+R-1 .. t+R+1 (pops in t+R-2 ..)");
    CHECK(t,
          w->out.cnt[3][IBSW_C_XMIT_PKTS] == 1 && w->out.cnt[1][IBSW_C_RCV_PKTS] == 1 &&
              w->out.cnt[3][IBSW_C_XMIT_DATA] == 6 && w->out.cnt[1][IBSW_C_RCV_DATA] == 6,
          "counters after one 3-flit packet");
  }
  for (uint64_t k = 0; k < w->nlog[3]; k++)
    CHECK(t, (w->log[3][k].c - 2) % D == 0, "flit on the pins in %" PRIu64 ": chosen in a slot",
          w->log[3][k].c);
  /* BODY of an open circuit: 3 cycles */
  const uint64_t t1 = w->c;
  enq(w, 2, IBSW_HEAD, 0, dhead(8, 1));
  run_to(w, t1 + R + 4 * D);
  const uint64_t tb = w->c;
  enq(w, 2, IBSW_BODY, 0, 0x55);
  enq(w, 2, IBSW_TAIL, 0, 0x66);
  run_to(w, tb + 10 * D);
  const logf_t *b = out_at(w, 3, tb);
  const uint64_t bslack = (D - (tb + 1) % D) % D;
  CHECK(t, b && b->f.kind == IBSW_BODY && b->f.data == 0x55 && b->c == tb + 3 + bslack,
        "R=%u D=%u: BODY in %" PRIu64 " out %" PRIu64, R, D, tb, b ? b->c : 0);
  /* VL15: through port 3 with the front tag removed */
  const uint64_t t2 = w->c;
  const uint64_t vh = (UINT64_C(0xFFFF) << 48) | (UINT64_C(0x15) << 5) | 3u;
  enq(w, 4, IBSW_HEAD, 15, vh);
  enq(w, 4, IBSW_TAIL, 15, 9);
  run_to(w, t2 + R + 10 * D);
  const logf_t *v = out_at(w, 3, t2);
  const uint64_t vslack = (D - (t2 + R - 2) % D) % D;
  CHECK(t, v && v->c == t2 + R + vslack && v->f.vl == 15 && v->f.data == ((UINT64_C(0xFFFF) << 48) | 0x15),
        "VL15 HEAD out in %" PRIu64 " data %016" PRIx64, v ? v->c : 0, v ? v->f.data : 0);
  for (unsigned n = 1; n <= 4; n++) CHECK(t, w->out.cnt[n][IBSW_C_RCV_ERR] == 0, "no receive error at %u", n);
  sw_free(w);
}
static void sc_latency(tctx_t *t, unsigned bug) {
  latency_one(t, cfg_p24(bug, 1));
  latency_one(t, cfg_p4(bug, 1));
  ibsw_cfg_t c = cfg_p4(bug, 1);
  c.link_speed = 1; /* D = 4 */
  c.route_cycles = 9;
  latency_one(t, c);
  c.link_speed = 0; /* D = 8 */
  c.route_cycles = 6;
  latency_one(t, c);
}

/* §5.6: no credit, no flit; a returned credit is used in the next cycle; a stray one is
   error 14. */
static void sc_credit(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  const uint64_t t0 = w->c;
  packet(w, 1, 0, dhead(5, 0), 6); /* 8 flits, BufDepth 4 */
  run_to(w, t0 + 40);
  CHECK(t, w->nlog[2] == 4, "4 credits: 4 flits left (%u)", w->nlog[2]);
  CHECK(t, w->out.cnt[2][IBSW_C_XMIT_WAIT] > 0, "XmitWait counts the stall");
  const uint64_t c = w->c;
  w->in.credit[2] = 1;
  run_to(w, c + 10);
  const logf_t *f = out_at(w, 2, c);
  CHECK(t, f && f->c == c + 3 && w->nlog[2] == 5, "credit in %" PRIu64 ": next flit on the pins in %" PRIu64,
        c, f ? f->c : 0);
  const uint64_t s = w->c;
  w->in.credit[3] = 1; /* port 3's lane 0 counter is full */
  run_to(w, s + 4);
  CHECK(t, w->er[3][s + 2] == (0x80 | 14) && !(w->er[3][s + 1] & 0x80) && !(w->er[3][s + 3] & 0x80),
        "stray credit: error 14 in c+2 (%02x)", w->er[3][s + 2]);
  CHECK(t, w->out.cnt[3][IBSW_C_SYMBOL_ERR] == 1, "SymbolErrorCounter +1");
  sw_free(w);
}

/* §11 credit loop 5 + 2Lk: a lane streams at full rate through two switches iff
   BufDepth >= 5 + 2Lk. */
static bool stream_gapless(unsigned depth, unsigned lk, unsigned bug) {
  ibsw_cfg_t c = cfg_p4(bug, 1);
  c.buf_depth = depth;
  pair_t p;
  memset(&p, 0, sizeof p);
  p.a = sw_new(c);
  p.b = sw_new(c);
  p.pa = 2;
  p.pb = 1;
  p.lk = lk;
  p.b->auto_credit = true;
  for (int k = 0; k < 2; k++) {
    sw_t *w = k ? p.b : p.a;
    w->in.cfg_valid = 1;
    w->in.cfg_sel = 1;
    w->in.cfg_data = 10;
  }
  pair_step(&p);
  p.a->in.cfg_valid = p.b->in.cfg_valid = 1;
  p.a->in.cfg_addr = p.b->in.cfg_addr = 5;
  p.a->in.cfg_data = 2; /* A: to port 2 (the link) */
  p.b->in.cfg_data = 3; /* B: to port 3 */
  pair_step(&p);
  packet(p.a, 1, 0, dhead(5, 0), 60);
  for (int k = 0; k < 200; k++) pair_step(&p);
  bool ok = p.b->nlog[3] == 62 && p.a->out.cnt[1][IBSW_C_RCV_ERR] == 0;
  for (unsigned k = 1; k < p.b->nlog[3]; k++) ok &= p.b->log[3][k].c == p.b->log[3][k - 1].c + 1;
  sw_free(p.a);
  sw_free(p.b);
  return ok;
}
static void sc_credit_loop(tctx_t *t, unsigned bug) {
  CHECK(t, stream_gapless(7, 1, bug), "BufDepth 7, Lk 1: full rate");
  CHECK(t, !stream_gapless(6, 1, bug), "BufDepth 6, Lk 1: not full rate");
  CHECK(t, stream_gapless(9, 2, bug), "BufDepth 9, Lk 2: full rate");
  CHECK(t, !stream_gapless(8, 2, bug), "BufDepth 8, Lk 2: not full rate");
}

/* §5.2: every drop with its code, at c+2 on err_o, counted in RelayErrors. */
static void sc_lft(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 40);
  static const unsigned ent[][2] = {{5, 2}, {7, 0}, {8, 9}, {9, 1}, {10, 4}, {41, 2}, {12, 3}};
  for (unsigned k = 0; k < 7; k++) cfg_write(w, 0, ent[k][0], ent[k][1]);
  enq(w, 4, IBSW_SYM, 0, IBSW_SYM_TS1); /* port 4 loses its link: LinkErrorRecovery */
  run_to(w, 20);
  CHECK(t, w->ph[4][19] == IBSW_LER, "port 4 in LinkErrorRecovery");
  static const struct {
    unsigned vl;
    uint64_t head;
    unsigned code;
  } cs[] = {
      {0, 0, 2},
      {0, UINT64_C(0xFFFF) << 48, 2},
      {1, (uint64_t)41 << 48, 2},
      {0, (uint64_t)6 << 48, 1},
      {0, (uint64_t)7 << 48, 3},
      {1, (uint64_t)8 << 48, 3},
      {0, (uint64_t)9 << 48, 3},
      {0, (uint64_t)10 << 48, 4},
      {15, (uint64_t)0x1234 << 48, 2},
      {15, (UINT64_C(0xFFFF) << 48) | 9u, 3},
      {15, (UINT64_C(0xFFFF) << 48) | 1u, 3},
      {15, (UINT64_C(0xFFFF) << 48) | 4u, 4},
      {0, (uint64_t)5 << 48, 0},
      {1, (uint64_t)12 << 48, 0},
  };
  const unsigned nc = sizeof cs / sizeof cs[0];
  unsigned drops = 0;
  for (unsigned k = 0; k < nc; k++) {
    run_to(w, 20 + 12 * k);
    const uint64_t c = w->c;
    enq(w, 1, IBSW_HEAD, cs[k].vl, cs[k].head);
    enq(w, 1, IBSW_TAIL, cs[k].vl, 0);
    run_to(w, c + 12);
    if (cs[k].code) {
      drops++;
      CHECK(t, (w->er[1][c + 2] & 0x0F) == cs[k].code, "[ibsw.err] case %u: code %u (seen %u)", k, cs[k].code,
            w->er[1][c + 2] & 0x0F);
      CHECK(t, (w->er[1][c + 2] & 0x80) && !(w->er[1][c + 1] & 0x80) && !(w->er[1][c + 3] & 0x80),
            "[ibsw.err_timing] case %u: err_o in c+2 only (seen %02x %02x %02x)", k, w->er[1][c + 1],
            w->er[1][c + 2], w->er[1][c + 3]);
    } else {
      CHECK(t, !(w->er[1][c + 2] & 0x80), "case %u routed: no error", k);
    }
    CHECK(t, w->out.cnt[1][IBSW_C_RELAY_ERR] == drops, "case %u: RelayErrors %" PRIu64 " (expected %u)", k,
          w->out.cnt[1][IBSW_C_RELAY_ERR], drops);
  }
  CHECK(t, w->nlog[2] == 2 && w->log[2][0].f.data == (uint64_t)5 << 48,
        "[ibsw.route] DLID 5 delivered on port 2 (%u flits)", w->nlog[2]);
  CHECK(t, w->nlog[3] == 2 && w->log[3][0].f.data == (uint64_t)12 << 48,
        "[ibsw.route] DLID 12 delivered on port 3");
  CHECK(t, w->out.cnt[1][IBSW_C_RCV_ERR] == 0, "drops are not receive errors");
  sw_free(w);
}

/* §5.7: a write of cycle c applies to HEADs arriving in c+1 (configuration port and
   SubnSet(LinearForwardingTable)). */
static void sc_lft_epoch(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 40);
  cfg_write(w, 0, 5, 2);
  run_to(w, 10);
  enq(w, 1, IBSW_HEAD, 0, dhead(5, 1));
  enq(w, 1, IBSW_TAIL, 0, 0);
  cfg_write(w, 0, 5, 3); /* cycle 10: the HEAD of 10 keeps port 2 */
  enq(w, 4, IBSW_HEAD, 0, dhead(5, 2));
  enq(w, 4, IBSW_TAIL, 0, 0);
  run_to(w, 40);
  CHECK(t, w->nlog[2] == 2 && w->log[2][0].f.data == dhead(5, 1), "HEAD of the write's cycle: old egress");
  CHECK(t, w->nlog[3] == 2 && w->log[3][0].f.data == dhead(5, 2), "HEAD of the next cycle: new egress");
  /* a block Set executing in e: entry 5 -> port 4 */
  uint64_t blk[8];
  for (unsigned k = 0; k < 8; k++) blk[k] = UINT64_C(0xFFFFFFFFFFFFFFFF);
  blk[0] = (blk[0] & ~(UINT64_C(0xFF) << 40)) | (UINT64_C(4) << 40);
  const uint64_t tm = w->c;
  mad(w, 1, 0x81, 0x02, 0x0019, 0, 1, blk, 8);
  const uint64_t e = tm + 5 + 8 + 2; /* t + R + N + 2 */
  run_to(w, e);
  enq(w, 2, IBSW_HEAD, 0, dhead(5, 3));
  enq(w, 2, IBSW_TAIL, 0, 0);
  step(w);
  enq(w, 3, IBSW_HEAD, 0, dhead(5, 4));
  enq(w, 3, IBSW_TAIL, 0, 0);
  run_to(w, e + 40);
  const logf_t *a = out_at(w, 3, e);
  const logf_t *b = out_at(w, 4, e);
  CHECK(t, a && a->f.data == dhead(5, 3), "[ibsw.lft_epoch] HEAD arriving in e: old egress (port 3)");
  CHECK(t, b && b->f.data == dhead(5, 4), "[ibsw.lft_epoch] HEAD arriving in e+1: new egress (port 4)");
  uint64_t r[16];
  uint64_t hc = 0;
  const unsigned len = resp_at(w, 1, tm, r, &hc);
  CHECK(t, len == 11 && (r[2] & 0xFFFF) == 0 && r[3] == blk[0] && hc == tm + 2 * 5 + 8 + 4,
        "block Set answered: len %u status %04x at %" PRIu64, len, (unsigned)(r[2] & 0xFFFF), hc);
  sw_free(w);
}

/* §7: MAD latency 2R+N+4, SwitchInfo, PortInfo, bad MADs, unknown attribute. */
static void sc_mad(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p24(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 300);
  uint64_t r[16], th = 0, hc = 0;
  int st = do_mad(w, 5, 0x81, 0x01, 0x0012, 0, NULL, 0, r, &th, &hc);
  CHECK(t, st == 0 && hc == th + 2 * 25 + 1 + 4, "SwitchInfo Get: status %d, response in t+%" PRIu64, st,
        hc - th);
  CHECK(t,
        r[0] == UINT64_C(0xFFFF) << 48 && r[1] == UINT64_C(0x1234) << 48 &&
            r[2] == ((UINT64_C(0x81) << 56) | (UINT64_C(0x81) << 48) | (UINT64_C(0x12) << 32)),
        "response header %016" PRIx64 " %016" PRIx64 " %016" PRIx64, r[0], r[1], r[2]);
  CHECK(t, r[3] == ((UINT64_C(4096) << 48) | (UINT64_C(300) << 32) | (24u << 24) | (4u << 16) | (25u << 8)),
        "SwitchInfo %016" PRIx64, r[3]);
  st = do_mad(w, 5, 0x81, 0x01, 0x0015, 7, NULL, 0, r, NULL, NULL);
  CHECK(t,
        st == 0 && r[3] == ((UINT64_C(4) << 60) | (UINT64_C(5) << 56) | (UINT64_C(2) << 52) |
                            (UINT64_C(2) << 48) | (UINT64_C(7) << 32)),
        "PortInfo 7: %016" PRIx64, r[3]);
  st = do_mad(w, 5, 0x81, 0x01, 0x0015, 25, NULL, 0, r, NULL, NULL);
  CHECK(t, st == 0x1C, "PortInfo AttrMod 25: 0x001C (%x)", st);
  const uint64_t echo = 0x0123456789ABCDEFull;
  st = do_mad(w, 5, 0x81, 0x01, 0x0077, 0, &echo, 1, r, NULL, NULL);
  CHECK(t, st == 0x0C && r[3] == echo, "unknown attribute: 0x000C, data echoed");
  st = do_mad(w, 5, 0x04, 0x02, 0x0011, 3, (const uint64_t[]){1, 2, 3}, 3, r, NULL, NULL);
  CHECK(t, st == 0x0C, "Set of PortSamplesResult: 0x000C (%x)", st);
  /* bad MADs: no response, error 9 and VL15Dropped at the ingress */
  const uint64_t c0 = w->c;
  enq(w, 6, IBSW_HEAD, 15, UINT64_C(0xFFFF) << 48);
  enq(w, 6, IBSW_TAIL, 15, 6); /* 2 flits */
  run_to(w, c0 + 80);
  mad(w, 6, 0x81, 0x01, 0x0015, 1, 6, (const uint64_t[]){0, 0}, 2); /* N = 1 attribute, 2 words */
  run_to(w, c0 + 160);
  mad(w, 6, 0x33, 0x01, 0x0015, 1, 6, (const uint64_t[]){0}, 1); /* bad class */
  run_to(w, c0 + 240);
  CHECK(t, w->nlog[6] == 0, "no response to a bad MAD");
  CHECK(t, w->out.cnt[6][IBSW_C_VL15_DROPPED] == 3, "VL15Dropped %" PRIu64,
        w->out.cnt[6][IBSW_C_VL15_DROPPED]);
  /* error 9 in the execute cycle t + R + N + 2 (here the TAIL is flit 1: N = -1) */
  CHECK(t, w->er[6][c0 + 25 - 1 + 2 + 2] == (0x80 | 9), "error 9 at e+2 (%02x)", w->er[6][c0 + 25 + 3]);
  sw_free(w);
}

static int port_set(sw_t *w, unsigned via, unsigned port, unsigned pstate, unsigned phys, uint64_t *e) {
  uint64_t r[16], th = 0;
  const uint64_t d = ((uint64_t)pstate << 60) | ((uint64_t)phys << 56);
  const int st = do_mad(w, via, 0x81, 0x02, 0x0015, port, &d, 1, r, &th, NULL);
  if (e) *e = th + w->cfg.route_cycles + 1 + 2;
  return st;
}

/* §6.3: every Set including the same-state cases. */
static void sc_same_state(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  CHECK(t, port_set(w, 1, 2, 4, 0, NULL) == 0x11C, "[ibsw.mad_status] Active on Active: 0x011C");
  CHECK(t, port_set(w, 1, 2, 0, 5, NULL) == 0x11C, "[ibsw.mad_status] Phys LinkUp(5) on LinkUp: 0x011C");
  CHECK(t, port_set(w, 1, 2, 0, 6, NULL) == 0x1C, "Phys 6: 0x001C");
  CHECK(t, port_set(w, 1, 2, 0, 2, NULL) == 0x1C, "Polling on a live link: 0x001C");
  CHECK(t, port_set(w, 1, 2, 3, 0, NULL) == 0x1C, "Armed on Active: 0x001C");
  CHECK(t, port_set(w, 1, 2, 1, 0, NULL) == 0x1C, "Down: 0x001C");
  CHECK(t, port_set(w, 1, 2, 4, 3, NULL) == 0x1C, "both fields: 0x001C");
  CHECK(t, port_set(w, 1, 2, 0, 0, NULL) == 0, "neither field: 0x0000");
  enq(w, 3, IBSW_SYM, 0, IBSW_SYM_TS1); /* port 3: LinkErrorRecovery, Down */
  step(w);
  step(w);
  CHECK(t, port_set(w, 1, 3, 3, 0, NULL) == 0x1C, "[ibsw.port_fsm] Armed on Down: 0x001C");
  CHECK(t, port_set(w, 1, 3, 0, 6, NULL) == 0x11C, "LER on LER: 0x011C");
  uint64_t e = 0;
  CHECK(t, port_set(w, 1, 3, 0, 3, &e) == 0, "Disabled from LER: at once");
  CHECK(t, w->ph[3][e] == IBSW_LER && w->ph[3][e + 1] == IBSW_DISABLED, "Disabled in e+1");
  CHECK(t, port_set(w, 1, 3, 0, 3, NULL) == 0x11C, "Disabled on Disabled: 0x011C");
  CHECK(t, port_set(w, 1, 3, 0, 1, &e) == 0 && w->ph[3][e + 1] == IBSW_SLEEP, "Sleep from Disabled");
  CHECK(t, port_set(w, 1, 3, 0, 2, &e) == 0 && w->ph[3][e + 1] == IBSW_POLLING, "Polling from Sleep");
  sw_free(w);
}

/* §6.2 bring-up of two switches from reset, and §6.5's wake contract: B Disabled, A
   polling, Set PhysState=Polling for B in e. */
static void wake_one(tctx_t *t, unsigned bug, uint32_t W, unsigned lk) {
  ibsw_cfg_t c = cfg_p4(bug, 0);
  c.wake_cycles = W;
  pair_t p;
  memset(&p, 0, sizeof p);
  p.a = sw_new(c);
  p.b = sw_new(c);
  p.pa = 1;
  p.pb = 1;
  p.lk = lk;
  p.b->auto_credit = true;
  force_port(p.b, 1, IBSW_DISABLED, IBSW_DOWN); /* setup: B's end starts Disabled */
  force_port(p.b, 2, IBSW_LINKUP, IBSW_ACTIVE); /* and the SM's host on B's port 2 */
  const uint64_t th = p.b->c;
  const uint64_t d = (uint64_t)IBSW_POLLING << 56;
  mad(p.b, 2, 0x81, 0x02, 0x0015, 1, 2, &d, 1);
  const uint64_t e = th + c.route_cycles + 1 + 2;
  for (unsigned k = 0; k < e + W + 4 * lk + 40; k++) pair_step(&p);
  uint64_t b_up = 0, a_up = 0;
  for (uint64_t k = 0; k < p.a->c && k < LOGMAX; k++) {
    if (!b_up && p.b->ph[1][k] == IBSW_LINKUP) b_up = k;
    if (!a_up && p.a->ph[1][k] == IBSW_LINKUP) a_up = k;
  }
  const uint64_t b_exp = e + 2 + W > e + 7 + 2 * lk ? e + 2 + W : e + 7 + 2 * lk;
  CHECK(t,
        p.b->ph[1][e] == IBSW_DISABLED && p.b->ph[1][e + 1] == IBSW_POLLING &&
            p.b->ph[1][e + 2] == IBSW_TRAINING,
        "W=%u Lk=%u: B Polling in e+1, Training in e+2", W, lk);
  CHECK(t, b_up == b_exp, "[ibsw.wake] W=%u Lk=%u: B LinkUp in e+%" PRIu64 " (expected e+%" PRIu64 ")", W, lk,
        b_up - e, b_exp - e);
  CHECK(t, a_up == e + 4 + lk + W,
        "[ibsw.wake] W=%u Lk=%u: A LinkUp in e+%" PRIu64 " (expected e+%" PRIu64 ")", W, lk, a_up - e,
        (uint64_t)(4 + lk + W));
  CHECK(t, p.a->out.port_state[1] == IBSW_INIT && p.b->out.port_state[1] == IBSW_INIT, "both Init");
  sw_free(p.a);
  sw_free(p.b);
}
static void sc_wake(tctx_t *t, unsigned bug) {
  wake_one(t, bug, 1024, 1); /* §6.5: both ends LinkUp 1,029 cycles after the Set */
  wake_one(t, bug, 16, 1);
  wake_one(t, bug, 4, 1);
  wake_one(t, bug, 1, 2);
  /* both from reset, polling each other: Training from 3 + Lk + 1 */
  ibsw_cfg_t c = cfg_p4(bug, 0);
  pair_t p;
  memset(&p, 0, sizeof p);
  p.a = sw_new(c);
  p.b = sw_new(c);
  p.pa = p.pb = 1;
  p.lk = 1;
  for (int k = 0; k < 30; k++) pair_step(&p);
  CHECK(t,
        p.a->ph[1][3] == IBSW_POLLING && p.a->ph[1][4] == IBSW_TRAINING && p.a->ph[1][7] == IBSW_TRAINING &&
            p.a->ph[1][8] == IBSW_LINKUP && p.b->ph[1][8] == IBSW_LINKUP,
        "bring-up from reset: Training at 4, LinkUp at max(4+W, 8) = 8");
  CHECK(t, p.a->ph[2][29] == IBSW_POLLING, "an unconnected port keeps polling");
  sw_free(p.a);
  sw_free(p.b);
}

/* §6.6: TS1 in LinkUp: LinkErrorRecovery, LinkDowned, error 13, sink mode with error 15. */
static void sc_link_loss(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  packet(w, 1, 0, dhead(5, 0), 6);
  run_to(w, 40); /* 4 flits out on port 2, the rest waits for credits */
  const uint64_t c = w->c;
  enq(w, 2, IBSW_SYM, 0, IBSW_SYM_TS1);
  run_to(w, c + 20);
  CHECK(t, w->ph[2][c] == IBSW_LINKUP && w->ph[2][c + 1] == IBSW_LER, "LER in c+1");
  CHECK(t, (w->er[2][c + 2] & 0x8F) == (0x80 | 13), "error 13 in c+2 (%02x)", w->er[2][c + 2]);
  CHECK(t, w->out.cnt[2][IBSW_C_LINK_DOWNED] == 1, "[ibsw.link_loss] LinkDownedCounter 1");
  CHECK(t, w->out.cnt[2][IBSW_C_XMIT_DISCARDS] == 1, "the sunk packet: XmitDiscards 1 (%" PRIu64 ")",
        w->out.cnt[2][IBSW_C_XMIT_DISCARDS]);
  CHECK(t, w->out.port_state[2] == IBSW_DOWN && w->out.valid[2] && w->out.data[2] == IBSW_SYM_TS1,
        "Down, sending TS1");
  CHECK(t, w->nlog[2] == 4, "nothing more sent (%u)", w->nlog[2]);
  bool e15 = false;
  for (uint64_t k = c + 1; k < c + 20; k++) e15 |= w->er[2][k] == (0x80 | 15);
  CHECK(t, e15, "error 15 flagged on the sinking port");
  /* a new HEAD for it: error 4 */
  const uint64_t d = w->c;
  packet(w, 1, 0, dhead(5, 0), 0);
  run_to(w, d + 5);
  CHECK(t, w->er[1][d + 2] == (0x80 | 4), "HEAD for the lost port: error 4");
  sw_free(w);
}

/* §6.4: drain before off; DRAINED only after the last TAIL and the last credit; power off
   after the peer's DRAINED; §9 power drops by Wp. */
static void sc_drain(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = false;
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  packet(w, 1, 0, dhead(5, 0), 6); /* 8 flits to port 2; BufDepth 4 */
  run_to(w, 12);
  uint64_t e = 0;
  /* port 3's host is the SM; credits of port 3 come back automatically below */
  const uint64_t th = w->c;
  const uint64_t dd = (uint64_t)IBSW_DISABLED << 56;
  mad(w, 3, 0x81, 0x02, 0x0015, 2, 3, &dd, 1);
  e = th + 5 + 1 + 2;
  uint64_t last_cr = 0, drained_at = 0;
  unsigned got = 0;
  for (uint64_t k = th; k < th + 120; k++) {
    /* the peer on port 2 frees a slot 6 cycles after each flit, from e+10 on */
    if (k >= e + 10 && got < w->nlog[2] && k % 2 == 0) {
      w->in.credit[2] = 1;
      got++;
      last_cr = k;
    }
    if (w->out.valid[3] && w->out.kind[3] != IBSW_SYM) w->in.credit[3] = (uint8_t)(1u << 2);
    step(w);
    if (!drained_at && w->out.valid[2] && w->out.kind[2] == IBSW_SYM && w->out.data[2] == IBSW_SYM_DRAINED)
      drained_at = w->c - 1;
  }
  CHECK(t, w->nlog[2] == 8 && w->log[2][7].f.kind == IBSW_TAIL, "[ibsw.loss] all 8 flits delivered (%u)",
        w->nlog[2]);
  CHECK(t, w->out.draining[2] && w->ph[2][e + 1] == IBSW_LINKUP, "draining, still LinkUp");
  CHECK(t, drained_at == last_cr + 3,
        "[ibsw.drain] DRAINED on the pins in %" PRIu64 " (last credit in %" PRIu64 ")", drained_at, last_cr);
  const uint64_t d = w->c;
  enq(w, 2, IBSW_SYM, 0, IBSW_SYM_DRAINED);
  run_to(w, d + 6);
  CHECK(t, w->ph[2][d + 1] == IBSW_LINKUP && w->ph[2][d + 2] == IBSW_DISABLED, "powered off in d+2 (%u)",
        w->ph[2][d + 2]);
  CHECK(t, w->pw[d + 2] == 43400 + 4 * 950 && w->pw[d + 3] == 43400 + 3 * 950, "[ibsw.power] power %u -> %u",
        w->pw[d + 2], w->pw[d + 3]);
  CHECK(t, !w->out.draining[2] && w->out.port_state[2] == IBSW_DOWN && !w->out.power_on[2], "Down, off");
  CHECK(t, w->out.cnt[2][IBSW_C_XMIT_DISCARDS] == 0, "nothing discarded");
  sw_free(w);
}

/* §5.1/§5.4/§10: truncation (synthetic TAIL, the next packet intact), orphan, bad VL,
   overflow on one lane leaving the others alone. */
static void sc_errors(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  cfg_write(w, 0, 6, 3);
  run_to(w, 5);
  const uint64_t c = w->c;
  enq(w, 1, IBSW_HEAD, 0, dhead(5, 0));
  enq(w, 1, IBSW_BODY, 0, 1);
  enq(w, 1, IBSW_HEAD, 0, dhead(6, 0)); /* truncates the first */
  enq(w, 1, IBSW_BODY, 0, 2);
  enq(w, 1, IBSW_TAIL, 0, 3);
  run_to(w, c + 30);
  CHECK(t, w->er[1][c + 4] == (0x80 | 8), "error 8 at the second HEAD's c+2 (%02x)", w->er[1][c + 4]);
  CHECK(t, w->nlog[2] == 3 && w->log[2][2].f.kind == IBSW_TAIL && w->log[2][2].f.data == IBSW_BAD_TAIL,
        "first packet closed by a synthetic TAIL");
  CHECK(t, w->nlog[3] == 3 && w->log[3][0].f.data == dhead(6, 0) && w->log[3][2].f.data == 3,
        "[ibsw.order] second packet intact (%u flits)", w->nlog[3]);
  const uint64_t c2 = w->c;
  enq(w, 1, IBSW_BODY, 1, 0); /* orphan */
  enq(w, 1, IBSW_HEAD, 5, 0); /* bad VL (V = 2) */
  run_to(w, c2 + 6);
  CHECK(t, w->er[1][c2 + 2] == (0x80 | 7) && w->er[1][c2 + 3] == (0x80 | 5), "orphan 7, bad VL 5");
  CHECK(t, w->out.cnt[1][IBSW_C_RCV_ERR] == 3, "PortRcvErrors 3 (%" PRIu64 ")",
        w->out.cnt[1][IBSW_C_RCV_ERR]);
  /* overflow on lane 0 of port 4 (its output port 2 gets no credits); lane 1 goes on */
  w->auto_credit = false;
  cfg_write(w, 0, 7, 2);
  cfg_write(w, 0, 8, 3);
  const uint64_t c3 = w->c;
  enq(w, 4, IBSW_HEAD, 0, dhead(7, 0));
  for (int k = 0; k < 10; k++) enq(w, 4, IBSW_BODY, 0, 0);
  enq(w, 4, IBSW_HEAD, 1, dhead(8, 9));
  enq(w, 4, IBSW_TAIL, 1, 0);
  for (int k = 0; k < 60; k++) {
    if (w->out.valid[3] && w->out.kind[3] != IBSW_SYM) w->in.credit[3] = (uint8_t)(1u << w->out.vl[3]);
    step(w);
  }
  const logf_t *f = out_at(w, 3, c3);
  CHECK(t, f && f->f.data == dhead(8, 9),
        "[ibsw.isolation] lane 1 packet delivered despite lane 0 overflowing");
  CHECK(t, w->out.cnt[4][IBSW_C_RCV_ERR] >= 1, "overflow counted");
  sw_free(w);
}

/* §8.1: saturation (CntW 8), extended counters go on, Set clears. */
static void sc_counters(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  for (int k = 0; k < 100; k++) { /* one packet every 5 cycles: what the lane can forward */
    run_to(w, 10 + 5 * k);
    packet(w, 1, 0, dhead(5, 0), 0);
  }
  run_to(w, 530);
  CHECK(t, w->out.cnt[1][IBSW_C_RCV_ERR] == 0, "no overflow");
  CHECK(t, w->out.cnt[1][IBSW_C_RCV_DATA] == 255 && w->out.cnt[1][IBSW_C_EXT_RCV_DATA] == 400,
        "[ibsw.counters] RcvData saturates at 255 (%" PRIu64 "), extended 400 (%" PRIu64 ")",
        w->out.cnt[1][IBSW_C_RCV_DATA], w->out.cnt[1][IBSW_C_EXT_RCV_DATA]);
  CHECK(t,
        w->out.cnt[1][IBSW_C_RCV_PKTS] == 100 && w->out.cnt[2][IBSW_C_XMIT_PKTS] == 100 &&
            w->out.cnt[2][IBSW_C_XMIT_DATA] == 255,
        "packets 100, XmitData saturated");
  uint64_t r[16], th = 0;
  const uint64_t clr[4] = {1, 0, 0, 0}; /* RcvData field */
  const int st = do_mad(w, 3, 0x04, 0x02, 0x0012, 1, clr, 4, r, &th, NULL);
  CHECK(t, st == 0 && (r[3] & 0xFFFFFFFFu) == 0 && (r[4] & 0xFFFFFFFFu) == 100, "Set clears RcvData only");
  run_to(w, w->c + 2);
  CHECK(t, w->out.cnt[1][IBSW_C_RCV_DATA] == 0 && w->out.cnt[1][IBSW_C_EXT_RCV_DATA] == 400, "cleared");
  sw_free(w);
}

/* §8.2: status timeline, Set only in DONE, results of S..S+I-1, QueueDepth at S. */
static void sc_sampling(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 10);
  cfg_write(w, 0, 5, 2);
  const uint64_t q0 = w->c;
  for (int k = 0; k < 100; k++) packet(w, 1, 0, dhead(5, 0), 0); /* flit k arrives in q0 + k */
  const uint64_t ctl[2] = {(UINT64_C(3) << 32) | 40u, (UINT64_C(2) << 56) | (UINT64_C(4) << 48)};
  uint64_t r[16], th = 0;
  int st = do_mad(w, 3, 0x04, 0x02, 0x0010, 1, ctl, 2, r, &th, NULL);
  const uint64_t e = th + 5 + 2 + 2, S = e + 1 + 3, I = 40;
  CHECK(t, st == 0, "Set accepted in DONE");
  st = do_mad(w, 3, 0x04, 0x02, 0x0010, 1, ctl, 2, r, NULL, NULL);
  CHECK(t, st == 1, "[ibsw.sampling] Set while RUNNING: 0x0001 (%x)", st);
  run_to(w, S + I + 10);
  CHECK(t,
        w->ss[1][e] == 0 && w->ss[1][e + 1] == 1 && w->ss[1][S - 1] == 1 && w->ss[1][S] == 2 &&
            w->ss[1][S + I] == 2 && w->ss[1][S + I + 1] == 0,
        "DONE e, STARTED e+1..S-1, RUNNING S..S+I, DONE S+I+1");
  st = do_mad(w, 3, 0x04, 0x01, 0x0011, 1, NULL, 0, r, NULL, NULL);
  unsigned tails = 0;
  for (uint64_t c = S; c < S + I; c++) tails += c >= q0 && c < q0 + 200 && (c - q0) % 2 == 1;
  CHECK(t, st == 0 && (r[3] >> 32) == 2 * I && (r[3] & 0xFFFFFFFFu) == tails,
        "results RcvData %" PRIu64 " (expected %" PRIu64 "), RcvPkts %" PRIu64 " (expected %u)", r[3] >> 32,
        2 * I, r[3] & 0xFFFFFFFFu, tails);
  sw_free(w);
}

/* §11 VL15 through an output saturated with data on every data lane: exactly R. */
static void sc_vl15(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p24(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 100);
  cfg_write(w, 0, 9, 5);
  for (unsigned n = 1; n <= 4; n++) packet(w, n, n - 1, dhead(9, n), 400);
  for (int k = 0; k < 5; k++) {
    run_to(w, 100 + 37 * k);
    const uint64_t c = w->c;
    enq(w, 6, IBSW_HEAD, 15, (UINT64_C(0xFFFF) << 48) | 5u);
    enq(w, 6, IBSW_TAIL, 15, 0);
    run_to(w, c + 30);
    const logf_t *f = NULL;
    for (unsigned j = 0; j < w->nlog[5]; j++)
      if (w->log[5][j].c >= c && w->log[5][j].f.vl == 15) {
        f = &w->log[5][j];
        break;
      }
    CHECK(t, f && f->c == c + 25, "[ibsw.vl15_latency] VL15 HEAD in %" PRIu64 " out %" PRIu64, c,
          f ? f->c : 0);
    CHECK(t, w->out.valid[5] && w->out.vl[5] != 15, "data still streaming");
  }
  sw_free(w);
}

/* §9: the power of the reset state at every LinkSpeed. */
static void sc_power(tctx_t *t, unsigned bug) {
  static const unsigned wp[4] = {210, 770, 260, 950};
  for (unsigned s = 0; s < 4; s++) {
    ibsw_cfg_t c = cfg_p24(bug, 0);
    c.link_speed = s;
    sw_t *w = sw_new(c);
    run_to(w, 3);
    CHECK(t, w->pw[0] == 43400 + 24 * wp[s] && w->out.energy == 2ull * (43400 + 24 * wp[s]),
          "LinkSpeed %u: %u mW", s, w->pw[0]);
    if (s == 3) CHECK(t, w->pw[0] == 66200, "Table 1: 24 DDR 4x ports on = 66.2 W");
    sw_free(w);
  }
}

/* The rest of §5-§10: SMA response drop, errors 10/11/12/15, bring-up by Sets, a Set
   racing the FSM, draining refusals, the other attributes, Sleep woken by TS1. */
static void sc_more(tctx_t *t, unsigned bug) {
  sw_t *w = sw_new(cfg_p4(bug, 1));
  w->auto_credit = true;
  cfg_write(w, 1, 0, 20);
  cfg_write(w, 0, 5, 2);
  enq(w, 3, IBSW_SYM, 0, IBSW_SYM_TS1); /* port 3 down (LinkErrorRecovery) */
  run_to(w, 10);
  /* a response routed to a down port: sma_err 4 at the HEAD's push + 2 */
  const uint64_t th = w->c;
  mad(w, 1, 0x81, 0x01, 0x0012, 0, 3, (const uint64_t[]){0}, 1);
  const uint64_t push = th + 2 * 5 + 1 + 4 - 5; /* the response HEAD's push = t + R + N + 4 */
  run_to(w, th + 40);
  CHECK(t, w->out.cnt_sma_dropped == 1 && w->out.sma_err_code == 4, "SMA response dropped: code 4");
  sw_t *x = w;
  (void)x;
  /* SwitchInfo Set: above Top_max refused, else applied */
  uint64_t r[16];
  uint64_t v = (uint64_t)64 << 32;
  CHECK(t, do_mad(w, 1, 0x81, 0x02, 0x0012, 0, &v, 1, r, NULL, NULL) == 0x1C,
        "LinearFDBTop 64 > Top_max: 0x001C");
  v = (uint64_t)33 << 32;
  CHECK(t, do_mad(w, 1, 0x81, 0x02, 0x0012, 0, &v, 1, r, NULL, NULL) == 0 && ((r[3] >> 32) & 0xFFFF) == 33,
        "LinearFDBTop Set to 33");
  /* NcPowerMeter: the registers at the snapshot */
  CHECK(t,
        do_mad(w, 1, 0x04, 0x01, 0xFF01, 0, NULL, 0, r, NULL, NULL) == 0 && r[3] == 43400 + 4 * 950 &&
            r[4] > 0,
        "NcPowerMeter: %" PRIu64 " mW", r[3]);
  /* PortSamplesControl field checks */
  uint64_t ctl[2] = {0, 0};
  CHECK(t, do_mad(w, 1, 0x04, 0x02, 0x0010, 1, ctl, 2, r, NULL, NULL) == 0x1C, "SampleInterval 0: 0x001C");
  ctl[0] = 5;
  ctl[1] = UINT64_C(6) << 56;
  CHECK(t, do_mad(w, 1, 0x04, 0x02, 0x0010, 1, ctl, 2, r, NULL, NULL) == 0x1C, "CounterSelect 6: 0x001C");
  /* PortCountersExtended: Get shows, Set clears */
  CHECK(t,
        do_mad(w, 1, 0x04, 0x01, 0x001D, 1, NULL, 0, r, NULL, NULL) == 0 && r[3] > 0 &&
            r[3] < w->out.cnt[1][IBSW_C_EXT_XMIT_DATA] && r[5] > 0,
        "extended XmitData %" PRIu64 " at the snapshot, %" PRIu64 " now", r[3],
        w->out.cnt[1][IBSW_C_EXT_XMIT_DATA]);
  const uint64_t one[4] = {1, 1, 1, 1};
  CHECK(t, do_mad(w, 1, 0x04, 0x02, 0x001D, 1, one, 4, r, NULL, NULL) == 0 && r[3] == 0 && r[4] == 0,
        "extended cleared");
  /* port 3: LinkErrorRecovery -> Training by TS2 -> LinkUp/Init after W = 4 */
  uint64_t c = w->c;
  for (int k = 0; k < 6; k++) enq(w, 3, IBSW_SYM, 0, IBSW_SYM_TS2);
  run_to(w, c + 8);
  CHECK(t,
        w->ph[3][c] == IBSW_LER && w->ph[3][c + 1] == IBSW_TRAINING && w->ph[3][c + 4] == IBSW_TRAINING &&
            w->ph[3][c + 5] == IBSW_LINKUP && w->out.port_state[3] == IBSW_INIT,
        "Training c+1 .. c+4, LinkUp/Init in c+5");
  c = w->c;
  packet(w, 3, 0, dhead(5, 0), 0); /* data in Init: error 11, discarded, credit back */
  run_to(w, c + 6);
  CHECK(t, w->er[3][c + 2] == (0x80 | 11) && (w->cr[3][c + 2] & 1), "Init: error 11, the credit returned");
  CHECK(t, port_set(w, 1, 3, IBSW_ARMED, 0, NULL) == 0 && w->out.port_state[3] == IBSW_ARMED,
        "Init -> Armed");
  c = w->c;
  packet(w, 3, 0, dhead(5, 0x77), 0); /* Armed accepts data */
  run_to(w, c + 12);
  const logf_t *f = out_at(w, 2, c);
  CHECK(t, f && f->f.data == dhead(5, 0x77), "Armed: data forwarded");
  CHECK(t, port_set(w, 1, 3, IBSW_ACTIVE, 0, NULL) == 0 && w->out.port_state[3] == IBSW_ACTIVE,
        "Armed -> Active");
  /* bad symbol in LinkUp: error 12 */
  c = w->c;
  enq(w, 3, IBSW_SYM, 0, 9);
  run_to(w, c + 4);
  CHECK(t, w->er[3][c + 2] == (0x80 | 12), "bad symbol: error 12");
  /* a Set in the cycle the port loses its link: 0x0001, not applied */
  c = w->c;
  const uint64_t dd = (uint64_t)IBSW_DISABLED << 56;
  mad(w, 1, 0x81, 0x02, 0x0015, 4, 1, &dd, 1);
  const uint64_t e = c + 5 + 1 + 2;
  run_to(w, e);
  enq(w, 4, IBSW_SYM, 0, IBSW_SYM_TS1);
  run_to(w, e + 20);
  uint64_t hc = 0;
  CHECK(t,
        resp_at(w, 1, c, r, &hc) == 4 && (r[2] & 0xFFFF) == 1 && w->ph[4][e + 1] == IBSW_LER &&
            !w->out.draining[4],
        "Set racing a link loss: 0x0001 (%x), port in LER", (unsigned)(r[2] & 0xFFFF));
  /* draining: a HEAD for the port is error 4, a Set on it 0x0001 */
  uint64_t e2 = 0;
  CHECK(t, port_set(w, 1, 2, 0, IBSW_SLEEP, &e2) == 0 && w->out.draining[2], "port 2 draining to Sleep");
  CHECK(t, port_set(w, 1, 2, IBSW_ACTIVE, 0, NULL) == 1, "Set on a draining port: 0x0001");
  CHECK(t,
        do_mad(w, 1, 0x81, 0x01, 0x0015, 2, NULL, 0, r, NULL, NULL) == 0 && ((r[3] >> 47) & 1) &&
            ((r[3] >> 44) & 7) == IBSW_SLEEP,
        "PortInfo shows draining, target Sleep");
  c = w->c;
  packet(w, 3, 0, dhead(5, 0), 0);
  run_to(w, c + 4);
  CHECK(t, w->er[3][c + 2] == (0x80 | 4), "HEAD for a draining port: error 4");
  sw_free(w);
  /* Polling port: data is error 10; Sleep (unpowered) woken by TS1 */
  sw_t *u = sw_new(cfg_p4(bug, 0));
  c = u->c;
  packet(u, 1, 0, dhead(5, 0), 0);
  run_to(u, c + 4);
  CHECK(t, u->er[1][c + 2] == (0x80 | 10) && u->out.cnt[1][IBSW_C_SYMBOL_ERR] == 2,
        "Polling: error 10 per flit");
  u->s.r.port[1].phys = IBSW_SLEEP; /* setup: a sleeping port */
  run_to(u, u->c + 3);
  CHECK(t, !u->out.power_on[1] && u->out.power_mw == 43400 + 3 * 950, "Sleep: unpowered");
  c = u->c;
  enq(u, 1, IBSW_SYM, 0, IBSW_SYM_TS1);
  run_to(u, c + 3);
  CHECK(t, u->ph[1][c] == IBSW_SLEEP && u->ph[1][c + 1] == IBSW_POLLING, "Sleep woken by TS1");
  (void)push;
  sw_free(u);
}

/* ---- scramble: a reset from garbage equals a clean reset; a forgotten one shows ----- */
static void rand_in(uint64_t *rng, const ibsw_cfg_t *c, ibsw_in_t *in) {
  memset(in, 0, sizeof *in);
  for (unsigned n = 1; n <= c->num_ports; n++) {
    const uint64_t r = unit_splitmix64(rng);
    if (r % 4 == 0) continue;
    in->valid[n] = 1;
    /* symbols rare (a TS1 takes a live link down), VL15 HEADs mostly directed routes */
    in->kind[n] = (uint8_t)((r >> 8) % 512 == 0 ? IBSW_SYM : (r >> 8) % 3);
    static const uint8_t vls[] = {0, 1, 15, 15, 1, 0, 3};
    in->vl[n] = vls[(r >> 16) % 7];
    const uint64_t dlid = in->vl[n] == 15 && (r >> 56) % 4 ? 0xFFFF : (r >> 24) % 12;
    in->data[n] = in->kind[n] == IBSW_SYM ? 1 + (r >> 24) % 3 : dlid << 48 | ((r >> 32) % 6);
    in->credit[n] = (uint8_t)((r >> 40) & (r >> 48) & 7u);
  }
  const uint64_t r = unit_splitmix64(rng);
  if (r % 64 == 0) {
    in->cfg_valid = 1;
    in->cfg_sel = (uint8_t)((r >> 8) % 2);
    in->cfg_addr = (uint16_t)((r >> 16) % 70);
    in->cfg_data = (uint16_t)(in->cfg_sel ? (r >> 32) % 64 : (r >> 32) % 6);
  }
}
typedef void (*forget_t)(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c);
static void fg_cnt(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.cnt, g->r.cnt, sizeof s->r.cnt);
}
static void fg_err(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.err_code_r, g->r.err_code_r, sizeof s->r.err_code_r);
}
static void fg_port(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.port, g->r.port, sizeof s->r.port);
}
static void fg_top(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  s->r.lft_top = g->r.lft_top;
}
static void fg_lft(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  memcpy(s->lft, g->lft, ibsw_lft_entries(c));
}
static void fg_cred(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.cred, g->r.cred, sizeof s->r.cred);
}
static void fg_lanes(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.ln, g->r.ln, sizeof s->r.ln);
}
static void fg_sma(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  s->r.sma = g->r.sma;
}
static void fg_power(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  s->r.energy = g->r.energy;
}
static void fg_smp(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.smp, g->r.smp, sizeof s->r.smp);
}
static void fg_oreg(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  memcpy(s->r.stg, g->r.stg, sizeof s->r.stg);
}
static void fg_cycle(ibsw_state_t *s, const ibsw_state_t *g, const ibsw_cfg_t *c) {
  (void)c;
  s->r.cycle = g->r.cycle;
}

/* cycles until the outputs of a (clean reset) and b first differ, or 0 */
static uint64_t diverge(const ibsw_cfg_t *c, uint64_t seed, forget_t fg, uint64_t cycles) {
  ibsw_state_t a, b, g;
  static ibsw_next_t na, nb, ng;
  static ibsw_out_t oa, ob;
  ibsw_init(&a, c);
  ibsw_init(&b, c);
  ibsw_init(&g, c);
  ibsw_scramble(&b, &nb, c, seed);
  ibsw_reset(&b, c);
  if (fg) {
    ibsw_scramble(&g, &ng, c, seed + 1);
    fg(&b, &g, c);
  }
  uint64_t rng = seed, at = 0;
  for (uint64_t k = 0; k < cycles && !at; k++) {
    ibsw_in_t in;
    rand_in(&rng, c, &in);
    ibsw_eval(c, &a, &in, &oa, &na);
    ibsw_eval(c, &b, &in, &ob, &nb);
    if (memcmp(&oa, &ob, sizeof oa) != 0) at = k + 1;
    ibsw_commit(c, &a, &na);
    ibsw_commit(c, &b, &nb);
  }
  ibsw_free(&a);
  ibsw_free(&b);
  ibsw_free(&g);
  return at;
}
static void test_scramble(tctx_t *t) {
  ibsw_cfg_t c = cfg_p4(0, 0);
  c.link_speed = 1;
  for (uint64_t s = 1; s <= 4; s++) {
    const uint64_t d = diverge(&c, unit_splitmix64(&t->rng), NULL, 3000);
    CHECK(t, d == 0, "scramble + reset behaves as a clean reset (differs at cycle %" PRIu64 ")", d - 1);
  }
  ibsw_cfg_t b = cfg_p4(0, 1);
  b.link_speed = 1;
  const uint64_t d = diverge(&b, unit_splitmix64(&t->rng), NULL, 3000);
  CHECK(t, d == 0, "BootActive 1: scramble + reset behaves as a clean reset (%" PRIu64 ")", d - 1);
  static const struct {
    forget_t f;
    const char *name;
  } fg[] = {{fg_cnt, "counters"}, {fg_err, "error codes"}, {fg_port, "port FSM"}, {fg_top, "LinearFDBTop"},
            {fg_lft, "LFT"},      {fg_cred, "credits"},    {fg_lanes, "lanes"},   {fg_sma, "SMA"},
            {fg_power, "energy"}, {fg_smp, "samplers"},    {fg_oreg, "staging"},  {fg_cycle, "slot phase"}};
  for (unsigned k = 0; k < sizeof fg / sizeof fg[0]; k++)
    CHECK(t, diverge(&b, unit_splitmix64(&t->rng), fg[k].f, 3000) != 0, "a forgotten reset of the %s shows",
          fg[k].name);
}

/* ---- random run at every target's parameters: the model's own invariants hold ------ */
static void test_random(tctx_t *t, uint64_t cycles) {
  static const ibsw_cfg_t tg[] = {
      {24, 4, 16, 8, 25, 1024, 64, 3, 32, 64, 0, 0},  {4, 2, 4, 4, 5, 4, 1, 3, 8, 16, 0, 0},
      {2, 7, 256, 64, 255, 64, 768, 0, 32, 64, 1, 0}, {31, 2, 4, 4, 5, 1, 1, 1, 8, 16, 0, 0},
      {8, 3, 8, 8, 25, 16777215, 2, 2, 16, 32, 1, 0}, {4, 2, 4, 4, 5, 4, 1, 3, 8, 16, 1, 0}};
  for (unsigned k = 0; k < sizeof tg / sizeof tg[0]; k++) {
    const ibsw_cfg_t *c = &tg[k];
    ibsw_state_t s;
    static ibsw_next_t nx;
    static ibsw_out_t out;
    ibsw_init(&s, c);
    ibsw_scramble(&s, &nx, c, k + 1);
    ibsw_reset(&s, c);
    for (unsigned d = 1; d < 64u * c->lft_blocks && d < 12; d++) s.lft[d] = (uint8_t)(d % (c->num_ports + 2));
    s.r.lft_top = 11;
    uint64_t rng = unit_splitmix64(&t->rng);
    unsigned bad = 0;
    uint64_t flits = 0;
    for (uint64_t cy = 0; cy < cycles && bad < 3; cy++) {
      ibsw_in_t in;
      rand_in(&rng, c, &in);
      ibsw_eval(c, &s, &in, &out, &nx);
      ibsw_commit(c, &s, &nx);
      const ibsw_regs_t *r = &s.r;
      for (unsigned n = 0; n <= c->num_ports; n++) {
        flits += n && out.valid[n] && out.kind[n] != IBSW_SYM;
        for (unsigned l = n ? 0 : c->num_data_vls; l <= c->num_data_vls; l++) {
          const unsigned depth = ibsw_lane_depth(c, l);
          bool ok = r->ln[n][l].cnt <= depth && r->ln[n][l].rd < depth && (n == 0 || r->cred[n][l] <= depth);
          /* an ACTIVE lane holds exactly the output lane that names it */
          if (r->ln[n][l].ist == IBSW_IST_ACTIVE) {
            unsigned owners = 0;
            for (unsigned o = 0; o <= c->num_ports; o++)
              owners += r->ost[o][l] == IBSW_OST_BUSY && r->owner[o][l] == n;
            ok &= owners == 1;
          }
          if (n && r->ost[n][l] == IBSW_OST_BUSY) ok &= r->ln[r->owner[n][l]][l].ist == IBSW_IST_ACTIVE;
          if (!ok && bad++ < 3)
            CHECK(t, false, "target %u cycle %" PRIu64 ": lane (%u,%u) state inconsistent", k, cy, n, l);
        }
        if (n && r->pend[n] > 64u * c->num_ports) {
          if (bad++ < 3) CHECK(t, false, "target %u cycle %" PRIu64 ": pend[%u] = %u", k, cy, n, r->pend[n]);
        }
      }
    }
    CHECK(t, bad == 0 && flits > 50, "target %u: %" PRIu64 " cycles, %" PRIu64 " flits out, invariants hold",
          k, cycles, flits);
    ibsw_free(&s);
  }
}

/* ---- planted bugs: each one fails the scenario of its check (§14) ----------------- */
static void test_bugs(tctx_t *t) {
  static const struct {
    unsigned bug;
    scen_t sc;
    const char *check;
  } b[] = {
      {IBSW_BUG_LFT_ENTRY_OFF_BY_ONE, sc_lft, "ibsw.route"},
      {IBSW_BUG_LFT_BLOCK_APPLIES_SAME_CYCLE, sc_lft_epoch, "ibsw.lft_epoch"},
      {IBSW_BUG_NO_PATH_CODED_BAD_EGRESS, sc_lft, "ibsw.err"},
      {IBSW_BUG_ROUTE_CYCLES_SHORT, sc_latency, "ibsw.latency"},
      {IBSW_BUG_VL15_IN_ROUND_ROBIN, sc_vl15, "ibsw.vl15_latency"},
      {IBSW_BUG_DRAIN_SINKS_PEND, sc_drain, "ibsw.loss"},
      {IBSW_BUG_LANE_POP_WRONG_ORDER, sc_errors, "ibsw.order"},
      {IBSW_BUG_DRAINED_BEFORE_CREDITS, sc_drain, "ibsw.drain"},
      {IBSW_BUG_POWER_COUNTS_DISABLED, sc_drain, "ibsw.power"},
      {IBSW_BUG_SAME_STATE_ACCEPTED, sc_same_state, "ibsw.mad_status"},
      {IBSW_BUG_ARMED_FROM_DOWN, sc_same_state, "ibsw.port_fsm"},
      {IBSW_BUG_TRAINING_IGNORES_TS2, sc_wake, "ibsw.wake"},
      {IBSW_BUG_COUNTER_WRAPS, sc_counters, "ibsw.counters"},
      {IBSW_BUG_SAMPLE_SET_WHILE_RUNNING, sc_sampling, "ibsw.sampling"},
      {IBSW_BUG_ERR_ONE_CYCLE_EARLY, sc_lft, "ibsw.err_timing"},
      {IBSW_BUG_OVERFLOW_DROPS_ALL_LANES, sc_errors, "ibsw.isolation"},
      {IBSW_BUG_LINK_LOSS_NOT_COUNTED, sc_link_loss, "ibsw.link_loss"},
  };
  CHECK(t, sizeof b / sizeof b[0] == IBSW_BUG_COUNT - 1u, "every planted bug has a scenario");
  for (unsigned k = 0; k < sizeof b / sizeof b[0]; k++) {
    bool named = false;
    const unsigned long f = run_quiet(b[k].sc, b[k].bug, b[k].check, &named);
    CHECK(t, f > 0 && named, "bug %s: check %s must fail (%lu checks failed, %s)", ibsw_bug_names[b[k].bug],
          b[k].check, f, named ? "it among them" : "not it");
  }
  CHECK(t, ibsw_bug_names[IBSW_BUG_COUNT] == NULL && !strcmp(ibsw_bug_names[0], "none"), "bug names");
}

int main(int argc, char **argv) {
  uint64_t seed = UINT64_C(0x6962737700000001); /* "ibsw" */
  uint64_t cycles = 20000;
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "--seed=", 7) == 0) {
      seed = strtoull(argv[i] + 7, NULL, 0);
    } else if (strncmp(argv[i], "--cycles=", 9) == 0) {
      cycles = strtoull(argv[i] + 9, NULL, 0);
    } else {
      fprintf(stderr, "usage: %s [--seed=N] [--cycles=N]\n", argv[0]);
      return 2;
    }
  }
  printf("test_ibsw: seed=0x%016" PRIx64 " cycles=%" PRIu64 "\n", seed, cycles);
  tctx_t t = {.passed = 0, .failed = 0, .rng = seed};
  static const struct {
    scen_t f;
    const char *name;
  } sc[] = {{sc_reset, "reset"},       {sc_latency, "latency"},
            {sc_credit, "credit"},     {sc_credit_loop, "credit_loop"},
            {sc_lft, "lft"},           {sc_lft_epoch, "lft_epoch"},
            {sc_mad, "mad"},           {sc_same_state, "same_state"},
            {sc_wake, "wake"},         {sc_link_loss, "link_loss"},
            {sc_drain, "drain"},       {sc_errors, "errors"},
            {sc_counters, "counters"}, {sc_sampling, "sampling"},
            {sc_vl15, "vl15"},         {sc_power, "power"},
            {sc_more, "more"}};
  test_params(&t);
  for (unsigned k = 0; k < sizeof sc / sizeof sc[0]; k++) {
    const unsigned long before = t.failed;
    sc[k].f(&t, IBSW_BUG_NONE);
    if (t.failed != before) printf("  (in scenario %s)\n", sc[k].name);
  }
  test_scramble(&t);
  test_random(&t, cycles);
  test_bugs(&t);
  if (t.failed)
    printf("rerun: build/asan/bin/test_ibsw --seed=0x%016" PRIx64 " --cycles=%" PRIu64 "\n", seed, cycles);
  return unit_summary(&t);
}
