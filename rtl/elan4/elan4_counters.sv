// elan4_counters: the 28 wrapping 32-bit counters of docs/elan4.md §6.10.
// An event of cycle t is in the value shown in t+2: the increments are
// registered once, added at the end of t+1, and cnt_o is that register.
module elan4_counters (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [28*4-1:0] inc_i,  // lane k: events this cycle (several may coincide)
  output logic [28*32-1:0] cnt_o
);
  logic [28*4-1:0]  inc_q;
  logic [28*32-1:0] cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      inc_q <= '0;
      cnt_q <= '0;
    end else begin
      inc_q <= inc_i;
      for (int unsigned k = 0; k < 28; k++) begin
        cnt_q[k*32 +: 32] <= cnt_q[k*32 +: 32] + 32'(inc_q[k*4 +: 4]);
      end
    end
  end
  assign cnt_o = cnt_q;
endmodule
