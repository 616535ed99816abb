/*
 * build/bin/ibsw_fabric_sim -- ibsw switches (the C model, docs/ibsw.md) on a
 * 2-D torus of the generic fabric core with IB host endpoints, LFT routing
 * (up* / down* or dimension order, testbench/fabric/core/route_lft.c), a
 * static "k links deactivated" mode (docs/ibsw.md §12, "In a fabric") and a
 * dynamic subnet manager that turns links off and on under traffic
 * (--sm=dynamic; docs/ibsw.md "The dynamic subnet manager").
 *
 *   ibsw_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--out=DIR]
 *       [--x=4] [--y=4] [--parallel=2] [--hosts=16] [--vls=4] [--len=32]
 *       [--traffic=uniform|bitrev|npb_cg|npb_bt] [--ranks=16] [--load=X] [--packets=N]
 *       [--routing=updn|dor|updn_mst] [--trees=T]
 *       [--off=K] [--root=S] [--link-latency=N] [--route-cycles=R] [--buf=N]
 *       [--sm=static|dynamic] [--sm-period=N] [--sm-low=X] [--sm-high=Y]
 *       [--phases=LOAD:CYCLES,...] [--sm-log=0|1] [--sampling=samples|counters]
 *       [--sample-interval=N] [--sm-qd=N]
 *       [--fat2=R,L,S | --tree=K,N] [--write-ibnd=FILE] [--lft-file=FILE] [--lft-turns=1|0] [--lft-check=1|0]
 *       [--compare-hops=0|1|2] [--min-window=PCT]
 *       [--sw=model|rtl|lockstep] [--waves=DIR]
 *       [--no-skip] [--inject-bug=NAME] [--expect-fail=check:ID@N]
 *   ibsw_fabric_sim --list | --help
 *
 * --cycles is the run's limit (a run not drained by then fails check
 * ibfab.timeout). --traffic=npb_cg|npb_bt: the communication structure of NPB CG or BT
 * (class W, --ranks ranks, ibf_npb.h; docs/ibsw.md "NPB-like traffic"), its pattern checked at the
 * end (ibfab.npb_pattern); throughput is then per rank. Statistics over the last half of the packets (seed 000
 * §4.3.1: 80,000 packets, the last 40,000): throughput = data flits received
 * between the creation of packet N/2 and of packet N, per host and cycle;
 * latency over each host's second half. The window's share of the packets is printed
 * (window_pct=); --min-window=PCT fails a run whose window holds less (check ibfab.window). With --phases (the load changes in
 * phases; hosts stop at the end of the last) the statistics are per phase:
 * throughput and the switches' power, and a `dyn:` summary line. First line `seed: N`; last line
 * `TEST PASSED` or `TEST FAILED: <reason>` after a `rerun:` line. Bad flags:
 * a message on stderr, exit status 2, no verdict.
 *
 * OpenSM in the loop (ibf_osm.h, mk/opensm-routes.sh, docs/ibsw.md "OpenSM in the loop"):
 * --write-ibnd=FILE writes the fabric as an ibnetdiscover topology file and stops; --lft-file=FILE
 * runs on the LFTs of an OpenSM dump (opensm-lfts.dump) instead of ours: route_lft_check with the
 * turn rule of --routing (lft.*; --lft-turns=0: no turn rule; --lft-check=0: no check at all, the
 * traffic alone judges the table), then --compare-hops=1 (osm.hops:
 * the same hop count per (switch, host) as our own --routing table from --root; =2: as a minimal
 * route, for ftree), then traffic.
 * --fat2=R,L,S builds a two-level fat tree (fabric_topo_fat2) instead of the torus, for OpenSM's
 * ftree (up* / down* only; no --off, no SM); --tree=K,N a k-ary n-tree (fabric_topo_kary_ntree: k^n
 * hosts, n levels of k^(n-1) switches of 2k ports), the same restrictions.
 *
 * --routing=updn_mst: up* / down* with --trees=T spanning trees (default --vls), each on its own
 * VLs, LMC = ceil(log2 T) (route_lft.h; docs/ibsw.md §12): every switch's LFT holds each host's
 * 2^LMC LIDs, the hosts send each flow to its tree's LID on its tree's VL. Static SM only (no
 * --sm=dynamic, no --lft-file).
 *
 * --sw=rtl|lockstep: every switch is the Verilated RTL of target ibsw_p4, or the model and that
 * RTL compared every cycle (check fabric.lockstep names the switch, port and cycle of the first
 * difference; an RTL assertion fails as assert:<label>); --waves=DIR writes DIR/sw<k>.fst of
 * each. Only on ibsw_p4's parameters (4-port switches, e.g. --tree=2,2; --vls=2 --buf=4
 * --route-cycles=5 --wake-cycles=4 --boot-active=0), else refused (exit 2): any --sw and
 * --test=rtl_vs_model also give the switches (and hosts) VL15 buffers of 4, counters of 8/16
 * bits and one LFT block, ibsw_p4's. --test=rtl_vs_model runs the flags given with model
 * switches, then with RTL switches, and compares the output digests (every flit and error of
 * every instance in every cycle; check ibfab.rtl_vs_model).
 */
#define _POSIX_C_SOURCE 200809L
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "bind/fabric_ibsw.h"
#include "fabric/core/route_lft.h"
#include "fabric/fabric.h"
#include "fabric/fabric_topo.h"
#include "ibfabric/ibf_host.h"
#include "ibfabric/ibf_npb.h"
#include "ibfabric/ibf_osm.h"
#include "ibfabric/ibf_sampmon.h"

#define DYN_MAXPH 16 /* load phases at most */

typedef struct {
  unsigned x, y, pl, hosts, vls, len, traffic, routing, off, root, lat, rcycles, buf, boot, wake, sample;
  unsigned ranks; /* NPB-like traffic: ranks (one per switch first, ibf_npb.h) */
  unsigned trees; /* --routing=updn_mst: spanning trees (0: --vls) */
  double load;
  uint64_t packets, cycles, seed;
  bool no_skip;
  /* --sm=dynamic: period (cycles), watermarks (flits/cycle per active link), load phases */
  unsigned sm, sm_period, nph, sm_log;
  double sm_low, sm_high, ph_load[DYN_MAXPH];
  uint64_t ph_end[DYN_MAXPH]; /* cumulative, from the start of traffic */
  /* stage 1's sampling: PortSamplesControl/Result windows of samp_int cycles (SAMP_SAMPLES, the
     default) or PortCountersExtended readings (SAMP_COUNTERS); sm_qd: the QueueDepth that holds a
     group's links on (ours) */
  unsigned sampling, samp_int, sm_qd;
  const char *bug, *expect, *test, *out;
  /* OpenSM in the loop (ibf_osm.h, mk/opensm-routes.sh): the table file to import instead of ours,
     the turn rule of --routing checked on it (0: hole, loop, misroute, cycle only), compare its hop
     counts with ours (--compare-hops), the topology file to write (--write-ibnd) */
  const char *lft_file, *write_ibnd;
  unsigned lft_turns, cmp_hops, lft_check;
  unsigned min_window; /* --min-window: the statistics window's least share of the packets, % (0: any) */
  unsigned fat_r, fat_l, fat_s; /* --fat2=R,L,S: a two-level fat tree instead of the torus (0: torus) */
  unsigned tree_k, tree_n;      /* --tree=K,N: a k-ary n-tree instead of the torus (0: torus) */
  unsigned sw;                  /* --sw: fabric_mode_t of every switch */
  bool p4;                      /* the switches on ibsw_p4's parameters (--sw given, rtl_vs_model) */
  const char *waves;            /* --waves=DIR: an FST per RTL switch */
} cfg_t;

static const struct {
  const char *name, *purpose;
} tests[] = {
    {"smoke", "4x4 torus, 2 parallel links, 16 hosts/switch, up*/down*, uniform 0.3, 8,000 packets"},
    {"dor_bitrev_off", "as smoke with DOR, bit-reversal 0.3 and 16 links deactivated by MADs"},
    {"updn_off", "as smoke with 24 links deactivated by MADs"},
    {"skip_vs_noskip", "the smoke run with and without skipping: identical output digests"},
    {"train",
     "as smoke without BootActive: every link trains (TS1/TS2, W = 64), the SM arms and activates every\n"
     "                 switch port by MADs, then deactivates 8 links"},
    {"sample",
     "as smoke with the SM reading PortCounters of every inter-switch port by MADs during the traffic"},
    {"dynamic", "4x4 torus, 2 parallel links, 4 hosts/switch, up*/down*, the dynamic SM under load phases\n"
                "                 low, high, low: links go off, come back and go off again, nothing lost"},
    {"dynamic_skip", "the dynamic run with and without skipping: identical output digests (hosts held by\n"
                     "                 the fence, phases of load)"},
    {"rtl_vs_model", "the flags given with model switches, then with RTL switches (ibsw_p4): identical\n"
                     "                 output digests"},
    {"run", "one run with the flags given (the default)"},
};

/* The planted bugs, one table: where each is planted (the host, the switch model, the binding or
 * this driver), its code there, and the check its negative expects (regress/testlist). --help, the
 * flag's parser and setup() all read it. */
enum { BUG_DRIVER, BUG_HOST, BUG_SWITCH, BUG_BIND };
typedef struct {
  const char *name;
  unsigned where, code;
  const char *check, *what;
} bug_t;
static const bug_t bugs[] = {
    {"none", BUG_DRIVER, 0, "", "no bug"},
    {"seq_skip", BUG_HOST, IBF_BUG_SEQ_SKIP, "ibfab.order", "host 0 skips a sequence number"},
    {"body_flip", BUG_HOST, IBF_BUG_BODY_FLIP, "ibfab.integrity", "host 1 flips a BODY bit"},
    {"drop_last", BUG_HOST, IBF_BUG_DROP_LAST, "ibfab.loss", "the last packet is dropped at its host"},
    {"host_skips_training", BUG_HOST, IBF_BUG_SKIP_TRAINING, "ibfab.link", "hosts are LinkUp at once"},
    {"power_counts_disabled", BUG_SWITCH, IBSW_BUG_POWER_COUNTS_DISABLED, "ibfab.power",
     "the meter counts Disabled ports"},
    {"route_cycles_short", BUG_SWITCH, IBSW_BUG_ROUTE_CYCLES_SHORT, "fabric.lockstep",
     "the switch model routes a cycle early (--sw=lockstep: the model's only)"},
    {"quiet_lies", BUG_BIND, FIBSW_BUG_QUIET_LIES, "ibfab.skip_vs_noskip", "quiet() sees buffers only"},
    {"lft_wrong", BUG_DRIVER, 0, "ibfab.misroute", "one LFT entry sends a LID to another host"},
    {"lft_top_low", BUG_DRIVER, 0, "ibfab.switch_err", "LinearFDBTop one too low"},
    {"sm_one_end", BUG_DRIVER, 0, "ibfab.sm", "the static SM disables one end of a link only"},
    {"sm_bad_set", BUG_DRIVER, 0, "ibfab.mad", "the static SM sets both state fields"},
    {"dor_one_vl", BUG_DRIVER, 0, "ibfab.deadlock", "DOR without dateline VLs (check skipped)"},
    {"dyn_silent", BUG_DRIVER, 0, "ibfab.sm_transitions", "the dynamic SM samples but never acts"},
    {"dyn_off_first", BUG_DRIVER, 0, "ibfab.switch_err",
     "the dynamic SM disables links before the new LFTs avoid them"},
    {"dyn_route_before_up", BUG_DRIVER, 0, "ibfab.switch_err",
     "the dynamic SM programs LFTs using woken links before they are LinkUp/Active"},
    {"dyn_no_fence", BUG_DRIVER, 0, "ibfab.order",
     "the dynamic SM reprograms LFTs without the migration fence (packets of a flow on two paths)"},
    {"dyn_stale_lft", BUG_DRIVER, 0, "ibfab.switch_err",
     "the dynamic SM skips one switch's LFT update, which still uses a link it disables"},
    {"samp_no_wait", BUG_DRIVER, 0, "ibfab.sm_samples",
     "the dynamic SM reads PortSamplesResult at once after the Set, without waiting for DONE"},
    {"npb_wrong_partner", BUG_DRIVER, 0, "ibfab.npb_pattern",
     "NPB-like traffic: rank 1's first message goes to the last rank, not its partner"},
    {"mst_shared_vl", BUG_DRIVER, 0, "lft.cycle",
     "updn_mst: tree 1's flows sent on tree 0's VLs (two trees share a VL; --routing=updn_mst)"},
    {"mst_one_vl", BUG_DRIVER, 0, "ibfab.deadlock",
     "updn_mst: every tree's flows on VL 0, route check and ibfab.vl skipped (--routing=updn_mst)"},
    {"mst_wrong_vl", BUG_HOST, IBF_BUG_MST_WRONG_VL, "ibfab.vl",
     "updn_mst: host 0 sends every packet on the next VL, another tree's (--routing=updn_mst)"},
    {"osm_entry_back", BUG_DRIVER, 0, "lft.illegal; lft.loop with --lft-turns=0",
     "one imported OpenSM entry sends a LID back to the switch it came from (--lft-file)"},
};
#define NBUGS (sizeof bugs / sizeof bugs[0])

static const char *rerun_line;

static int usage_fail(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "ibsw_fabric_sim: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see --help)\n");
  va_end(ap);
  return 2;
}

/* --expect-fail=check:ID@CYCLE inverts the verdict: passes only if exactly that check fails there. */
static int verdict(bool ok, const cfg_t *c, const char *id, uint64_t cycle, const char *why) {
  char msg[800];
  snprintf(msg, sizeof msg, "check:%s@%" PRIu64 ": %s", id, cycle, why);
  if (!c->expect) {
    if (ok) {
      printf("TEST PASSED\n");
      return 0;
    }
    printf("rerun: %s\nTEST FAILED: %s\n", rerun_line, msg);
    return 1;
  }
  char want[200];
  snprintf(want, sizeof want, "%s", c->expect);
  char got[200];
  snprintf(got, sizeof got, "check:%s@%" PRIu64, id, cycle);
  if (!ok && !strcmp(got, want)) {
    printf("expected failure caught: %s\nTEST PASSED\n", msg);
    return 0;
  }
  printf("rerun: %s\nTEST FAILED: expected %s, %s%s\n", rerun_line, want, ok ? "and the run passed" : "got ",
         ok ? "" : msg);
  return 1;
}

static bool parse_u64(const char *s, uint64_t *v) {
  if (!*s) return false;
  char *e;
  unsigned long long x = strtoull(s, &e, 10);
  if (*e || *s == '-') return false;
  *v = x;
  return true;
}

static bool in_range(uint64_t u, uint64_t lo, uint64_t hi) { return u >= lo && u <= hi; }

