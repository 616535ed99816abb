/* The fabric core's parts on Open MPI processes: see fabric_mpi.h and
 * docs/fabric.md "Parallel". One message each way between every two ranks
 * per window (the slots of the links between their parts; to rank 0 also
 * the sender's report), after one broadcast of the window by rank 0. */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "fabric_mpi.h"

#include <mpi.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fabric_par.h"

enum { CMD_RUN = 1, CMD_COUNTERS = 2, CMD_QUIT = 3 };
enum { TAG_WIN = 17, TAG_CNT = 18 };

/* What a part reports to rank 0 after a window (then its views and digest words). */
typedef struct {
  double work_s; /* wall time of the part's window */
  uint64_t evals, fail_cycle, wake, ndg, nviews;
  uint8_t failed, oom, idle, wrote;
  char fail_check[48], fail_msg[256];
} report_t;

typedef struct {
  unsigned char *p;
  size_t n, cap;
} buf_t;

typedef struct {
  fabric_dist_t d;
  unsigned rank, n;
  uint32_t **to, *nto;     /* [n]: links from this rank's part into part b, in link order */
  uint32_t **from, *nfrom; /* [n]: links from part a into this rank's part */
  buf_t *sbuf, rbuf;
  MPI_Request *req;
  /* per part, as of the end of its last window (rank 0 holds all, others their own):
   * quiet with empty inputs, wrote into a cut link, earliest wake-up */
  uint8_t *idle, *wrote;
  uint64_t *wake;
  /* rank 0: the other parts' counters ([inst] offset: rc, value per port and id), read at cnt_cycle */
  uint64_t *cnt;
  size_t *cnt_off;
  uint64_t cnt_cycle;
  bool cnt_valid;
  bool dropped;   /* FABRIC_PBUG_MPI_DROP done */
  double work_s;  /* this rank's part, the last window (wall) */
  double slowest; /* rank 0: the other parts' longest window, the last one */
} mpi_t;

/* Waiting for another rank (ours): poll for poll_s (1 ms; the environment's
 * FABRIC_MPI_POLL_US, e.g. more on dedicated cores; a window is tens of
 * microseconds), yielding the core after the first 200 polls (the machine
 * may be shared; Open MPI itself only spins or yields), then sleep 100 us
 * between polls: a rank waits seconds while rank 0 runs the one-process
 * comparison or writes its reports. */
static double poll_s = 1e-3;
typedef struct {
  unsigned tries;
  double t0;
} waiting_t;

static void backoff(waiting_t *w) {
  if (++w->tries < 200) return;
  if (w->tries == 200) w->t0 = MPI_Wtime();
  if (MPI_Wtime() - w->t0 < poll_s) {
    sched_yield();
    return;
  }
  struct timespec ts = {0, 100000};
  nanosleep(&ts, NULL);
}

static void wait_req(MPI_Request *rq) {
  int done = 0;
  waiting_t w = {0, 0};
  for (;;) {
    MPI_Test(rq, &done, MPI_STATUS_IGNORE);
    if (done) return;
    backoff(&w);
  }
}

/* Rank 0's command to the others (non-blocking on every rank: they must match). */
static void bcast_cmd(uint64_t cmd[3]) {
  MPI_Request rq;
  MPI_Ibcast(cmd, 3, MPI_UINT64_T, 0, MPI_COMM_WORLD, &rq);
  wait_req(&rq);
}

static void put(buf_t *b, const void *v, size_t n) {
  if (!n) return;
  if (b->n + n > b->cap) {
    size_t nc = b->cap ? 2 * b->cap : 4096;
    while (nc < b->n + n) nc *= 2;
    unsigned char *q = realloc(b->p, nc);
    if (!q) abort(); /* no way to continue a distributed run without its message */
    b->p = q;
    b->cap = nc;
  }
  memcpy(b->p + b->n, v, n);
  b->n += n;
}

