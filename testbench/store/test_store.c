/*
 * build/bin/store_sim -- the results store's unit test (regress/testlist,
 * block `store`): writes runs of random packets, hops and links into a fresh
 * database and reads them back with queries.
 *
 *   store_sim [--test=store_unit] [--seed=N] [--cycles=N] [--out=DIR] [--name=X]
 *             [--inject-bug=drop_row|drop_result] [--expect-fail=check:ID@0]
 *
 * Checks (ids for --expect-fail; the store has no cycles, so @0):
 *   store.count      every row written is in the database (store_run_end's own check)
 *   store.roundtrip  the rows read back equal the rows written (sums over every column)
 *   store.csv        CSV export: a header and one line per row
 *   store.bad_path   an unwritable path and a file that is not a database are refused with the path named
 *   store.rollback   a run never ended leaves nothing
 * --inject-bug=drop_row loses the 2nd packet row, drop_result the 2nd result
 * row: check store.count must fire.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cosim.h"
#include "store.h"

static char fail_id[64], fail_msg[1024];
static uint64_t seed = 1;
static const char *name = "store_unit";

static bool check(bool ok, const char *id, const char *fmt, ...) {
  char msg[900];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  printf("check: %-4s %s: %s\n", ok ? "ok" : "FAIL", id, msg);
  if (!ok && !fail_id[0]) {
    snprintf(fail_id, sizeof fail_id, "%s", id);
    snprintf(fail_msg, sizeof fail_msg, "%s", msg);
  }
  return ok;
}

static int64_t q1(sqlite3 *db, const char *q, int64_t run) {
  sqlite3_stmt *st;
  int64_t v = -1;
  if (sqlite3_prepare_v2(db, q, -1, &st, NULL) != SQLITE_OK) return -2;
  sqlite3_bind_int64(st, 1, run);
  if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return v;
}

/* One run of n random packets; sums of what was written for the round trip. */
typedef struct {
  int64_t run;
  uint64_t packets, hops, links, stages, results, sum_pkt, sum_hop, sum_link, sum_stage;
  double sum_result;
} written_t;

static int write_run(store_t *s, cosim_rng_t *r, unsigned n, bool end, written_t *w, char *err, size_t len) {
  memset(w, 0, sizeof *w);
  store_run_t run = {.name = name,
                     .tool = "store_sim",
                     .seed = seed,
                     .nodes = 16,
                     .clock_mhz = 250,
                     .window_start = 100,
                     .window_end = 1000};
  if (store_run_begin(s, &run, &w->run, err, len)) return -1;
  if (store_param(s, "load", "0.3") || store_paramf(s, "note", "comma, and \"quotes\" %u", n)) {
    snprintf(err, len, "%s", store_error(s));
    return -1;
  }
  char inst[16];
  for (unsigned id = 0; id < n; id++) {
    unsigned hops = 1 + 2 * (unsigned)cosim_rng_below(r, 3);
    uint64_t t = cosim_rng_below(r, 1000);
    bool lost = cosim_rng_below(r, 10) == 0; /* some packets never arrive: NULL stages */
    store_packet_t p = {.id = id,
                        .src = (unsigned)cosim_rng_below(r, 16),
                        .dst = (unsigned)cosim_rng_below(r, 16),
                        .vc = (unsigned)cosim_rng_below(r, 2),
                        .flits = 18,
                        .hops = hops,
                        .tries = 1,
                        .created = t,
                        .injected = t + 1,
                        .head_rx = lost ? STORE_NONE : t + 10,
                        .tail_rx = lost ? STORE_NONE : t + 27,
                        .acked = lost ? STORE_NONE : t + 40};
    if (store_packet(s, &p)) break;
    w->packets++;
    w->sum_pkt +=
        p.src + p.dst + p.vc + p.hops + p.created + p.injected + (lost ? 0 : p.head_rx + p.tail_rx + p.acked);
    for (unsigned h = 0; h < hops; h++) {
      snprintf(inst, sizeof inst, "sw%u", (unsigned)cosim_rng_below(r, 48));
      uint64_t a = t + 2 + 5 * h;
      store_hop_t x = {.packet = id,
                       .idx = h,
                       .instance = inst,
                       .in_port = (int)cosim_rng_below(r, 8),
                       .out_port = h + 1 == hops && lost ? STORE_NO_PORT : (int)cosim_rng_below(r, 8),
                       .arrival = a,
                       .grant = a + 1,
                       .departure = h + 1 == hops && lost ? STORE_NONE : a + 4};
      if (store_hop(s, &x)) break;
      w->hops++;
      /* the same passage as two named stages (schema version 2) */
      for (unsigned k = 0; k < 2; k++) {
        store_stage_t g = {.packet = id,
                           .idx = 2 * h + k,
                           .stage = k ? "switch out" : "switch in",
                           .instance = inst,
                           .port = k ? x.out_port : x.in_port,
                           .cycle = k ? x.departure : x.arrival};
        if (store_stage(s, &g)) break;
        w->stages++;
        w->sum_stage += g.cycle == STORE_NONE ? 0 : g.cycle;
      }
      w->sum_hop += (uint64_t)x.in_port + (x.out_port < 0 ? 0 : (uint64_t)x.out_port) + x.arrival + x.grant +
                    (x.departure == STORE_NONE ? 0 : x.departure);
    }
  }
  for (unsigned l = 0; l < 40; l++) {
    char src[16], dst[16];
    snprintf(src, sizeof src, "sw%u", l);
    snprintf(dst, sizeof dst, "nic%u", l);
    store_link_t k = {.src = src,
                      .src_port = (int)(l % 8),
                      .dst = dst,
                      .dst_port = STORE_NO_PORT,
                      .cls = "L0->NIC",
                      .cycle_from = 100,
                      .cycle_to = 1000,
                      .flits = cosim_rng_below(r, 900),
                      .wait = l % 2 ? STORE_NONE : cosim_rng_below(r, 900),
                      .packets = cosim_rng_below(r, 50)};
    if (store_link(s, &k)) break;
    w->links++;
    w->sum_link += k.flits + (k.wait == STORE_NONE ? 0 : k.wait) + k.packets + (uint64_t)k.src_port;
  }
  for (unsigned k = 0; k < 12; k++) { /* a sweep: 6 sizes x 2 mechanisms */
    store_result_t x = {.series = "latency",
                        .label = k % 2 ? "B" : "A",
                        .x = 8u << (k / 2),
                        .x_unit = "bytes",
                        .value = (double)cosim_rng_below(r, 5000) + 0.25,
                        .unit = "cycles"};
    if (store_result(s, &x)) break;
    w->results++;
    w->sum_result += x.value;
  }
  if (!end) return 0;
  return store_run_end(s, 1234, 0.5, "ok", err, len);
}

