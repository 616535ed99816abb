/* What an elan4 fabric run saw, one row per event of interest (the stages
 * of docs/elan4.md §9.3): the nodes log their ports, the driver's observer
 * the switches' HEADs. Kept only for runs that report a breakdown. */
#ifndef EF_LOG_H
#define EF_LOG_H

#include <stdint.h>
#include <stdlib.h>

enum {
  EF_EV_CMD = 0, /* tr_cmd_o: a command accepted in the previous cycle (logged at that cycle) */
  EF_EV_FORM,    /* tr_form_o: a STEN packet formed (previous cycle) */
  EF_EV_TX_HEAD, /* out_*: HEAD (a = route word) */
  EF_EV_TX_TAIL,
  EF_EV_TX_TOKEN, /* a = the token's data */
  EF_EV_RX_HEAD,
  EF_EV_RX_TAIL,
  EF_EV_RX_TOKEN,
  EF_EV_LM_WRITE, /* a = dword address */
  EF_EV_HM_WRITE, /* a = byte address */
  EF_EV_FIRE,     /* tr_fire_o (previous cycle), a = the event's local byte address */
  EF_EV_IRQ,      /* a = cause << 56 | data (low 56 bits) */
  EF_EV_SW_IN,    /* a switch: HEAD on input `port` */
  EF_EV_SW_OUT,   /* a switch: HEAD on output `port` */
  EF_EV_N
};

typedef struct {
  uint64_t cycle, a;
  uint32_t inst; /* the fabric instance */
  uint8_t kind, port;
} ef_event_t;

typedef struct {
  ef_event_t *ev;
  size_t n, cap;
  int oom;
} ef_log_t;

static inline void ef_log(ef_log_t *l, uint64_t cycle, uint32_t inst, unsigned kind, unsigned port,
                          uint64_t a) {
  if (!l) return;
  if (l->n == l->cap) {
    const size_t nc = l->cap ? 2 * l->cap : 256;
    ef_event_t *g = realloc(l->ev, nc * sizeof *g);
    if (!g) {
      l->oom = 1;
      return;
    }
    l->ev = g;
    l->cap = nc;
  }
  l->ev[l->n++] = (ef_event_t){cycle, a, inst, (uint8_t)kind, (uint8_t)port};
}
/* The first event of this kind at instance inst (any instance: UINT32_MAX)
 * from cycle `from`, index >= 0, or -1. */
static inline long ef_log_first(const ef_log_t *l, unsigned kind, uint32_t inst, uint64_t from) {
  for (size_t i = 0; i < l->n; i++)
    if (l->ev[i].kind == kind && l->ev[i].cycle >= from && (inst == UINT32_MAX || l->ev[i].inst == inst))
      return (long)i;
  return -1;
}

#endif