static void get(const unsigned char **r, void *v, size_t n) {
  if (!n) return; /* v may be NULL (no digest items yet) */
  memcpy(v, *r, n);
  *r += n;
}

int fabric_mpi_init(int *argc, char ***argv, unsigned *rank, unsigned *ranks) {
  int r = 0, s = 1;
  if (MPI_Init(argc, argv) != MPI_SUCCESS) return -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  *rank = (unsigned)r;
  *ranks = (unsigned)s;
  return 0;
}

void fabric_mpi_finalize(void) { MPI_Finalize(); }

/* This rank's part after a window: idle (its instances quiet, its input
 * links empty as far as it knows: flits written in the window are the
 * senders' `wrote`) and its earliest wake-up at cycle c. */
static void own_status(fabric_t *f, mpi_t *m, uint64_t c) {
  const fabric_part_t *pt = &f->par->part[m->rank];
  bool idle = true;
  for (uint32_t j = 0; j < pt->ninst && idle; j++) idle = fabric_inst_quiet(&f->inst[pt->inst[j]]);
  for (uint32_t j = 0; j < pt->nlink && idle; j++)
    idle = f->link[pt->link[j]].sent == f->link[pt->link[j]].taken;
  uint64_t w = FABRIC_NEVER;
  if (idle)
    for (uint32_t j = 0; j < pt->ninst; j++) {
      const uint64_t t = fabric_inst_wake(&f->inst[pt->inst[j]], c);
      if (t < w) w = t;
    }
  m->idle[m->rank] = idle;
  m->wake[m->rank] = w;
}

/* The ports of an instance that ran in the window's last cycle, for rank 0's observer. */
static void put_view(buf_t *b, const fabric_inst_t *x, uint32_t i) {
  const unsigned P = x->type->nports, S = x->type->nside;
  const uint64_t h[3] = {i, x->arrivals, x->evals};
  put(b, h, sizeof h);
  put(b, x->in, P * sizeof *x->in);
  put(b, x->out, P * sizeof *x->out);
  if (S) put(b, x->side, S * sizeof *x->side);
}

/* Rank 0: part a's report into its part, its instances' ports and its status. */
static const unsigned char *take_report(fabric_t *f, mpi_t *m, unsigned a, const unsigned char *r) {
  fabric_part_t *pt = &f->par->part[a];
  report_t rp;
  get(&r, &rp, sizeof rp);
  if (rp.work_s > m->slowest) m->slowest = rp.work_s;
  pt->evals = rp.evals;
  pt->oom = rp.oom;
  if (rp.failed && !pt->failed) {
    pt->failed = true;
    pt->fail_cycle = rp.fail_cycle;
    memcpy(pt->fail_check, rp.fail_check, sizeof pt->fail_check);
    memcpy(pt->fail_msg, rp.fail_msg, sizeof pt->fail_msg);
    pt->fail_check[sizeof pt->fail_check - 1] = pt->fail_msg[sizeof pt->fail_msg - 1] = 0;
  }
  m->idle[a] = rp.idle;
  m->wrote[a] = rp.wrote;
  m->wake[a] = rp.wake;
  /* what one process's instances would show: those that did not run, idle outputs */
  for (uint32_t j = 0; j < pt->ninst; j++) {
    fabric_inst_t *x = &f->inst[pt->inst[j]];
    if (x->ran) {
      memset(x->out, 0, x->type->nports * sizeof *x->out);
      if (x->type->nside) memset(x->side, 0, x->type->nside * sizeof *x->side);
    }
    x->ran = false;
    x->arrivals = 0;
  }
  for (uint64_t v = 0; v < rp.nviews; v++) {
    uint64_t h[3];
    get(&r, h, sizeof h);
    fabric_inst_t *x = &f->inst[h[0]];
    const unsigned P = x->type->nports, S = x->type->nside;
    x->ran = true;
    x->arrivals = (uint32_t)h[1];
    x->evals = h[2];
    get(&r, x->in, P * sizeof *x->in);
    get(&r, x->out, P * sizeof *x->out);
    if (S) get(&r, x->side, S * sizeof *x->side);
  }
  if (rp.ndg > pt->cap_dg) {
    uint64_t *q = realloc(pt->dg, rp.ndg * sizeof *q);
    if (!q) {
      pt->oom = true;
      return r;
    }
    pt->dg = q;
    pt->cap_dg = rp.ndg;
  }
  get(&r, pt->dg, rp.ndg * sizeof *pt->dg);
  pt->ndg = rp.ndg;
  return r;
}

