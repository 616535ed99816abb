// QntzFb = min(63, floor(|Fb|*63 / D)), exact. Spec: docs/cp.md §7.1.
//
// The quotient is clamped before it is formed, so a 6-step restoring
// division is enough and no reciprocal (with its rounding) is needed.
module cp_quantiser #(
  parameter int unsigned QW = 27
) (
  input  logic [QW+3:0] mag_i,   // |Fb| < 2^(QW+4)
  input  logic [QW+4:0] d_i,     // (2W+1)*Qeq, non-zero after validation
  output logic [5:0]    qntz_o
);

  localparam int unsigned NW = QW + 11;  // holds |Fb|*63 and D*64

  always_comb begin
    logic [NW-1:0] rem, dk;
    rem    = (NW'(mag_i) << 6) - NW'(mag_i);  // |Fb| * 63
    dk     = '0;
    qntz_o = 6'd63;
    if (rem < (NW'(d_i) << 6)) begin
      qntz_o = '0;
      for (int k = 5; k >= 0; k--) begin
        dk = NW'(d_i) << k;
        if (rem >= dk) begin
          qntz_o[k] = 1'b1;
          rem = rem - dk;
        end
      end
    end
  end

  // Assertion (docs/cp.md "Assertions"; proved by `make formal` for a small
  // QW, docs/formal.md): the result is min(63, floor(|Fb|*63 / D)), stated
  // without division: q*D <= N, and N < (q+1)*D unless q = 63. D = 0 is
  // excluded by the configuration checks. Not synthesized.
`ifndef SYNTHESIS
  localparam int unsigned AW = NW + 7;
  logic [AW-1:0] a_n, a_qd, a_q1d;
  always_comb begin
    a_n   = AW'(mag_i) * AW'(63);
    a_qd  = AW'(qntz_o) * AW'(d_i);
    a_q1d = a_qd + AW'(d_i);
  end
  always_comb begin
    if (d_i != '0) begin
      cpq_exact: assert (a_qd <= a_n && (qntz_o == 6'd63 || a_n < a_q1d));
    end
  end
`endif

endmodule
