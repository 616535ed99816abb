/*
 * build/bin/store_report -- reports as SQL queries on a results store
 * (testbench/store/store.h, docs/store.md).
 *
 *   store_report DB COMMAND [--run=N] [options]
 *
 * Commands: runs, summary, breakdown, links, pick, trace --packet=ID
 * [--format=text|csv|html], stages --packet=ID [--format=...], results
 * [--format=...], plot latency-hist|throughput-time|sweep|link-class
 * [--bin=N], csv TABLE, check-csv DIR [--bug=latency_from_injected].
 * --run defaults to the database's last run. check-csv compares the
 * queries' figures with the CSVs the fabric wrote for the same run
 * (summary.csv, breakdown.csv, links.csv): they must agree to the digits
 * printed (check store.csv_agree).
 * Exit status: 0 ok, 1 a check failed, 2 usage error (bad command, no such
 * database, run or packet).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static sqlite3 *db;
static const char *db_path;
static int64_t run_id;
static unsigned run_nodes;
static double run_mhz;
static int64_t win_start, win_end;
static bool bug_latency_from_injected;

static int usage_error(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "store_report: error: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, " (see --help)\n");
  va_end(ap);
  return 2;
}

static void die_sql(const char *q) {
  fprintf(stderr, "store_report: %s: query failed: %s\n  %s\n", db_path, sqlite3_errmsg(db), q);
  exit(1);
}

/* Prepare q with ?1 = the run and the further int64 binds given. */
static sqlite3_stmt *query(const char *q, int nbind, ...) {
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) die_sql(q);
  sqlite3_bind_int64(st, 1, run_id);
  va_list ap;
  va_start(ap, nbind);
  for (int i = 0; i < nbind; i++) sqlite3_bind_int64(st, i + 2, va_arg(ap, int64_t));
  va_end(ap);
  return st;
}

static int64_t scalar(const char *q, int nbind, int64_t a, int64_t b) {
  sqlite3_stmt *st = query(q, nbind, a, b);
  int64_t v = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  return v;
}

/* count, min, mean, sd, p50, p99, max of one integer column; percentiles
 * by rank ceil(p n / 100) (nearest rank), sd with n - 1. */
typedef struct {
  uint64_t n;
  double min, mean, sd, p50, p99, max;
} stats_t;

static stats_t stats(const char *inner, int nbind, int64_t a, int64_t b) {
  char q[4096];
  snprintf(q, sizeof q,
           "WITH v(x) AS (%s), o AS (SELECT x, ROW_NUMBER() OVER (ORDER BY x) AS i FROM v),"
           " a AS (SELECT COUNT(*) AS n, AVG(x) AS m, MIN(x) AS lo, MAX(x) AS hi FROM v)"
           " SELECT a.n, a.lo, a.m, (SELECT SUM((x - a.m) * (x - a.m)) FROM v),"
           " (SELECT x FROM o WHERE i = MAX(1, (50 * a.n + 99) / 100)),"
           " (SELECT x FROM o WHERE i = MAX(1, (99 * a.n + 99) / 100)), a.hi FROM a",
           inner);
  sqlite3_stmt *st = query(q, nbind, a, b);
  stats_t s;
  memset(&s, 0, sizeof s);
  if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0) {
    s.n = (uint64_t)sqlite3_column_int64(st, 0);
    s.min = sqlite3_column_double(st, 1);
    s.mean = sqlite3_column_double(st, 2);
    s.sd = s.n > 1 ? sqrt(sqlite3_column_double(st, 3) / (double)(s.n - 1)) : 0;
    s.p50 = sqlite3_column_double(st, 4);
    s.p99 = sqlite3_column_double(st, 5);
    s.max = sqlite3_column_double(st, 6);
  }
  sqlite3_finalize(st);
  return s;
}

static double ns(double cycles) { return cycles * 1000.0 / run_mhz; }

/* The run's packets created in the statistics window whose every stage and
 * hop was recorded: temp table cp (the breakdown's population). */
static void make_complete_table(void) {
  static bool made;
  if (made) return;
  made = true;
  sqlite3_stmt *st = query(
      "CREATE TEMP TABLE cp AS SELECT p.* FROM packets p WHERE p.run = ?1 AND p.created >= ?2"
      " AND p.created < ?3 AND p.injected IS NOT NULL AND p.head_rx IS NOT NULL AND p.tail_rx IS NOT NULL"
      " AND p.hops = (SELECT COUNT(*) FROM hops h WHERE h.run = p.run AND h.packet = p.id"
      "   AND h.arrival IS NOT NULL AND h.grant IS NOT NULL AND h.departure IS NOT NULL)"
      " AND p.hops = (SELECT COUNT(*) FROM hops h WHERE h.run = p.run AND h.packet = p.id)",
      2, win_start, win_end);
  if (sqlite3_step(st) != SQLITE_DONE) die_sql("CREATE TEMP TABLE cp");
  sqlite3_finalize(st);
}

/* ---- summary -------------------------------------------------------------------- */

typedef struct {
  int64_t created, created_win, delivered;
  stats_t lat, net, head;
  int64_t min_head[8]; /* by hops; -1 none */
  double accepted;     /* flits of TAILs received in the window / node / cycle */
} summary_t;

#define WIN " FROM packets WHERE run = ?1 AND created >= ?2 AND created < ?3 AND tail_rx IS NOT NULL"

