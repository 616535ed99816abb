// W-bit adder with a Kogge-Stone carry tree: s = a + b + ci, co the carry out.
//
// Why not `+`: yosys 0.23 maps `+` through a Brent-Kung carry tree that abc
// (-D, osu018) re-maps close to a ripple chain: a 26-bit sum costs 3.8 ns
// there, this form 2.8 ns (docs/cp.md §13). The cp feedback pipeline puts one
// adder of up to QW+10 bits in a 4 ns cycle (250 MHz, 10 % margin), so it needs
// the log-depth form. Source of the structure: Kogge & Stone, IEEE Trans.
// Computers C-22(8), 1973 (textbook parallel-prefix adder), not the seeds.
module cp_ks_add #(
  parameter int unsigned W    = 16,
  parameter int unsigned Keep = 0   // 1: hold abc to the tree (below)
) (
  input  logic [W-1:0] a_i,
  input  logic [W-1:0] b_i,
  input  logic         ci_i,
  output logic [W-1:0] s_o,
  output logic         co_o
);

  localparam int unsigned L = $clog2(W);

  logic [W-1:0]       p0, gk, pk;
  logic               cin0;
  logic [(L+1)*W-1:0] lvl_g, lvl_p;   // every level of the tree

  // With Keep, every level is a kept net (yosys `keep`): abc must produce
  // each one, which holds it to the tree. Left free, abc re-maps the tree
  // of a 16-bit compare into a near-ripple chain: its carry out at 1.7 ns
  // from the register instead of 1.0 ns (docs/cp.md §13). It costs area (abc
  // cannot merge across the levels), hence only where a path needs it.
  if (Keep != 0) begin : gen_keep
    (* keep *) logic [(L+1)*W-1:0] unused_kept_g, unused_kept_p;   // read by nothing
    assign unused_kept_g = lvl_g;
    assign unused_kept_p = lvl_p;
  end else begin : gen_free
    logic unused_lvl;
    assign unused_lvl = ^{lvl_g, lvl_p};
  end

  // One vector operation per level of the tree (log2 W levels), which keeps
  // the Verilated model small; bit i combines with bit i-d, and bits below d
  // are already complete (their propagate is kept: the mask).
  always_comb begin
    p0 = a_i ^ b_i;
    cin0 = p0[0] & ci_i;
    gk = (a_i & b_i) | W'(cin0);   // the carry in enters as bit 0's generate
    pk = p0;
    lvl_g[0 +: W] = gk;
    lvl_p[0 +: W] = pk;
    for (int unsigned k = 0; k < L; k++) begin
      gk = gk | (pk & (gk << (1 << k)));
      pk = pk & ((pk << (1 << k)) | ((W'(1) << (1 << k)) - W'(1)));
      lvl_g[(k+1)*W +: W] = gk;
      lvl_p[(k+1)*W +: W] = pk;
    end
    // gk[i]: carry out of bit i
    s_o  = p0 ^ {gk[W-2:0], ci_i};
    co_o = gk[W-1];
  end

endmodule