static const bug_t *bug_find(const char *b) {
  for (size_t i = 0; i < NBUGS; i++)
    if (!strcmp(bugs[i].name, b)) return &bugs[i];
  return NULL;
}
/* The code of the planted bug if it lives at `where`, else 0. */
static unsigned bug_code(const cfg_t *c, unsigned where) {
  const bug_t *b = c->bug ? bug_find(c->bug) : NULL;
  return b && b->where == where ? b->code : 0;
}
static bool bug_is(const cfg_t *c, const char *b) { return c->bug && !strcmp(c->bug, b); }

/* ---- the fabric run ---------------------------------------------------------------- */

/* One step of the SM's bring-up and deactivation list (docs/ibsw.md §13). */
enum { OP_GET_UP, OP_SET_ARM, OP_SET_ACT, OP_SET_OFF, OP_GET_OFF };
static const char *const op_names[] = {"Get PortInfo (LinkUp?)", "Set PortInfo Armed", "Set PortInfo Active",
                                       "Set PortInfo Disabled", "Get PortInfo (Disabled?)"};
typedef struct {
  unsigned sw, port, kind; /* switch, IBA port, OP_* */
} smop_t;
typedef struct {
  unsigned sw, port;
  uint64_t xd, at; /* last PortXmitData and the cycle it was read */
} smp_t;

/* ---- the dynamic subnet manager (--sm=dynamic; docs/ibsw.md "The dynamic subnet manager") ---- */

/* A regulated link: parallel index j >= 1 of switch s's X+ or Y+ direction (index 0 of every
 * direction stays on: the seed's ref. 2 rule, one link between neighbours, so the graph stays
 * connected and both routings stay hole-free). */
typedef struct {
  unsigned s, q, b, bq; /* switch, topology port; peer switch, its port */
  unsigned grp;         /* the direction group (s, X+ or Y+) */
  bool on;
} dlink_t;

/* One MAD job of a step; Gets repeat until their condition holds. */
enum {
  J_SAMPLE,
  J_SET_POLL,
  J_GET_UP,
  J_SET_ARM,
  J_SET_ACT,
  J_SET_LFT,
  J_SET_OFF,
  J_GET_OFF,
  J_SCTL,
  J_SRES
};
static const char *const job_names[] = {"PortCountersExtended Get", "PortInfo Set Polling",
                                        "PortInfo Get (LinkUp?)",   "PortInfo Set Armed",
                                        "PortInfo Set Active",      "LinearForwardingTable Set",
                                        "PortInfo Set Disabled",    "PortInfo Get (Disabled?)",
                                        "PortSamplesControl Set",   "PortSamplesResult Get (DONE?)"};
enum { SAMP_SAMPLES, SAMP_COUNTERS }; /* --sampling */
typedef struct {
  unsigned sw, mod, kind; /* switch, AttrMod (IBA port or LFT block), J_* */
  unsigned st;            /* 0 pending, 1 outstanding, 2 done */
  uint16_t tid;
  uint64_t sent_at, not_before;
} job_t;

/* SM stages (seed 000 §3.1: 1 sample, 2 select, 3 reactivate, 4 program + migrate, 5 deactivate). */
enum { DS_SAMPLE, DS_WAKE, DS_WAIT_UP, DS_ARM, DS_ACT, DS_FENCE, DS_PROGRAM, DS_OFF, DS_WAIT_OFF };
static const char *const ds_names[] = {"sample", "wake",         "wait LinkUp", "arm",          "activate",
                                       "fence",  "program LFTs", "disable",     "wait Disabled"};

#define DYN_OUT \
  16                   /* MADs outstanding, one per switch (one SMA at a time; requests go down the
                       directed-route tree and responses up it, so VL15 has no dependency cycle) */
#define DYN_GAP  64    /* cycles between two Gets of one condition (ours) */
#define DYN_WAIT 40000 /* a step's limit (check ibfab.sm) */

typedef struct {
  dlink_t *lk;
  unsigned nlk, ngrp;
  uint8_t *want_on;        /* [nlk] the decision */
  int *lkidx;              /* [nsw * P]: the regulated link on that port, -1 none */
  uint64_t *xd, *rd;       /* [nsw * P]: last extended Xmit/RcvData read (4-octet units) */
  uint64_t *at;            /* [nsw * P]: cycle of that reading, 0 = none since the last change */
  double *rate_x, *rate_r; /* [nsw * P]: flits per cycle over the last two readings, < 0 unknown */
  /* --sampling=samples, [nsw * P], since the last decision: XmitData and RcvData (4-octet units)
     and cycles of the DONE windows, the largest QueueDepth at a window's start */
  uint64_t *acc_x, *acc_r, *acc_t;
  unsigned *qd_max;
  unsigned *jsw, *jport, njudged; /* the ports the last decision judged (check ibfab.sm_samples) */
  uint64_t windows, polls, busy, qd_holds, qd_top;
  job_t *job;
  unsigned njob, state, seq[12], nseq, iseq;
  uint64_t step_at, last_decision;
  unsigned out;     /* MADs outstanding */
  uint8_t *busy_sw; /* [nsw] a MAD outstanding there */
  route_lft_t nr;   /* the new tables (DS_FENCE..DS_PROGRAM) */
  bool have_nr;
  unsigned *chg_dst, nchg; /* destinations whose entries change */
  /* statistics */
  unsigned n_off, n_on, batches_off, batches_on, links_off;
  uint64_t sweeps, mads, fence_cycles, fence_max, fence_at;
  uint64_t trans_cycles, trans_at;
} dyn_t;

typedef struct {
  const cfg_t *c;
  fabric_t f;
  fabric_topo_t t;
  route_lft_t r;
  ibf_world_t w;
  uint8_t *off;
  unsigned nsw, P, nodes;
  uint32_t host0;
  fibsw_params_t sp;
  ibf_host_params_t *hp;
  /* SM */
  smop_t *ops;
  unsigned nops, cur, nset_off; /* done when cur == nops */
  unsigned uncabled;            /* trained bring-up: ports without a cable, which the SM disables */
  uint64_t last_busy;           /* the last cycle after which some link carried something */
  bool waiting;
  uint16_t tid;
  uint64_t sent_at, op_at, mads, sm_from;
  smp_t *smp; /* --sample: the ports sampled in turn */
  unsigned nsmp, smp_cur;
  uint64_t rtt_sum, rtt_n, rtt_max, util_n, util_low, util_high;
  double util_sum;
  unsigned *par_sw, *par_port; /* BFS tree from host 0's switch over active links */
  /* statistics */
  bool snap0, snap1;
  uint64_t rx0, rx1, e0, e1, t0, t1, start;
  uint64_t cr0, cr1; /* packets created at the window's ends */
  char check_id[32]; /* lft.<what> of a table that fails route_lft_check, or osm.hops */
  uint8_t *ours;     /* --lft-file: netcosim's own table, [nsw * nodes] */
  /* --sm=dynamic */
  dyn_t d;
  uint64_t traffic_end; /* the end of the last phase */
  uint64_t bring_mads;  /* MADs of the bring-up (before the traffic) */
  uint32_t **npb_list;  /* NPB-like traffic: per host its cyclic destination list (ibf_npb.h) */
  unsigned *npb_n;
  unsigned senders;  /* hosts that inject */
  ibf_sampmon_t mon; /* check ibfab.sm_samples (--sampling=samples) */
  uint64_t ph_rx[DYN_MAXPH + 1], ph_e[DYN_MAXPH + 1], ph_t[DYN_MAXPH + 1]; /* at each phase's start */
  unsigned ph_off[DYN_MAXPH + 1];                                          /* links off at each phase's end */
  unsigned ph_seen;                                                        /* phase boundaries passed */
} run_t;

static void observer(fabric_t *f, void *ctx) {
  run_t *R = ctx;
  for (unsigned s = 0; s < R->nsw; s++) {
    const fabric_inst_t *x = &f->inst[s];
    if (!x->ran) continue;
    for (unsigned k = 0; k <= R->P; k++)
      if (x->side[k])
        ibf_fail(&R->w, f->cycle, "ibfab.switch_err",
                 "switch %u %s%u: error code %" PRIu64 " (docs/ibsw.md §10)", s, k < R->P ? "port " : "SMA",
                 k < R->P ? k + 1 : 0, x->side[k]);
  }
}

/* Directed route from host 0 to switch s (tags) and back (return tags). */
static void dr_routes(const run_t *R, unsigned s, uint64_t *fwd, uint64_t *ret) {
  unsigned path[64], eg[64], m = 0;
  for (unsigned v = s; v != R->t.node[0].id; v = R->par_sw[v]) path[m++] = v;
  path[m++] = R->t.node[0].id; /* path[m-1] = host 0's switch ... path[0] = s */
  assert(m <= 9);              /* setup() refused deeper tori: 9 tags of 5 bits in 48 */
  uint64_t f = 0, b = 0;
  unsigned nt = 0;
  for (unsigned i = m - 1; i > 0; i--) { /* forward: at path[i], towards path[i-1] */
    eg[i] = R->par_port[path[i - 1]];    /* the port of path[i] leading to path[i-1] */
    f |= (uint64_t)(eg[i] + 1) << (5 * nt++);
  }
  /* tag 0 at s: already zero */
  nt = 0;
  for (unsigned i = 0; i + 1 < m; i++) { /* back: at path[i] towards path[i+1] */
    const fabric_end_t *e = fabric_topo_peer(&R->t, path[i + 1], R->par_port[path[i]]);
    b |= (uint64_t)(e->port + 1) << (5 * nt++);
  }
  b |= (uint64_t)(R->t.node[0].port + 1) << (5 * nt);
  *fwd = f;
  *ret = b;
}

/* A MAD to switch sw by directed route (§7.1): class, method, attribute, AttrMod, nd data words. */
static int sm_send_mad(run_t *R, unsigned sw, unsigned cls, unsigned method, unsigned attr, unsigned mod,
                       const uint64_t *data, unsigned nd) {
  uint64_t fwd, ret, w[IBF_MAD_MAX];
  dr_routes(R, sw, &fwd, &ret);
  R->tid++;
  w[0] = UINT64_C(0xFFFF) << 48 | fwd;
  w[1] = (uint64_t)R->tid << 48 | ret;
  w[2] = (uint64_t)cls << 56 | (uint64_t)method << 48 | (uint64_t)attr << 32 | (uint64_t)mod << 16;
  for (unsigned i = 0; i < nd; i++) w[3 + i] = data[i];
  if (ibf_host_send_mad(R->f.inst[R->host0].m, w, 3 + nd) == 0) {
    ibf_sampmon_sent(&R->mon, sw, w, 3 + nd);
    R->waiting = true;
    R->sent_at = R->f.cycle;
    R->mads++;
    return 0;
  }
  R->tid--;
  return -1;
}
static void sm_send(run_t *R, unsigned sw, unsigned port, unsigned method, uint64_t data) {
  sm_send_mad(R, sw, 0x81, method, 0x0015, port, &data, 1);
}

/* Stage 1 of §13 during traffic (--sample=1): PortCounters Gets (PerfMgt, 4 words) of every active
 * inter-switch port in turn, one outstanding; each response's PortXmitData against the previous
 * sample of that port gives the link's utilisation. Stages 2-5 are not done: this only measures. */
static void sample_step(run_t *R) {
  if (!R->c->sample || !R->nsmp || R->w.delivered == R->c->packets) return;
  void *h0 = R->f.inst[R->host0].m;
  uint64_t rsp[IBF_MAD_MAX];
  unsigned n = ibf_host_recv_mad(h0, rsp);
  const uint64_t now = R->f.cycle - 1;
  if (n) {
    smp_t *p = &R->smp[R->smp_cur];
    const unsigned status = (unsigned)(rsp[2] & 0xFFFF);
    if (!R->waiting || n != 7 || (uint16_t)(rsp[1] >> 48) != R->tid || (rsp[2] >> 48 & 0xFF) != 0x81 ||
        (rsp[2] >> 56) != 0x04 || status) {
      ibf_fail(&R->w, now, "ibfab.mad",
               "SM: PortCounters of switch %u port %u: bad response (status 0x%04x, %u words)", p->sw,
               p->port, status, n);
      return;
    }
    R->waiting = false;
    const uint64_t rtt = now - R->sent_at;
    R->rtt_sum += rtt;
    R->rtt_n++;
    if (rtt > R->rtt_max) R->rtt_max = rtt;
    const uint64_t xd = rsp[3] >> 32; /* PortXmitData, 4-octet units: 2 per flit */
    if (p->at && now > p->at) {
      const double u = (double)(xd - p->xd) / 2.0 / (double)(now - p->at);
      R->util_sum += u;
      R->util_n++;
      if (u < 0.1) R->util_low++;
      if (u > 0.5) R->util_high++;
    }
    p->xd = xd;
    p->at = now;
    R->smp_cur = (R->smp_cur + 1) % R->nsmp;
  }
  if (R->waiting) {
    if (now > R->sent_at + 20000)
      ibf_fail(&R->w, now, "ibfab.sm", "SM: PortCounters of switch %u port %u unanswered for 20,000 cycles",
               R->smp[R->smp_cur].sw, R->smp[R->smp_cur].port);
    return;
  }
  const uint64_t zero[4] = {0, 0, 0, 0};
  sm_send_mad(R, R->smp[R->smp_cur].sw, 0x04, 0x01, 0x0012, R->smp[R->smp_cur].port, zero, 4);
}

/* The SM's list, one MAD outstanding: a Set must answer status 0; a Get is repeated until the port
 * is in the state asked for (20,000 cycles at most, check ibfab.sm). */
