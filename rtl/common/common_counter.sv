// Event counter, wrapping or saturating. Spec: docs/common.md#common_counter.
//
// One module for every statistic a block keeps: elite4's and cp's counters
// wrap (Saturate = 0), InfiniBand PortCounters saturate (Saturate = 1).
module common_counter #(
  parameter int Width    = 32,
  parameter int IncW     = 1,
  // int, not bit: the co-simulation flow passes parameters as decimal -G values
  parameter int Saturate = 0
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [IncW-1:0]  inc_i,     // events this cycle
  input  logic             clear_i,   // count to 0; has priority over inc_i
  output logic [Width-1:0] count_o,
  output logic             sat_o      // count is all ones (both modes)
);

  if (Width < 1 || Width > 64) begin : gen_width_check
    $error("common_counter: Width must be 1..64");
  end
  if (IncW < 1 || IncW > 16) begin : gen_incw_check
    $error("common_counter: IncW must be 1..16");
  end
  if (Saturate < 0 || Saturate > 1) begin : gen_saturate_check
    $error("common_counter: Saturate must be 0 or 1");
  end
  if (IncW > Width) begin : gen_incw_width_check
    $error("common_counter: IncW must not exceed Width");
  end

  logic [Width-1:0] count_q, count_d;
  // one carry bit is enough: IncW <= Width, so n + inc_i < 2^(Width+1)
  logic [Width:0]   sum;

  always_comb begin
    sum = {1'b0, count_q} + (Width + 1)'(inc_i);
    if (clear_i)       count_d = '0;
    else if (Saturate != 0) count_d = sum[Width] ? '1 : sum[Width-1:0];
    else               count_d = sum[Width-1:0];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  assign count_o = count_q;
  assign sat_o   = &count_q;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  always_ff @(posedge clk_i) begin
    counter_sat_iff_ones: assert (sat_o == (count_q == '1));
    counter_clear_zero: assert (!clear_i || count_d == '0);
    // no events and no clear: the count holds
    counter_idle_holds: assert (clear_i || inc_i != '0 || count_d == count_q);
    // saturating: only a clear makes the count smaller (never wraps)
    counter_sat_no_decrease: assert (Saturate == 0 || clear_i || count_d >= count_q);
  end
`endif

endmodule
