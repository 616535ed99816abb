/* Results store in SQLite: see store.h; the schema is docs/store.md. */
#define _POSIX_C_SOURCE 200809L
#include "store.h"

#include <sqlite3.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The schema, docs/store.md. Times are cycles; NULL = not reached. */
static const char schema_sql[] =
    "CREATE TABLE IF NOT EXISTS runs ("
    " run INTEGER PRIMARY KEY, name TEXT NOT NULL, tool TEXT NOT NULL, started TEXT NOT NULL,"
    " seed INTEGER NOT NULL, nodes INTEGER NOT NULL, clock_mhz REAL NOT NULL,"
    " window_start INTEGER NOT NULL, window_end INTEGER NOT NULL,"
    " cycles INTEGER, wall_s REAL, status TEXT NOT NULL,"
    " packets INTEGER NOT NULL DEFAULT 0, hops INTEGER NOT NULL DEFAULT 0, links INTEGER NOT NULL DEFAULT 0,"
    " stages INTEGER NOT NULL DEFAULT 0, results INTEGER NOT NULL DEFAULT 0);"
    "CREATE TABLE IF NOT EXISTS params ("
    " run INTEGER NOT NULL REFERENCES runs(run), key TEXT NOT NULL, value TEXT NOT NULL,"
    " PRIMARY KEY (run, key)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS packets ("
    " run INTEGER NOT NULL REFERENCES runs(run), id INTEGER NOT NULL,"
    " src INTEGER NOT NULL, dst INTEGER NOT NULL, vc INTEGER NOT NULL, flits INTEGER NOT NULL,"
    " hops INTEGER NOT NULL, tries INTEGER NOT NULL,"
    " created INTEGER, injected INTEGER, head_rx INTEGER, tail_rx INTEGER, acked INTEGER,"
    " PRIMARY KEY (run, id)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS hops ("
    " run INTEGER NOT NULL, packet INTEGER NOT NULL, idx INTEGER NOT NULL, instance TEXT NOT NULL,"
    " in_port INTEGER, out_port INTEGER, arrival INTEGER, grant INTEGER, departure INTEGER,"
    " PRIMARY KEY (run, packet, idx), FOREIGN KEY (run, packet) REFERENCES packets(run, id)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS links ("
    " run INTEGER NOT NULL REFERENCES runs(run), src TEXT NOT NULL, src_port INTEGER,"
    " dst TEXT NOT NULL, dst_port INTEGER, class TEXT NOT NULL,"
    " cycle_from INTEGER NOT NULL, cycle_to INTEGER NOT NULL,"
    " flits INTEGER NOT NULL, wait INTEGER, packets INTEGER);"
    /* version 2: a packet's named stages in order, and measured results of a sweep */
    "CREATE TABLE IF NOT EXISTS stages ("
    " run INTEGER NOT NULL, packet INTEGER NOT NULL, idx INTEGER NOT NULL, stage TEXT NOT NULL,"
    " instance TEXT NOT NULL, port INTEGER, cycle INTEGER,"
    " PRIMARY KEY (run, packet, idx), FOREIGN KEY (run, packet) REFERENCES packets(run, id)) WITHOUT ROWID;"
    "CREATE TABLE IF NOT EXISTS results ("
    " run INTEGER NOT NULL REFERENCES runs(run), idx INTEGER NOT NULL, series TEXT NOT NULL,"
    " label TEXT NOT NULL, x REAL, x_unit TEXT NOT NULL, value REAL, unit TEXT NOT NULL,"
    " PRIMARY KEY (run, idx)) WITHOUT ROWID;"
    "CREATE INDEX IF NOT EXISTS packets_created ON packets (run, created);"
    "CREATE INDEX IF NOT EXISTS hops_instance ON hops (run, instance, arrival);"
    "CREATE INDEX IF NOT EXISTS links_run ON links (run, src, src_port);";