static int verdict(const char *expect) {
  char got[1200];
  snprintf(got, sizeof got, "check:%s@0: %s", fail_id, fail_msg);
  if (!expect) {
    if (!fail_id[0]) {
      printf("TEST PASSED\n");
      return 0;
    }
    printf("rerun: make sim T=%s SEED=%" PRIu64 "\nTEST FAILED: %s\n", name, seed, got);
    return 1;
  }
  if (fail_id[0] && !strncmp(expect, "check:", 6) && strlen(expect) == 6 + strlen(fail_id) + 2 &&
      !strncmp(expect + 6, fail_id, strlen(fail_id)) && !strcmp(expect + 6 + strlen(fail_id), "@0")) {
    printf("expected failure caught: %s\nTEST PASSED\n", got);
    return 0;
  }
  printf("rerun: make sim T=%s SEED=%" PRIu64 "\nTEST FAILED: expected %s, got %s\n", name, seed, expect,
         fail_id[0] ? got : "a pass");
  return 1;
}

int main(int argc, char **argv) {
  setvbuf(stdout, NULL, _IOLBF, 0);
  const char *out = "build/store_unit", *bug = NULL, *expect = NULL;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    char *end;
    if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
      printf("usage: store_sim [--test=store_unit] [--seed=N] [--cycles=N] [--out=DIR] [--name=X]\n"
             "                 [--inject-bug=drop_row|drop_result] [--expect-fail=check:ID@0]\n"
             "The results store's unit test (testbench/store/test_store.c). Exit status: 0 pass, 1 fail, 2 "
             "usage.\n");
      return 0;
    } else if (!strncmp(a, "--seed=", 7)) {
      errno = 0;
      seed = strtoull(a + 7, &end, 10);
      if (errno || end == a + 7 || *end) {
        fprintf(stderr, "store_sim: error: bad --seed '%s' (see --help)\n", a + 7);
        return 2;
      }
    } else if (!strncmp(a, "--test=", 7)) {
      if (strcmp(a + 7, "store_unit")) {
        fprintf(stderr, "store_sim: error: no test '%s' (store_unit) (see --help)\n", a + 7);
        return 2;
      }
    } else if (!strncmp(a, "--out=", 6)) {
      out = a + 6;
    } else if (!strncmp(a, "--name=", 7)) {
      name = a + 7;
    } else if (!strncmp(a, "--cycles=", 9) || !strcmp(a, "--no-check")) {
      /* the kit's common flags: the store test has no cycles */
    } else if (!strncmp(a, "--inject-bug=", 13)) {
      bug = a + 13;
      if (strcmp(bug, "drop_row") && strcmp(bug, "drop_result") && strcmp(bug, "none")) {
        fprintf(stderr,
                "planted bugs: drop_row, drop_result\nstore_sim: error: no planted bug '%s' (see --help)\n",
                bug);
        return 2;
      }
    } else if (!strncmp(a, "--expect-fail=", 14)) {
      expect = a + 14;
      if (strncmp(expect, "check:", 6) || !strchr(expect, '@')) {
        fprintf(stderr, "store_sim: error: bad --expect-fail '%s' (check:ID@0) (see --help)\n", expect);
        return 2;
      }
    } else {
      fprintf(stderr, "store_sim: error: unknown argument '%s' (see --help)\n", a);
      return 2;
    }
  }
  printf("seed: %" PRIu64 "\n", seed);
  char path[1200], err[1024];
  snprintf(path, sizeof path, "%s", out);
  for (char *p = path + 1; *p; p++)
    if (*p == '/') *p = 0, mkdir(path, 0777), *p = '/';
  mkdir(path, 0777);
  snprintf(path, sizeof path, "%s/unit.db", out);
  unlink(path);
  cosim_rng_t r;
  cosim_rng_seed(&r, seed);
  store_t *s;
  if (store_open(&s, path, err, sizeof err)) {
    check(false, "store.open", "%s", err);
    return verdict(expect);
  }
  if (bug && !strcmp(bug, "drop_row")) store_set_bug(s, STORE_BUG_DROP_ROW);
  if (bug && !strcmp(bug, "drop_result")) store_set_bug(s, STORE_BUG_DROP_RESULT);
  written_t w[2];
  unsigned n[2] = {200 + (unsigned)cosim_rng_below(&r, 100), 50};
  for (int k = 0; k < 2 && !fail_id[0]; k++) {
    int rc = write_run(s, &r, n[k], true, &w[k], err, sizeof err);
    check(!rc, rc && !strncmp(err, "check:store.count", 17) ? "store.count" : "store.write", "run %d: %s",
          k + 1, rc ? err : "written, row counts checked");
  }
  sqlite3 *db = store_db(s);
  for (int k = 0; k < 2 && !fail_id[0]; k++) {
    int64_t run = w[k].run;
    int64_t np = q1(db, "SELECT COUNT(*) FROM packets WHERE run = ?1", run),
            nh = q1(db, "SELECT COUNT(*) FROM hops WHERE run = ?1", run),
            nl = q1(db, "SELECT COUNT(*) FROM links WHERE run = ?1", run),
            ng = q1(db, "SELECT COUNT(*) FROM stages WHERE run = ?1", run),
            nr = q1(db, "SELECT COUNT(*) FROM results WHERE run = ?1", run);
    check(np == (int64_t)w[k].packets && nh == (int64_t)w[k].hops && nl == (int64_t)w[k].links &&
              ng == (int64_t)w[k].stages && nr == (int64_t)w[k].results,
          "store.count",
          "run %" PRId64 ": %" PRId64 "/%" PRId64 "/%" PRId64 "/%" PRId64 "/%" PRId64
          " packet/hop/link/stage/result rows (written %" PRIu64 "/%" PRIu64 "/%" PRIu64 "/%" PRIu64
          "/%" PRIu64 ")",
          run, np, nh, nl, ng, nr, w[k].packets, w[k].hops, w[k].links, w[k].stages, w[k].results);
    int64_t sg = q1(db, "SELECT SUM(COALESCE(cycle, 0)) FROM stages WHERE run = ?1", run);
    int64_t sr4 = q1(db, "SELECT CAST(ROUND(SUM(value) * 4) AS INTEGER) FROM results WHERE run = ?1", run);
    check(sg == (int64_t)w[k].sum_stage && sr4 == (int64_t)(w[k].sum_result * 4), "store.roundtrip",
          "run %" PRId64 ": stage cycles sum %" PRId64 " read, %" PRIu64 " written; result values x4 %" PRId64
          " read, %.0f written",
          run, sg, w[k].sum_stage, sr4, w[k].sum_result * 4);
    int64_t sp = q1(db,
                    "SELECT SUM(src + dst + vc + hops + created + injected + COALESCE(head_rx, 0) +"
                    " COALESCE(tail_rx, 0) + COALESCE(acked, 0)) FROM packets WHERE run = ?1",
                    run);
    int64_t sh = q1(db,
                    "SELECT SUM(in_port + COALESCE(out_port, 0) + arrival + grant + COALESCE(departure, 0))"
                    " FROM hops WHERE run = ?1",
                    run);
    int64_t sl =
        q1(db, "SELECT SUM(flits + COALESCE(wait, 0) + packets + src_port) FROM links WHERE run = ?1", run);
    int64_t nulls = q1(db, "SELECT COUNT(*) FROM packets WHERE run = ?1 AND tail_rx IS NULL", run);
    check(sp == (int64_t)w[k].sum_pkt && sh == (int64_t)w[k].sum_hop && sl == (int64_t)w[k].sum_link &&
              nulls > 0,
          "store.roundtrip",
          "run %" PRId64 ": column sums %" PRId64 "/%" PRId64 "/%" PRId64 " read, %" PRIu64 "/%" PRIu64
          "/%" PRIu64 " written; %" PRId64 " packets with no TAIL stored as NULL",
          run, sp, sh, sl, w[k].sum_pkt, w[k].sum_hop, w[k].sum_link, nulls);
  }
  if (!fail_id[0]) { /* CSV export: header + one line per row; the quoted parameter survives */
    char *buf = NULL;
    size_t len = 0;
    FILE *m = open_memstream(&buf, &len);
    int rc = store_export_csv(s, "packets", w[0].run, m, err, sizeof err);
    fclose(m);
    unsigned lines = 0;
    for (size_t i = 0; i < len; i++) lines += buf[i] == '\n';
    static const char want[] = "run,id,src,dst,vc,flits,hops,tries,created,injected,head_rx,tail_rx,acked\n";
    bool hdr = buf && !strncmp(buf, want, strlen(want));
    free(buf);
    buf = NULL;
    m = open_memstream(&buf, &len);
    rc |= store_export_csv(s, "params", w[0].run, m, err, sizeof err);
    fclose(m);
    bool quoted = buf && strstr(buf, "\"comma, and \"\"quotes\"\" ");
    free(buf);
    char e2[256];
    m = fopen("/dev/null", "w");
    bool refused = m && store_export_csv(s, "nosuch", 0, m, e2, sizeof e2) == -1;
    if (m) fclose(m);
    check(!rc && hdr && lines == w[0].packets + 1 && quoted && refused, "store.csv",
          "packets.csv %u lines for %" PRIu64 " packets, header %s, quoted value %s, unknown table %s", lines,
          w[0].packets, hdr ? "ok" : "wrong", quoted ? "ok" : "wrong", refused ? "refused" : "accepted");
  }
  if (!fail_id[0]) { /* a run never ended: nothing of it stays */
    written_t x;
    int64_t before = q1(db, "SELECT COUNT(*) FROM runs WHERE ?1 = ?1", 0);
    write_run(s, &r, 10, false, &x, err, sizeof err);
    store_close(s);
    s = NULL;
    store_t *s2;
    int rc = store_open(&s2, path, err, sizeof err);
    int64_t after = rc ? -1 : q1(store_db(s2), "SELECT COUNT(*) FROM runs WHERE ?1 = ?1", 0),
            orphans = rc ? -1 : q1(store_db(s2), "SELECT COUNT(*) FROM packets WHERE run = ?1", x.run);
    check(!rc && after == before && orphans == 0, "store.rollback",
          "%" PRId64 " runs before, %" PRId64 " after an unfinished run (%" PRId64 " of its packets left)",
          before, after, orphans);
    if (!rc) store_close(s2);
  }
  store_close(s);
  if (!fail_id[0]) { /* bad paths: refused, the path named */
    store_t *b = NULL;
    char e1[1024] = "", e2[1024] = "", junk[1200];
    int r1 = store_open(&b, "/nonexistent-dir/x/results.db", e1, sizeof e1);
    snprintf(junk, sizeof junk, "%s/not-a-db.db", out);
    FILE *f = fopen(junk, "w");
    if (f) {
      fputs("this is a text file, not a database, and it is long enough to have a header page\n", f);
      for (int i = 0; i < 20; i++) fputs("0123456789abcdef0123456789abcdef0123456789abcdef\n", f);
      fclose(f);
    }
    int r2 = store_open(&b, junk, e2, sizeof e2);
    check(r1 && r2 && strstr(e1, "/nonexistent-dir/x/results.db") && strstr(e2, junk) && !b, "store.bad_path",
          "'%s'; '%s'", e1, e2);
  }
  return verdict(expect);
}
