// W-bit adder with a Kogge-Stone carry tree: s = a + b + ci, co the carry out.
//
// Why not `+`: yosys 0.23 maps `+` through a Brent-Kung carry tree that abc
// (-D, osu018) re-maps close to a ripple chain: a 26-bit sum costs 3.8 ns
// there, this form 2.8 ns (docs/cp.md §13). The cp feedback pipeline puts one
// adder of up to QW+10 bits in a 4 ns cycle (250 MHz, 10 % margin), so it needs
// the log-depth form. Source of the structure: Kogge & Stone, IEEE Trans.
// Computers C-22(8), 1973 (textbook parallel-prefix adder), not the seeds.
module cp_ks_add #(
  parameter int unsigned W = 16
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic         ci_i,
  output logic [W-1:0] s_o,
  output logic         co_o
);

  logic [W-1:0] p0, gk, pk;
  logic         cin0;

  // One vector operation per level of the tree (log2 W levels), which keeps
  // the Verilated model small; bit i combines with bit i-d, and bits below d
  // are already complete (their propagate is kept: the mask).
  always_comb begin
    p0 = a_i ^ b_i;
    cin0 = p0[0] & ci_i;
    gk = (a_i & b_i) | W'(cin0);   // the carry in enters as bit 0's generate
    pk = p0;
    for (int unsigned d = 1; d < W; d = d * 2) begin
      gk = gk | (pk & (gk << d));
      pk = pk & ((pk << d) | ((W'(1) << d) - W'(1)));
    end
    // gk[i]: carry out of bit i
    s_o  = p0 ^ {gk[W-2:0], ci_i};
    co_o = gk[W-1];
  end

endmodule