static void summary_compute(summary_t *s) {
  memset(s, 0, sizeof *s);
  s->created = scalar("SELECT COUNT(*) FROM packets WHERE run = ?1", 0, 0, 0);
  s->created_win = scalar("SELECT COUNT(*) FROM packets WHERE run = ?1 AND created >= ?2 AND created < ?3", 2,
                          win_start, win_end);
  s->delivered = scalar("SELECT COUNT(*) FROM packets WHERE run = ?1 AND tail_rx IS NOT NULL", 0, 0, 0);
  /* planted bug (negative of check store.csv_agree): latency counted from injection */
  s->lat = stats(bug_latency_from_injected ? "SELECT tail_rx - injected" WIN : "SELECT tail_rx - created" WIN,
                 2, win_start, win_end);
  s->net = stats("SELECT tail_rx - injected" WIN, 2, win_start, win_end);
  s->head = stats("SELECT head_rx - injected" WIN " AND head_rx IS NOT NULL", 2, win_start, win_end);
  for (int h = 0; h < 8; h++) s->min_head[h] = -1;
  sqlite3_stmt *st =
      query("SELECT hops, MIN(head_rx - injected) FROM packets WHERE run = ?1 AND tail_rx IS NOT "
            "NULL AND head_rx IS NOT NULL GROUP BY hops",
            0);
  while (sqlite3_step(st) == SQLITE_ROW) {
    int h = sqlite3_column_int(st, 0);
    if (h >= 0 && h < 8) s->min_head[h] = sqlite3_column_int64(st, 1);
  }
  sqlite3_finalize(st);
  int64_t fl =
      scalar("SELECT COALESCE(SUM(flits), 0) FROM packets WHERE run = ?1 AND tail_rx >= ?2 AND tail_rx < ?3",
             2, win_start, win_end);
  s->accepted = (double)fl / ((double)run_nodes * (double)(win_end - win_start));
}

static void print_stats(const char *what, const stats_t *s) {
  printf("%-28s n %-7" PRIu64 " min %5.0f  mean %8.2f ± %7.2f  p50 %5.0f  p99 %6.0f  max %6.0f cycles"
         "  (mean %.1f ns, p99 %.1f ns)\n",
         what, s->n, s->min, s->mean, s->sd, s->p50, s->p99, s->max, ns(s->mean), ns(s->p99));
}

static const char *param(const char *key, char *buf, size_t len) {
  sqlite3_stmt *st;
  buf[0] = 0;
  if (sqlite3_prepare_v2(db, "SELECT value FROM params WHERE run = ?1 AND key = ?2", -1, &st, NULL) !=
      SQLITE_OK)
    die_sql("params");
  sqlite3_bind_int64(st, 1, run_id);
  sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
  if (sqlite3_step(st) == SQLITE_ROW) snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  return buf;
}

static int cmd_summary(void) {
  summary_t s;
  summary_compute(&s);
  char off[64], acc[64], flits[32];
  param("result.offered", off, sizeof off);
  param("result.accepted", acc, sizeof acc);
  param("flits", flits, sizeof flits);
  printf("window: cycles %" PRId64 "..%" PRId64 " (%" PRId64 " cycles, %.1f us at %.0f MHz), %u nodes\n",
         win_start, win_end, win_end - win_start, ns((double)(win_end - win_start)) / 1000, run_mhz,
         run_nodes);
  printf("packets: %" PRId64 " created (%" PRId64 " in the window), %" PRId64 " delivered\n", s.created,
         s.created_win, s.delivered);
  printf(
      "throughput: accepted %.4f flits/node/cycle (TAILs received in the window; the fabric's counter: %s, "
      "offered %s) = %.1f MB/s per node at 4 B/flit\n",
      s.accepted, *acc ? acc : "-", *off ? off : "-", s.accepted * 4 * run_mhz);
  print_stats("latency created->TAIL:", &s.lat);
  print_stats("latency injected->TAIL:", &s.net);
  print_stats("latency injected->HEAD:", &s.head);
  printf("min injected->HEAD by hops:");
  for (int h = 1; h < 8; h++)
    if (s.min_head[h] >= 0)
      printf("  %d: %" PRId64 " cycles (%.1f ns)", h, s.min_head[h], ns((double)s.min_head[h]));
  printf("\n");
  return 0;
}

/* ---- breakdown ------------------------------------------------------------------- */

#define MAX_STAGES 64
typedef struct {
  unsigned hops, n;
  char name[MAX_STAGES][80];
  stats_t st[MAX_STAGES];
} breakdown_t;

/* Stages of paths with `hops` hops, in the order of e4f's breakdown.csv. */
static void breakdown_compute(unsigned hops, breakdown_t *b) {
  make_complete_table();
  memset(b, 0, sizeof *b);
  b->hops = hops;
  const int64_t H = hops;
#define STAGE(NAME, Q, NB, A, B)                            \
  do {                                                      \
    snprintf(b->name[b->n], sizeof b->name[0], "%s", NAME); \
    b->st[b->n++] = stats(Q, NB, A, B);                     \
  } while (0)
#define HOPJ " FROM cp JOIN hops h ON h.run = cp.run AND h.packet = cp.id AND h.idx = ?3 WHERE cp.hops = ?2"
  STAGE("NIC: source queue (created -> HEAD injected)", "SELECT injected - created FROM cp WHERE hops = ?2",
        1, H, 0);
  STAGE("link: NIC -> hop 1", "SELECT h.arrival - cp.injected" HOPJ, 2, H, 0);
  char nm[80];
  for (int64_t k = 0; k < H; k++) {
    snprintf(nm, sizeof nm, "hop %" PRId64 ": queueing (arrival -> grant)", k + 1);
    STAGE(nm, "SELECT h.grant - h.arrival" HOPJ, 2, H, k);
    snprintf(nm, sizeof nm, "hop %" PRId64 ": traversal (grant -> departure)", k + 1);
    STAGE(nm, "SELECT h.departure - h.grant" HOPJ, 2, H, k);
    snprintf(nm, sizeof nm, "hop %" PRId64 ": total (arrival -> departure)", k + 1);
    STAGE(nm, "SELECT h.departure - h.arrival" HOPJ, 2, H, k);
    if (k + 1 < H) {
      snprintf(nm, sizeof nm, "link: hop %" PRId64 " -> hop %" PRId64, k + 1, k + 2);
      STAGE(nm,
            "SELECT n.arrival - h.departure FROM cp JOIN hops h ON h.run = cp.run AND h.packet = cp.id AND "
            "h.idx = ?3"
            " JOIN hops n ON n.run = cp.run AND n.packet = cp.id AND n.idx = ?3 + 1 WHERE cp.hops = ?2",
            2, H, k);
    } else {
      snprintf(nm, sizeof nm, "link: hop %" PRId64 " -> NIC (HEAD)", k + 1);
      STAGE(nm, "SELECT cp.head_rx - h.departure" HOPJ, 2, H, k);
    }
  }
  STAGE("NIC: ejection (HEAD -> TAIL at the destination)", "SELECT tail_rx - head_rx FROM cp WHERE hops = ?2",
        1, H, 0);
  STAGE("network: HEAD injected -> HEAD at the destination",
        "SELECT head_rx - injected FROM cp WHERE hops = ?2", 1, H, 0);
  STAGE("total: created -> TAIL at the destination", "SELECT tail_rx - created FROM cp WHERE hops = ?2", 1, H,
        0);
#undef STAGE
#undef HOPJ
}

