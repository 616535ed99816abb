/* OpenSM's routes in the ibsw fabric (issue 12 item 5, docs/ibsw.md "OpenSM in the loop"): read the
 * LFT dump a real OpenSM writes (opensm-lfts.dump, OpenSM 3.3's osm_ucast_mgr dump) for a fabric
 * exported by fabric_topo_write_ibnd(), and compare its hop counts with netcosim's own table.
 *
 * The dump names switches and destinations by GUID, not by netcosim's LIDs (OpenSM assigns its own
 * LIDs): a block "Unicast lids [a-b] of switch Lid L guid 0xG ('desc'):" per switch, then one line
 * "0xLID PORT # <kind> portguid 0xG: 'desc'" per LID (or "0xLID UNREACHABLE"). The switch GUID G is
 * FABRIC_IBND_SW_GUID(s); a Channel Adapter's port GUID is FABRIC_IBND_NODE_GUID(d) + 1. Entries
 * for switch LIDs are skipped (data packets go to hosts only; the SM routes by directed route). */
#ifndef NETCOSIM_IBF_OSM_H
#define NETCOSIM_IBF_OSM_H

#include <stddef.h>
#include <stdint.h>

#include "fabric/fabric_topo.h"

/* Fill lft[nsw * nodes] (topology port = IBA port − 1; ROUTE_LFT_NONE where the dump gives no
 * port: UNREACHABLE, or no line for that destination) from the dump at path. 0, or -1 with
 * "FILE:LINE: what" in err (a line that is not the format, a GUID that is not in this fabric, a
 * port the switch does not have, port 0 for a host, a switch block twice). */
int ibf_osm_read_lfts(const char *path, const fabric_topo_t *t, uint8_t *lft, char *err, size_t errlen);

/* Switch-to-switch hops a packet for node d takes from switch s through lft (0 on d's own
 * switch); -1 if it does not reach d within nsw hops (a hole, a loop or a misroute). */
int ibf_osm_hops(const fabric_topo_t *t, const uint8_t *lft, unsigned s, unsigned d);

#endif
