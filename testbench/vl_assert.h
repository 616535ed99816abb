/* Which SystemVerilog assertion failed: the Verilator runtime's printf hook.
 *
 * Verilator reports a failed assertion only as text ("Assertion failed in
 * TOP.<hier>.<label>: ...", via VL_PRINTF) and a $stop that, with
 * fatalOnError(false), just counts. The runtime (verilated.cpp) is compiled
 * with -DVL_PRINTF=netcosim_vl_printf and this header force-included, so the
 * hook still prints every message and also remembers the last assertion's
 * label. The generated glue compares the count around each step to attribute
 * a failure to its own model (see docs/cosim.md, "RTL assertions").
 */
#ifndef NETCOSIM_VL_ASSERT_H
#define NETCOSIM_VL_ASSERT_H
#ifdef __cplusplus
extern "C" {
#endif
void netcosim_vl_printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* assertions failed so far in this process; the label of failure n (0-based;
 * the last 16 are kept, so a step's first failure is there after the step) */
unsigned long netcosim_vl_assert_count(void);
const char *netcosim_vl_assert_label(unsigned long n);
#ifdef __cplusplus
}
#endif
#endif