enum { ST_PARAM, ST_PACKET, ST_HOP, ST_LINK, ST_STAGE, ST_RESULT, ST_N };
static const char *const insert_sql[ST_N] = {
    "INSERT OR REPLACE INTO params (run, key, value) VALUES (?1, ?2, ?3)",
    "INSERT INTO packets (run, id, src, dst, vc, flits, hops, tries, created, injected, head_rx, tail_rx, "
    "acked)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)",
    "INSERT INTO hops (run, packet, idx, instance, in_port, out_port, arrival, grant, departure)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
    "INSERT INTO links (run, src, src_port, dst, dst_port, class, cycle_from, cycle_to, flits, wait, packets)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    "INSERT INTO stages (run, packet, idx, stage, instance, port, cycle) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    "INSERT INTO results (run, idx, series, label, x, x_unit, value, unit)"
    " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
};

struct store {
  sqlite3 *db;
  char path[1024];
  sqlite3_stmt *ins[ST_N];
  int64_t run; /* the open run, 0: none */
  uint64_t n_packets, n_hops, n_links, n_params, n_stages, n_results;
  int bug;
  char err[1800];
};

static int fail(store_t *s, char *err, size_t len, const char *what) {
  snprintf(err, len, "store: %s: %s: %s", s->path, what, s->db ? sqlite3_errmsg(s->db) : "out of memory");
  return -1;
}

int store_open(store_t **out, const char *path, char *err, size_t len) {
  *out = NULL;
  if (!path || !*path) {
    snprintf(err, len, "store: empty database path");
    return -1;
  }
  store_t *s = calloc(1, sizeof *s);
  if (!s) {
    snprintf(err, len, "store: %s: out of memory", path);
    return -1;
  }
  snprintf(s->path, sizeof s->path, "%s", path);
  if (sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
    fail(s, err, len, "cannot open or create the database");
    store_close(s);
    return -1;
  }
  sqlite3_extended_result_codes(s->db, 1);
  sqlite3_busy_timeout(s->db, 10000); /* parallel runs may share a database */
  /* a file that is not a database fails here, with SQLite's reason */
  sqlite3_stmt *v;
  int version = -1;
  if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &v, NULL) == SQLITE_OK) {
    if (sqlite3_step(v) == SQLITE_ROW) version = sqlite3_column_int(v, 0);
    sqlite3_finalize(v);
  }
  if (version < 0) {
    fail(s, err, len, "not a readable SQLite database");
    store_close(s);
    return -1;
  }
  if (version != 0 && version != 1 && version != STORE_SCHEMA_VERSION) {
    snprintf(err, len, "store: %s: schema version %d, this program writes version %d (docs/store.md)", path,
             version, STORE_SCHEMA_VERSION);
    store_close(s);
    return -1;
  }
  char ver[64];
  snprintf(ver, sizeof ver, "PRAGMA user_version = %d;", STORE_SCHEMA_VERSION);
  /* version 1 -> 2: the runs table gains the new tables' row counts; the
     tables themselves are created by schema_sql (IF NOT EXISTS) */
  static const char upgrade_1_2[] = "ALTER TABLE runs ADD COLUMN stages INTEGER NOT NULL DEFAULT 0;"
                                    "ALTER TABLE runs ADD COLUMN results INTEGER NOT NULL DEFAULT 0;";
  if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK ||
      (version == 1 && sqlite3_exec(s->db, upgrade_1_2, NULL, NULL, NULL) != SQLITE_OK) ||
      sqlite3_exec(s->db, schema_sql, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec(s->db, ver, NULL, NULL, NULL) != SQLITE_OK ||
      sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    fail(s, err, len, "cannot write the schema");
    store_close(s);
    return -1;
  }
  for (int i = 0; i < ST_N; i++)
    if (sqlite3_prepare_v2(s->db, insert_sql[i], -1, &s->ins[i], NULL) != SQLITE_OK) {
      fail(s, err, len, "cannot prepare an insert");
      store_close(s);
      return -1;
    }
  *out = s;
  return 0;
}

void store_close(store_t *s) {
  if (!s) return;
  if (s->run) sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL); /* a run never ended leaves nothing */
  for (int i = 0; i < ST_N; i++) sqlite3_finalize(s->ins[i]);
  sqlite3_close(s->db);
  free(s);
}

