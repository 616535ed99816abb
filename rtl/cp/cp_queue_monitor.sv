// Queue occupancy Q in bytes from enqueue/dequeue events. Spec: docs/cp.md §5.
//
// A dequeue may only remove bytes present at the start of the cycle, so the
// checks have an order: lengths, then the dequeue, then the enqueue. For a
// 250 MHz cycle (docs/cp.md §13) nothing waits for a sum: the three
// candidates Q+e, Q-d and Q-d+e are formed side by side (cp_ks_add), the
// limit checks are compares, and the verdicts only steer the final choice.
module cp_queue_monitor #(
  parameter int unsigned QW       = 27,
  parameter int unsigned MaxFrame = 9216
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          enq_valid_i,
  input  logic [15:0]   enq_len_i,
  input  logic          deq_valid_i,
  input  logic [15:0]   deq_len_i,
  output logic          enq_ok_o,       // accepted this cycle
  output logic          deq_ok_o,
  output logic          reject_o,       // some event rejected this cycle (error counter)
  output logic [QW-1:0] q_o,            // registered occupancy
  output logic          ev_err_o,       // registered pulse
  output logic [2:0]    ev_err_code_o   // held until the next error
);

  logic [QW-1:0] q_q, q_d;
  logic          err_q;
  logic [2:0]    code_q, code_d;
  logic          enq_len_ok, deq_len_ok, enq_fits, deq_fits, fits_e, fits_ed;
  logic [QW-1:0] q_e, q_dq, q_ed;
  logic [QW-1:0] ed_s, ed_c;
  logic [2:0]    unused_co;

  assign enq_len_ok = (enq_len_i >= 16'd64) && (32'(enq_len_i) <= MaxFrame);
  assign deq_len_ok = (deq_len_i >= 16'd64) && (32'(deq_len_i) <= MaxFrame);
  // The limit checks on 17 bits, not QW: with Q = H*2^16 + L and lengths
  // below 2^16, Q + e - d (d <= Q) reaches 2^QW only when H is all ones, and
  // then exactly when L + e - d >= 2^16; a dequeue fits when H != 0 or d <= L.
  logic        h_ones, h_zero;
  logic [15:0] l;
  if (QW > 16) begin : gen_hi
    assign h_ones = &q_q[QW-1:16];
    assign h_zero = ~|q_q[QW-1:16];
  end else begin : gen_no_hi
    assign h_ones = 1'b1;
    assign h_zero = 1'b1;
  end
  assign l = q_q[15:0];

  // On the Kogge-Stone tree, as these verdicts steer everything else:
  //   d <= L       : the carry out of L + ~d + 1
  //   L + e >= 2^16: the carry out of L + e
  //   L + e - d >= 2^16: y = L + e + (2^17-1-d) + 1 = (L + e - d) + 2^17 on 18
  //   bits (0 < y < 2^18), so the test is y >= 3*2^16, bits 17 and 16 of y
  logic        l_ge_d, le_co, unused_s0, unused_s1;
  logic [15:0] unused_ld, unused_le;
  logic [17:0] y, y_s, y_c;
  cp_ks_add #(.W(16), .Keep(1)) u_ld (
    .a_i (l), .b_i (~deq_len_i), .ci_i (1'b1), .s_o (unused_ld), .co_o (l_ge_d)
  );
  cp_ks_add #(.W(16), .Keep(1)) u_le (
    .a_i (l), .b_i (enq_len_i), .ci_i (1'b0), .s_o (unused_le), .co_o (le_co)
  );
  always_comb begin
    logic [17:0] a, b, c;
    logic [16:0] nd;
    nd  = ~{1'b0, deq_len_i};   // 2^17 - 1 - d
    a   = 18'(l);
    b   = 18'(enq_len_i);
    c   = {1'b0, nd};
    y_s = a ^ b ^ c;
    y_c = ((a & b) | (a & c) | (b & c)) << 1;
  end
  cp_ks_add #(.W(18), .Keep(1)) u_y (
    .a_i (y_s), .b_i (y_c), .ci_i (1'b1), .s_o (y), .co_o (unused_s0)
  );
  assign unused_s1 = ^y[15:0];
  assign deq_fits = !h_zero || l_ge_d;
  assign fits_e   = !(h_ones && le_co);
  assign fits_ed  = !(h_ones && y[17] && y[16]);

  // §5 checks the enqueue against Q - d + e when the dequeue is accepted,
  // else against Q + e. The first fits whenever the second does, so
  // enq_fits = fits_e || (deq_ok && fits_ed); and as fits_e and fits_ed
  // only fail with H all ones, where (QW > 16) H != 0 and the dequeue fits,
  // deq_ok reduces there to its valid and length checks: the enqueue's
  // verdict does not wait for the dequeue's compare.
  logic deq_fits_if_full;
  if (QW > 16) begin : gen_fits_hi
    assign deq_fits_if_full = 1'b1;
  end else begin : gen_fits_no_hi
    assign deq_fits_if_full = l_ge_d;
  end

  // Q - d + e as the carry-save pair of Q + e + ~d + 1, then one adder
  always_comb begin
    logic [QW-1:0] a, b, c;
    a    = q_q;
    b    = QW'(enq_len_i);
    c    = ~(QW'(deq_len_i));
    ed_s = a ^ b ^ c;
    ed_c = (((a & b) | (a & c) | (b & c)) << 1) | QW'(1);   // the +1 of -d
  end

  cp_ks_add #(.W(QW)) u_qe (
    .a_i (q_q), .b_i (QW'(enq_len_i)), .ci_i (1'b0), .s_o (q_e), .co_o (unused_co[0])
  );
  cp_ks_add #(.W(QW)) u_qd (
    .a_i (q_q), .b_i (~(QW'(deq_len_i))), .ci_i (1'b1), .s_o (q_dq), .co_o (unused_co[1])
  );
  cp_ks_add #(.W(QW)) u_qed (
    .a_i (ed_s), .b_i (ed_c), .ci_i (1'b0), .s_o (q_ed), .co_o (unused_co[2])
  );

  // The enqueue's verdict comes last: Q' is one 2:1 choice on it between
  // two nets chosen by the dequeue's (kept, so abc keeps that order).
`ifdef NETCOSIM_TIMING
  (* keep *) logic [QW-1:0] q_enq, q_noenq;   // kept in the timing flow only (cp_ks_add)
`else
  logic [QW-1:0] q_enq, q_noenq;
`endif
  assign deq_ok_o = deq_valid_i && deq_len_ok && deq_fits;
  assign q_enq   = deq_ok_o ? q_ed : q_e;
  assign q_noenq = deq_ok_o ? q_dq : q_q;

  always_comb begin
    enq_fits = fits_e || (deq_valid_i && deq_len_ok && deq_fits_if_full && fits_ed);
    enq_ok_o = enq_valid_i && enq_len_ok && enq_fits;
    q_d = enq_ok_o ? q_enq : q_noenq;

    code_d = code_q;
    if      (enq_valid_i && !enq_len_ok)              code_d = cp_pkg::EvErrEnqLen;
    else if (deq_valid_i && !deq_len_ok)              code_d = cp_pkg::EvErrDeqLen;
    else if (enq_valid_i && enq_len_ok && !enq_fits)  code_d = cp_pkg::EvErrOverflow;
    else if (deq_valid_i && deq_len_ok && !deq_fits)  code_d = cp_pkg::EvErrUnderflow;
    reject_o = (enq_valid_i && !enq_ok_o) || (deq_valid_i && !deq_ok_o);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      q_q    <= '0;
      err_q  <= 1'b0;
      code_q <= '0;
    end else begin
      q_q    <= q_d;
      err_q  <= reject_o;
      code_q <= code_d;
    end
  end

  assign q_o           = q_q;
  assign ev_err_o      = err_q;
  assign ev_err_code_o = code_q;

endmodule
