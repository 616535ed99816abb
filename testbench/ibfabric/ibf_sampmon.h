/* Check ibfab.sm_samples (docs/ibsw.md "The dynamic subnet manager", --sampling=samples): every
 * regulation decision of the dynamic SM was preceded, for each port it judged, by a sample window
 * that the switch accepted (PortSamplesControl Set answered status 0) and then reported DONE
 * (PortSamplesResult GetResp, status 0, SampleStatus DONE) since the previous decision. Counted
 * from the MAD words the SM sent and the words the switches answered (docs/ibsw.md §7.1, §7.4),
 * never from the SM's own bookkeeping. */
#ifndef NETCOSIM_IBF_SAMPMON_H
#define NETCOSIM_IBF_SAMPMON_H

#include <stdbool.h>
#include <stdint.h>

typedef struct {
  unsigned nsw, P;
  /* per TID: the switch and port of the request, its attribute and method (0: none seen) */
  uint16_t *attr;
  uint8_t *method;
  unsigned *sw, *port;
  uint8_t *started, *done;                                  /* [nsw * P]: since the last decision */
  uint64_t sets_ok, sets_busy, results_done, results_early; /* totals, for the report */
} ibf_sampmon_t;

int ibf_sampmon_init(ibf_sampmon_t *m, unsigned nsw, unsigned P);
void ibf_sampmon_free(ibf_sampmon_t *m);
/* A request the SM sends to switch sw: its MAD words (w[1][63:48] TID, w[2] class/method/attr/mod). */
void ibf_sampmon_sent(ibf_sampmon_t *m, unsigned sw, const uint64_t *w, unsigned n);
/* A response arriving at the SM's host. */
void ibf_sampmon_answer(ibf_sampmon_t *m, const uint64_t *w, unsigned n);
/* A decision judged ports (sw[i], port[i]) (IBA port numbers): false with the first port that had
 * no DONE window since the previous decision in *bad_sw, *bad_port; the record then restarts. */
bool ibf_sampmon_decision(ibf_sampmon_t *m, const unsigned *sw, const unsigned *port, unsigned n,
                          unsigned *bad_sw, unsigned *bad_port);

#endif