/* After window c0 .. c1 - 1: the cut links' slots to the parts that read
 * them (cleared here: only the receiver's copy of a slot is ever read), the
 * report to rank 0; then what the others sent. */
static void exchange(fabric_t *f, mpi_t *m, uint64_t c0, uint64_t c1) {
  const unsigned me = m->rank, n = m->n;
  bool wrote = false;
  for (unsigned b = 0; b < n; b++) {
    buf_t *sb = &m->sbuf[b];
    sb->n = 0;
    if (b == me) continue;
    for (uint32_t j = 0; j < m->nto[b]; j++) {
      fabric_link_t *k = &f->link[m->to[b][j]];
      for (uint64_t c = c0; c < c1; c++) {
        fabric_flit_t *s = &k->slot[c % k->ring];
        if (f->par_bug == FABRIC_PBUG_MPI_DROP && !m->dropped && !fabric_flit_idle(s)) {
          m->dropped = true; /* planted: lost on the way */
          memset(s, 0, sizeof *s);
        }
        wrote |= !fabric_flit_idle(s);
        put(sb, s, sizeof *s);
        memset(s, 0, sizeof *s);
      }
    }
  }
  m->wrote[me] = wrote;
  if (me != 0) {
    own_status(f, m, c1);
    const fabric_part_t *pt = &f->par->part[me];
    report_t rp;
    memset(&rp, 0, sizeof rp);
    rp.work_s = m->work_s;
    rp.evals = pt->evals;
    rp.fail_cycle = pt->fail_cycle;
    rp.failed = pt->failed;
    rp.oom = pt->oom;
    rp.idle = m->idle[me];
    rp.wrote = wrote;
    rp.wake = m->wake[me];
    rp.ndg = pt->ndg;
    memcpy(rp.fail_check, pt->fail_check, sizeof rp.fail_check);
    memcpy(rp.fail_msg, pt->fail_msg, sizeof rp.fail_msg);
    for (uint32_t j = 0; j < pt->ninst; j++) rp.nviews += f->inst[pt->inst[j]].ran;
    put(&m->sbuf[0], &rp, sizeof rp);
    for (uint32_t j = 0; j < pt->ninst; j++)
      if (f->inst[pt->inst[j]].ran) put_view(&m->sbuf[0], &f->inst[pt->inst[j]], pt->inst[j]);
    put(&m->sbuf[0], pt->dg, pt->ndg * sizeof *pt->dg);
  }
  unsigned nreq = 0;
  for (unsigned b = 0; b < n; b++)
    if (b != me)
      MPI_Isend(m->sbuf[b].p, (int)m->sbuf[b].n, MPI_BYTE, (int)b, TAG_WIN, MPI_COMM_WORLD, &m->req[nreq++]);
  for (unsigned a = 0; a < n; a++) {
    if (a == me) continue;
    MPI_Status st;
    int cnt = 0, here = 0;
    waiting_t w = {0, 0};
    for (;;) {
      MPI_Iprobe((int)a, TAG_WIN, MPI_COMM_WORLD, &here, &st);
      if (here) break;
      backoff(&w);
    }
    MPI_Get_count(&st, MPI_BYTE, &cnt);
    m->rbuf.n = 0;
    if ((size_t)cnt > m->rbuf.cap) {
      unsigned char *q = realloc(m->rbuf.p, (size_t)cnt);
      if (!q) abort();
      m->rbuf.p = q;
      m->rbuf.cap = (size_t)cnt;
    }
    MPI_Recv(m->rbuf.p, cnt, MPI_BYTE, (int)a, TAG_WIN, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const unsigned char *r = m->rbuf.p;
    for (uint32_t j = 0; j < m->nfrom[a]; j++) {
      fabric_link_t *k = &f->link[m->from[a][j]];
      for (uint64_t c = c0; c < c1; c++) {
        fabric_flit_t fl;
        get(&r, &fl, sizeof fl);
        if (fabric_flit_idle(&fl)) continue;
        k->slot[c % k->ring] = fl;
        k->sent++;
      }
    }
    if (me == 0) take_report(f, m, a, r);
  }
  MPI_Waitall((int)nreq, m->req, MPI_STATUSES_IGNORE);
}

/* Rank 0: the whole fabric idle (fabric_idle's question, answered by every part). */
static bool all_idle(fabric_t *f, mpi_t *m) {
  own_status(f, m, f->cycle);
  for (unsigned q = 0; q < m->n; q++)
    if (!m->idle[q] || m->wrote[q]) return false;
  return true;
}

static void leader_step(fabric_t *f, uint64_t limit) {
  mpi_t *m = f->dist->ctx;
  fabric_par_t *par = f->par;
  const uint64_t c = f->cycle;
  if (c >= limit || f->failed) return;
  if (!f->no_skip && all_idle(f, m)) { /* jump to the earliest wake-up, as fabric_step does */
    uint64_t w = FABRIC_NEVER;
    for (unsigned q = 0; q < m->n; q++)
      if (m->wake[q] < w) w = m->wake[q];
    if (w > c) {
      fabric_jump_idle(f, w < limit ? w : limit);
      return;
    }
  }
  uint64_t W = f->observer ? 1 : f->lookahead < 256 ? f->lookahead : 256;
  if (W > limit - c) W = limit - c;
  const double t0 = MPI_Wtime();
  uint64_t cmd[3] = {CMD_RUN, c, c + W};
  bcast_cmd(cmd);
  const double t1 = MPI_Wtime();
  fabric_part_t *p0 = &par->part[0];
  p0->evals = 0;
  p0->ndg = 0;
  fabric_part_run(f, p0, c, c + W, false);
  const double t2 = MPI_Wtime();
  m->slowest = 0;
  exchange(f, m, c, c + W);
  const double sync = (t1 - t0) + (MPI_Wtime() - t2), late = m->slowest - (t2 - t1);
  f->sync_s += sync;
  f->sync_msg_s += late > 0 ? sync - late : sync;
  f->syncs++;
  uint64_t end = c + W;
  fabric_par_end_window(f, par, c, end, "fabric.mpi");
}

/* Rank 0: every other part's counters as of f->cycle, one request per cycle read. */
static int leader_counter(const fabric_t *f, uint32_t inst, unsigned port, unsigned id, uint64_t *val) {
  mpi_t *m = f->dist->ctx;
  if (!m->cnt_valid || m->cnt_cycle != f->cycle) {
    uint64_t cmd[3] = {CMD_COUNTERS, f->cycle, 0};
    bcast_cmd(cmd);
    for (unsigned a = 1; a < m->n; a++) {
      const fabric_part_t *pt = &f->par->part[a];
      size_t words = 0;
      for (uint32_t j = 0; j < pt->ninst; j++) {
        const fabric_inst_t *x = &f->inst[pt->inst[j]];
        words += 2 * (size_t)x->type->nports * x->type->ncounters;
      }
      MPI_Recv(m->cnt + m->cnt_off[pt->ninst ? pt->inst[0] : 0], (int)words, MPI_UINT64_T, (int)a, TAG_CNT,
               MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    m->cnt_cycle = f->cycle;
    m->cnt_valid = true;
  }
  const fabric_inst_t *x = &f->inst[inst];
  const uint64_t *e = m->cnt + m->cnt_off[inst] + 2 * ((size_t)port * x->type->ncounters + id);
  *val = e[1];
  return (int)(int64_t)e[0];
}

static void send_counters(fabric_t *f, mpi_t *m) {
  const fabric_part_t *pt = &f->par->part[m->rank];
  buf_t *b = &m->sbuf[0];
  b->n = 0;
  for (uint32_t j = 0; j < pt->ninst; j++) {
    const fabric_inst_t *x = &f->inst[pt->inst[j]];
    for (unsigned p = 0; p < x->type->nports; p++)
      for (unsigned k = 0; k < x->type->ncounters; k++) {
        uint64_t v = 0;
        const int rc = fabric_counter(f, pt->inst[j], p, k, &v);
        const uint64_t e[2] = {(uint64_t)(int64_t)rc, v};
        put(b, e, sizeof e);
      }
  }
  MPI_Send(b->p, (int)(b->n / sizeof(uint64_t)), MPI_UINT64_T, 0, TAG_CNT, MPI_COMM_WORLD);
}

void fabric_mpi_serve(fabric_t *f) {
  if (!f->dist) return;
  mpi_t *m = f->dist->ctx;
  fabric_part_t *pt = &f->par->part[m->rank];
  for (;;) {
    uint64_t cmd[3];
    bcast_cmd(cmd);
    if (cmd[0] == CMD_QUIT) return;
    f->cycle = cmd[1];
    if (cmd[0] == CMD_COUNTERS) {
      send_counters(f, m);
      continue;
    }
    pt->evals = 0;
    pt->ndg = 0;
    const double t0 = MPI_Wtime();
    fabric_part_run(f, pt, cmd[1], cmd[2], false); /* a failure: rank 0 stops the run at it */
    m->work_s = MPI_Wtime() - t0;
    f->evals += pt->evals;
    f->cycle = cmd[2];
    exchange(f, m, cmd[1], cmd[2]);
  }
}

static void mpi_free(fabric_t *f) {
  mpi_t *m = f->dist->ctx;
  if (m->rank == 0) {
    uint64_t cmd[3] = {CMD_QUIT, f->cycle, 0};
    bcast_cmd(cmd);
  }
  for (unsigned q = 0; q < m->n; q++) {
    if (m->to) free(m->to[q]);
    if (m->from) free(m->from[q]);
    if (m->sbuf) free(m->sbuf[q].p);
  }
  free(m->to);
  free(m->from);
  free(m->nto);
  free(m->nfrom);
  free(m->sbuf);
  free(m->rbuf.p);
  free(m->req);
  free(m->idle);
  free(m->wrote);
  free(m->wake);
  free(m->cnt);
  free(m->cnt_off);
  free(m);
  f->dist = NULL;
}

/* The same fabric on every rank: instances (type, ports), links and parts hashed. */
static uint64_t fingerprint(const fabric_t *f) {
  uint64_t h = 1469598103934665603ULL;
#define FP(v) (h = (h ^ (uint64_t)(v)) * 1099511628211ULL)
  FP(f->ninst);
  FP(f->nlink);
  for (uint32_t i = 0; i < f->ninst; i++) {
    FP(f->inst[i].type->nports);
    FP(f->inst[i].part);
    FP(f->inst[i].mode);
  }
  for (uint32_t l = 0; l < f->nlink; l++) {
    const fabric_link_t *k = &f->link[l];
    FP(k->src);
    FP(k->src_port);
    FP(k->dst);
    FP(k->dst_port);
    FP(k->latency);
  }
#undef FP
  return h;
}

int fabric_mpi_start(fabric_t *f, char *err, size_t errlen) {
  int r = 0, s = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &s);
  const unsigned me = (unsigned)r, n = (unsigned)s;
  if (n < 2) {
    snprintf(err, errlen, "MPI: %u process; a distributed run needs at least 2 (mpirun -np N)", n);
    return -1;
  }
  if (fabric_par_split(f, n, err, errlen)) return -1;
  const char *pe = getenv("FABRIC_MPI_POLL_US");
  if (pe && *pe) poll_s = 1e-6 * strtod(pe, NULL);
  MPI_Request rq; /* every rank here (rank 0 may run a one-process comparison first) */
  MPI_Ibarrier(MPI_COMM_WORLD, &rq);
  wait_req(&rq);
  const uint64_t fp = fingerprint(f);
  uint64_t lo = 0, hi = 0;
  MPI_Allreduce(&fp, &lo, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&fp, &hi, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (lo != hi) {
    snprintf(err, errlen,
             "MPI: the ranks built different fabrics (instances, links or parts differ): the same binary and "
             "arguments on every rank");
    return -1;
  }
  mpi_t *m = calloc(1, sizeof *m);
  if (!m) goto oom;
  m->rank = me;
  m->n = n;
  m->d = (fabric_dist_t){leader_step, leader_counter, mpi_free, me, m};
  f->dist = &m->d; /* from here fabric_free frees m */
  m->to = calloc(n, sizeof *m->to);
  m->from = calloc(n, sizeof *m->from);
  m->nto = calloc(n, sizeof *m->nto);
  m->nfrom = calloc(n, sizeof *m->nfrom);
  m->sbuf = calloc(n, sizeof *m->sbuf);
  m->req = calloc(n, sizeof *m->req);
  m->idle = calloc(n, 1);
  m->wrote = calloc(n, 1);
  m->wake = calloc(n, sizeof *m->wake);
  m->cnt_off = calloc(f->ninst + 1, sizeof *m->cnt_off);
  if (!m->to || !m->from || !m->nto || !m->nfrom || !m->sbuf || !m->req || !m->idle || !m->wrote ||
      !m->wake || !m->cnt_off)
    goto oom;
  for (unsigned q = 0; q < n; q++)
    if (!(m->to[q] = malloc((f->nlink + 1) * sizeof **m->to)) ||
        !(m->from[q] = malloc((f->nlink + 1) * sizeof **m->from)))
      goto oom;
  for (uint32_t l = 0; l < f->nlink; l++) {
    const unsigned a = f->inst[f->link[l].src].part, b = f->inst[f->link[l].dst].part;
    if (a == b) continue;
    if (a == me) m->to[b][m->nto[b]++] = l;
    if (b == me) m->from[a][m->nfrom[a]++] = l;
  }
  /* rank 0's counter cache: the other parts' instances, part by part, in their order */
  size_t off = 0;
  for (unsigned q = 1; q < n; q++) {
    const fabric_part_t *pt = &f->par->part[q];
    for (uint32_t j = 0; j < pt->ninst; j++) {
      const fabric_inst_t *x = &f->inst[pt->inst[j]];
      m->cnt_off[pt->inst[j]] = off;
      off += 2 * (size_t)x->type->nports * x->type->ncounters;
    }
  }
  if (me == 0 && !(m->cnt = calloc(off + 1, sizeof *m->cnt))) goto oom;
  /* every part's status before the first window */
  own_status(f, m, f->cycle);
  uint64_t st[2] = {m->idle[me], m->wake[me]}, all[2 * 64];
  uint64_t *g = n <= 64 ? all : malloc(2 * n * sizeof *g);
  if (!g) goto oom;
  MPI_Gather(st, 2, MPI_UINT64_T, g, 2, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  if (me == 0)
    for (unsigned q = 0; q < n; q++) {
      m->idle[q] = (uint8_t)g[2 * q];
      m->wake[q] = g[2 * q + 1];
    }
  if (g != all) free(g);
  return 0;
oom:
  snprintf(err, errlen, "MPI: out of memory");
  return -1;
}
