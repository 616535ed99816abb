/* Check ibfab.sm_samples (ibf_sampmon.h): the MADs decoded here from their words (docs/ibsw.md
 * §7.1 layout, §7.4 PortSamplesControl 0x0010 and PortSamplesResult 0x0011 of class 0x04). */
#include "ibfabric/ibf_sampmon.h"

#include <stdlib.h>
#include <string.h>

#define NTID 65536u

int ibf_sampmon_init(ibf_sampmon_t *m, unsigned nsw, unsigned P) {
  memset(m, 0, sizeof *m);
  m->nsw = nsw;
  m->P = P;
  m->attr = calloc(NTID, sizeof *m->attr);
  m->method = calloc(NTID, 1);
  m->sw = calloc(NTID, sizeof *m->sw);
  m->port = calloc(NTID, sizeof *m->port);
  m->started = calloc((size_t)nsw * P, 1);
  m->done = calloc((size_t)nsw * P, 1);
  return m->attr && m->method && m->sw && m->port && m->started && m->done ? 0 : -1;
}

void ibf_sampmon_free(ibf_sampmon_t *m) {
  free(m->attr), free(m->method), free(m->sw), free(m->port), free(m->started), free(m->done);
  memset(m, 0, sizeof *m);
}

void ibf_sampmon_sent(ibf_sampmon_t *m, unsigned sw, const uint64_t *w, unsigned n) {
  if (!m->attr || n < 3) return;
  const unsigned tid = (unsigned)(w[1] >> 48);
  const unsigned cls = (unsigned)(w[2] >> 56), method = (unsigned)(w[2] >> 48 & 0xFF);
  const unsigned attr = (unsigned)(w[2] >> 32 & 0xFFFF), mod = (unsigned)(w[2] >> 16 & 0xFFFF);
  m->attr[tid] = cls == 0x04 ? (uint16_t)attr : 0; /* only PerfMgt attributes matter here */
  m->method[tid] = (uint8_t)method;
  m->sw[tid] = sw;
  m->port[tid] = mod;
}

void ibf_sampmon_answer(ibf_sampmon_t *m, const uint64_t *w, unsigned n) {
  if (!m->attr || n < 3) return;
  const unsigned tid = (unsigned)(w[1] >> 48), status = (unsigned)(w[2] & 0xFFFF);
  const unsigned attr = m->attr[tid], sw = m->sw[tid], port = m->port[tid];
  if (!attr || (w[2] >> 48 & 0xFF) != 0x81 || (w[2] >> 32 & 0xFFFF) != attr || sw >= m->nsw || port < 1 ||
      port > m->P)
    return;
  const size_t k = (size_t)sw * m->P + port - 1;
  if (attr == 0x0010 && m->method[tid] == 0x02) { /* a Set: a window starts only if accepted */
    if (status == 0) {
      m->started[k] = 1;
      m->done[k] = 0; /* this window's DONE is still to come */
      m->sets_ok++;
    } else if (status == 0x0001) {
      m->sets_busy++;
    }
  } else if (attr == 0x0011 && status == 0 && n == 6) {
    if ((w[5] & 3) == 0 && m->started[k]) { /* SampleStatus DONE of an accepted window */
      m->done[k] = 1;
      m->results_done++;
    } else if ((w[5] & 3) != 0) {
      m->results_early++;
    }
  }
  m->attr[tid] = 0;
}

bool ibf_sampmon_decision(ibf_sampmon_t *m, const unsigned *sw, const unsigned *port, unsigned n,
                          unsigned *bad_sw, unsigned *bad_port) {
  bool ok = true;
  for (unsigned i = 0; i < n && ok; i++) {
    const size_t k = (size_t)sw[i] * m->P + port[i] - 1;
    if (!m->done[k]) ok = false, *bad_sw = sw[i], *bad_port = port[i];
  }
  memset(m->started, 0, (size_t)m->nsw * m->P);
  memset(m->done, 0, (size_t)m->nsw * m->P);
  return ok;
}
