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

  // The kept nets are for the timing flow only (mk/timing-synth.sh defines
  // NETCOSIM_TIMING): in the generic netlist of `make synth`, abc shares
  // logic between the bits of a kept level, and the Verilated netlist
  // (MODE=netlist) then mis-orders that vector (docs/cp.md §13). The
  // function is the same either way.
`ifdef NETCOSIM_TIMING
  localparam bit KeepNets = (Keep != 0);
`else
  localparam bit KeepNets = (Keep != 0) && 1'b0;
`endif

  logic [W-1:0] p0, g0;
  logic         cin0;

  always_comb begin
    p0   = a_i ^ b_i;
    cin0 = p0[0] & ci_i;
    g0   = (a_i & b_i) | W'(cin0);   // the carry in enters as bit 0's generate
  end

  if (!KeepNets) begin : gen_free
    logic [W-1:0] gk, pk;
    // One vector operation per level of the tree (log2 W levels), which keeps
    // the Verilated model small; bit i combines with bit i-d, and bits below d
    // are already complete (their propagate is kept: the mask).
    always_comb begin
      gk = g0;
      pk = p0;
      for (int unsigned d = 1; d < W; d = d * 2) begin
        gk = gk | (pk & (gk << d));
        pk = pk & ((pk << d) | ((W'(1) << d) - W'(1)));
      end
      // gk[i]: carry out of bit i
      s_o  = p0 ^ {gk[W-2:0], ci_i};
      co_o = gk[W-1];
    end
  end else begin : gen_keep
    // With Keep, every level is a kept net (yosys `keep`): abc must produce
    // each one, which holds it to the tree. Left free, abc re-maps the tree
    // of a 16-bit compare into a near-ripple chain: its carry out at 1.7 ns
    // from the register instead of 1.0 ns (docs/cp.md §13). It costs area
    // (abc cannot merge across the levels), hence only where a path needs
    // it. One vector per level: a vector holding several levels would feed
    // itself, which the Verilated netlist (MODE=netlist) cannot order.
    for (genvar k = 0; k < L; k++) begin : gen_lvl
      (* keep *) logic [W-1:0] g, p;
      logic [W-1:0] gi, pi;   // the level below
      if (k == 0) begin : gen_first
        assign gi = g0;
        assign pi = p0;
      end else begin : gen_next
        assign gi = gen_lvl[k-1].g;
        assign pi = gen_lvl[k-1].p;
      end
      assign g = gi | (pi & (gi << (1 << k)));
      assign p = pi & ((pi << (1 << k)) | ((W'(1) << (1 << k)) - W'(1)));
    end
    logic unused_p;
    assign unused_p = ^gen_lvl[L-1].p;
    assign s_o  = p0 ^ {gen_lvl[L-1].g[W-2:0], ci_i};
    assign co_o = gen_lvl[L-1].g[W-1];
  end

endmodule