static void sm_step(run_t *R) {
  if (R->cur == R->nops || R->f.cycle == 0) return;
  void *h0 = R->f.inst[R->host0].m;
  uint64_t rsp[IBF_MAD_MAX];
  unsigned n = ibf_host_recv_mad(h0, rsp);
  const uint64_t now = R->f.cycle - 1;
  smop_t *o = &R->ops[R->cur];
  if (n) {
    if (!R->waiting || n != 4 || (uint16_t)(rsp[1] >> 48) != R->tid || (rsp[2] >> 48 & 0xFF) != 0x81) {
      ibf_fail(&R->w, now, "ibfab.mad", "SM: unexpected response (TID %u, %u words)",
               (unsigned)(rsp[1] >> 48), n);
      return;
    }
    const unsigned status = (unsigned)(rsp[2] & 0xFFFF), phys = (unsigned)(rsp[3] >> 56 & 0xF);
    if (status) {
      ibf_fail(&R->w, now, "ibfab.mad", "SM: switch %u port %u: %s status 0x%04x", o->sw, o->port,
               op_names[o->kind], status);
      return;
    }
    R->waiting = false;
    const bool done = o->kind == OP_GET_UP    ? phys == IBSW_LINKUP
                      : o->kind == OP_GET_OFF ? phys == IBSW_DISABLED
                                              : true;
    if (done) {
      R->cur++;
      R->op_at = now;
      if (R->cur == R->nops) return;
      o = &R->ops[R->cur];
    }
  }
  if (R->waiting || now < R->sm_from) return;
  if (now > R->op_at + 20000) {
    ibf_fail(&R->w, now, "ibfab.sm", "SM: switch %u port %u: %s not done 20,000 cycles after its turn", o->sw,
             o->port, op_names[o->kind]);
    return;
  }
  if (o->kind == OP_SET_OFF && bug_is(R->c, "sm_one_end") &&
      R->cur == R->nset_off + 1) { /* planted: one end never told */
    R->cur++;
    return;
  }
  static const uint64_t data[] = {0, (uint64_t)IBSW_ARMED << 60, (uint64_t)IBSW_ACTIVE << 60,
                                  (uint64_t)IBSW_DISABLED << 56, 0};
  uint64_t d = data[o->kind];
  if (o->kind == OP_SET_OFF && bug_is(R->c, "sm_bad_set") && R->cur == R->nset_off + 2)
    d |= (uint64_t)1 << 60; /* planted: both fields set, 0x001C */
  sm_send(R, o->sw, o->port, o->kind == OP_GET_UP || o->kind == OP_GET_OFF ? 0x01 : 0x02, d);
}

static bool dyn_bug(const run_t *R, const char *b) { return bug_is(R->c, b); }

static unsigned dyn_idx(const run_t *R, unsigned s, unsigned q) { return s * R->P + q; }

static void dyn_add(run_t *R, unsigned sw, unsigned mod, unsigned kind) {
  R->d.job[R->d.njob++] = (job_t){sw, mod, kind, 0, 0, 0, 0};
}

/* The ports read in a sweep: X+ and Y+ of every switch, the links that are on (PortCounters
 * give both directions of a link at one end). */
static void dyn_sweep(run_t *R) {
  dyn_t *D = &R->d;
  const fabric_topo_t *t = &R->t;
  D->njob = 0;
  for (unsigned s = 0; s < R->nsw; s++)
    for (unsigned dir = 0; dir < 2; dir++)
      for (unsigned j = 0; j < t->p; j++) {
        const unsigned q = t->conc + (dir ? FABRIC_TORUS_YP : FABRIC_TORUS_XP) * t->p + j;
        if (R->off[dyn_idx(R, s, q)]) continue;
        dyn_add(R, s, q + 1, R->c->sampling == SAMP_SAMPLES ? J_SCTL : J_SAMPLE);
      }
}

/* The link set in off[] for the decision (want_on) */
static void dyn_mark(run_t *R, uint8_t *off) {
  const dyn_t *D = &R->d;
  memset(off, 0, (size_t)R->nsw * R->P);
  for (unsigned i = 0; i < D->nlk; i++)
    if (!D->want_on[i]) {
      off[dyn_idx(R, D->lk[i].s, D->lk[i].q)] = 1;
      off[dyn_idx(R, D->lk[i].b, D->lk[i].bq)] = 1;
    }
}

static void dyn_enter(run_t *R, unsigned st, uint64_t now);

/* Stage 2 (ours: watermarks, hysteresis and step size are not the seed's): a group is one
 * direction between two neighbours (its parallel links); u = the flits per cycle of its busier
 * direction over its active links. u < low: links go off, as many as keep the projected
 * u * on / on' at or below the middle of the watermarks; u > high: links come back, as few as
 * bring it there (all if none does). Off: highest parallel index first; on: lowest.
 * --sampling=samples (ours, after seed 000 §3.2's HoL argument): a group whose sampled QueueDepth
 * reached --sm-qd at some window's start since the last decision is not judged idle (no link
 * off), whatever its data rate: a blocked link sends little but its queue is full. */
static int dyn_decide(run_t *R) {
  dyn_t *D = &R->d;
  const fabric_topo_t *t = &R->t;
  const double mid = (R->c->sm_low + R->c->sm_high) / 2;
  const bool smp = R->c->sampling == SAMP_SAMPLES;
  bool change = false;
  unsigned holds = 0;
  D->njudged = 0;
  for (unsigned i = 0; i < D->nlk; i++) D->want_on[i] = D->lk[i].on;
  for (unsigned g = 0; g < D->ngrp; g++) {
    const unsigned s = g / 2, dir = g % 2 ? FABRIC_TORUS_YP : FABRIC_TORUS_XP;
    double sx = 0, sr = 0;
    unsigned non = 0;
    int on_l[64], off_l[64];
    unsigned n_on_l = 0, n_off_l = 0; /* regulated links of the group, on / off, by index */
    bool blocked = false;
    for (unsigned j = 0; j < t->p; j++) {
      const unsigned q = t->conc + dir * t->p + j, k = dyn_idx(R, s, q);
      if (R->off[k]) {
        off_l[n_off_l++] = R->d.lkidx[k];
        continue;
      }
      if (R->d.rate_x[k] < 0) return -1; /* not every port sampled twice since the last change */
      D->jsw[D->njudged] = s, D->jport[D->njudged++] = q + 1;
      blocked |= smp && D->qd_max[k] >= R->c->sm_qd;
      sx += R->d.rate_x[k];
      sr += R->d.rate_r[k];
      non++;
      if (j) on_l[n_on_l++] = R->d.lkidx[k];
    }
    const double load = sx > sr ? sx : sr, u = load / non; /* load: flits per cycle, busier direction */
    if (u < R->c->sm_low && n_on_l && blocked) {
      holds++; /* HoL: the queue says busy */
    } else if (u < R->c->sm_low && n_on_l) {
      unsigned keep = non; /* active links after the decision */
      while (keep > 1 && load / (keep - 1) <= mid) keep--;
      for (unsigned k = 0; k < non - keep; k++) D->want_on[on_l[n_on_l - 1 - k]] = 0;
      change |= keep < non;
    } else if (u > R->c->sm_high && n_off_l) {
      unsigned want = non;
      while (want < non + n_off_l && load / want > mid) want++;
      for (unsigned k = 0; k < want - non; k++) D->want_on[off_l[k]] = 1;
      change |= want > non;
    }
  }
  D->qd_holds += holds;
  if (dyn_bug(R, "dyn_silent")) return 0; /* planted: samples, never acts */
  return change ? 1 : 0;
}

static void dyn_build_seq(run_t *R) {
  dyn_t *D = &R->d;
  bool on = false, off = false;
  for (unsigned i = 0; i < D->nlk; i++) {
    on |= D->want_on[i] && !D->lk[i].on;
    off |= !D->want_on[i] && D->lk[i].on;
  }
  D->nseq = D->iseq = 0;
  if (dyn_bug(R, "dyn_off_first") && off) { /* planted: stage 5 before stage 4 */
    D->seq[D->nseq++] = DS_OFF;
    D->seq[D->nseq++] = DS_WAIT_OFF;
    off = false;
  }
  if (on && dyn_bug(R, "dyn_route_before_up")) { /* planted: routes over a link still training */
    D->seq[D->nseq++] = DS_WAKE;
    D->seq[D->nseq++] = DS_FENCE;
    D->seq[D->nseq++] = DS_PROGRAM;
    D->seq[D->nseq++] = DS_WAIT_UP;
    D->seq[D->nseq++] = DS_ARM;
    D->seq[D->nseq++] = DS_ACT;
  } else {
    if (on) {
      D->seq[D->nseq++] = DS_WAKE;
      D->seq[D->nseq++] = DS_WAIT_UP;
      D->seq[D->nseq++] = DS_ARM;
      D->seq[D->nseq++] = DS_ACT;
    }
    D->seq[D->nseq++] = DS_FENCE;
    D->seq[D->nseq++] = DS_PROGRAM;
  }
  if (off) {
    D->seq[D->nseq++] = DS_OFF;
    D->seq[D->nseq++] = DS_WAIT_OFF;
  }
}

/* Both ends of every link changing in the direction `to_on`. */
static void dyn_ends(run_t *R, bool to_on, unsigned kind) {
  dyn_t *D = &R->d;
  for (unsigned i = 0; i < D->nlk; i++)
    if (D->want_on[i] == to_on && D->lk[i].on != to_on) {
      dyn_add(R, D->lk[i].s, D->lk[i].q + 1, kind);
      dyn_add(R, D->lk[i].b, D->lk[i].bq + 1, kind);
    }
}

/* Stage 3's routes: tables for the decided link set; the destinations whose entry changes in
 * some switch are held at every source until none of their packets is in flight (the fence). */
static void dyn_fence(run_t *R, uint64_t now) {
  dyn_t *D = &R->d;
  char err[300];
  const char *what;
  uint8_t *off = calloc((size_t)R->nsw * R->P, 1);
  dyn_mark(R, off);
  if (route_lft_build(&D->nr, &R->t, R->r.algo, off, R->r.root, R->r.vls, err, sizeof err)) {
    free(off);
    ibf_fail(&R->w, now, "ibfab.sm", "SM: no routes for the decided link set: %s", err);
    return;
  }
  free(off);
  D->have_nr = true;
  if (route_lft_check(&D->nr, &what, err, sizeof err)) {
    char id[32];
    snprintf(id, sizeof id, "lft.%s", what);
    ibf_fail(&R->w, now, id, "SM: %s", err);
    return;
  }
  D->nchg = 0;
  for (unsigned d = 0; d < R->nodes; d++) {
    bool chg = false;
    for (unsigned s = 0; s < R->nsw && !chg; s++)
      chg = R->r.lft[(size_t)s * R->nodes + d] != D->nr.lft[(size_t)s * R->nodes + d];
    if (!chg) continue;
    D->chg_dst[D->nchg++] = d;
    if (!dyn_bug(R, "dyn_no_fence") && !R->w.hold[d]) { /* planted: no fence */
      R->w.hold[d] = 1;
      R->w.nhold++;
    }
  }
  D->fence_at = now;
}

static bool dyn_fence_clear(const run_t *R) {
  if (dyn_bug(R, "dyn_no_fence")) return true;
  for (unsigned i = 0; i < R->d.nchg; i++)
    if (R->w.inflight[R->d.chg_dst[i]]) return false;
  return true;
}

static void dyn_program_jobs(run_t *R) {
  dyn_t *D = &R->d;
  const unsigned nb = (R->nodes + 1 + 63) / 64;
  int skip = -1;
  if (dyn_bug(R, "dyn_stale_lft")) /* planted: the near end of the first link turned off keeps its table */
    for (unsigned i = 0; i < D->nlk && skip < 0; i++)
      if (!D->want_on[i] && D->lk[i].on) skip = (int)D->lk[i].s;
  for (unsigned s = 0; s < R->nsw; s++) {
    if ((int)s == skip) continue;
    for (unsigned b = 0; b < nb; b++) {
      bool chg = false;
      for (unsigned lid = b * 64; lid < b * 64 + 64 && !chg; lid++)
        chg = lid >= 1 && lid <= R->nodes &&
              R->r.lft[(size_t)s * R->nodes + lid - 1] != D->nr.lft[(size_t)s * R->nodes + lid - 1];
      if (chg) dyn_add(R, s, b, J_SET_LFT);
    }
  }
}

static void dyn_enter(run_t *R, unsigned st, uint64_t now) {
  dyn_t *D = &R->d;
  if (R->c->sm_log && (st != DS_SAMPLE || D->state != DS_SAMPLE))
    printf("sm: cycle %" PRIu64 ": %s done, %s\n", now, ds_names[D->state], ds_names[st]);
  D->state = st;
  D->step_at = now;
  D->njob = 0;
  switch (st) {
    case DS_SAMPLE: dyn_sweep(R); break;
    case DS_WAKE: dyn_ends(R, true, J_SET_POLL); break;
    case DS_WAIT_UP: /* training takes WakeCycles at least (§6.5): the first Get no sooner */
      dyn_ends(R, true, J_GET_UP);
      for (unsigned i = 0; i < D->njob; i++) D->job[i].not_before = now + R->c->wake;
      break;
    case DS_ARM: dyn_ends(R, true, J_SET_ARM); break;
    case DS_ACT: dyn_ends(R, true, J_SET_ACT); break;
    case DS_FENCE: dyn_fence(R, now); break;
    case DS_PROGRAM: dyn_program_jobs(R); break;
    case DS_OFF: dyn_ends(R, false, J_SET_OFF); break;
    case DS_WAIT_OFF: dyn_ends(R, false, J_GET_OFF); break;
  }
}

/* --sampling=samples: a decision judges the windows since the previous one only. */
static void dyn_samples_restart(run_t *R) {
  dyn_t *D = &R->d;
  if (R->c->sampling != SAMP_SAMPLES) return;
  for (size_t k = 0; k < (size_t)R->nsw * R->P; k++)
    D->acc_x[k] = D->acc_r[k] = D->acc_t[k] = D->qd_max[k] = 0, D->rate_x[k] = D->rate_r[k] = -1;
}

/* A step is over: the next of the sequence, or the new link set is in force. */
static void dyn_next(run_t *R, uint64_t now) {
  dyn_t *D = &R->d;
  if (D->state == DS_PROGRAM) { /* every confirmation in: the new tables are the fabric's */
    route_lft_free(&R->r);
    R->r = D->nr; /* the hosts hold &R->r */
    memset(&D->nr, 0, sizeof D->nr);
    D->have_nr = false;
    for (unsigned i = 0; i < D->nchg; i++) R->w.hold[D->chg_dst[i]] = 0;
    R->w.nhold = 0;
    const uint64_t fc = now - D->fence_at;
    D->fence_cycles += fc;
    if (fc > D->fence_max) D->fence_max = fc;
  }
  if (D->iseq < D->nseq) {
    dyn_enter(R, D->seq[D->iseq++], now);
    return;
  }
  /* the transition is done */
  for (unsigned i = 0; i < D->nlk; i++) {
    if (D->lk[i].on != D->want_on[i]) {
      D->lk[i].on = D->want_on[i];
      if (D->lk[i].on)
        D->n_on++;
      else
        D->n_off++;
    }
  }
  dyn_mark(R, R->off);
  D->links_off = 0;
  for (unsigned i = 0; i < D->nlk; i++) D->links_off += !D->lk[i].on;
  for (size_t k = 0; k < (size_t)R->nsw * R->P; k++) R->d.at[k] = 0, R->d.rate_x[k] = R->d.rate_r[k] = -1;
  dyn_samples_restart(R);
  D->trans_cycles += now - D->trans_at;
  D->last_decision = now;
  dyn_enter(R, DS_SAMPLE, now);
}