/* One CSV row as e4f's breakdown.csv prints its numbers. */
static void stats_csv(char *buf, size_t len, const stats_t *s) {
  snprintf(buf, len, "%" PRIu64 ",%.0f,%.3f,%.3f,%.0f,%.0f,%.0f", s->n, s->min, s->mean, s->sd, s->p50,
           s->p99, s->max);
}

static unsigned hop_counts(unsigned *h, unsigned max) {
  make_complete_table();
  sqlite3_stmt *st = query("SELECT DISTINCT hops FROM cp ORDER BY hops", 0);
  unsigned n = 0;
  while (sqlite3_step(st) == SQLITE_ROW && n < max) h[n++] = (unsigned)sqlite3_column_int(st, 0);
  sqlite3_finalize(st);
  return n;
}

static int cmd_breakdown(void) {
  unsigned h[16], nh = hop_counts(h, 16);
  printf("hops,stage,count,min,mean,sd,p50,p99,max,mean_ns,p99_ns\n");
  for (unsigned i = 0; i < nh; i++) {
    static breakdown_t b;
    breakdown_compute(h[i], &b);
    for (unsigned k = 0; k < b.n; k++) {
      char row[200];
      stats_csv(row, sizeof row, &b.st[k]);
      printf("%u,\"%s\",%s,%.1f,%.1f\n", h[i], b.name[k], row, ns(b.st[k].mean), ns(b.st[k].p99));
    }
  }
  return 0;
}

/* ---- links ----------------------------------------------------------------------- */

/* links.csv's format: from,from_port,to,to_port,class,flits,utilisation,xmit_wait,xmit_wait_per_cycle,tails */
static void links_rows(FILE *out) {
  sqlite3_stmt *st =
      query("SELECT src, src_port, dst, dst_port, class, flits,"
            " flits * 1.0 / MAX(cycle_to - cycle_from, 1), wait,"
            " wait * 1.0 / MAX(cycle_to - cycle_from, 1), packets FROM links WHERE run = ?1 ORDER BY rowid",
            0);
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *t[10];
    char f[10][64];
    for (int i = 0; i < 10; i++) {
      if (sqlite3_column_type(st, i) == SQLITE_NULL)
        f[i][0] = 0;
      else if (i == 6 || i == 8)
        snprintf(f[i], sizeof f[i], "%.4f", sqlite3_column_double(st, i));
      else
        snprintf(f[i], sizeof f[i], "%s", (const char *)sqlite3_column_text(st, i));
      t[i] = f[i];
    }
    fprintf(out, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", t[0], t[1], t[2], t[3], t[4], t[5], t[6], t[7], t[8],
            t[9]);
  }
  sqlite3_finalize(st);
}

static int cmd_links(void) {
  printf("from,from_port,to,to_port,class,flits,utilisation,xmit_wait,xmit_wait_per_cycle,tails\n");
  links_rows(stdout);
  return 0;
}

/* ---- one packet ------------------------------------------------------------------- */

/* A packet that crosses the top of the fabric: the most hops of the run,
 * every stage recorded, created in the window, delivered on its first try;
 * of those the one with the median latency (ties: the lowest id). */
static int cmd_pick(void) {
  make_complete_table();
  int64_t id =
      scalar("WITH c AS (SELECT id, tail_rx - created AS lat FROM cp WHERE tries = 1 AND acked IS NOT NULL"
             " AND hops = (SELECT MAX(hops) FROM cp)) SELECT id FROM c ORDER BY lat, id"
             " LIMIT 1 OFFSET (SELECT COUNT(*) / 2 FROM c)",
             0, 0, 0);
  if (id < 0) {
    fprintf(stderr, "store_report: %s: run %" PRId64 ": no complete packet to pick (records off?)\n", db_path,
            run_id);
    return 1;
  }
  printf("%" PRId64 "\n", id);
  return 0;
}

typedef struct {
  char stage[96], where[64];
  int64_t from, to;
} row_t;

