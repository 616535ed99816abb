// A wrapping 32-bit event counter (common_counter's behaviour with
// Saturate = 0, never cleared) whose increment may be decided late in the
// cycle: SA's decisions (a synthetic TAIL, a credit or token that overflows,
// XmitWait) come after most of the cycle is spent, and the flit counters'
// increments after the crossbar's multiplexers. Only the low LoW bits add the
// cycle's events; the high bits take a precomputed +1 when the low part
// carries, so a late event crosses a LoW-bit adder and one multiplexer
// instead of a 32-bit carry chain (docs/elite4.md §10). Same counts as
// common_counter: count_o(t+1) = count_o(t) + early_i + (ones in late_i).
module elite4_event_counter #(
  parameter int unsigned EarlyW = 4,   // bits of the early event count
  parameter int unsigned LateW  = 1,   // late events, one bit each
  parameter bit          HiReg  = 1'b0, // the carry into a register, applied a cycle later (the latest events)
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
    $error("elite4_event_counter: EarlyW and LateW must leave one carry at most out of the low LoW bits ((1 << EarlyW) - 1 + LateW <= 1 << LoW)");
  end

  logic [31:0]     count_q, count_d;
  localparam int unsigned NW = $clog2(LateW + 1);

  logic [LoW:0]    lo_base;
  logic [LoW-1:0]  lo_sum;
  logic [NW-1:0]   late_n;
  logic [LateW:0]  carry_if;   // carry_if[k]: the low part carries if k late events
  logic            carry;
  logic [31-LoW:0] hi_inc;

  always_comb begin
    // from registers and early events, in parallel with SA
    lo_base = {1'b0, count_q[LoW-1:0]} + (LoW+1)'(early_i);
    hi_inc  = count_q[31:LoW] + 1'b1;
    for (int unsigned k = 0; k <= LateW; k++) carry_if[k] = 32'(lo_base) + k >= (1 << LoW);
    // late: count them, then choose the precomputed carry
    late_n = '0;
    for (int unsigned k = 0; k < LateW; k++) late_n = late_n + NW'(late_i[k]);
    carry = 1'b0;
    for (int unsigned k = 0; k <= LateW; k++) if (32'(late_n) == k) carry = carry_if[k];
    lo_sum  = lo_base[LoW-1:0] + LoW'(late_n);
    count_d = {carry ? hi_inc : count_q[31:LoW], lo_sum};
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  // With HiReg the carry ends at one flip-flop (ours, docs/elite4.md §10): it
  // is registered and applied to the high part in the next cycle, from
  // registers only; until then the high part shown is the high part + 1,
  // kept in a register (hi_inc_q), so count_o is the same in every cycle.
  if (HiReg) begin : gen_hi_reg
    logic            carry_q;
    logic [31-LoW:0] hi_q, hi_inc_q, hi_now;
    assign hi_now = carry_q ? hi_inc_q : hi_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        carry_q <= 1'b0; hi_q <= '0; hi_inc_q <= 1;
      end else begin
        carry_q <= carry;
        if (carry_q) begin
          hi_q     <= hi_inc_q;
          hi_inc_q <= hi_inc_q + 1'b1;
        end
      end
    end
    assign count_o = {hi_now, count_q[LoW-1:0]};
    logic unused_hi;
    assign unused_hi = ^{count_q[31:LoW], hi_inc};
  end else begin : gen_no_hi_reg
    assign count_o = count_q;
  end

endmodule
