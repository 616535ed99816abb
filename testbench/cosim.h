/* netcosim lockstep engine: the contract between generated glue, model
 * bindings, tests and the engine. See docs/cosim.md.
 *
 * A co-simulation *target* is one RTL top module with one parameter set
 * (declared in rtl/<block>/<block>.cosim). Its port structs, port tables and
 * the C ABI around the Verilated class are generated (build/glue/<target>/);
 * the model side is a small hand-written binding (testbench/bind/<block>.c)
 * that maps the generated structs onto the block's C model.
 */
#ifndef NETCOSIM_COSIM_H
#define NETCOSIM_COSIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One top-level port, as generated from the RTL. Ports up to 64 bits are
 * stored as the smallest uint8/16/32/64_t; wider ports as uint32_t words,
 * word 0 = bits 31:0. */
typedef struct cosim_port {
  const char *name;
  unsigned width; /* bits */
  unsigned bytes; /* storage in the struct */
  size_t offset;  /* offsetof in <target>_in_t / _out_t */
  int cond;       /* outputs only: index of the output that gates comparison, -1 = always */
  int cond_value; /* compare while output[cond] == cond_value */
} cosim_port_t;

/* The Verilated (or yosys-netlist) side: generated C ABI around V<target>. */
typedef struct cosim_rtl_ops {
  void *(*create)(const char *trace_path, uint64_t seed); /* NULL path: no trace; the seed
                                                            draws the registers' initial values */
  void (*trace_open)(void *h, const char *trace_path);    /* start tracing mid-run */
  void (*reset)(void *h);                                 /* rst_ni low for two clocks, then high */
  void (*step)(void *h, const void *in, void *out);       /* apply in, settle, read out, rising edge */
  void (*destroy)(void *h);
  /* optional: the message of the first SystemVerilog assertion that failed
   * since create (NULL = none). The engine checks it after every step and
   * fails the run as assert:<label>. */
  const char *(*assert_failed)(void *h);
} cosim_rtl_ops_t;

/* What the generator knows about a target. */
typedef struct cosim_glue {
  const char *name;  /* target name */
  const char *top;   /* RTL module */
  const char *block; /* rtl/<block>/ */
  size_t in_size, out_size;
  const cosim_port_t *in_ports, *out_ports;
  unsigned n_in, n_out;
  cosim_rtl_ops_t rtl;
  const cosim_rtl_ops_t *netlist; /* NULL unless the netlist build exists */
} cosim_glue_t;

/* The C model side, hand-written per block in testbench/bind/. */
typedef struct cosim_model_ops {
  /* bug: 0 = the model as specified; k > 0 = planted bug bug_names[k].
   * Returns NULL after printing why on stderr. */
  void *(*create)(unsigned bug);
  void (*reset)(void *m);
  /* evaluate one cycle: outputs and the pending next state; the registers
   * must not change (the RTL has not seen its clock edge yet) */
  void (*eval)(void *m, const void *in, void *out);
  void (*commit)(void *m); /* clock edge */
  void (*destroy)(void *m);
  const char *const *bug_names; /* NULL-terminated, [0] = "none" */
  /* optional: before reset, put garbage (legal for each field's type, never
   * the reset value) in the registers and the pending next state, as the
   * RTL's registers start random: a register the reset forgets shows */
  void (*scramble)(void *m, uint64_t seed);
} cosim_model_ops_t;

typedef struct cosim_target {
  const cosim_glue_t *glue;
  cosim_model_ops_t model;
} cosim_target_t;

/* Deterministic stimulus generator (xoshiro256**, seeded by splitmix64). */
typedef struct cosim_rng {
  uint64_t s[4];
} cosim_rng_t;
void cosim_rng_seed(cosim_rng_t *r, uint64_t seed);
uint64_t cosim_rng_u64(cosim_rng_t *r);
uint32_t cosim_rng_below(cosim_rng_t *r, uint32_t n); /* uniform in [0, n) */
bool cosim_rng_chance(cosim_rng_t *r, double p);      /* true with probability p */

/* A failure from a test's checker. Every check has a stable id
 * ("<area>.<what>", e.g. "fifo.order"): a negative test names the check it
 * expects to fire, --expect-fail=check:fifo.order@37, and any other failure
 * fails the negative. */
typedef struct cosim_msg {
  char id[48];
  char text[512];
} cosim_msg_t;
void cosim_fail(cosim_msg_t *m, const char *id, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* A test: stimulus plus an optional scoreboard. The engine calls, per cycle:
 * drive() -> [model eval, rtl step, compare] -> check() -> commit. */
typedef struct cosim_test {
  const char *name;
  const cosim_target_t *target;
  const char *purpose; /* one line, shown by --list */
  size_t ctx_size;     /* zeroed and passed to every hook */
  /* optional: once, before cycle 0 */
  void (*init)(void *ctx, cosim_rng_t *rng);
  /* fill the inputs of this cycle (in is zeroed first); prev_out = the
   * reference outputs of the previous cycle (zeroed at cycle 0).
   * Return false to end the test early (directed tests). */
  bool (*drive)(void *ctx, uint64_t cycle, cosim_rng_t *rng, const void *prev_out, void *in);
  /* optional scoreboard on the reference outputs (the model's in lockstep
   * and model mode, the RTL's in rtl mode). Return false and fill msg on failure. */
  bool (*check)(void *ctx, uint64_t cycle, const void *in, const void *out, cosim_msg_t *msg);
  /* optional: after the last cycle */
  bool (*finish)(void *ctx, uint64_t cycles, cosim_msg_t *msg);
} cosim_test_t;

void cosim_register_test(const cosim_test_t *t);

/* Define and register a test in one go:
 *   COSIM_TEST(common_fifo_directed, .target = &..., .drive = ...);        */
#define COSIM_TEST(id, ...)                                         \
  static const cosim_test_t id##_test = {.name = #id, __VA_ARGS__}; \
  __attribute__((constructor)) static void id##_register(void) { cosim_register_test(&id##_test); }

/* Port helpers for bindings and tests (value of a port up to 64 bits). */
uint64_t cosim_port_get(const cosim_port_t *p, const void *s);
void cosim_port_set(const cosim_port_t *p, void *s, uint64_t v);
/* Width in bits of the input or output port called name, as elaborated; 0 if none. */
unsigned cosim_port_width(const cosim_glue_t *g, const char *name);

#ifdef __cplusplus
}
#endif
#endif /* NETCOSIM_COSIM_H */