static int cmd_trace(int64_t id, const char *format) {
  sqlite3_stmt *st =
      query("SELECT src, dst, vc, flits, hops, tries, created, injected, head_rx, tail_rx, acked"
            " FROM packets WHERE run = ?1 AND id = ?2",
            1, id);
  if (sqlite3_step(st) != SQLITE_ROW) {
    sqlite3_finalize(st);
    return usage_error("%s: run %" PRId64 " has no packet %" PRId64, db_path, run_id, id);
  }
  int src = sqlite3_column_int(st, 0), dst = sqlite3_column_int(st, 1), vc = sqlite3_column_int(st, 2);
  int flits = sqlite3_column_int(st, 3), hops = sqlite3_column_int(st, 4), tries = sqlite3_column_int(st, 5);
  int64_t t[5];
  bool have = true;
  for (int i = 0; i < 5; i++) {
    have &= sqlite3_column_type(st, 6 + i) != SQLITE_NULL;
    t[i] = sqlite3_column_int64(st, 6 + i);
  }
  sqlite3_finalize(st);
  if (!have) {
    fprintf(stderr, "store_report: %s: run %" PRId64 ": packet %" PRId64 " did not complete\n", db_path,
            run_id, id);
    return 1;
  }
  row_t r[64];
  unsigned n = 0;
  char prev[32];
  snprintf(prev, sizeof prev, "nic%d", src);
  snprintf(r[n].stage, sizeof r[0].stage, "NIC inject: created -> HEAD injected");
  snprintf(r[n].where, sizeof r[0].where, "nic%d", src);
  r[n].from = t[0], r[n++].to = t[1];
  int64_t last = t[1];
  st = query("SELECT idx, instance, in_port, out_port, arrival, grant, departure FROM hops WHERE run = ?1 "
             "AND packet = ?2"
             " ORDER BY idx",
             1, id);
  int seen = 0;
  while (sqlite3_step(st) == SQLITE_ROW && n + 4 < 64) {
    const char *inst = (const char *)sqlite3_column_text(st, 1);
    int in = sqlite3_column_int(st, 2), out = sqlite3_column_int(st, 3);
    int64_t arr = sqlite3_column_int64(st, 4), gr = sqlite3_column_int64(st, 5),
            dep = sqlite3_column_int64(st, 6);
    snprintf(r[n].stage, sizeof r[0].stage, "link %s -> %s", prev, inst);
    snprintf(r[n].where, sizeof r[0].where, "%s", "link");
    r[n].from = last, r[n++].to = arr;
    snprintf(r[n].stage, sizeof r[0].stage, "%s: arrival -> grant (port %d -> %d)", inst, in, out);
    snprintf(r[n].where, sizeof r[0].where, "%s", inst);
    r[n].from = arr, r[n++].to = gr;
    snprintf(r[n].stage, sizeof r[0].stage, "%s: grant -> departure", inst);
    snprintf(r[n].where, sizeof r[0].where, "%s", inst);
    r[n].from = gr, r[n++].to = dep;
    snprintf(prev, sizeof prev, "%s", inst);
    last = dep;
    seen++;
  }
  sqlite3_finalize(st);
  if (seen != hops) {
    fprintf(stderr, "store_report: %s: run %" PRId64 ": packet %" PRId64 " has %d of its %d hops recorded\n",
            db_path, run_id, id, seen, hops);
    return 1;
  }
  snprintf(r[n].stage, sizeof r[0].stage, "link %s -> nic%d (HEAD)", prev, dst);
  snprintf(r[n].where, sizeof r[0].where, "link");
  r[n].from = last, r[n++].to = t[2];
  snprintf(r[n].stage, sizeof r[0].stage, "head_rx -> tail_rx: the other %d flits", flits - 1);
  snprintf(r[n].where, sizeof r[0].where, "nic%d", dst);
  r[n].from = t[2], r[n++].to = t[3];
  snprintf(r[n].stage, sizeof r[0].stage, "ack: TAIL received -> token back at the source");
  snprintf(r[n].where, sizeof r[0].where, "nic%d", src);
  r[n].from = t[3], r[n++].to = t[4];
  bool html = !strcmp(format, "html"), csv = !strcmp(format, "csv");
  if (csv)
    printf("stage,where,from_cycle,to_cycle,cycles,ns\n");
  else if (html)
    printf("<table>\n<tr><th>stage</th><th>where</th><th>from cycle</th><th>to cycle</th><th>cycles</th>"
           "<th>ns</th></tr>\n");
  else
    printf("packet %" PRId64 " (run %" PRId64 "): nic%d -> nic%d, VC %d, %d flits, %d hops, try %d; "
           "cycles and ns at %.0f MHz\n  %-52s %10s %10s %7s %9s\n",
           id, run_id, src, dst, vc, flits, hops, tries, run_mhz, "stage", "from", "to", "cycles", "ns");
  for (unsigned i = 0; i < n; i++) {
    int64_t d = r[i].to - r[i].from;
    if (csv)
      printf("\"%s\",%s,%" PRId64 ",%" PRId64 ",%" PRId64 ",%.1f\n", r[i].stage, r[i].where, r[i].from,
             r[i].to, d, ns((double)d));
    else if (html)
      printf("<tr><td>%s</td><td>%s</td><td>%" PRId64 "</td><td>%" PRId64 "</td><td>%" PRId64
             "</td><td>%.1f</td></tr>\n",
             r[i].stage, r[i].where, r[i].from, r[i].to, d, ns((double)d));
    else
      printf("  %-52s %10" PRId64 " %10" PRId64 " %7" PRId64 " %9.1f\n", r[i].stage, r[i].from, r[i].to, d,
             ns((double)d));
  }
  int64_t tot = t[4] - t[0], net = t[3] - t[1];
  if (csv)
    printf("\"total: created -> ack\",,%" PRId64 ",%" PRId64 ",%" PRId64 ",%.1f\n", t[0], t[4], tot,
           ns((double)tot));
  else if (html)
    printf("<tr><th>total: created -> ack</th><td></td><td>%" PRId64 "</td><td>%" PRId64 "</td><th>%" PRId64
           "</th><th>%.1f</th></tr>\n</table>\n",
           t[0], t[4], tot, ns((double)tot));
  else
    printf("  %-52s %10" PRId64 " %10" PRId64 " %7" PRId64
           " %9.1f\n  (HEAD injected -> TAIL received: %" PRId64 " cycles, %.1f ns)\n",
           "total: created -> ack", t[0], t[4], tot, ns((double)tot), net, ns((double)net));
  return 0;
}

