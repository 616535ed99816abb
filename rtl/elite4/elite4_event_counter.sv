// A wrapping 32-bit event counter (common_counter's behaviour with
// Saturate = 0, never cleared) for events decided late in the cycle: SA's
// decisions (a synthetic TAIL, a credit or token that overflows, XmitWait)
// come after most of the cycle is spent. Only the low LoW bits add the
// cycle's events; the high bits take a precomputed +1 when the low part
// carries, so a late event crosses a LoW-bit adder and one multiplexer
// instead of a 32-bit carry chain (docs/elite4.md §10). Same counts as
// common_counter: count_o(t+1) = count_o(t) + early_i + (ones in late_i).
module elite4_event_counter #(
  parameter int unsigned EarlyW = 4,   // bits of the early event count
  parameter int unsigned LateW  = 1,   // late events, one bit each
  localparam int unsigned LoW   = 6
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [EarlyW-1:0] early_i,
  input  logic [LateW-1:0]  late_i,
  output logic [31:0]       count_o
);

  // one carry at most out of the low part: 63 + 64 < 128
  if ((1 << EarlyW) - 1 + LateW > (1 << LoW)) begin : gen_width_check
    $error("elite4_event_counter: too many events per cycle for LoW");
  end

  logic [31:0]     count_q, count_d;
  logic [LoW:0]    lo_sum, late_n;
  logic [31-LoW:0] hi_inc;

  always_comb begin
    late_n = '0;
    for (int unsigned k = 0; k < LateW; k++) late_n = late_n + (LoW+1)'(late_i[k]);
    lo_sum  = {1'b0, count_q[LoW-1:0]} + (LoW+1)'(early_i) + late_n;
    hi_inc  = count_q[31:LoW] + 1'b1;
    count_d = {lo_sum[LoW] ? hi_inc : count_q[31:LoW], lo_sum[LoW-1:0]};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  assign count_o = count_q;

endmodule
