/* The small unit-test harness shared by the C models' tests (csim/<block>/test_*.c):
 * CHECK() records a pass or a failure (printed with file:line), splitmix64 is
 * the only source of randomness, and a test can capture what the code under
 * test prints to stderr. A test's main prints its seed first and ends with
 * unit_summary(): the line "N passed, N failed" and the exit status. */
#ifndef NETCOSIM_UNIT_H
#define NETCOSIM_UNIT_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

typedef struct {
  unsigned long passed;
  unsigned long failed;
  uint64_t rng; /* splitmix64 state: the only source of randomness */
} tctx_t;

static inline bool check_impl(tctx_t *t, bool ok, const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

static inline bool check_impl(tctx_t *t, bool ok, const char *file, int line, const char *fmt, ...) {
  if (ok) {
    t->passed++;
    return true;
  }
  t->failed++;
  printf("FAIL %s:%d: ", file, line);
  va_list ap;
  va_start(ap, fmt);
  vprintf(fmt, ap);
  va_end(ap);
  printf("\n");
  return false;
}

/* CHECK(t, condition, printf-style message): records pass/fail; evaluates to the result. */
#define CHECK(t, cond, ...) check_impl((t), (cond) ? true : false, __FILE__, __LINE__, __VA_ARGS__)

static inline uint64_t unit_splitmix64(uint64_t *st) {
  uint64_t z = (*st += UINT64_C(0x9E3779B97F4A7C15));
  z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
  z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
  return z ^ (z >> 31);
}

/* Capture what a call prints to stderr, so tests can check a message without
   cluttering the output. Falls back to not capturing if tmpfile fails. */
typedef struct {
  FILE *tmp;
  int saved_fd;
} capture_t;

static inline void capture_begin(capture_t *c) {
  fflush(stderr);
  c->saved_fd = -1;
  c->tmp = tmpfile();
  if (c->tmp == NULL) return;
  c->saved_fd = dup(fileno(stderr));
  if (c->saved_fd < 0 || dup2(fileno(c->tmp), fileno(stderr)) < 0) {
    if (c->saved_fd >= 0) close(c->saved_fd);
    fclose(c->tmp);
    c->tmp = NULL;
    c->saved_fd = -1;
  }
}

static inline void capture_end(capture_t *c, char *buf, size_t len) {
  buf[0] = '\0';
  fflush(stderr);
  if (c->tmp == NULL) return;
  dup2(c->saved_fd, fileno(stderr));
  close(c->saved_fd);
  rewind(c->tmp);
  size_t n = fread(buf, 1, len - 1, c->tmp);
  buf[n] = '\0';
  fclose(c->tmp);
}

/* The last line of every unit test, and its exit status. */
static inline int unit_summary(const tctx_t *t) {
  printf("%lu passed, %lu failed\n", t->passed, t->failed);
  return t->failed ? 1 : 0;
}

#endif
