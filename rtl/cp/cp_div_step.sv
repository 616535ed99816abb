// One step of the quantiser's restoring division (docs/cp.md §7.1, §13):
// quotient bit K of floor(rem / D) when rem < 2^(K+1)*D.
//
//   b   = rem >= D*2^K
//   rem' = rem - b*D*2^K            (so rem' < D*2^K: the next step's premise)
//
// Only the slice rem[K+SW-1:K] can reach D (SW = QW+6 bits, as rem/2^K < 2D
// < 2^(QW+6)), so the compare and the subtract are QW+6 bits wide whatever K
// is; the bits below K are kept. With the premise false (the quotient has
// already saturated at 63) the outputs are don't-care: the quantiser ignores them.
module cp_div_step #(
  parameter int unsigned QW = 27,
  parameter int unsigned K  = 0,
  localparam int unsigned NW = QW + 10,  // |Fb|*63 < 2^(QW+10)
  localparam int unsigned DW = QW + 5    // D = (2W+1)*QEQ < 2^(QW+5)
) (
  input  logic [NW-1:0] rem_i,
  input  logic [DW-1:0] d_i,
  output logic          b_o,
  output logic [NW-1:0] rem_o
);

  localparam int unsigned SW = QW + 6;
  // the slice's width: QW+6 bits, or fewer when K is near the top (K = 5)
  localparam int unsigned HW = (NW - K < SW) ? NW - K : SW;

  logic [SW-1:0] hi, diff;
  logic          unused_co, unused_diff_top;

  assign hi = SW'(rem_i[K +: HW]);

  // hi - D as hi + ~D + 1 on the Kogge-Stone tree; the compare is separate
  // so that b_o (which steers every bit of rem_o) does not wait for the sum
  cp_ks_add #(.W(SW)) u_sub (
    .a_i (hi), .b_i (~(SW'(d_i))), .ci_i (1'b1), .s_o (diff), .co_o (unused_co)
  );

  assign unused_diff_top = diff[SW-1];   // not read when HW < SW (K = 5)

  always_comb begin
    b_o   = (hi >= SW'(d_i));
    rem_o = rem_i;
    if (b_o) rem_o[K +: HW] = diff[HW-1:0];
  end

  // Assertion (docs/cp.md "Assertions"; proved by `make formal` at QW = 6,
  // formal/proofs cp_div_step_q6): under the premise rem < 2^(K+1)*D the step
  // is the restoring step, stated with shifts only. Not synthesized.
`ifndef SYNTHESIS
  localparam int unsigned AW = NW + 8;
  logic [AW-1:0] a_rem, a_dk, a_rem_o;
  always_comb begin
    a_rem   = AW'(rem_i);
    a_dk    = AW'(d_i) << K;
    a_rem_o = AW'(rem_o);
  end
  always_comb begin
    if (a_rem < (a_dk << 1)) begin
      cpq_step: assert (b_o == (a_rem >= a_dk) &&
                        a_rem_o == (b_o ? a_rem - a_dk : a_rem) && a_rem_o < a_dk);
    end
  end
`endif

endmodule
