// elan4_counters: the 28 wrapping 32-bit counters of docs/elan4.md §6.10.
// An event of cycle t is in the value shown in t+2: the increments are
// registered once, added at the end of t+1, and cnt_o is that register.
//
// Each sum is formed on the kit's Kogge-Stone tree (rtl/cp/cp_ks_add.sv, held
// to the tree by Keep): yosys' `+` maps to a near-ripple chain in the osu018
// flow, 3.8 ns for count + inc (docs/elan4.md "Timing") *(ours)*. Same sum.
module elan4_counters (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [28*4-1:0] inc_i,  // lane k: events this cycle (several may coincide)
  output logic [28*32-1:0] cnt_o
);
  logic [28*4-1:0]  inc_q;
  logic [28*32-1:0] cnt_q, cnt_d;
  logic [27:0]      unused_co;
  for (genvar k = 0; k < 28; k++) begin : g_cnt
    cp_ks_add #(.W(32), .Keep(1)) u_add (
      .a_i (cnt_q[k*32 +: 32]), .b_i (32'(inc_q[k*4 +: 4])), .ci_i (1'b0),
      .s_o (cnt_d[k*32 +: 32]), .co_o (unused_co[k])
    );
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inc_q <= '0;
      cnt_q <= '0;
    end else begin
      inc_q <= inc_i;
      cnt_q <= cnt_d;
    end
  end
  assign cnt_o = cnt_q;
endmodule