static void dyn_send(run_t *R, job_t *j, uint64_t now) {
  uint64_t w[8] = {0};
  unsigned cls = 0x81, method = 0x02, attr = 0x0015, nd = 1;
  switch (j->kind) {
    case J_SAMPLE: cls = 0x04, method = 0x01, attr = 0x001D, nd = 4; break;
    case J_SCTL: /* start now (SampleStart 0), SampleInterval; counters 1..4: Xmit/RcvData, Xmit/RcvPkts */
      cls = 0x04, attr = 0x0010, nd = 2;
      w[0] = R->c->samp_int;
      w[1] = UINT64_C(1) << 56 | UINT64_C(2) << 48 | UINT64_C(3) << 40 | UINT64_C(4) << 32;
      break;
    case J_SRES: cls = 0x04, method = 0x01, attr = 0x0011, nd = 3; break;
    case J_SET_POLL: w[0] = (uint64_t)IBSW_POLLING << 56; break;
    case J_GET_UP:
    case J_GET_OFF: method = 0x01; break;
    case J_SET_ARM: w[0] = (uint64_t)IBSW_ARMED << 60; break;
    case J_SET_ACT: w[0] = (uint64_t)IBSW_ACTIVE << 60; break;
    case J_SET_OFF: w[0] = (uint64_t)IBSW_DISABLED << 56; break;
    case J_SET_LFT:
      attr = 0x0019, nd = 8;
      for (unsigned e = 0; e < 64; e++) {
        const unsigned lid = j->mod * 64 + e;
        const uint64_t v =
            lid >= 1 && lid <= R->nodes ? R->d.nr.lft[(size_t)j->sw * R->nodes + lid - 1] + 1u : 0xFFu;
        w[e / 8] |= v << (8 * (e % 8));
      }
      break;
  }
  if (sm_send_mad(R, j->sw, cls, method, attr, j->mod, w, nd)) return; /* the host's queue is full */
  j->st = 1;
  j->tid = R->tid;
  j->sent_at = now;
  R->d.out++;
  R->d.busy_sw[j->sw] = 1;
  R->d.mads++;
}

static void dyn_response(run_t *R, const uint64_t *rsp, unsigned n, uint64_t now) {
  dyn_t *D = &R->d;
  const uint16_t tid = (uint16_t)(rsp[1] >> 48);
  job_t *j = NULL;
  for (unsigned i = 0; i < D->njob && !j; i++)
    if (D->job[i].st == 1 && D->job[i].tid == tid) j = &D->job[i];
  if (!j) {
    ibf_fail(&R->w, now, "ibfab.mad", "SM: a response with TID %u matches no MAD outstanding", tid);
    return;
  }
  const unsigned status = (unsigned)(rsp[2] & 0xFFFF), want_n = j->kind == J_SAMPLE    ? 7
                                                                : j->kind == J_SET_LFT ? 11
                                                                : j->kind == J_SCTL    ? 5
                                                                : j->kind == J_SRES    ? 6
                                                                                       : 4;
  if (j->kind == J_SCTL && status == 0x0001 && n == want_n) {
    /* busy (§8.2: a window not DONE): nothing started; ask again later */
    D->out--;
    D->busy_sw[j->sw] = 0;
    D->busy++;
    j->st = 0;
    j->not_before = now + DYN_GAP;
    return;
  }
  if (n != want_n || (rsp[2] >> 48 & 0xFF) != 0x81 || status) {
    ibf_fail(&R->w, now, "ibfab.mad", "SM: switch %u AttrMod %u: %s answered status 0x%04x, %u words", j->sw,
             j->mod, job_names[j->kind], status, n);
    return;
  }
  D->out--;
  D->busy_sw[j->sw] = 0;
  j->st = 2;
  const unsigned phys = (unsigned)(rsp[3] >> 56 & 0xF);
  if (j->kind == J_SCTL) { /* the window runs from the Set's execution + 1 for samp_int + 1 cycles */
    j->kind = J_SRES;
    j->st = 0;
    j->not_before = dyn_bug(R, "samp_no_wait") ? now : now + R->c->samp_int; /* planted: no wait */
  } else if (j->kind == J_SRES) {
    if ((rsp[5] & 3) != 0 && !dyn_bug(R, "samp_no_wait")) { /* STARTED or RUNNING: poll again */
      D->polls++;
      j->st = 0;
      j->not_before = now + DYN_GAP;
      return;
    }
    const size_t k = dyn_idx(R, j->sw, j->mod - 1);
    const unsigned qd = (unsigned)(rsp[5] >> 32);
    D->acc_x[k] += rsp[3] >> 32; /* Result0: XmitData, Result1: RcvData (4-octet units: 2 per flit) */
    D->acc_r[k] += rsp[3] & 0xFFFFFFFFu;
    D->acc_t[k] += R->c->samp_int;
    if (qd > D->qd_max[k]) D->qd_max[k] = qd;
    if (qd > D->qd_top) D->qd_top = qd;
    D->windows++;
    D->rate_x[k] = (double)D->acc_x[k] / 2.0 / (double)D->acc_t[k];
    D->rate_r[k] = (double)D->acc_r[k] / 2.0 / (double)D->acc_t[k];
  } else if (j->kind == J_SAMPLE) {
    const size_t k = dyn_idx(R, j->sw, j->mod - 1);
    if (R->d.at[k] && now > R->d.at[k]) { /* 4-octet units: 2 per flit */
      R->d.rate_x[k] = (double)(rsp[3] - R->d.xd[k]) / 2.0 / (double)(now - R->d.at[k]);
      R->d.rate_r[k] = (double)(rsp[4] - R->d.rd[k]) / 2.0 / (double)(now - R->d.at[k]);
    }
    R->d.xd[k] = rsp[3];
    R->d.rd[k] = rsp[4];
    R->d.at[k] = now;
  } else if ((j->kind == J_GET_UP && phys != IBSW_LINKUP) ||
             (j->kind == J_GET_OFF && phys != IBSW_DISABLED)) {
    j->st = 0; /* ask again */
    j->not_before = now + DYN_GAP;
  }
}

/* The fabric cycle at which dyn_step must run next (the fabric skips idle time, which must not
 * carry it past an SM action: a MAD to send now, a Get's retry time, the fence's check);
 * FABRIC_NEVER when only a response, which is fabric activity, can move it. */
static uint64_t dyn_wake(const run_t *R) {
  const dyn_t *D = &R->d;
  const uint64_t next = R->f.cycle + 1, now = R->f.cycle ? R->f.cycle - 1 : 0;
  if (R->f.cycle <= R->start || D->state == DS_FENCE) return next;
  if (D->state == DS_SAMPLE && !D->njob) return FABRIC_NEVER;
  uint64_t w = FABRIC_NEVER;
  bool all = true;
  for (unsigned i = 0; i < D->njob; i++) {
    const job_t *j = &D->job[i];
    all &= j->st == 2;
    if (j->st != 0) continue;
    if (j->not_before > now) {
      if (j->not_before + 1 < w) w = j->not_before + 1;
    } else if (D->out < DYN_OUT && !D->busy_sw[j->sw]) {
      return next;
    }
  }
  return all ? next : w;
}

/* One cycle of the dynamic SM (before the fabric's step, like sm_step). */
static void dyn_step(run_t *R) {
  dyn_t *D = &R->d;
  if (R->w.failed || R->f.cycle <= R->start) return;
  const uint64_t now = R->f.cycle - 1;
  if (D->state == DS_SAMPLE && !D->njob) return; /* stopped at the end of the traffic */
  uint64_t rsp[IBF_MAD_MAX];
  const unsigned n = ibf_host_recv_mad(R->f.inst[R->host0].m, rsp);
  if (n) ibf_sampmon_answer(&R->mon, rsp, n);
  if (n) dyn_response(R, rsp, n, now);
  if (R->w.failed) return;
  if (D->state == DS_FENCE) {
    if (dyn_fence_clear(R))
      dyn_next(R, now);
    else if (now > D->step_at + DYN_WAIT)
      ibf_fail(&R->w, now, "ibfab.sm",
               "SM: the fence's %u destinations still have packets in flight after %u cycles", D->nchg,
               DYN_WAIT);
    return;
  }
  bool all = true;
  for (unsigned i = 0; i < D->njob; i++) {
    job_t *j = &D->job[i];
    if (j->st == 2) continue;
    all = false;
    if (j->st == 0 && D->out < DYN_OUT && !D->busy_sw[j->sw] && now >= j->not_before) dyn_send(R, j, now);
  }
  if (!all && now > D->step_at + DYN_WAIT) {
    unsigned i = 0;
    while (D->job[i].st == 2) i++;
    ibf_fail(&R->w, now, "ibfab.sm",
             "SM: %s: switch %u AttrMod %u: %s not done %u cycles after the step began", ds_names[D->state],
             D->job[i].sw, D->job[i].mod, job_names[D->job[i].kind], DYN_WAIT);
    return;
  }
  if (!all) return;
  if (D->state != DS_SAMPLE) {
    dyn_next(R, now);
    return;
  }
  D->sweeps++;
  if (now >= R->traffic_end) { /* traffic over: the SM stops once nothing is outstanding */
    D->njob = 0;
    return;
  }
  const int dec = now >= D->last_decision + R->c->sm_period ? dyn_decide(R) : -1;
  unsigned bsw, bport;
  if (dec >= 0 && R->c->sampling == SAMP_SAMPLES &&
      !ibf_sampmon_decision(&R->mon, D->jsw, D->jport, D->njudged, &bsw, &bport)) {
    ibf_fail(&R->w, now, "ibfab.sm_samples",
             "SM: a decision judged switch %u port %u without a DONE PortSamplesResult of a window "
             "accepted since the previous decision",
             bsw, bport);
    return;
  }
  if (dec >= 0) dyn_samples_restart(R);
  if (dec == 0) D->last_decision = now;
  if (dec == 1) {
    bool on = false, off = false;
    for (unsigned i = 0; i < D->nlk; i++) {
      on |= D->want_on[i] && !D->lk[i].on;
      off |= !D->want_on[i] && D->lk[i].on;
    }
    D->batches_on += on;
    D->batches_off += off;
    if (R->c->sm_log) {
      unsigned non = 0, noff = 0;
      for (unsigned i = 0; i < D->nlk; i++)
        non += D->want_on[i] && !D->lk[i].on, noff += !D->want_on[i] && D->lk[i].on;
      printf("sm: cycle %" PRIu64 ": decision: %u links off, %u on\n", now, noff, non);
    }
    D->trans_at = now;
    dyn_build_seq(R);
    dyn_next(R, now);
    return;
  }
  dyn_enter(R, DS_SAMPLE, now);
}

/* OpenSM's table in place of ours (ours stays in R->ours for --compare-hops); the planted
 * osm_entry_back: the first hop's switch of the longest route from host 0's switch sends that LID
 * straight back. 0, or -1 with err (a usage error: the file is not a dump of this fabric). */
static int import_lfts(run_t *R, const cfg_t *c, char *err, size_t errlen) {
  const size_t n = (size_t)R->nsw * R->nodes;
  R->ours = malloc(n);
  if (!R->ours) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  memcpy(R->ours, R->r.lft, n);
  if (ibf_osm_read_lfts(c->lft_file, &R->t, R->r.lft, err, errlen)) return -1;
  R->r.no_turns = !c->lft_turns;
  unsigned set = 0;
  for (size_t i = 0; i < n; i++) set += R->r.lft[i] != ROUTE_LFT_NONE;
  printf("osm: imported %s: %u of %zu (switch, host) entries\n", c->lft_file, set, n);
  if (bug_is(c, "osm_entry_back")) {
    const unsigned s0 = R->t.node[0].id;
    int best = -1;
    unsigned bd = 0;
    for (unsigned d = 0; d < R->nodes; d++) {
      const int h = ibf_osm_hops(&R->t, R->r.lft, s0, d);
      if (h > best) best = h, bd = d;
    }
    if (best >= 2) {
      const fabric_end_t *e = fabric_topo_peer(&R->t, s0, R->r.lft[(size_t)s0 * R->nodes + bd]);
      R->r.lft[(size_t)e->id * R->nodes + bd] = (uint8_t)e->port; /* its port towards s0 */
      printf("osm: planted osm_entry_back: switch %u, LID %u -> port %u (back to switch %u)\n", e->id, bd + 1,
             e->port + 1, s0);
    }
  }
  return 0;
}

/* Switch-to-switch distances over every link (breadth first from each switch), [nsw * nsw]; NULL if
 * out of memory. --compare-hops=2's reference: a minimal route's hop count. */
static uint16_t *switch_distances(const fabric_topo_t *t) {
  const unsigned n = t->nsw;
  uint16_t *dist = malloc((size_t)n * n * sizeof *dist);
  unsigned *q = malloc((size_t)n * sizeof *q);
  if (!dist || !q) {
    free(dist);
    free(q);
    return NULL;
  }
  for (unsigned a = 0; a < n; a++) {
    uint16_t *da = dist + (size_t)a * n;
    for (unsigned b = 0; b < n; b++) da[b] = UINT16_MAX;
    unsigned head = 0, tail = 0;
    da[a] = 0;
    q[tail++] = a;
    while (head < tail) {
      const unsigned s = q[head++];
      for (unsigned p = 0; p < fabric_topo_nports(t, s); p++) {
        const fabric_end_t *e = fabric_topo_peer(t, s, p);
        if (e->kind == FABRIC_END_SWITCH && da[e->id] == UINT16_MAX) {
          da[e->id] = (uint16_t)(da[s] + 1);
          q[tail++] = e->id;
        }
      }
    }
  }
  free(q);
  return dist;
}

/* --compare-hops=1: every (switch, host) pair takes as many switch-to-switch hops on OpenSM's table
 * as on ours (the "same hop count per (switch, destination)"); =2: as a minimal route (the
 * switches' distance; OpenSM's ftree on a fat tree, whose routes no single-root table of ours
 * matches on more than two levels). 0, or -1 with the first difference and how many pairs differ
 * in err. */
static int compare_hops(run_t *R, const cfg_t *c, char *err, size_t errlen) {
  unsigned diff = 0, fs = 0, fd = 0;
  int fo = 0, ft = 0;
  uint64_t st = 0;
  uint16_t *dist = NULL;
  if (c->cmp_hops == 2 && !(dist = switch_distances(&R->t))) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  for (unsigned s = 0; s < R->nsw; s++)
    for (unsigned d = 0; d < R->nodes; d++) {
      /* both arrive: route_lft_check passed on each table */
      const int ho = dist ? (int)dist[(size_t)s * R->nsw + R->t.node[d].id]
                          : ibf_osm_hops(&R->t, R->ours, s, d),
                ht = ibf_osm_hops(&R->t, R->r.lft, s, d);
      st += (unsigned)ht;
      if (ho != ht && !diff++) fs = s, fd = d, fo = ho, ft = ht;
    }
  free(dist);
  const unsigned np = R->nsw * R->nodes;
  if (diff) {
    if (c->cmp_hops == 2)
      snprintf(err, errlen,
               "hop counts differ on %u of %u (switch, host) pairs; first: switch %u to LID %u (host %u): "
               "minimal %d hops, OpenSM's table %d",
               diff, np, fs, fd + 1, fd, fo, ft);
    else
      snprintf(err, errlen,
               "hop counts differ on %u of %u (switch, host) pairs; first: switch %u to LID %u (host %u): "
               "netcosim %s %d hops, OpenSM's table %d (root %u)",
               diff, np, fs, fd + 1, fd, route_lft_algo_names[c->routing], fo, ft, c->root);
    return -1;
  }
  if (c->cmp_hops == 2)
    printf("check: ok   osm.hops: all %u (switch, host) pairs take a minimal route (mean %.3f hops)\n", np,
           (double)st / np);
  else
    printf("check: ok   osm.hops: all %u (switch, host) pairs take the same hops as netcosim %s from root %u "
           "(mean %.3f)\n",
           np, route_lft_algo_names[c->routing], c->root, (double)st / np);
  return 0;
}

