/* Stimulus randomness: xoshiro256** seeded through splitmix64, so a seed
 * fully determines a run on every machine. */
#include <stdarg.h>
#include <stdio.h>

#include "cosim.h"

static uint64_t splitmix64(uint64_t *x) {
  uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void cosim_rng_seed(cosim_rng_t *r, uint64_t seed) {
  for (int i = 0; i < 4; i++) r->s[i] = splitmix64(&seed);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t cosim_rng_u64(cosim_rng_t *r) {
  uint64_t *s = r->s;
  uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return result;
}

uint32_t cosim_rng_below(cosim_rng_t *r, uint32_t n) {
  return n ? (uint32_t)(((cosim_rng_u64(r) >> 32) * (uint64_t)n) >> 32) : 0;
}

bool cosim_rng_chance(cosim_rng_t *r, double p) { return (double)(cosim_rng_u64(r) >> 11) * 0x1.0p-53 < p; }

void cosim_fail(cosim_msg_t *m, const char *id, const char *fmt, ...) {
  snprintf(m->id, sizeof m->id, "%s", id);
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(m->text, sizeof m->text, fmt, ap);
  va_end(ap);
}
