/* An elan4 node as an instance type of the generic fabric core
 * (csim/fabric/, docs/elan4fab.md): the NIC (target elan4_default: the C
 * model, the Verilated RTL, or both in lockstep), its local memory (lm_*,
 * data LmLatency cycles after a read, docs/elan4.md §3.3) and its host
 * (ef_host.h: PIO writes from a program, host memory behind hm_*,
 * interrupt records). One fabric port, the link to the leaf switch (kind
 * elite4_link: docs/elan4.md §3.4 is one elite4 port).
 *
 * Lockstep is the node's own, not the core's: the host and the memories
 * answer the NIC's requests, so the model and the RTL must share one host
 * and one memory, and every NIC output port (not only the link) is
 * compared in every cycle; the first difference names the port and the
 * cycle (ef_node_failure). Nodes are never skipped (no quiet()). */
#ifndef EF_NODE_H
#define EF_NODE_H

#include <stdbool.h>
#include <stdint.h>

#include "bind/elan4.h"
#include "ef_host.h"
#include "ef_log.h"
#include "ef_mem.h"
#include "fabric/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { EF_NIC_MODEL = 0, EF_NIC_RTL, EF_NIC_LOCKSTEP } ef_nic_mode_t;
extern const char *const ef_nic_mode_names[3];

typedef struct {
  unsigned node;
  ef_nic_mode_t mode;
  unsigned bug;       /* elan4 planted model bug (elan4_bug_names), model side */
  uint64_t seed;      /* scramble (model) / initial registers (RTL) */
  unsigned host_lat;  /* host read latency, cycles */
  const char *trace;  /* RTL / lockstep: an FST of the NIC from cycle 0, or NULL */
  ef_log_t *log;      /* or NULL */
  unsigned num_nodes; /* the fabric's nodes: above elan4_default's NumNodes (64) the model alone,
                         with NumNodes = num_nodes (elan4_default_model_nodes) */
} ef_node_params_t;

typedef struct {
  unsigned node, idx; /* node number, fabric instance */
  ef_nic_mode_t mode;
  void *m, *r; /* model, RTL */
  elan4_default_in_t in;
  elan4_default_out_t out_m, out_r, last; /* last: the reference outputs of the last cycle run */
  ef_mem_t lm;
  bool lm_due[16];
  uint32_t lm_addr[16];
  ef_host_t host;
  ef_log_t *log;
  bool failed;
  uint64_t fail_cycle;
  char fail[256];
} ef_node_t;

extern const fabric_type_t ef_node_type; /* "elan4_node" */

/* The node behind a fabric instance of type ef_node_type. */
static inline ef_node_t *ef_node_of(fabric_t *f, uint32_t inst) { return (ef_node_t *)f->inst[inst].m; }
/* The target's parameters (docs/elan4.md §2 as elaborated for elan4_default). */
const elan4_view_t *ef_view(void);

#ifdef __cplusplus
}
#endif
#endif