const char *store_error(const store_t *s) { return s->err; }
void store_set_bug(store_t *s, int bug) { s->bug = bug; }
sqlite3 *store_db(store_t *s) { return s->db; }

int store_run_begin(store_t *s, const store_run_t *r, int64_t *run_id, char *err, size_t len) {
  if (s->run) {
    snprintf(err, len, "store: %s: run %lld is still open", s->path, (long long)s->run);
    return -1;
  }
  if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
    return fail(s, err, len, "cannot start a transaction");
  char started[32];
  time_t now = time(NULL);
  struct tm tmv;
  gmtime_r(&now, &tmv);
  strftime(started, sizeof started, "%Y-%m-%dT%H:%M:%SZ", &tmv);
  sqlite3_stmt *st;
  int rc = sqlite3_prepare_v2(s->db,
                              "INSERT INTO runs (name, tool, started, seed, nodes, clock_mhz, window_start,"
                              " window_end, status) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'running')",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, r->name, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, r->tool, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 3, started, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 4, (sqlite3_int64)r->seed);
    sqlite3_bind_int64(st, 5, r->nodes);
    sqlite3_bind_double(st, 6, r->clock_mhz);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)r->window_start);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)r->window_end);
    rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    sqlite3_finalize(st);
  }
  if (rc != SQLITE_OK) {
    fail(s, err, len, "cannot insert the run");
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    return -1;
  }
  s->run = sqlite3_last_insert_rowid(s->db);
  s->n_packets = s->n_hops = s->n_links = s->n_params = s->n_stages = s->n_results = 0;
  if (run_id) *run_id = s->run;
  return 0;
}

static void bind_u64(sqlite3_stmt *st, int i, uint64_t v) {
  if (v == STORE_NONE)
    sqlite3_bind_null(st, i);
  else
    sqlite3_bind_int64(st, i, (sqlite3_int64)v);
}
static void bind_port(sqlite3_stmt *st, int i, int p) {
  if (p < 0)
    sqlite3_bind_null(st, i);
  else
    sqlite3_bind_int(st, i, p);
}

/* Step a bound insert; 0 or -1 with s->err. */
static int step_insert(store_t *s, int which, const char *what) {
  sqlite3_stmt *st = s->ins[which];
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  sqlite3_clear_bindings(st);
  if (rc == SQLITE_DONE) return 0;
  snprintf(s->err, sizeof s->err, "store: %s: cannot insert %s: %s", s->path, what, sqlite3_errmsg(s->db));
  return -1;
}

static int need_run(store_t *s) {
  if (s->run) return 0;
  snprintf(s->err, sizeof s->err, "store: %s: no run open (store_run_begin first)", s->path);
  return -1;
}

int store_param(store_t *s, const char *key, const char *value) {
  if (need_run(s)) return -1;
  sqlite3_stmt *st = s->ins[ST_PARAM];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 3, value ? value : "", -1, SQLITE_STATIC);
  s->n_params++;
  return step_insert(s, ST_PARAM, "a parameter");
}

int store_paramf(store_t *s, const char *key, const char *fmt, ...) {
  char v[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(v, sizeof v, fmt, ap);
  va_end(ap);
  return store_param(s, key, v);
}

int store_packet(store_t *s, const store_packet_t *p) {
  if (need_run(s)) return -1;
  s->n_packets++;
  if (s->bug == STORE_BUG_DROP_ROW && s->n_packets == 2) return 0; /* planted: the row is lost */
  sqlite3_stmt *st = s->ins[ST_PACKET];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)p->id);
  sqlite3_bind_int(st, 3, (int)p->src);
  sqlite3_bind_int(st, 4, (int)p->dst);
  sqlite3_bind_int(st, 5, (int)p->vc);
  sqlite3_bind_int(st, 6, (int)p->flits);
  sqlite3_bind_int(st, 7, (int)p->hops);
  sqlite3_bind_int(st, 8, (int)p->tries);
  bind_u64(st, 9, p->created);
  bind_u64(st, 10, p->injected);
  bind_u64(st, 11, p->head_rx);
  bind_u64(st, 12, p->tail_rx);
  bind_u64(st, 13, p->acked);
  return step_insert(s, ST_PACKET, "a packet");
}