/* The torus, or with --fat2 a two-level fat tree, with --tree a k-ary n-tree (for OpenSM's ftree:
   fabric_topo.h). */
static int build_topo(fabric_topo_t *t, const cfg_t *c, char *err, size_t errlen) {
  if (c->fat_r) return fabric_topo_fat2(t, c->fat_r, c->fat_l, c->fat_s, err, errlen);
  if (c->tree_k) return fabric_topo_kary_ntree(t, c->tree_k, c->tree_n, err, errlen);
  return fabric_topo_torus2d(t, c->x, c->y, c->pl, c->hosts, err, errlen);
}

static int setup(run_t *R, const cfg_t *c, bool no_skip, unsigned sw, char *err, size_t errlen) {
  memset(R, 0, sizeof *R);
  R->c = c;
  if (build_topo(&R->t, c, err, errlen)) return -1;
  R->nsw = R->t.nsw;
  R->P = R->t.sw_ports;
  R->nodes = R->t.nodes;
  if (R->P > 31) {
    snprintf(err, errlen, "--hosts + 4 * --parallel = %u switch ports, at most 31 (docs/ibsw.md §2)", R->P);
    return -1;
  }
  if (c->traffic == IBF_BITREV && (R->nodes & (R->nodes - 1))) {
    snprintf(err, errlen, "--traffic=bitrev needs a power-of-two number of hosts (%u)", R->nodes);
    return -1;
  }
  if (R->nodes > 4095) {
    snprintf(err, errlen, "%u hosts: at most 4,095 (the HEAD's 12-bit source field)", R->nodes);
    return -1;
  }
  R->off = calloc((size_t)R->nsw * R->P, 1);
  if (route_lft_pick_off(&R->t, c->off, c->seed, R->off, err, errlen)) return -1;
  if (c->routing == ROUTE_LFT_UPDN_MST
          ? route_lft_build_mst(&R->r, &R->t, R->off, c->root, c->vls, c->trees ? c->trees : c->vls, err,
                                errlen)
          : route_lft_build(&R->r, &R->t, (route_lft_algo_t)c->routing, R->off, c->root, c->vls, err, errlen))
    return -1;
  if (bug_is(c, "mst_shared_vl")) R->r.mst_bug = ROUTE_LFT_MST_BUG_SHARED_VL; /* planted */
  if (c->lft_file) {
    const int rc = import_lfts(R, c, err, errlen);
    if (rc) return rc;
  }
  const char *what;
  if (bug_is(c, "dor_one_vl") || bug_is(c, "mst_one_vl"))
    R->r.one_vl = true; /* planted: and the check is skipped (a deadlock's negative) */
  else if (c->lft_file && !c->lft_check)
    printf("osm: route check skipped (--lft-check=0): the traffic alone judges this table\n");
  else if (route_lft_check(&R->r, &what, err, errlen)) {
    snprintf(R->check_id, sizeof R->check_id, "lft.%s", what);
    return -2;
  }
  if (c->lft_file && c->lft_check) {
    printf("check: ok   lft: every imported route arrives, %s, no channel dependency cycle\n",
           R->r.no_turns                 ? "no turn rule asked (--lft-turns=0)"
           : c->routing == ROUTE_LFT_DOR ? "X before Y (dor)"
                                         : "no down->up turn from root (updn)");
    if (c->cmp_hops && compare_hops(R, c, err, errlen)) {
      snprintf(R->check_id, sizeof R->check_id, "osm.hops");
      return -2;
    }
  }
  if (ibf_world_init(&R->w, R->nodes, c->packets)) {
    snprintf(err, errlen, "out of memory");
    return -1;
  }
  R->w.no_vl_check = bug_is(c, "mst_one_vl"); /* planted: the deadlock must be what catches it */
  fabric_init(&R->f);
  R->f.no_skip = no_skip;
  R->f.digest_on = !strcmp(c->test, "skip_vs_noskip") || !strcmp(c->test, "dynamic_skip") ||
                   !strcmp(c->test, "rtl_vs_model");
  const fabric_type_t *st = fibsw_type(R->P, c->vls, err, errlen), *ht = ibf_host_type(c->vls, err, errlen);
  if (!st || !ht) return -1;
  ibsw_cfg_t *sc = &R->sp.cfg;
  *sc = (ibsw_cfg_t){.num_ports = R->P,
                     .num_data_vls = c->vls,
                     .buf_depth = c->buf,
                     .buf15_depth = c->p4 ? 4 : 8,
                     .route_cycles = c->rcycles,
                     .wake_cycles = c->wake,
                     .lft_blocks = (route_lft_top(&R->r) + 1 + 63) / 64,
                     .link_speed = 3,
                     .cnt_w = c->p4 ? 8 : 32,
                     .ext_w = c->p4 ? 16 : 64,
                     .boot_active = c->boot,
                     .bug = bug_code(c, BUG_SWITCH)};
  R->sp.quiet_bug = bug_code(c, BUG_BIND);
  R->sp.seed = c->seed;
  if (c->p4) { /* the RTL target's parameters, or no run (exit 2) */
    char why[200];
    if (fibsw_rtl_check(sc, why, sizeof why)) {
      snprintf(err, errlen, "--sw / --test=rtl_vs_model: %s", why);
      return -1;
    }
  }
  char name[32];
  for (unsigned s = 0; s < R->nsw; s++) {
    snprintf(name, sizeof name, "sw%u", s);
    if (fabric_add(&R->f, st, (fabric_mode_t)sw, name, &R->sp, err, errlen) == FABRIC_NONE) return -1;
  }
  R->hp = calloc(R->nodes, sizeof *R->hp);
  const bool npb = c->traffic == IBF_NPB_CG || c->traffic == IBF_NPB_BT;
  if (npb) { /* each rank's cyclic list of destinations; hosts without a rank stay idle */
    R->npb_list = calloc(R->nodes, sizeof *R->npb_list);
    R->npb_n = calloc(R->nodes, sizeof *R->npb_n);
    if (!R->npb_list || !R->npb_n) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    if (ibf_npb_build(c->traffic, c->ranks, R->nsw, c->hosts, c->len,
                      bug_is(c, "npb_wrong_partner") ? IBF_NPB_BUG_WRONG_PARTNER : 0, R->npb_list, R->npb_n,
                      err, errlen))
      return -1;
  }
  /* bit-reversal: a node whose reversal is itself has nobody to send to and injects nothing
     (ours); the others share the N packets. NPB-like: the hosts that run a rank. */
  unsigned senders = 0;
  uint64_t dummy = 0;
  for (unsigned d = 0; d < R->nodes; d++)
    senders += npb ? R->npb_n[d] > 0 : ibf_dest(c->traffic, d, R->nodes, &dummy) != d;
  R->senders = senders;
  const uint64_t per = c->packets / senders, extra = c->packets % senders;
  unsigned si = 0;
  const unsigned hbug = bug_code(c, BUG_HOST);
  for (unsigned d = 0; d < R->nodes; d++) {
    const bool sends = npb ? R->npb_n[d] > 0 : ibf_dest(c->traffic, d, R->nodes, &dummy) != d;
    R->hp[d] = (ibf_host_params_t){d,
                                   R->nodes,
                                   c->vls,
                                   c->buf,
                                   c->p4 ? 4 : 8,
                                   c->len,
                                   c->boot,
                                   c->wake,
                                   c->load,
                                   c->traffic,
                                   !sends   ? 0
                                   : c->nph ? UINT64_MAX / 4
                                            : per + (si < extra),
                                   c->seed,
                                   &R->r,
                                   &R->w,
                                   hbug,
                                   c->nph,
                                   c->ph_load,
                                   c->ph_end,
                                   npb ? R->npb_list[d] : NULL,
                                   npb ? R->npb_n[d] : 0};
    si += sends;
    snprintf(name, sizeof name, "h%u", d);
    uint32_t id = fabric_add(&R->f, ht, FABRIC_MODEL, name, &R->hp[d], err, errlen);
    if (id == FABRIC_NONE) return -1;
    if (d == 0) R->host0 = id;
  }
  if (fabric_topo_wire(&R->f, &R->t, 0, R->nsw, 0, c->lat, err, errlen)) return -1;
  if (c->waves && sw != FABRIC_MODEL) {
    if (mkdir(c->waves, 0777) && errno != EEXIST) {
      snprintf(err, errlen, "--waves=%s: cannot create the directory", c->waves);
      return -1;
    }
    if (fabric_trace(&R->f, c->waves, err, errlen) < 0) return -1;
  }
  /* the tables, through the configuration channel (IBA port = topology port + 1); with LMC > 0
     node d's LID base + j is tree (j mod T)'s (j >= T: LIDs of the range no flow uses, still routed) */
  for (unsigned s = 0; s < R->nsw; s++) {
    for (unsigned d = 0; d < R->nodes; d++)
      for (unsigned j = 0; j < 1u << R->r.lmc; j++) {
        unsigned e = route_lft_table(&R->r, j % R->r.trees)[(size_t)s * R->nodes + d] + 1u;
        if (bug_is(c, "lft_wrong") && s == R->t.node[0].id && d == R->nodes - 1) e = R->t.node[1].port + 1u;
        if (fabric_config(&R->f, s, "lft", route_lft_lid(&R->r, d, j), e, err, errlen)) return -1;
      }
    if (fabric_config(&R->f, s, "lft_top", 0, route_lft_top(&R->r) - bug_is(c, "lft_top_low"), err, errlen))
      return -1;
  }
  R->f.observer = observer;
  R->f.observer_ctx = R;
  /* the SM's work: every deactivated end, and the directed-route tree over the active links */
  const unsigned train = !c->boot;
  R->ops = calloc((size_t)5 * R->nsw * R->P * train + 4 * c->off + 1, sizeof *R->ops);
  /* a port without a cable (a tree's top switches) never trains and would poll for ever (the
     switch never quiet): with the trained bring-up the SM disables it (ours) */
#define UNCABLED(s, q) (train && fabric_topo_peer(&R->t, s, q)->kind == FABRIC_END_NONE)
  for (unsigned k = OP_GET_UP; train && k <= OP_SET_ACT; k++)
    for (unsigned s = 0; s < R->nsw; s++)
      for (unsigned q = 0; q < R->P; q++)
        if (!UNCABLED(s, q)) R->ops[R->nops++] = (smop_t){s, q + 1, k};
  R->nset_off = R->nops;
  for (unsigned k = OP_SET_OFF; k <= OP_GET_OFF; k++)
    for (unsigned s = 0; s < R->nsw; s++)
      for (unsigned q = 0; q < R->P; q++)
        if (R->off[(size_t)s * R->P + q] || UNCABLED(s, q)) R->ops[R->nops++] = (smop_t){s, q + 1, k};
  for (unsigned s = 0; s < R->nsw; s++)
    for (unsigned q = 0; q < R->P; q++) R->uncabled += UNCABLED(s, q);
#undef UNCABLED
  R->smp = calloc((size_t)R->nsw * R->P + 1, sizeof *R->smp);
  for (unsigned s = 0; c->sample && s < R->nsw; s++)
    for (unsigned q = 0; q < R->P; q++)
      if (fabric_topo_peer(&R->t, s, q)->kind == FABRIC_END_SWITCH && !R->off[(size_t)s * R->P + q])
        R->smp[R->nsmp++] = (smp_t){s, q + 1, 0, 0};
  /* training: every link trains at once; the SM starts once they can be up (§6.5: W + Lk + 4) */
  R->sm_from = train ? (uint64_t)c->wake + 2 * c->lat + 16 : 0;
  R->op_at = R->sm_from;
  R->par_sw = calloc(R->nsw, sizeof *R->par_sw);
  R->par_port = calloc(R->nsw, sizeof *R->par_port);
  unsigned *q = calloc(R->nsw, sizeof *q), h = 0, n = 0;
  uint8_t *seen = calloc(R->nsw, 1);
  const unsigned s0 = R->t.node[0].id;
  q[n++] = s0;
  seen[s0] = 1;
  while (h < n) {
    unsigned s = q[h++];
    for (unsigned p = 0; p < R->P; p++) {
      const fabric_end_t *e = fabric_topo_peer(&R->t, s, p);
      if (e->kind != FABRIC_END_SWITCH || R->off[(size_t)s * R->P + p] || seen[e->id]) continue;
      if (c->sm && (p - R->t.conc) % R->t.p) continue; /* dynamic: links that are never turned off */
      seen[e->id] = 1;
      R->par_sw[e->id] = s;
      R->par_port[e->id] = p; /* s's port towards e->id */
      q[n++] = e->id;
    }
  }
  /* §3.3: a directed route holds 9 tags, so the SM reaches switches at most 8 hops from
     host 0's; deeper tags would spill into the TID (dr_routes). */
  unsigned deepest = 0;
  for (unsigned i = 0; i < n; i++) {
    unsigned d = 0;
    for (unsigned v = q[i]; v != s0; v = R->par_sw[v]) d++;
    if (d > deepest) deepest = d;
  }
  free(q);
  free(seen);
  if (c->sm) { /* the regulated links and the SM's tables */
    dyn_t *D = &R->d;
    const size_t np = (size_t)R->nsw * R->P;
    D->lk = calloc(np, sizeof *D->lk);
    D->want_on = calloc(np, 1);
    D->lkidx = malloc(np * sizeof *D->lkidx);
    D->xd = calloc(np, sizeof *D->xd);
    D->rd = calloc(np, sizeof *D->rd);
    D->at = calloc(np, sizeof *D->at);
    D->rate_x = malloc(np * sizeof *D->rate_x);
    D->rate_r = malloc(np * sizeof *D->rate_r);
    D->job = calloc(2 * np + 64 * R->nsw, sizeof *D->job);
    D->busy_sw = calloc(R->nsw, 1);
    D->chg_dst = calloc(R->nodes, sizeof *D->chg_dst);
    D->acc_x = calloc(np, sizeof *D->acc_x);
    D->acc_r = calloc(np, sizeof *D->acc_r);
    D->acc_t = calloc(np, sizeof *D->acc_t);
    D->qd_max = calloc(np, sizeof *D->qd_max);
    D->jsw = calloc(np, sizeof *D->jsw);
    D->jport = calloc(np, sizeof *D->jport);
    if (!D->acc_x || !D->acc_r || !D->acc_t || !D->qd_max || !D->jsw || !D->jport ||
        (c->sampling == SAMP_SAMPLES && ibf_sampmon_init(&R->mon, R->nsw, R->P))) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    if (!D->lk || !D->want_on || !D->lkidx || !D->xd || !D->rd || !D->at || !D->rate_x || !D->rate_r ||
        !D->job || !D->busy_sw || !D->chg_dst) {
      snprintf(err, errlen, "out of memory");
      return -1;
    }
    for (size_t k = 0; k < np; k++) D->lkidx[k] = -1, D->rate_x[k] = D->rate_r[k] = -1;
    D->ngrp = 2 * R->nsw;
    for (unsigned s = 0; s < R->nsw; s++)
      for (unsigned dir = 0; dir < 2; dir++)
        for (unsigned j = 1; j < R->t.p; j++) {
          const unsigned qp = R->t.conc + (dir ? FABRIC_TORUS_YP : FABRIC_TORUS_XP) * R->t.p + j;
          const fabric_end_t *e = fabric_topo_peer(&R->t, s, qp);
          D->lkidx[(size_t)s * R->P + qp] = D->lkidx[(size_t)e->id * R->P + e->port] = (int)D->nlk;
          D->lk[D->nlk++] = (dlink_t){s, qp, e->id, e->port, 2 * s + dir, true};
        }
  }
  if (deepest > 8 && (train || c->off || c->sample || c->sm)) {
    snprintf(err, errlen,
             "the subnet manager's directed routes would need %u hops from host 0's switch; docs/ibsw.md "
             "section 3.3 allows 8 (a smaller torus, or no --off, --test=train, --sample or --sm)",
             deepest);
    return -1;
  }
  return 0;
}

