/* A sparse dword memory (a node's local memory, or its host's memory):
 * 8 KB pages allocated on first write, found by open addressing; reads 0
 * where nothing was written (docs/elan4.md §4.5: the memory model's
 * contract). Addresses are dword addresses (byte address >> 3). */
#ifndef EF_MEM_H
#define EF_MEM_H

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { EF_PAGE_DW = 1024 };

typedef struct {
  uint64_t *key; /* page number + 1 (0: empty) */
  uint64_t **pg;
  size_t cap, n;
} ef_mem_t;

static inline size_t ef_mem_slot(const ef_mem_t *m, uint64_t key) {
  size_t i = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (m->cap - 1);
  while (m->key[i] && m->key[i] != key) i = (i + 1) & (m->cap - 1);
  return i;
}
static inline uint64_t ef_mem_get(const ef_mem_t *m, uint64_t dw) {
  if (!m->cap) return 0;
  const size_t i = ef_mem_slot(m, dw / EF_PAGE_DW + 1);
  return m->key[i] ? m->pg[i][dw % EF_PAGE_DW] : 0;
}
/* 0, or -1 when out of memory */
static inline int ef_mem_grow(ef_mem_t *m) {
  ef_mem_t g = {calloc(m->cap ? 2 * m->cap : 64, sizeof *g.key),
                calloc(m->cap ? 2 * m->cap : 64, sizeof *g.pg), m->cap ? 2 * m->cap : 64, m->n};
  if (!g.key || !g.pg) {
    free(g.key);
    free(g.pg);
    return -1;
  }
  for (size_t i = 0; i < m->cap; i++)
    if (m->key[i]) {
      const size_t j = ef_mem_slot(&g, m->key[i]);
      g.key[j] = m->key[i];
      g.pg[j] = m->pg[i];
    }
  free(m->key);
  free(m->pg);
  *m = g;
  return 0;
}
static inline int ef_mem_set(ef_mem_t *m, uint64_t dw, uint64_t v) {
  if (2 * (m->n + 1) > m->cap && ef_mem_grow(m)) return -1;
  const uint64_t key = dw / EF_PAGE_DW + 1;
  const size_t i = ef_mem_slot(m, key);
  if (!m->key[i]) {
    if (!(m->pg[i] = calloc(EF_PAGE_DW, sizeof(uint64_t)))) return -1;
    m->key[i] = key;
    m->n++;
  }
  m->pg[i][dw % EF_PAGE_DW] = v;
  return 0;
}
static inline void ef_mem_free(ef_mem_t *m) {
  for (size_t i = 0; i < m->cap; i++)
    if (m->key[i]) free(m->pg[i]);
  free(m->key);
  free(m->pg);
  memset(m, 0, sizeof *m);
}

#endif