/* ---- plots: whitespace columns for gnuplot ---------------------------------------- */

static int cmd_plot(const char *kind, int64_t bin) {
  sqlite3_stmt *st;
  if (!strcmp(kind, "latency-hist")) {
    printf("# latency created->TAIL (cycles, bin %" PRId64 ")  packets\n", bin);
    st = query("SELECT ((tail_rx - created) / ?4) * ?4, COUNT(*)" WIN " GROUP BY 1 ORDER BY 1", 3, win_start,
               win_end, bin);
  } else if (!strcmp(kind, "throughput-time")) {
    printf("# cycle  offered  accepted (flits/node/cycle, bins of %" PRId64 " cycles)\n", bin);
    st = query(
        "WITH b AS (SELECT (created / ?2) * ?2 AS t, flits AS o, 0 AS a FROM packets WHERE run = ?1"
        " UNION ALL SELECT (tail_rx / ?2) * ?2, 0, flits FROM packets WHERE run = ?1 AND tail_rx IS NOT NULL)"
        " SELECT t, SUM(o) * 1.0 / (?2 * ?3), SUM(a) * 1.0 / (?2 * ?3) FROM b GROUP BY t ORDER BY t",
        2, bin, (int64_t)run_nodes);
  } else if (!strcmp(kind, "sweep")) {
    /* every run of the database with this run's name prefix (up to the first '@') */
    printf("# run  load  offered  accepted  mean_latency  p99_latency (cycles, created->TAIL, window)\n");
    st = query(
        "SELECT r.run, CAST((SELECT value FROM params WHERE run = r.run AND key = 'load') AS REAL) AS load,"
        " (SELECT value FROM params WHERE run = r.run AND key = 'result.offered'),"
        " (SELECT COALESCE(SUM(flits), 0) FROM packets p WHERE p.run = r.run AND p.tail_rx >= r.window_start"
        "   AND p.tail_rx < r.window_end) * 1.0 / (r.nodes * (r.window_end - r.window_start)),"
        " (SELECT AVG(tail_rx - created) FROM packets p WHERE p.run = r.run AND p.created >= r.window_start"
        "   AND p.created < r.window_end AND p.tail_rx IS NOT NULL),"
        " (WITH v AS (SELECT tail_rx - created AS x, ROW_NUMBER() OVER (ORDER BY tail_rx - created) AS i,"
        "   COUNT(*) OVER () AS n FROM packets p WHERE p.run = r.run AND p.created >= r.window_start"
        "   AND p.created < r.window_end AND p.tail_rx IS NOT NULL) SELECT x FROM v WHERE i = MAX(1, (99 * n "
        "+ 99) / 100))"
        " FROM runs r WHERE r.name LIKE (SELECT substr(name, 1, instr(name || '@', '@') - 1) FROM runs"
        "   WHERE run = ?1) || '@%' ORDER BY load, r.run",
        0);
  } else if (!strcmp(kind, "link-class")) {
    printf("# class  links  mean_utilisation  max_utilisation\n");
    st = query("SELECT replace(class, '->', '-'), COUNT(*), AVG(flits * 1.0 / MAX(cycle_to - cycle_from, 1)),"
               " MAX(flits * 1.0 / MAX(cycle_to - cycle_from, 1)) FROM links WHERE run = ?1 GROUP BY class"
               " ORDER BY MIN(rowid)",
               0);
  } else {
    return usage_error("plot %s: latency-hist, throughput-time, sweep or link-class", kind);
  }
  int nc = sqlite3_column_count(st), rows = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    for (int i = 0; i < nc; i++)
      printf("%s%s", i ? " " : "",
             sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "NaN");
    printf("\n");
    rows++;
  }
  sqlite3_finalize(st);
  if (!rows) fprintf(stderr, "store_report: plot %s: no rows for run %" PRId64 "\n", kind, run_id);
  return rows ? 0 : 1;
}

static int cmd_runs(void) {
  sqlite3_stmt *st =
      query("SELECT run, name, tool, started, seed, nodes, cycles, packets, hops, links, stages,"
            " results, status FROM runs WHERE ?1 = ?1 ORDER BY run",
            0);
  printf("run,name,tool,started,seed,nodes,cycles,packets,hops,links,stages,results,status\n");
  while (sqlite3_step(st) == SQLITE_ROW) {
    for (int i = 0; i < 13; i++)
      printf("%s%s", i ? "," : "",
             sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "");
    printf("\n");
  }
  sqlite3_finalize(st);
  return 0;
}

/* A packet's named stages in order (the stages table): each stage's cycle,
 * and cycles and ns from the first. */