static void teardown(run_t *R) {
  fabric_free(&R->f);
  route_lft_free(&R->r);
  free(R->ours);
  fabric_topo_free(&R->t);
  ibf_world_free(&R->w);
  free(R->off);
  free(R->hp);
  free(R->ops);
  free(R->smp);
  free(R->par_sw);
  free(R->par_port);
  if (R->npb_list)
    for (unsigned d = 0; d < R->nodes; d++) free(R->npb_list[d]);
  free(R->npb_list);
  free(R->npb_n);
  dyn_t *D = &R->d;
  if (D->have_nr) route_lft_free(&D->nr);
  free(D->lk), free(D->want_on), free(D->lkidx), free(D->xd), free(D->rd), free(D->at);
  free(D->rate_x), free(D->rate_r), free(D->job), free(D->busy_sw), free(D->chg_dst);
  free(D->acc_x), free(D->acc_r), free(D->acc_t), free(D->qd_max), free(D->jsw), free(D->jport);
  ibf_sampmon_free(&R->mon);
}

static uint64_t sum_counter(run_t *R, unsigned id) {
  uint64_t t = 0, v;
  for (unsigned s = 0; s < R->nsw; s++)
    if (fabric_counter(&R->f, s, 0, id, &v) == 0) t += v;
  return t;
}

/* After a step: any link carrying something? (drained()) */
static void note_busy(run_t *R) {
  for (uint32_t l = 0; l < R->f.nlink; l++)
    if (R->f.link[l].sent != R->f.link[l].taken) {
      R->last_busy = R->f.cycle;
      return;
    }
}

/* Nothing left anywhere. Model switches: fabric_idle (every instance quiet, no link busy). RTL
   switches have no quiet() (the RTL is never skipped), so with ibsw_p4's parameters (--sw,
   rtl_vs_model) every run, model ones too, ends by what can be seen (ours): no link has carried
   anything for DRAIN_SILENCE cycles (more than any silent stretch of a switch that still holds work
   with its links empty: RouteCycles 5, WakeCycles 4), and every instance that has a model (hosts,
   model and lockstep switches) is quiet: the model run of rtl_vs_model thus checks the rule. */
#define DRAIN_SILENCE 64u
static bool drained(run_t *R) {
  fabric_t *f = &R->f;
  if (!R->c->p4) return fabric_idle(f);
  for (uint32_t l = 0; l < f->nlink; l++)
    if (f->link[l].sent != f->link[l].taken) return false;
  if (f->cycle < R->last_busy + DRAIN_SILENCE) return false;
  for (uint32_t i = 0; i < f->ninst; i++) {
    const fabric_inst_t *x = &f->inst[i];
    if (x->m && (!x->type->model->quiet || !x->type->model->quiet(x->m))) return false;
  }
  return true;
}

/* A skipping (model) run must not jump over the end of the silence drained() waits for. */
static uint64_t drain_limit(const run_t *R, uint64_t lim) {
  const uint64_t e = R->last_busy + DRAIN_SILENCE;
  return R->c->p4 && R->f.cycle < e && e < lim ? e : lim;
}

static bool hosts_up(run_t *R) {
  for (unsigned d = 0; d < R->nodes; d++)
    if (!ibf_host_link_up(R->f.inst[R->nsw + d].m)) return false;
  return true;
}

/* Runs to the end: 0 passed, 1 failed (R->w has the failure). */
static int run(run_t *R) {
  fabric_t *f = &R->f;
  const cfg_t *c = R->c;
  /* bring-up: the SM's MADs and the table writes, then traffic */
  while (!R->w.failed && !f->failed && (R->cur != R->nops || !drained(R) || !hosts_up(R))) {
    if (f->cycle >= c->cycles) {
      ibf_fail(&R->w, f->cycle, "ibfab.timeout", "the SM had not finished by cycle %" PRIu64, c->cycles);
      break;
    }
    sm_step(R);
    fabric_step(f, drain_limit(R, c->cycles));
    note_busy(R);
  }
  if (f->failed) ibf_fail(&R->w, f->fail_cycle, f->fail_check, "%s", f->fail_msg); /* a lockstep's */
  if (R->w.failed) return 1;
  R->start = f->cycle;
  R->bring_mads = R->mads;
  R->traffic_end = c->nph ? R->start + c->ph_end[c->nph - 1] : FABRIC_NEVER;
  for (unsigned d = 0; d < R->nodes; d++) ibf_host_start(f->inst[R->nsw + d].m, R->start);
  if (c->sm) {
    R->d.last_decision = R->start;
    dyn_enter(R, DS_SAMPLE, R->start);
  }
  uint64_t last_progress = f->cycle, last_seen = 0;
  while (!R->w.failed && !f->failed) {
    const uint64_t now = f->cycle ? f->cycle - 1 : 0;
    while (c->nph && R->ph_seen <= c->nph && now >= R->start + (R->ph_seen ? c->ph_end[R->ph_seen - 1] : 0)) {
      R->ph_rx[R->ph_seen] = R->w.flits_rx; /* phase boundaries: the measurement harness's readings */
      R->ph_e[R->ph_seen] = sum_counter(R, FIBSW_CNT_ENERGY);
      R->ph_t[R->ph_seen] = now;
      R->ph_off[R->ph_seen] = R->d.links_off;
      R->ph_seen++;
    }
    const bool gen_over = c->nph ? now > R->traffic_end : R->w.created == c->packets;
    if (c->nph ? gen_over && R->w.delivered == R->w.created && R->d.state == DS_SAMPLE && !R->d.njob &&
                     !R->d.out && drained(R)
               : R->w.created == c->packets && drained(R))
      break;
    if (f->cycle >= c->cycles) {
      ibf_fail(&R->w, f->cycle, "ibfab.timeout",
               "%" PRIu64 " of %" PRIu64 " packets delivered by cycle %" PRIu64, R->w.delivered, c->packets,
               c->cycles);
      break;
    }
    uint64_t lim = c->cycles;
    if (c->sm) {
      dyn_step(R);
      const uint64_t w = dyn_wake(R);
      if (w < lim) lim = w;
    } else {
      sample_step(R);
    }
    if (c->nph && R->ph_seen <= c->nph) { /* the next phase boundary's reading */
      const uint64_t b = R->start + (R->ph_seen ? c->ph_end[R->ph_seen - 1] : 0) + 1;
      if (b < lim) lim = b;
    }
    if (lim <= f->cycle) lim = f->cycle + 1;
    fabric_step(f, drain_limit(R, lim));
    note_busy(R);
    if (!R->snap0 && R->w.half_cycle != FABRIC_NEVER) {
      R->snap0 = true;
      R->t0 = R->f.cycle - 1;
      R->rx0 = R->w.flits_rx;
      R->cr0 = R->w.created;
      R->e0 = sum_counter(R, FIBSW_CNT_ENERGY);
    }
    /* the window ends when the first host stops creating (every host injects throughout), or
       with the last packet if that came first (too short a run to have a second half of all hosts) */
    if (!R->snap1 && R->snap0 && (R->w.first_done != FABRIC_NEVER || R->w.last_cycle != FABRIC_NEVER)) {
      R->snap1 = true;
      R->t1 = R->f.cycle - 1;
      R->rx1 = R->w.flits_rx;
      R->cr1 = R->w.created;
      R->e1 = sum_counter(R, FIBSW_CNT_ENERGY);
    }
    if (R->w.delivered != last_seen) last_seen = R->w.delivered, last_progress = f->cycle;
    if (gen_over && f->cycle - last_progress > 20000) {
      ibf_fail(&R->w, f->cycle, "ibfab.deadlock",
               "no packet delivered for 20,000 cycles (%" PRIu64 " of %" PRIu64 ")", R->w.delivered,
               c->packets);
      break;
    }
  }
  if (f->failed) ibf_fail(&R->w, f->fail_cycle, f->fail_check, "%s", f->fail_msg);
  if (R->w.failed) return 1;
  /* loss: every flow's receiver saw every sequence number its sender used */
  for (unsigned s = 0; s < R->nodes; s++)
    for (unsigned d = 0; d < R->nodes; d++)
      if (R->w.next_seq[(size_t)s * R->nodes + d] != R->w.sent_seq[(size_t)s * R->nodes + d]) {
        ibf_fail(&R->w, f->cycle - 1, "ibfab.loss", "flow %u->%u: %u sent, %u delivered", s, d,
                 R->w.sent_seq[(size_t)s * R->nodes + d], R->w.next_seq[(size_t)s * R->nodes + d]);
        return 1;
      }
  /* NPB-like traffic: each host sent what its rank's pattern says (ibf_npbcheck.c) */
  if (R->npb_list) {
    char m[300];
    if (ibf_npb_check(c->traffic, c->ranks, R->nsw, c->hosts, c->len, R->nodes, R->w.sent_seq, m, sizeof m)) {
      ibf_fail(&R->w, f->cycle - 1, "ibfab.npb_pattern", "%s", m);
      return 1;
    }
    printf("check: ok   npb_pattern: every rank's packets went to its NPB partners, whole iterations plus "
           "one part\n");
  }
  /* the dynamic SM regulated: links went off and came back (a silent SM fails here) */
  if (c->sm) {
    const unsigned need_off = !strncmp(c->test, "dynamic", 7) ? 2 : 1;
    if (R->d.batches_off < need_off || R->d.batches_on < 1) {
      ibf_fail(&R->w, f->cycle - 1, "ibfab.sm_transitions",
               "the SM turned links off in %u and on in %u decisions; this run needs >= %u and >= 1",
               R->d.batches_off, R->d.batches_on, need_off);
      return 1;
    }
  }
  /* --min-window: the statistics window (packet N/2 created .. the first host done) must hold
     that share of the packets created, else a throughput is a reading of a transient (with few
     packets per host the first host can finish before half of all packets exist: an empty
     window reads as 0); mk/ibsw-torus-sweep.sh asks for 20 % (ours) */
  if (!c->nph && 100 * (R->cr1 - R->cr0) < (uint64_t)c->min_window * R->w.total) {
    ibf_fail(&R->w, f->cycle - 1, "ibfab.window",
             "the statistics window (cycles %" PRIu64 "..%" PRIu64 ") holds %" PRIu64 " of %" PRIu64
             " packets created, below --min-window=%u %%: %.1f packets per host are too few for a steady "
             "state; raise --packets",
             R->t0, R->t1, R->cr1 - R->cr0, R->w.total, c->min_window, (double)R->w.total / R->nodes);
    return 1;
  }
  /* power (§9 / seed Table 1): 43.4 W per switch + 0.95 W per powered port; every port but the
     deactivated ends is LinkUp */
  const uint64_t pw = sum_counter(R, FIBSW_CNT_POWER_MW);
  const unsigned noff = c->sm ? R->d.links_off : c->off;
  const uint64_t want = (uint64_t)R->nsw * 43400 + (uint64_t)950 * (R->nsw * R->P - 2 * noff - R->uncabled);
  if (pw != want) {
    ibf_fail(&R->w, f->cycle - 1, "ibfab.power", "switches draw %" PRIu64 " mW, Table 1 gives %" PRIu64 " mW",
             pw, want);
    return 1;
  }
  return 0;
}

