/* The ibsw switch (csim/ibsw, docs/ibsw.md §12) as an instance type of the
 * generic fabric core (csim/fabric/, docs/fabric.md "Instance types").
 *
 * Ports: fabric port p (0-based) is IBA port p + 1, kind "ibsw64" (64-bit
 * data, 2-bit kind, V + 1 lanes): the flit's `vc` is the VL number (15 for
 * VL15), `credit` bit l is lane l (bit V = VL15).
 * Side outputs: err_<n> (n = 1..P) = err_code_o[n] in a cycle with
 * err_o[n] = 1, else 0; sma_err likewise.
 * Counters by name (FIBSW_CNT_*, per port): the PortCounters and extended
 * counters of §8.1, and three readings that are not counters: power_mw and
 * energy (§9, any port), phys_state and port_state (§4, of the port).
 * Configuration keys: "lft" (index = LID, value = entry, an IBA port number
 * or 0xFF) and "lft_top" (value = LinearFDBTop), queued and driven on the
 * configuration port of §5.7, one write per cycle.
 *
 * RTL side: the Verilated target ibsw_p4 (rtl/ibsw/ibsw.cosim: 4 ports,
 * 2 data VLs, BufDepth = Buf15Depth = 4, RouteCycles 5, WakeCycles 4, one
 * LFT block, counters 8/16 bits, BootActive 0) through its generated glue,
 * for the type (4, 2) only and only with exactly those parameters
 * (fibsw_rtl_check); the same configuration writes on cfg_*_i, counters
 * from the cnt_*_o / ext_*_o / power / state outputs, an FST by
 * fabric_trace, SystemVerilog assertion failures as the fabric's
 * assert:<label>. The RTL is never skipped (no quiet()). The larger targets
 * are too heavy to Verilate for a fabric (docs/ibsw.md "Status").
 *
 * quiet() is §12's list: nothing buffered, staged or in an output register,
 * every lane IDLE (front and arrival framing), every output lane FREE, no
 * packet pending, no port in Polling/Training/LinkErrorRecovery or draining,
 * the SMA IDLE, no event waiting for its counter or error output, no
 * sampler STARTED/RUNNING, no configuration write queued. The cycle counter
 * (slot divider) and the energy register move with time alone: a skipped
 * instance catches them up on its next evaluation (E + PW k) and on reads. */
#ifndef NETCOSIM_BIND_FABRIC_IBSW_H
#define NETCOSIM_BIND_FABRIC_IBSW_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric/fabric.h"
#include "ibsw/ibsw.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
  FIBSW_CNT_POWER_MW = IBSW_NCNT, /* after the 15 counters of ibsw.h, in their order */
  FIBSW_CNT_ENERGY,
  FIBSW_CNT_PHYS_STATE,
  FIBSW_CNT_PORT_STATE,
  FIBSW_NCNT
};

/* Planted bug of the binding (negative of check ibfab.skip_vs_noskip):
 * quiet() looks at the buffers only. */
#define FIBSW_BUG_QUIET_LIES 1u

typedef struct {
  ibsw_cfg_t cfg;     /* the switch's parameters (ibsw_init checks them) */
  unsigned quiet_bug; /* FIBSW_BUG_QUIET_LIES or 0 */
  uint64_t seed;      /* RTL: + the instance index draws its registers' start values */
} fibsw_params_t;

/* The instance type for P ports and V data VLs (one per (P, V), kept for
 * the process's life), or NULL with err when out of range (docs/ibsw.md §2). */
const fabric_type_t *fibsw_type(unsigned ports, unsigned vls, char *err, size_t errlen);
/* The port kind of that V (hosts use it too). */
const fabric_port_kind_t *fibsw_port_kind(unsigned vls);
/* 0 when cfg equals the RTL target's parameters (an RTL or lockstep
 * instance can be made), else -1 with the first field that differs in err. */
int fibsw_rtl_check(const ibsw_cfg_t *cfg, char *err, size_t errlen);
/* Counter id by name, -1 if none. */
int fibsw_counter_id(const char *name);

#ifdef __cplusplus
}
#endif
#endif