static int cmd_stages(int64_t id, const char *format) {
  sqlite3_stmt *st = query("SELECT stage, instance, port, cycle FROM stages WHERE run = ?1 AND packet = ?2"
                           " ORDER BY idx",
                           1, id);
  const bool html = !strcmp(format, "html"), csv = !strcmp(format, "csv");
  int64_t t0 = -1;
  unsigned n = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *stage = (const char *)sqlite3_column_text(st, 0),
               *inst = (const char *)sqlite3_column_text(st, 1);
    char where[64];
    if (sqlite3_column_type(st, 2) == SQLITE_NULL)
      snprintf(where, sizeof where, "%s", inst);
    else
      snprintf(where, sizeof where, "%s port %d", inst, sqlite3_column_int(st, 2));
    const bool reached = sqlite3_column_type(st, 3) != SQLITE_NULL;
    const int64_t c = sqlite3_column_int64(st, 3);
    if (t0 < 0 && reached) t0 = c;
    if (!n++) {
      if (csv)
        printf("stage,where,cycle,cycles,ns\n");
      else if (html)
        printf("<table>\n<tr><th>stage</th><th>where</th><th>cycle</th><th>+cycles</th><th>+ns</th></tr>\n");
      else
        printf("packet %" PRId64 " (run %" PRId64 "): its stages, cycles and ns from the first at %.0f MHz\n"
               "  %-44s %-22s %10s %8s %9s\n",
               id, run_id, run_mhz, "stage", "where", "cycle", "+cycles", "+ns");
    }
    if (!reached) {
      if (csv)
        printf("\"%s\",%s,,,\n", stage, where);
      else if (html)
        printf("<tr><td>%s</td><td>%s</td><td>-</td><td>-</td><td>-</td></tr>\n", stage, where);
      else
        printf("  %-44s %-22s %10s %8s %9s\n", stage, where, "-", "-", "-");
      continue;
    }
    const int64_t d = c - t0;
    if (csv)
      printf("\"%s\",%s,%" PRId64 ",%" PRId64 ",%.1f\n", stage, where, c, d, ns((double)d));
    else if (html)
      printf("<tr><td>%s</td><td>%s</td><td>%" PRId64 "</td><td>%" PRId64 "</td><td>%.1f</td></tr>\n", stage,
             where, c, d, ns((double)d));
    else
      printf("  %-44s %-22s %10" PRId64 " %8" PRId64 " %9.1f\n", stage, where, c, d, ns((double)d));
  }
  sqlite3_finalize(st);
  if (!n) return usage_error("%s: run %" PRId64 " has no stages of packet %" PRId64, db_path, run_id, id);
  if (html) printf("</table>\n");
  return 0;
}

/* The run's results (a sweep's measurements), one row each, in order. */
static int cmd_results(const char *format) {
  sqlite3_stmt *st =
      query("SELECT series, label, x, x_unit, value, unit FROM results WHERE run = ?1 ORDER BY idx", 0);
  const bool html = !strcmp(format, "html"), csv = !strcmp(format, "csv");
  unsigned n = 0;
  while (sqlite3_step(st) == SQLITE_ROW) {
    const char *v[6];
    for (int i = 0; i < 6; i++)
      v[i] = sqlite3_column_text(st, i) ? (const char *)sqlite3_column_text(st, i) : "";
    if (!n++) {
      if (csv)
        printf("series,label,x,x_unit,value,unit\n");
      else if (html)
        printf("<table>\n<tr><th>series</th><th>label</th><th>x</th><th>value</th></tr>\n");
      else
        printf("%-20s %-12s %12s %-6s %14s %s\n", "series", "label", "x", "", "value", "");
    }
    const double x = sqlite3_column_double(st, 2), val = sqlite3_column_double(st, 4);
    if (csv)
      printf("%s,%s,%s,%s,%s,%s\n", v[0], v[1], v[2], v[3], v[4], v[5]);
    else if (html)
      printf("<tr><td>%s</td><td>%s</td><td>%g %s</td><td>%.1f %s</td></tr>\n", v[0], v[1], x, v[3], val,
             v[5]);
    else
      printf("%-20s %-12s %12g %-6s %14.1f %s\n", v[0], v[1], x, v[3], val, v[5]);
  }
  sqlite3_finalize(st);
  if (!n) {
    fprintf(stderr, "store_report: %s: run %" PRId64 " has no results\n", db_path, run_id);
    return 1;
  }
  if (html) printf("</table>\n");
  return 0;
}

static int cmd_csv(const char *table) {
  static const char *const tables[] = {"runs", "params", "packets", "hops", "links", "stages", "results"};
  size_t t = 0;
  while (t < 7 && strcmp(tables[t], table)) t++;
  if (t == 7)
    return usage_error("csv %s: no such table (runs, params, packets, hops, links, stages, results)", table);
  char q[200];
  snprintf(q, sizeof q, "SELECT * FROM %s WHERE run = ?1 ORDER BY %s", table, t == 4 ? "rowid" : "1, 2, 3");
  sqlite3_stmt *st = query(q, 0);
  int nc = sqlite3_column_count(st);
  for (int i = 0; i < nc; i++) printf("%s%s", i ? "," : "", sqlite3_column_name(st, i));
  printf("\n");
  while (sqlite3_step(st) == SQLITE_ROW) {
    for (int i = 0; i < nc; i++) {
      const char *v = (const char *)sqlite3_column_text(st, i);
      printf("%s", i ? "," : "");
      if (v && strpbrk(v, ",\"\n")) { /* RFC 4180: quoted, quotes doubled */
        putchar('"');
        for (const char *c = v; *c; c++) printf(*c == '"' ? "\"\"" : "%c", *c);
        putchar('"');
      } else if (v) {
        printf("%s", v);
      }
    }
    printf("\n");
  }
  sqlite3_finalize(st);
  return 0;
}

/* ---- check-csv: the queries against the fabric's own CSVs --------------------------- */

/* Split one CSV line into fields (quotes kept out); returns the count. */
static int split_csv(char *line, char **f, int max) {
  int n = 0;
  char *p = line;
  line[strcspn(line, "\r\n")] = 0;
  while (n < max) {
    if (*p == '"') {
      f[n++] = ++p;
      p = strchr(p, '"');
      if (!p) break;
      *p++ = 0;
    } else {
      f[n++] = p;
      p += strcspn(p, ",");
    }
    if (*p != ',') break;
    *p++ = 0;
  }
  return n;
}

static int fails;
static void agree(const char *what, const char *csv, const char *sql) {
  if (!strcmp(csv, sql)) return;
  if (!fails) printf("check: FAIL store.csv_agree: %s: CSV %s, SQL %s\n", what, csv, sql);
  fails++;
}