static void report(run_t *R) {
  const cfg_t *c = R->c;
  const ibf_world_t *w = &R->w;
  const uint64_t win = R->t1 > R->t0 ? R->t1 - R->t0 : 0;
  const double wpct = w->total ? 100.0 * (double)(R->cr1 - R->cr0) / (double)w->total : 0;
  /* per host (uniform, bitrev: every host, as before); per rank for NPB-like traffic */
  const bool npb = R->npb_list != NULL;
  const double thr = win ? (double)(R->rx1 - R->rx0) / win / (npb ? R->senders : R->nodes) : 0;
  static const char *const tnames[] = {"uniform", "bitrev", "npb_cg", "npb_bt"};
  const double lat = w->lat_n ? (double)w->lat_sum / w->lat_n : 0;
  const double pw = (double)sum_counter(R, FIBSW_CNT_POWER_MW) / 1000.0;
  const double pw_all = (R->nsw * 43400.0 + 950.0 * R->nsw * R->P) / 1000.0;
  const double epw = win ? (double)(R->e1 - R->e0) / win / 1000.0 : 0;
  if (c->tree_k)
    printf("fabric: %u-ary %u-tree of %u-port switches, %u switches, %u hosts, routing %s, root %u\n",
           c->tree_k, c->tree_n, R->P, R->nsw, R->nodes, route_lft_algo_names[c->routing], c->root);
  else if (c->fat_r)
    printf("fabric: two-level fat tree of %u-port switches, %u leaves, %u spines, %u hosts, routing %s, root "
           "%u\n",
           c->fat_r, c->fat_l, c->fat_s, R->nodes, route_lft_algo_names[c->routing], c->root);
  else
    printf(
        "fabric: %ux%u torus, %u parallel links, %u hosts/switch (%u ports), %u hosts, routing %s, %u links "
        "off, "
        "root %u\n",
        c->x, c->y, c->pl, c->hosts, R->P, R->nodes, route_lft_algo_names[c->routing], c->off, c->root);
  if (R->r.trees > 1) {
    printf("trees: %u (LMC %u, LIDs up to %u), roots", R->r.trees, R->r.lmc, route_lft_top(&R->r));
    for (unsigned k = 0; k < R->r.trees; k++) printf(" %u", R->r.roots[k]);
    printf(", tree t on the VLs v with v mod %u = t\n", R->r.trees);
  }
  printf("bring-up: %" PRIu64 " cycles (%" PRIu64 " MADs), traffic from cycle %" PRIu64
         ", drained at %" PRIu64 "\n",
         R->start, R->bring_mads, R->start, R->f.cycle);
  if (c->nph) /* phases: the statistics are per phase (below), not over a half of N packets */
    printf("packets: %" PRIu64 " delivered of %" PRIu64 " created in %u phases of load (--phases)\n",
           w->delivered, w->created, c->nph);
  else
    printf("packets: %" PRIu64 " delivered of %" PRIu64 "; window %" PRIu64 "..%" PRIu64 " (%" PRIu64
           " cycles: packet N/2 created .. the first host done; %.1f %% of the packets created in it)\n",
           w->delivered, w->total, R->t0, R->t1, win, wpct);
  if (!c->nph) {
    printf("result: traffic=%s routing=%s off=%u load=%.4f throughput=%.4f latency=%.1f latency_max=%" PRIu64
           " power_w=%.1f power_all_w=%.1f saved_pct=%.2f energy_power_w=%.1f evals=%" PRIu64
           " window_pct=%.1f%s%.0u\n",
           tnames[c->traffic], route_lft_algo_names[c->routing], c->off, c->load, thr, lat, w->lat_max, pw,
           pw_all, 100.0 * (pw_all - pw) / pw_all, epw, R->f.evals, wpct, npb ? " ranks=" : "",
           npb ? c->ranks : 0);
    printf("throughput: %.4f flits/cycle/%s = %.0f MB/s of 2,000 (offered %.4f); latency %.1f cycles = "
           "%.0f ns "
           "(max %" PRIu64 ")\n",
           thr, npb ? "rank" : "host", thr * 2000, c->load, lat, lat * 4, w->lat_max);
  }
  printf("power: %.1f W (all ports on: %.1f W, saved %.2f %%)%s\n", pw, pw_all,
         100.0 * (pw_all - pw) / pw_all, c->nph ? " at the end" : "");
  if (c->nph) {
    const double pw_allw = pw_all;
    double e_sum = 0, t_sum = 0;
    char thr_list[256] = "";
    size_t tl = 0;
    for (unsigned k = 0; k < c->nph && k + 1 < R->ph_seen; k++) {
      const double dt = (double)(R->ph_t[k + 1] - R->ph_t[k]);
      const double th = dt > 0 ? (double)(R->ph_rx[k + 1] - R->ph_rx[k]) / dt / R->nodes : 0;
      const double pk = dt > 0 ? (double)(R->ph_e[k + 1] - R->ph_e[k]) / dt / 1000.0 : 0;
      e_sum += (double)(R->ph_e[k + 1] - R->ph_e[k]);
      t_sum += dt;
      printf("phase %u: load %.3f for %.0f cycles: throughput %.4f flits/cycle/host, power %.1f W (all on "
             "%.1f W, "
             "saved %.2f %%), links off at its end %u\n",
             k, c->ph_load[k], dt, th, pk, pw_allw, 100.0 * (pw_allw - pk) / pw_allw, R->ph_off[k + 1]);
      tl += (size_t)snprintf(thr_list + tl, sizeof thr_list - tl, "%s%.4f", k ? "," : "", th);
      if (tl >= sizeof thr_list) tl = sizeof thr_list - 1;
    }
    const double pavg = t_sum > 0 ? e_sum / t_sum / 1000.0 : 0;
    if (c->sm) {
      const dyn_t *D = &R->d;
      printf("sm: dynamic, period %u cycles, watermarks %.3f / %.3f flits/cycle per link; %" PRIu64
             " sweeps, %" PRIu64 " MADs; %u links off in %u decisions, %u on in %u; %u off at the end of %u "
             "regulated\n",
             c->sm_period, c->sm_low, c->sm_high, D->sweeps, D->mads, D->n_off, D->batches_off, D->n_on,
             D->batches_on, D->links_off, D->nlk);
      printf("sm: transitions took %" PRIu64 " cycles in all; sources held by the fence %" PRIu64
             " cycles in all, %" PRIu64 " at most\n",
             D->trans_cycles, D->fence_cycles, D->fence_max);
      if (c->sampling == SAMP_SAMPLES)
        printf("sm: sampling by PortSamplesControl/Result, windows of %u cycles: %" PRIu64
               " DONE windows read, %" PRIu64 " Result polls before DONE, %" PRIu64
               " Sets answered busy; QueueDepth at most %" PRIu64 " flits, %" PRIu64
               " idle groups held on by QueueDepth >= %u; check ibfab.sm_samples: %" PRIu64
               " Sets accepted, %" PRIu64 " DONE Results, %" PRIu64 " Results read before DONE\n",
               c->samp_int, D->windows, D->polls, D->busy, D->qd_top, D->qd_holds, c->sm_qd, R->mon.sets_ok,
               R->mon.results_done, R->mon.results_early);
      else
        printf("sm: sampling by PortCountersExtended Gets\n");
    }
    printf("dyn: sm=%s sampling=%s seed=%" PRIu64
           " saved_pct=%.3f power_w=%.2f power_all_w=%.2f phase_thr=%s off_links=%u "
           "on_links=%u off_batches=%u on_batches=%u\n",
           c->sm ? "dynamic" : "static",
           !c->sm                        ? "none"
           : c->sampling == SAMP_SAMPLES ? "samples"
                                         : "counters",
           c->seed, 100.0 * (pw_allw - pavg) / pw_allw, pavg, pw_allw, thr_list, R->d.n_off, R->d.n_on,
           R->d.batches_off, R->d.batches_on);
  }
  if (c->sample)
    printf("sampling: %" PRIu64 " PortCounters MADs under traffic, round trip mean %.0f max %" PRIu64
           " cycles; %" PRIu64 " link samples, utilisation mean %.3f, %" PRIu64 " below 0.1, %" PRIu64
           " above 0.5\n",
           R->rtt_n, R->rtt_n ? (double)R->rtt_sum / R->rtt_n : 0.0, R->rtt_max, R->util_n,
           R->util_n ? R->util_sum / R->util_n : 0.0, R->util_low, R->util_high);
}

/* Runs B (set up as A's run in another way: without skipping, with RTL switches) and fails A with
 * check `id` from the first cycle their output digests differ, or with B's own failure (`what`:
 * which way B was run). true if they are the same. */
static bool same_as_first(run_t *A, run_t *B, const char *what, const char *id) {
  const int bad = run(B);
  uint64_t dc = 0;
  const bool diff = fabric_digest_diff(&A->f, &B->f, &dc);
  if (bad) {
    ibf_fail(&A->w, B->w.fail_cycle, B->w.fail_check, "%s: %s", what, B->w.fail_msg);
    return false;
  }
  if (diff || A->f.cycle != B->f.cycle) {
    if (!diff) dc = A->f.cycle < B->f.cycle ? A->f.cycle : B->f.cycle;
    ibf_fail(&A->w, dc, id, "%s: outputs differ from cycle %" PRIu64 " (end %" PRIu64 " vs %" PRIu64 ")",
             what, dc, A->f.cycle, B->f.cycle);
    return false;
  }
  return true;
}

static void usage(FILE *o) {
  fprintf(
      o,
      "usage: ibsw_fabric_sim [--test=NAME] [--seed=N] [--cycles=N] [--x=4] [--y=4] [--parallel=2] "
      "[--hosts=16]\n"
      "         [--vls=4] [--len=32] [--traffic=uniform|bitrev|npb_cg|npb_bt] [--ranks=16] [--load=X] "
      "[--packets=N] "
      "[--routing=updn|dor|updn_mst] [--trees=T]\n"
      "         [--off=K] [--root=S] [--link-latency=N] [--route-cycles=R] [--buf=N] [--no-skip]\n"
      "         [--boot-active=1|0] [--wake-cycles=W] [--sample=0|1]\n"
      "         [--sm=static|dynamic] [--sm-period=N] [--sm-low=X] [--sm-high=Y]\n"
      "         [--phases=LOAD:CYCLES[,LOAD:CYCLES...]] [--sm-log=0|1]\n"
      "         [--sampling=samples|counters] [--sample-interval=N] [--sm-qd=N]\n"
      "         [--fat2=R,L,S | --tree=K,N] [--write-ibnd=FILE] [--lft-file=OPENSM_LFTS_DUMP] "
      "[--lft-turns=1|0] "
      "[--lft-check=1|0] "
      "[--compare-hops=0|1|2] [--min-window=PCT]\n"
      "         [--sw=model|rtl|lockstep] [--waves=DIR] [--inject-bug=NAME] [--expect-fail=check:ID@CYCLE]\n"
      "       ibsw_fabric_sim --list | --help\n"
      "bugs (--inject-bug=NAME: what it plants, the check its negative expects):\n");
  for (size_t i = 1; i < NBUGS; i++)
    fprintf(o, "  %-22s %s (%s)\n", bugs[i].name, bugs[i].what, bugs[i].check);
}

static void scenario(cfg_t *c) {
  if (!strcmp(c->test, "dor_bitrev_off")) {
    c->routing = ROUTE_LFT_DOR;
    c->traffic = IBF_BITREV;
    c->off = 16;
  } else if (!strcmp(c->test, "updn_off")) {
    c->off = 24;
  } else if (!strcmp(c->test, "sample")) {
    c->sample = 1;
  } else if (!strcmp(c->test, "dynamic") || !strcmp(c->test, "dynamic_skip")) {
    static const double ld[3] = {0.04, 0.25, 0.04};
    static const uint64_t cy[3] = {12000, 28000, 48000}; /* phases of 12,000, 16,000, 20,000 cycles */
    c->hosts = 4;
    c->sm = 1;
    c->sm_period = 4000;
    for (unsigned k = 0; k < 3; k++) c->ph_load[k] = ld[k], c->ph_end[k] = cy[k];
    c->nph = 3;
  } else if (!strcmp(c->test, "train")) {
    c->boot = 0;
    c->wake = 64;
    c->off = 8;
  }
}

int main(int argc, char **argv) {
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--help")) {
      usage(stdout);
      return 0;
    }
    if (!strcmp(argv[i], "--list")) {
      for (size_t k = 0; k < sizeof tests / sizeof tests[0]; k++)
        printf("%-16s %s\n", tests[k].name, tests[k].purpose);
      return 0;
    }
  }
  cfg_t c = {.x = 4,
             .y = 4,
             .pl = 2,
             .hosts = 16,
             .ranks = 16,
             .vls = 4,
             .len = 32,
             .traffic = IBF_UNIFORM,
             .routing = ROUTE_LFT_UPDN,
             .off = 0,
             .root = 0,
             .lat = 1,
             .rcycles = 25,
             .buf = 16,
             .load = 0.3,
             .packets = 8000,
             .cycles = 1000000,
             .seed = 1,
             .test = "run",
             .boot = 1,
             .wake = 1024,
             .sm_period = 10000,
             .sm_low = 0.1,
             .sm_high = 0.3,
             .samp_int = 250, /* seed 000 §3.2's longest interval, 1 us at 250 MHz */
             .lft_turns = 1,
             .lft_check = 1};
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--seed=", 7) && !parse_u64(argv[i] + 7, &c.seed))
      return usage_fail("bad --seed '%s' (expected an unsigned integer)", argv[i] + 7);
  printf("seed: %" PRIu64 "\n", c.seed);
  static char rr[4096];
  size_t k = (size_t)snprintf(rr, sizeof rr, "%s --seed=%" PRIu64, argv[0], c.seed);
  for (int i = 1; i < argc && k < sizeof rr; i++)
    if (strncmp(argv[i], "--seed=", 7) && strncmp(argv[i], "--name=", 7) && strncmp(argv[i], "--out=", 6))
      k += (size_t)snprintf(rr + k, sizeof rr - k, " %s", argv[i]);
  rerun_line = rr;
  for (int i = 1; i < argc; i++)
    if (!strncmp(argv[i], "--test=", 7)) c.test = argv[i] + 7;
  size_t ti = 0;
  while (ti < sizeof tests / sizeof tests[0] && strcmp(tests[ti].name, c.test)) ti++;
  if (ti == sizeof tests / sizeof tests[0])
    return usage_fail("--test: no test '%s' (--list names them)", c.test);
  scenario(&c);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i], *v = strchr(a, '=');
    v = v ? v + 1 : "";
    uint64_t u = 0;
    bool isnum = parse_u64(v, &u);
#define NUM(flag, field, lo, hi)                                                                      \
  if (!strncmp(a, flag "=", sizeof flag)) {                                                           \
    if (!isnum || !in_range(u, lo, hi))                                                               \
      return usage_fail("%s '%s': expected an integer %llu..%llu", flag, v, (unsigned long long)(lo), \
                        (unsigned long long)(hi));                                                    \
    c.field = u;                                                                                      \
    continue;                                                                                         \
  }
    NUM("--x", x, 2, 64)
    NUM("--y", y, 2, 64)
    NUM("--parallel", pl, 1, 7)
    NUM("--hosts", hosts, 1, 29)
    NUM("--ranks", ranks, 4, 4096)
    NUM("--trees", trees, 1, 7)
    NUM("--vls", vls, 2, 7)
    NUM("--len", len, 2, 256)
    NUM("--off", off, 0, 100000)
    NUM("--root", root, 0, 4095)
    NUM("--link-latency", lat, 1, 4096)
    NUM("--route-cycles", rcycles, 5, 255)
    NUM("--buf", buf, 4, 256)
    NUM("--boot-active", boot, 0, 1)
    NUM("--sample", sample, 0, 1)
    NUM("--wake-cycles", wake, 1, 16777215)
    NUM("--packets", packets, 2, 100000000)
    NUM("--sm-period", sm_period, 1, 100000000)
    NUM("--sm-log", sm_log, 0, 1)
    NUM("--sample-interval", samp_int, 1, UINT32_MAX)
    NUM("--sm-qd", sm_qd, 1, 1u << 20)
    NUM("--cycles", cycles, 1, UINT64_MAX)
    NUM("--lft-turns", lft_turns, 0, 1)
    NUM("--lft-check", lft_check, 0, 1)
    NUM("--compare-hops", cmp_hops, 0, 2)
    NUM("--min-window", min_window, 0, 50)