int store_hop(store_t *s, const store_hop_t *h) {
  if (need_run(s)) return -1;
  s->n_hops++;
  sqlite3_stmt *st = s->ins[ST_HOP];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)h->packet);
  sqlite3_bind_int(st, 3, (int)h->idx);
  sqlite3_bind_text(st, 4, h->instance, -1, SQLITE_STATIC);
  bind_port(st, 5, h->in_port);
  bind_port(st, 6, h->out_port);
  bind_u64(st, 7, h->arrival);
  bind_u64(st, 8, h->grant);
  bind_u64(st, 9, h->departure);
  return step_insert(s, ST_HOP, "a hop");
}

int store_link(store_t *s, const store_link_t *l) {
  if (need_run(s)) return -1;
  s->n_links++;
  sqlite3_stmt *st = s->ins[ST_LINK];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_text(st, 2, l->src, -1, SQLITE_STATIC);
  bind_port(st, 3, l->src_port);
  sqlite3_bind_text(st, 4, l->dst, -1, SQLITE_STATIC);
  bind_port(st, 5, l->dst_port);
  sqlite3_bind_text(st, 6, l->cls, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 7, (sqlite3_int64)l->cycle_from);
  sqlite3_bind_int64(st, 8, (sqlite3_int64)l->cycle_to);
  sqlite3_bind_int64(st, 9, (sqlite3_int64)l->flits);
  bind_u64(st, 10, l->wait);
  bind_u64(st, 11, l->packets);
  return step_insert(s, ST_LINK, "a link");
}

int store_stage(store_t *s, const store_stage_t *g) {
  if (need_run(s)) return -1;
  s->n_stages++;
  sqlite3_stmt *st = s->ins[ST_STAGE];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)g->packet);
  sqlite3_bind_int(st, 3, (int)g->idx);
  sqlite3_bind_text(st, 4, g->stage, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 5, g->instance, -1, SQLITE_STATIC);
  bind_port(st, 6, g->port);
  bind_u64(st, 7, g->cycle);
  return step_insert(s, ST_STAGE, "a stage");
}

int store_result(store_t *s, const store_result_t *r) {
  if (need_run(s)) return -1;
  const uint64_t idx = s->n_results++;
  if (s->bug == STORE_BUG_DROP_RESULT && idx == 1) return 0; /* planted: the row is lost */
  sqlite3_stmt *st = s->ins[ST_RESULT];
  sqlite3_bind_int64(st, 1, s->run);
  sqlite3_bind_int64(st, 2, (sqlite3_int64)idx);
  sqlite3_bind_text(st, 3, r->series, -1, SQLITE_STATIC);
  sqlite3_bind_text(st, 4, r->label, -1, SQLITE_STATIC);
  sqlite3_bind_double(st, 5, r->x);
  sqlite3_bind_text(st, 6, r->x_unit ? r->x_unit : "", -1, SQLITE_STATIC);
  sqlite3_bind_double(st, 7, r->value);
  sqlite3_bind_text(st, 8, r->unit ? r->unit : "", -1, SQLITE_STATIC);
  return step_insert(s, ST_RESULT, "a result");
}

static int64_t count_rows(store_t *s, const char *table) {
  char q[128];
  snprintf(q, sizeof q, "SELECT COUNT(*) FROM %s WHERE run = ?1", table);
  sqlite3_stmt *st;
  int64_t n = -1;
  if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) return -1;
  sqlite3_bind_int64(st, 1, s->run);
  if (sqlite3_step(st) == SQLITE_ROW) n = sqlite3_column_int64(st, 0);
  sqlite3_finalize(st);
  return n;
}