static int cmd_check_csv(const char *dir) {
  char path[1200], line[8192];
  /* summary.csv: one header, one row */
  snprintf(path, sizeof path, "%s/summary.csv", dir);
  FILE *f = fopen(path, "r");
  if (!f) return usage_error("check-csv: cannot read %s: %s", path, strerror(errno));
  char hdr[8192];
  char *h[64], *v[64];
  int nh = 0, nv = 0;
  if (fgets(hdr, sizeof hdr, f)) nh = split_csv(hdr, h, 64);
  if (fgets(line, sizeof line, f)) nv = split_csv(line, v, 64);
  fclose(f);
  if (nh < 10 || nh != nv)
    return usage_error("check-csv: %s: expected a header and one row of equal length", path);
  summary_t s;
  summary_compute(&s);
  unsigned compared = 0;
  char buf[64];
  const struct {
    const char *col;
    const char *fmt;
    double val;
  } want[] = {
      {"created", "%.0f", (double)s.created}, {"delivered", "%.0f", (double)s.delivered},
      {"lat_count", "%.0f", (double)s.lat.n}, {"lat_min", "%.0f", s.lat.min},
      {"lat_mean", "%.3f", s.lat.mean},       {"lat_sd", "%.3f", s.lat.sd},
      {"lat_p50", "%.0f", s.lat.p50},         {"lat_p99", "%.0f", s.lat.p99},
      {"lat_max", "%.0f", s.lat.max},         {"net_mean", "%.3f", s.net.mean},
      {"net_p99", "%.0f", s.net.p99},         {"head_min", "%.0f", s.head.min},
      {"head_mean", "%.3f", s.head.mean},
  };
  for (size_t k = 0; k < sizeof want / sizeof want[0]; k++)
    for (int i = 0; i < nh; i++)
      if (!strcmp(h[i], want[k].col)) {
        snprintf(buf, sizeof buf, want[k].fmt, want[k].val);
        char what[96];
        snprintf(what, sizeof what, "summary.csv %s", h[i]);
        agree(what, v[i], buf);
        compared++;
      }
  for (int hh = 1; hh <= 7; hh += 2) {
    char col[32];
    snprintf(col, sizeof col, "min_head_%d", hh);
    for (int i = 0; i < nh; i++)
      if (!strcmp(h[i], col)) {
        if (s.min_head[hh] >= 0)
          snprintf(buf, sizeof buf, "%" PRId64, s.min_head[hh]);
        else
          buf[0] = 0;
        agree(col, v[i], buf);
        compared++;
      }
  }
  printf("check: %-4s summary.csv: %u figures compared with the queries\n", fails ? "FAIL" : "ok", compared);
  int before = fails;
  /* breakdown.csv: switches,stage,count,min,mean,sd,p50,p99,max, per path length in stage order */
  snprintf(path, sizeof path, "%s/breakdown.csv", dir);
  f = fopen(path, "r");
  if (!f) return usage_error("check-csv: cannot read %s: %s (records on?)", path, strerror(errno));
  unsigned rows = 0, cur = 0, k = 0;
  static breakdown_t b;
  if (!fgets(line, sizeof line, f)) line[0] = 0;
  while (fgets(line, sizeof line, f)) {
    char *c[16];
    if (split_csv(line, c, 16) != 9) {
      fclose(f);
      return usage_error("check-csv: %s: expected 9 fields per row", path);
    }
    unsigned hops = (unsigned)strtoul(c[0], NULL, 10);
    if (hops != cur) breakdown_compute(cur = hops, &b), k = 0;
    char what[160], sql[200], csvrow[200];
    snprintf(csvrow, sizeof csvrow, "%s,%s,%s,%s,%s,%s,%s", c[2], c[3], c[4], c[5], c[6], c[7], c[8]);
    if (k < b.n)
      stats_csv(sql, sizeof sql, &b.st[k]);
    else
      snprintf(sql, sizeof sql, "(no such stage)");
    snprintf(what, sizeof what, "breakdown.csv %u hops, stage %u '%s'", hops, k + 1, c[1]);
    agree(what, csvrow, sql);
    k++, rows++;
  }
  fclose(f);
  printf("check: %-4s breakdown.csv: %u stage rows compared with the queries\n",
         fails > before ? "FAIL" : "ok", rows);
  before = fails;
  /* links.csv: the same rows, the same text */
  snprintf(path, sizeof path, "%s/links.csv", dir);
  f = fopen(path, "r");
  if (!f) return usage_error("check-csv: cannot read %s: %s", path, strerror(errno));
  char *mem = NULL;
  size_t memlen = 0;
  FILE *m = open_memstream(&mem, &memlen);
  links_rows(m);
  fclose(m);
  char *save = NULL, *sqlline = strtok_r(mem, "\n", &save);
  rows = 0;
  if (!fgets(line, sizeof line, f)) line[0] = 0;
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\n")] = 0;
    char what[64];
    snprintf(what, sizeof what, "links.csv row %u", rows + 1);
    agree(what, line, sqlline ? sqlline : "(no row)");
    sqlline = sqlline ? strtok_r(NULL, "\n", &save) : NULL;
    rows++;
  }
  if (sqlline) agree("links.csv rows", "(end)", sqlline);
  fclose(f);
  free(mem);
  printf("check: %-4s links.csv: %u link rows compared with the queries\n", fails > before ? "FAIL" : "ok",
         rows);
  if (fails) {
    printf(
        "TEST FAILED: check:store.csv_agree@0: %d figures of the CSVs in %s differ from the queries on %s\n",
        fails, dir, db_path);
    return 1;
  }
  printf("TEST PASSED\n");
  return 0;
}