#undef NUM
    if (!strncmp(a, "--fat2=", 7)) {
      int n = 0;
      if (sscanf(v, "%u,%u,%u%n", &c.fat_r, &c.fat_l, &c.fat_s, &n) != 3 || v[n] || !c.fat_r)
        return usage_fail("--fat2 '%s': expected RADIX,LEAVES,SPINES (e.g. 8,8,4)", v);
      continue;
    }
    if (!strncmp(a, "--tree=", 7)) {
      int n = 0;
      if (sscanf(v, "%u,%u%n", &c.tree_k, &c.tree_n, &n) != 2 || v[n] || c.tree_k < 2 || c.tree_k > 15 ||
          c.tree_n < 1 || c.tree_n > 6)
        return usage_fail("--tree '%s': expected K,N with K 2..15 (2K ports <= 31) and N 1..6 (e.g. 4,3)", v);
      continue;
    }
    if (!strncmp(a, "--lft-file=", 11) || !strncmp(a, "--write-ibnd=", 13)) {
      if (!*v) return usage_fail("%.*s: expected a file name", (int)(v - a - 1), a);
      if (a[2] == 'l')
        c.lft_file = v;
      else
        c.write_ibnd = v;
      continue;
    }
    if (!strncmp(a, "--seed=", 7) || !strncmp(a, "--test=", 7) || !strncmp(a, "--name=", 7)) continue;
    if (!strncmp(a, "--out=", 6)) {
      c.out = v;
      continue;
    }
    if (!strcmp(a, "--no-skip")) {
      c.no_skip = true;
      continue;
    }
    if (!strncmp(a, "--sw=", 5)) {
      unsigned m = 0;
      while (m < 3 && strcmp(v, fabric_mode_names[m])) m++;
      if (m == 3) return usage_fail("--sw '%s': expected model, rtl or lockstep", v);
      c.sw = m;
      c.p4 = true;
      continue;
    }
    if (!strncmp(a, "--waves=", 8)) {
      if (!*v) return usage_fail("--waves: expected a directory");
      c.waves = v;
      continue;
    }
    if (!strncmp(a, "--load=", 7)) {
      char *e;
      c.load = strtod(v, &e);
      if (*e || !*v || !(c.load >= 0 && c.load <= 1))
        return usage_fail("--load '%s': expected a number 0..1", v);
      continue;
    }
    if (!strncmp(a, "--sm-low=", 9) || !strncmp(a, "--sm-high=", 10)) {
      char *e;
      const double x = strtod(v, &e);
      if (*e || !*v || !(x >= 0 && x <= 1))
        return usage_fail("%.*s '%s': expected a number 0..1 (flits per cycle per link)", (int)(v - a - 1), a,
                          v);
      if (a[5] == 'l')
        c.sm_low = x;
      else
        c.sm_high = x;
      continue;
    }
    if (!strncmp(a, "--sampling=", 11)) {
      if (!strcmp(v, "samples"))
        c.sampling = SAMP_SAMPLES;
      else if (!strcmp(v, "counters"))
        c.sampling = SAMP_COUNTERS;
      else
        return usage_fail("--sampling '%s': expected samples or counters", v);
      continue;
    }
    if (!strncmp(a, "--sm=", 5)) {
      if (!strcmp(v, "static"))
        c.sm = 0;
      else if (!strcmp(v, "dynamic"))
        c.sm = 1;
      else
        return usage_fail("--sm '%s': expected static or dynamic", v);
      continue;
    }
    if (!strncmp(a, "--phases=", 9)) {
      /* LOAD:CYCLES[,LOAD:CYCLES...] */
      const char *q = v;
      uint64_t acc = 0;
      c.nph = 0;
      for (;;) {
        char *e;
        const double ld = strtod(q, &e);
        if (e == q || *e != ':' || !(ld >= 0 && ld <= 1))
          return usage_fail("--phases '%s': phase %u: expected LOAD:CYCLES with LOAD 0..1", v, c.nph + 1);
        q = e + 1;
        const unsigned long long cy = strtoull(q, &e, 10);
        if (e == q || *q == '-' || cy < 1 || cy > 1000000000 || (*e && *e != ','))
          return usage_fail("--phases '%s': phase %u: expected CYCLES 1..1000000000 after the ':'", v,
                            c.nph + 1);
        if (c.nph == DYN_MAXPH) return usage_fail("--phases '%s': at most %d phases", v, DYN_MAXPH);
        acc += cy;
        c.ph_load[c.nph] = ld;
        c.ph_end[c.nph++] = acc;
        if (!*e) break;
        q = e + 1;
      }
      continue;
    }
    if (!strncmp(a, "--traffic=", 10)) {
      if (!strcmp(v, "uniform"))
        c.traffic = IBF_UNIFORM;
      else if (!strcmp(v, "bitrev"))
        c.traffic = IBF_BITREV;
      else if (!strcmp(v, "npb_cg"))
        c.traffic = IBF_NPB_CG;
      else if (!strcmp(v, "npb_bt"))
        c.traffic = IBF_NPB_BT;
      else
        return usage_fail("--traffic '%s': expected uniform, bitrev, npb_cg or npb_bt", v);
      continue;
    }
    if (!strncmp(a, "--routing=", 10)) {
      if (!strcmp(v, "updn"))
        c.routing = ROUTE_LFT_UPDN;
      else if (!strcmp(v, "dor"))
        c.routing = ROUTE_LFT_DOR;
      else if (!strcmp(v, "updn_mst"))
        c.routing = ROUTE_LFT_UPDN_MST;
      else
        return usage_fail("--routing '%s': expected updn, dor or updn_mst", v);
      continue;
    }
    if (!strncmp(a, "--inject-bug=", 13)) {
      const bug_t *b = bug_find(v);
      if (!b) return usage_fail("--inject-bug '%s': no such bug (--help lists them)", v);
      c.bug = b != &bugs[0] ? v : NULL;
      continue;
    }
    if (!strncmp(a, "--expect-fail=", 14)) {
      const char *at = strrchr(v, '@');
      uint64_t cy;
      if (strncmp(v, "check:", 6) || !at || at == v + 6 || !parse_u64(at + 1, &cy))
        return usage_fail("--expect-fail '%s': expected check:ID@CYCLE", v);
      c.expect = v;
      continue;
    }
    return usage_fail("unknown argument '%s'", a);
  }
  if (c.vls < 4 && c.routing == ROUTE_LFT_DOR)
    return usage_fail("--routing=dor needs --vls=4 or more (%u)", c.vls);
  if (c.trees && c.routing != ROUTE_LFT_UPDN_MST) return usage_fail("--trees goes with --routing=updn_mst");
  if (c.trees > c.vls)
    return usage_fail("--trees=%u: at most --vls=%u (one VL per tree at least)", c.trees, c.vls);
  if (c.routing == ROUTE_LFT_UPDN_MST && (c.sm || c.lft_file || c.fat_r || c.tree_k))
    return usage_fail(
        "--routing=updn_mst goes with none of --sm=dynamic, --lft-file, --fat2, --tree (not done)");
  if (c.routing != ROUTE_LFT_UPDN_MST &&
      (bug_is(&c, "mst_shared_vl") || bug_is(&c, "mst_one_vl") || bug_is(&c, "mst_wrong_vl")))
    return usage_fail("--inject-bug=mst_shared_vl, mst_one_vl and mst_wrong_vl need --routing=updn_mst");
  if (c.sm) {
    if (c.pl < 2) return usage_fail("--sm=dynamic needs --parallel=2 or more (links to regulate)");
    if (c.off || !c.boot || c.sample || !strcmp(c.test, "skip_vs_noskip"))
      return usage_fail(
          "--sm=dynamic goes with none of --off, --boot-active=0, --sample, --test=skip_vs_noskip");
    if (!c.sm_qd)
      c.sm_qd = c.vls * c.buf; /* every data lane's credits in use: the seed's "queue fully used" */
    if (!(c.sm_low < c.sm_high))
      return usage_fail("--sm-low %.3f must be below --sm-high %.3f (the hysteresis)", c.sm_low, c.sm_high);
    if (!c.nph) { /* the default profile: low, high, low */
      static const double ld[3] = {0.04, 0.25, 0.04};
      static const uint64_t cy[3] = {25000, 30000, 30000};
      uint64_t acc = 0;
      for (unsigned i2 = 0; i2 < 3; i2++) c.ph_load[i2] = ld[i2], c.ph_end[i2] = acc += cy[i2];
      c.nph = 3;
    }
  }
  const bool npbt = c.traffic == IBF_NPB_CG || c.traffic == IBF_NPB_BT;
  if (!c.sm && c.sampling == SAMP_COUNTERS)
    return usage_fail("--sampling=counters goes with --sm=dynamic (the static SM does not sample)");
  if (!c.sm && bug_is(&c, "samp_no_wait"))
    return usage_fail("--inject-bug=samp_no_wait needs --sm=dynamic (and --sampling=samples)");
  if (c.sampling == SAMP_COUNTERS && bug_is(&c, "samp_no_wait"))
    return usage_fail("--inject-bug=samp_no_wait needs --sampling=samples");
  if (npbt && (c.fat_r || c.tree_k || c.sm))
    return usage_fail("--traffic=npb_cg|npb_bt goes with the torus and without --sm=dynamic");
  if (!npbt && bug_is(&c, "npb_wrong_partner"))
    return usage_fail("--inject-bug=npb_wrong_partner needs --traffic=npb_cg or npb_bt");
  if ((c.fat_r || c.tree_k) && (c.routing != ROUTE_LFT_UPDN || c.sm || c.off || c.sample))
    return usage_fail("--fat2 and --tree go with --routing=updn and none of --sm=dynamic, --off, --sample");
  if (c.fat_r && c.tree_k) return usage_fail("--fat2 and --tree: one topology at a time");
  unsigned tree_sw = 0;
  if (c.tree_k) { /* n levels of k^(n-1) switches */
    tree_sw = c.tree_n;
    for (unsigned i = 1; i < c.tree_n; i++) tree_sw *= c.tree_k;
  }
  const unsigned nsw = c.fat_r ? c.fat_l + c.fat_s : c.tree_k ? tree_sw : c.x * c.y;
  if (c.root >= nsw) return usage_fail("--root %u: out of range 0..%u", c.root, nsw - 1);
  if (c.cmp_hops && !c.lft_file)
    return usage_fail("--compare-hops=1|2 needs --lft-file (a table to compare)");
  if ((c.lft_file || c.write_ibnd) && (c.sm || c.off))
    return usage_fail(
        "--lft-file and --write-ibnd go with neither --off nor --sm=dynamic (every link on: the "
        "exported fabric)");
  if (!c.lft_file && (bug_is(&c, "osm_entry_back") || !c.lft_turns || !c.lft_check))
    return usage_fail("--inject-bug=osm_entry_back, --lft-turns=0 and --lft-check=0 need --lft-file");
  if (c.write_ibnd) { /* export the fabric this command line would build, and stop */
    char e2[512];
    fabric_topo_t t;
    if (build_topo(&t, &c, e2, sizeof e2)) return usage_fail("%s", e2);
    FILE *o = fopen(c.write_ibnd, "w");
    if (!o) return usage_fail("--write-ibnd %s: cannot open for writing", c.write_ibnd);
    const int wr = fabric_topo_write_ibnd(&t, o, e2, sizeof e2);
    fclose(o);
    fabric_topo_free(&t);
    if (wr) return usage_fail("%s", e2);
    if (c.tree_k)
      printf("wrote %s: %u-ary %u-tree\n", c.write_ibnd, c.tree_k, c.tree_n);
    else if (c.fat_r)
      printf("wrote %s: two-level fat tree, radix %u, %u leaves, %u spines\n", c.write_ibnd, c.fat_r, c.fat_l,
             c.fat_s);
    else
      printf("wrote %s: %ux%u torus, %u parallel links, %u hosts/switch\n", c.write_ibnd, c.x, c.y, c.pl,
             c.hosts);
    return 0;
  }

  char err[512];
  static run_t A, B;
  const bool rvm = !strcmp(c.test, "rtl_vs_model");
  if (rvm) {
    if (c.sw) return usage_fail("--test=rtl_vs_model runs both (no --sw)");
    c.p4 = true;
  }
  if (c.waves && c.sw == FABRIC_MODEL && !rvm) return usage_fail("--waves goes with --sw=rtl or lockstep");
  if (c.p4 && c.no_skip)
    return usage_fail("--no-skip: not with --sw or --test=rtl_vs_model (RTL is never skipped)");
  int rc = setup(&A, &c, c.no_skip, c.sw, err, sizeof err);
  if (rc == -2) return verdict(false, &c, A.check_id, 0, err);
  if (rc) {
    teardown(&A);
    return usage_fail("%s", err);
  }
  int bad = run(&A);
  if (!bad || (c.sm && !strcmp(A.w.fail_check, "ibfab.sm_transitions"))) report(&A);
  if (!bad && (!strcmp(c.test, "skip_vs_noskip") || !strcmp(c.test, "dynamic_skip"))) {
    if (setup(&B, &c, true, c.sw, err, sizeof err)) return usage_fail("%s", err);
    if (same_as_first(&A, &B, "without skipping", "ibfab.skip_vs_noskip"))
      printf("check: ok   skip vs no skip: identical output digests over %" PRIu64
             " cycles; evaluations %" PRIu64 " vs %" PRIu64 "\n",
             A.f.cycle, A.f.evals, B.f.evals);
    bad = A.w.failed;
    teardown(&B);
  } else if (!bad) {
    printf("check: ok   every packet delivered once, in order, intact, to its host; no switch error; power "
           "as Table 1\n");
    if (rvm) { /* the same run with RTL switches: every output of every cycle the same */
      if (setup(&B, &c, c.no_skip, FABRIC_RTL, err, sizeof err)) return usage_fail("%s", err);
      if (same_as_first(&A, &B, "RTL switches", "ibfab.rtl_vs_model")) {
        report(&B);
        printf("check: ok   model vs RTL switches (ibsw_p4): identical output digests over %" PRIu64
               " cycles (digest %016" PRIx64 ")\n",
               A.f.cycle, A.f.digest);
      }
      bad = A.w.failed;
      teardown(&B);
    }
  }
  char why[400];
  snprintf(why, sizeof why, "%s", A.w.fail_msg);
  char id[48];
  snprintf(id, sizeof id, "%s", A.w.fail_check);
  uint64_t fc = A.w.fail_cycle;
  teardown(&A);
  return verdict(!bad, &c, bad ? id : "ibfab", bad ? fc : 0, why);
}
