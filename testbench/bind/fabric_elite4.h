/* The elite4 switch (target elite4_p8: 8 ports, 2 VCs, BufDepth 8, UpMask
 * 0xF0) as an instance type of the generic fabric core (csim/fabric/,
 * docs/fabric.md "Instance types").
 *
 * Model side: straight from elite4_in_t / elite4_out_t (no bus packing).
 * RTL side: the Verilated elite4_p8 through its generated glue (the only
 * place that packs buses, because the RTL's ports are buses).
 * Ports 0..7 carry one flit each way (kind "elite4_link": 32-bit data,
 * 2-bit kind, 2 VCs; `credit` bit v = in_credit_i / out_credit_o[p*2+v]).
 * Side outputs, zero when nothing happens:
 *   FE4_SIDE_ALLOC    alloc_o (bit p*2+v: input VC (p, v) was granted last cycle)
 *   FE4_SIDE_ERR      err_o (bit p)
 *   FE4_SIDE_ERR_CODE err_code_o of the ports whose err_o is set (4 bits per
 *                     port, port p at bit 4p; err_code_o holds its value
 *                     between errors, which is not an event)
 * Counters (read on demand, as the outputs showed them in the last cycle
 * run): FE4_CNT_* below, the cnt_*_o outputs of port p.
 *
 * quiet() (model only; the RTL is never skipped): nothing in any input
 * buffer, every input VC IDLE and every output VC FREE with no early token,
 * no token owed, staging, token-input and switch-allocation registers
 * empty, no registered error/wait event, no pulse in the output registers
 * (flit, credit, alloc, err) or in the buffers' and credit counters'
 * error registers, and the registered adaptive choice upsel settled: the
 * choice the model would compute now from the credit counters and uptr
 * equals the registered one (csim/elite4/elite4_up_select.c: upsel follows
 * the counters one cycle later, so an emptied switch is a fixed point only
 * one cycle after its last credit came back). */
#ifndef NETCOSIM_BIND_FABRIC_ELITE4_H
#define NETCOSIM_BIND_FABRIC_ELITE4_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fabric.h"

#ifdef __cplusplus
extern "C" {
#endif

#define FE4_PORTS 8u
#define FE4_VCS   2u
#define FE4_DEPTH 8u

enum { FE4_SIDE_ALLOC = 0, FE4_SIDE_ERR, FE4_SIDE_ERR_CODE, FE4_NSIDE };
enum {
  FE4_CNT_XMIT_FLITS = 0,
  FE4_CNT_RCV_FLITS,
  FE4_CNT_XMIT_PKTS,
  FE4_CNT_RCV_PKTS,
  FE4_CNT_XMIT_WAIT,
  FE4_CNT_ERRORS,
  FE4_CNT_CRC_ERRORS,
  FE4_NCNT
};

/* Planted bug of the skip path (negative of check fabric.skip_vs_noskip):
 * quiet() looks at the buffers and VC states only, not at the output
 * registers, the staging registers or upsel. */
#define FE4_BUG_QUIET_LIES 1u
/* Planted bug of the binding (negative of check fabric.core_vs_e4f): the
 * model side drops credit returns for VC 1 on input port 0. */
#define FE4_BUG_DROP_CREDIT 2u
/* Planted bug of the counter channel (negative of the counter comparison of
 * elite4_fabric_core_sim's model-vs-RTL check): the model side reports one
 * flit more in xmit_flits of port 0. */
#define FE4_BUG_COUNTER_OFF 4u

typedef struct {
  unsigned model_bug; /* elite4 planted model bug (elite4_bug_names), model side only */
  unsigned quiet_bug; /* FE4_BUG_QUIET_LIES, FE4_BUG_DROP_CREDIT, FE4_BUG_COUNTER_OFF or 0 */
  uint64_t seed;      /* the start of the registers (scramble / RTL), before reset */
  const char *trace;  /* RTL: an FST at this path from the start, or NULL */
} fe4_params_t;

extern const fabric_port_kind_t fe4_link_kind;
extern const fabric_type_t fe4_type; /* "elite4_p8" */

#ifdef __cplusplus
}
#endif
#endif