static void usage(FILE *f) {
  fprintf(f,
          "usage: store_report DB COMMAND [--run=N] [options]\n"
          "  runs                         every run in the database (CSV)\n"
          "  summary                      throughput and latency of the run's window (cycles and ns)\n"
          "  breakdown                    per-hop latency breakdown by path length (CSV)\n"
          "  links                        per-link flits, utilisation, XmitWait (CSV, links.csv's columns)\n"
          "  pick                         a packet crossing the top of the fabric: its id\n"
          "  trace --packet=ID [--format=text|csv|html]   one packet's per-hop latency breakdown\n"
          "  plot latency-hist|throughput-time|link-class|sweep [--bin=N]   gnuplot data columns\n"
          "  stages --packet=ID [--format=text|csv|html]  one packet's named stages (cycle, +cycles, +ns)\n"
          "  results [--format=text|csv|html]             the run's results (a sweep's measurements)\n"
          "  csv TABLE                    export runs, params, packets, hops, links, stages or results\n"
          "  check-csv DIR [--bug=latency_from_injected]   the queries vs the fabric's CSVs in DIR\n"
          "--run=N: the run (default: the last). Schema: docs/store.md.\n"
          "Exit status: 0 ok, 1 a check failed or nothing to report, 2 usage error.\n");
}

static bool parse_i64(const char *s, int64_t *v) {
  char *end;
  errno = 0;
  long long x = strtoll(s, &end, 10);
  if (errno || end == s || *end || x < 0) return false;
  *v = x;
  return true;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  for (int i = 1; i < argc; i++)
    if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
      usage(stdout);
      return 0;
    }
  const char *pos[3] = {NULL, NULL, NULL}, *format = "text";
  int npos = 0;
  int64_t run = -1, packet = -1, bin = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strncmp(a, "--run=", 6)) {
      if (!parse_i64(a + 6, &run)) return usage_error("bad --run '%s'", a + 6);
    } else if (!strncmp(a, "--packet=", 9)) {
      if (!parse_i64(a + 9, &packet)) return usage_error("bad --packet '%s'", a + 9);
    } else if (!strncmp(a, "--bin=", 6)) {
      if (!parse_i64(a + 6, &bin) || bin < 1)
        return usage_error("bad --bin '%s' (cycles, at least 1)", a + 6);
    } else if (!strncmp(a, "--format=", 9)) {
      format = a + 9;
      if (strcmp(format, "text") && strcmp(format, "csv") && strcmp(format, "html"))
        return usage_error("--format=%s: text, csv or html", format);
    } else if (!strcmp(a, "--bug=latency_from_injected")) {
      bug_latency_from_injected = true;
    } else if (!strncmp(a, "--", 2)) {
      return usage_error("unknown argument '%s'", a);
    } else if (npos < 3) {
      pos[npos++] = a;
    } else {
      return usage_error("unexpected argument '%s'", a);
    }
  }
  if (npos < 2) {
    usage(stderr);
    return 2;
  }
  db_path = pos[0];
  const char *cmd = pos[1];
  if (access(db_path, R_OK)) return usage_error("%s: cannot read the database: %s", db_path, strerror(errno));
  if (sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
    fprintf(stderr, "store_report: error: %s: %s\n", db_path, sqlite3_errmsg(db));
    sqlite3_close(db);
    return 2;
  }
  sqlite3_busy_timeout(db, 10000);
  sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL);
  sqlite3_stmt *st;
  const char *q =
      run >= 0 ? "SELECT run, nodes, clock_mhz, window_start, window_end FROM runs WHERE run = ?1"
               : "SELECT run, nodes, clock_mhz, window_start, window_end FROM runs ORDER BY run DESC LIMIT 1";
  if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) {
    fprintf(stderr, "store_report: error: %s: not a results store: %s (docs/store.md)\n", db_path,
            sqlite3_errmsg(db));
    sqlite3_close(db);
    return 2;
  }
  sqlite3_bind_int64(st, 1, run);
  if (sqlite3_step(st) != SQLITE_ROW) {
    sqlite3_finalize(st);
    sqlite3_close(db);
    if (run >= 0) return usage_error("%s: no run %" PRId64, db_path, run);
    return usage_error("%s: no runs in the database", db_path);
  }
  run_id = sqlite3_column_int64(st, 0);
  run_nodes = (unsigned)sqlite3_column_int(st, 1);
  run_mhz = sqlite3_column_double(st, 2);
  win_start = sqlite3_column_int64(st, 3);
  win_end = sqlite3_column_int64(st, 4);
  sqlite3_finalize(st);
  if (win_end <= win_start || !run_nodes || run_mhz <= 0) {
    sqlite3_close(db);
    return usage_error("%s: run %" PRId64 " has an empty window, no nodes or no clock", db_path, run_id);
  }
  int rc;
  if (!strcmp(cmd, "summary"))
    rc = cmd_summary();
  else if (!strcmp(cmd, "breakdown"))
    rc = cmd_breakdown();
  else if (!strcmp(cmd, "links"))
    rc = cmd_links();
  else if (!strcmp(cmd, "runs"))
    rc = cmd_runs();
  else if (!strcmp(cmd, "pick"))
    rc = cmd_pick();
  else if (!strcmp(cmd, "trace"))
    rc = packet < 0 ? usage_error("trace needs --packet=ID") : cmd_trace(packet, format);
  else if (!strcmp(cmd, "stages"))
    rc = packet < 0 ? usage_error("stages needs --packet=ID") : cmd_stages(packet, format);
  else if (!strcmp(cmd, "results"))
    rc = cmd_results(format);
  else if (!strcmp(cmd, "plot"))
    rc = !pos[2] ? usage_error("plot needs a kind") : cmd_plot(pos[2], bin ? bin : 10);
  else if (!strcmp(cmd, "csv"))
    rc = !pos[2] ? usage_error("csv needs a table") : cmd_csv(pos[2]);
  else if (!strcmp(cmd, "check-csv"))
    rc = !pos[2] ? usage_error("check-csv needs the fabric's output directory") : cmd_check_csv(pos[2]);
  else
    rc = usage_error("no command '%s'", cmd);
  sqlite3_close(db);
  return rc;
}