int store_run_end(store_t *s, uint64_t cycles, double wall_s, const char *status, char *err, size_t len) {
  if (need_run(s)) {
    snprintf(err, len, "%s", s->err);
    return -1;
  }
  /* check store.count: every row given is in the database (a lost insert,
   * e.g. the planted drop_row, must not go unnoticed) */
  const struct {
    const char *table;
    uint64_t given;
  } want[] = {{"packets", s->n_packets},
              {"hops", s->n_hops},
              {"links", s->n_links},
              {"stages", s->n_stages},
              {"results", s->n_results}};
  for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
    int64_t n = count_rows(s, want[i].table);
    if (n < 0 || (uint64_t)n != want[i].given) {
      snprintf(err, len, "check:store.count: %s: run %lld: %s has %lld rows, %llu were written", s->path,
               (long long)s->run, want[i].table, (long long)n, (unsigned long long)want[i].given);
      sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
      s->run = 0;
      return -1;
    }
  }
  sqlite3_stmt *st;
  int rc =
      sqlite3_prepare_v2(s->db,
                         "UPDATE runs SET cycles = ?2, wall_s = ?3, status = ?4, packets = ?5, hops = ?6,"
                         " links = ?7, stages = ?8, results = ?9 WHERE run = ?1",
                         -1, &st, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_int64(st, 1, s->run);
    sqlite3_bind_int64(st, 2, (sqlite3_int64)cycles);
    sqlite3_bind_double(st, 3, wall_s);
    sqlite3_bind_text(st, 4, status, -1, SQLITE_STATIC);
    sqlite3_bind_int64(st, 5, (sqlite3_int64)s->n_packets);
    sqlite3_bind_int64(st, 6, (sqlite3_int64)s->n_hops);
    sqlite3_bind_int64(st, 7, (sqlite3_int64)s->n_links);
    sqlite3_bind_int64(st, 8, (sqlite3_int64)s->n_stages);
    sqlite3_bind_int64(st, 9, (sqlite3_int64)s->n_results);
    rc = sqlite3_step(st) == SQLITE_DONE ? SQLITE_OK : SQLITE_ERROR;
    sqlite3_finalize(st);
  }
  if (rc != SQLITE_OK || sqlite3_exec(s->db, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
    fail(s, err, len, "cannot commit the run");
    sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
    s->run = 0;
    return -1;
  }
  s->run = 0;
  return 0;
}

/* CSV field: quoted when it holds a comma, quote or newline (RFC 4180). */
static void csv_field(FILE *out, const char *v) {
  if (!strpbrk(v, ",\"\n\r")) {
    fputs(v, out);
    return;
  }
  fputc('"', out);
  for (; *v; v++) {
    if (*v == '"') fputc('"', out);
    fputc(*v, out);
  }
  fputc('"', out);
}

int store_export_csv(store_t *s, const char *table, int64_t run_id, FILE *out, char *err, size_t len) {
  static const char *const tables[] = {"runs", "params", "packets", "hops", "links", "stages", "results"};
  static const char *const order[] = {"run",        "run, key",         "run, id", "run, packet, idx",
                                      "run, rowid", "run, packet, idx", "run, idx"};
  size_t t = 0;
  while (t < 7 && strcmp(tables[t], table)) t++;
  if (t == 7) {
    snprintf(err, len, "store: no table '%s' (runs, params, packets, hops, links, stages, results)", table);
    return -1;
  }
  char q[256];
  snprintf(q, sizeof q, "SELECT * FROM %s WHERE ?1 = 0 OR run = ?1 ORDER BY %s", table, order[t]);
  sqlite3_stmt *st;
  if (sqlite3_prepare_v2(s->db, q, -1, &st, NULL) != SQLITE_OK) return fail(s, err, len, "cannot export");
  sqlite3_bind_int64(st, 1, run_id);
  int nc = sqlite3_column_count(st);
  for (int i = 0; i < nc; i++) {
    if (i) fputc(',', out);
    csv_field(out, sqlite3_column_name(st, i));
  }
  fputc('\n', out);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    for (int i = 0; i < nc; i++) {
      if (i) fputc(',', out);
      const unsigned char *v = sqlite3_column_text(st, i);
      if (v) csv_field(out, (const char *)v); /* NULL: an empty field */
    }
    fputc('\n', out);
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE) return fail(s, err, len, "export failed");
  return 0;
}
