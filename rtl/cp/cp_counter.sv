// 32-bit event counter of the CP (wraps at 2^32, never cleared): the
// behaviour of common_counter (docs/common.md#common_counter, Saturate = 0),
// built for the 250 MHz cycle (docs/cp.md §13). common_counter's `count + inc`
// maps to a near-ripple chain in the flat osu018 flow (about 4.0 ns for 32
// bits, and more when inc comes late in the cycle, like the flow table's full
// verdict); here the sums are formed from the count register alone on a
// Kogge-Stone tree (cp_ks_add) and inc only selects one.
module cp_counter #(
  parameter int unsigned IncW = 1   // 1 or 2 (2: up to 2 events a cycle)
) (
  input  logic            clk_i,
  input  logic            rst_ni,
  input  logic [IncW-1:0] inc_i,
  output logic [31:0]     count_o
);

  if (IncW < 1 || IncW > 2) begin : gen_incw_check
    $error("cp_counter: IncW must be 1 or 2");
  end

  logic [31:0] count_q, count_d, p1, p2;
  logic [1:0]  unused_co;

  cp_ks_add #(.W(32), .Keep(1)) u_p1 (
    .a_i (count_q), .b_i ('0), .ci_i (1'b1), .s_o (p1), .co_o (unused_co[0])
  );
  cp_ks_add #(.W(32), .Keep(1)) u_p2 (
    .a_i (count_q), .b_i (32'd2), .ci_i (1'b0), .s_o (p2), .co_o (unused_co[1])
  );

  always_comb begin
    case (2'(inc_i))
      2'd1:    count_d = p1;
      2'd2:    count_d = p2;
      2'd3:    count_d = p2;   // not a legal input (IncW = 2 counts up to 2 events)
      default: count_d = count_q;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) count_q <= '0;
    else         count_q <= count_d;
  end

  assign count_o = count_q;

endmodule
