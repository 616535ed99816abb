// One feedback channel (the whole output queue, or one flow's share of it):
// Qoff, Qdelta, Fb, QntzFb and the message decision, as a 9-cycle pipeline.
// Spec: docs/cp.md §2, §7, §10; structure and timing: §13.
//
// Inputs are the snapshot registered at the end of the decision cycle t+1
// (cp_feedback); each cycle below holds at most one adder on the Kogge-Stone
// tree (cp_ks_add), so the channel fits a 250 MHz cycle in osu018:
//
//   t+2  Qoff = Qeq-Q, Qdelta = Q-Qold (two adders side by side);
//        Fb = Qeq - Q - W*(Q-Qold) as 11 operands reduced to two by five
//        levels of carry-save adders; Q > BCNMAX
//        D = (2W+1)*Qeq as 5 operands in carry-save form (3 levels)
//   t+3  Fb and D: the two carry-save pairs added; sign, message type
//   t+4  N = |Fb|*63 = 64x + ~x + (1 or 64), x = Fb or ~Fb (one adder)
//   t+5..t+10  the quantiser (cp_quantiser): clamp and 6 quotient bits
//   t+10 qntz/type/fields leave combinationally; cp_bcn_out registers them
//
// A new sample may enter every cycle; the payload (pay_i) travels alongside.
// Widths (docs/cp.md §7): Qoff, Qdelta QW+1 bits, Fb QW+5 bits.
module cp_fb_calc #(
  parameter int unsigned QW = 27,
  parameter int unsigned PW = 1,        // payload bits carried with the sample
  localparam int unsigned FW = QW + 5,  // Fb
  localparam int unsigned NW = QW + 10, // |Fb|*63
  localparam int unsigned DW = QW + 5   // D = (2W+1)*Qeq
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // t+2: the snapshot of t+1
  input  logic          go_i,       // a sample (queue) / an answered probe with an entry (flow)
  input  logic          posok_i,    // a positive Fb may be sent (queue: tag_ok; flow: always)
  input  logic [QW-1:0] q_i,
  input  logic [QW-1:0] qold_i,
  input  logic [QW-1:0] qeq_i,
  input  logic [3:0]    w_i,
  input  logic [QW-1:0] bmax_i,
  input  logic [PW-1:0] pay_i,
  // t+10 (combinational from t+9's registers and the last quotient bit)
  output logic          go_o,       // go_i of the same sample (counts samples)
  output logic [2:0]    cnt_o,      // this message's type, one-hot {MAX, POS, NEG}, for the counters
  output logic          valid_o,
  output logic [1:0]    type_o,
  output logic [QW:0]   qoff_o,     // two's complement
  output logic [QW:0]   qdelta_o,   // two's complement
  output logic [FW-1:0] fb_o,       // two's complement
  output logic [5:0]    qntz_o,
  output logic [PW-1:0] pay_o
);

  // ---- t+2 -----------------------------------------------------------------
  logic [QW:0]   qoff, qdelta;
  logic [FW-1:0] cs_s, cs_c;
  logic          unused_co0, unused_co1;

  cp_ks_add #(.W(QW+1)) u_qoff (
    .a_i ((QW+1)'(qeq_i)), .b_i (~((QW+1)'(q_i))), .ci_i (1'b1), .s_o (qoff), .co_o (unused_co0)
  );
  cp_ks_add #(.W(QW+1)) u_qdelta (
    .a_i ((QW+1)'(q_i)), .b_i (~((QW+1)'(qold_i))), .ci_i (1'b1), .s_o (qdelta), .co_o (unused_co1)
  );

  // 3:2 carry-save adder (sum, carry), modulo 2^FW
  function automatic logic [2*FW-1:0] csa(input logic [FW-1:0] a, b, c);
    logic [FW-1:0] s, cy;
    s  = a ^ b ^ c;
    cy = ((a & b) | (a & c) | (b & c)) << 1;
    csa = {cy, s};
  endfunction

  // Fb = Qeq - Q - W*Q + W*Qold, modulo 2^FW (|Fb| < 2^(QW+4), so exact):
  //   -X = ~X + 1, and the ones of the negated terms add up to 1 + popcount(W).
  always_comb begin
    logic [FW-1:0] o [11];
    logic [FW-1:0] l1 [8];
    logic [FW-1:0] l2 [6];
    logic [FW-1:0] l3 [4];
    logic [FW-1:0] l4 [3];
    o[0] = FW'(qeq_i);
    o[1] = ~(FW'(q_i));
    for (int j = 0; j < 4; j++) begin
      o[2+j] = w_i[j] ? ~(FW'(q_i) << j) : '0;
      o[6+j] = w_i[j] ? (FW'(qold_i) << j) : '0;
    end
    o[10] = FW'(1) + FW'(w_i[0]) + FW'(w_i[1]) + FW'(w_i[2]) + FW'(w_i[3]);
    {l1[1], l1[0]} = csa(o[0], o[1], o[2]);
    {l1[3], l1[2]} = csa(o[3], o[4], o[5]);
    {l1[5], l1[4]} = csa(o[6], o[7], o[8]);
    l1[6] = o[9];
    l1[7] = o[10];
    {l2[1], l2[0]} = csa(l1[0], l1[1], l1[2]);
    {l2[3], l2[2]} = csa(l1[3], l1[4], l1[5]);
    l2[4] = l1[6];
    l2[5] = l1[7];
    {l3[1], l3[0]} = csa(l2[0], l2[1], l2[2]);
    {l3[3], l3[2]} = csa(l2[3], l2[4], l2[5]);
    {l4[1], l4[0]} = csa(l3[0], l3[1], l3[2]);
    l4[2] = l3[3];
    {cs_c, cs_s} = csa(l4[0], l4[1], l4[2]);
  end

  // D = (2W+1)*Qeq = Qeq + sum over W's bits j of Qeq*2^(j+1): carry-save
  logic [DW-1:0] d_s, d_c;
  always_comb begin
    logic [DW-1:0] p [5];
    logic [DW-1:0] m [4];
    logic [DW-1:0] r [3];
    p[0] = DW'(qeq_i);
    for (int j = 0; j < 4; j++) p[1+j] = w_i[j] ? (DW'(qeq_i) << (j + 1)) : '0;
    {m[1], m[0]} = csa(p[0], p[1], p[2]);
    m[2] = p[3];
    m[3] = p[4];
    {r[1], r[0]} = csa(m[0], m[1], m[2]);
    r[2] = m[3];
    {d_c, d_s} = csa(r[0], r[1], r[2]);
  end

  logic          s2_go, s2_posok, s2_over;
  logic [QW:0]   s2_qoff, s2_qdelta;
  logic [FW-1:0] s2_s, s2_c;
  logic [DW-1:0] s2_ds, s2_dc;
  logic [PW-1:0] s2_pay;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) s2_go <= 1'b0;
    else         s2_go <= go_i;
  end
  always_ff @(posedge clk_i) begin
    s2_posok  <= posok_i;
    s2_over   <= (q_i > bmax_i);
    s2_qoff   <= qoff;
    s2_qdelta <= qdelta;
    s2_s      <= cs_s;
    s2_c      <= cs_c;
    s2_ds     <= d_s;
    s2_dc     <= d_c;
    s2_pay    <= pay_i;
  end

  // ---- t+3: Fb and the decision (docs/cp.md §7 tables) ----------------------
  logic [FW-1:0] fb;
  logic [DW-1:0] d;
  logic          fb_neg, fb_pos, unused_co2, unused_co4, msg;
  logic [1:0]    mtype;

  cp_ks_add #(.W(FW)) u_fb (
    .a_i (s2_s), .b_i (s2_c), .ci_i (1'b0), .s_o (fb), .co_o (unused_co2)
  );
  cp_ks_add #(.W(DW)) u_d (
    .a_i (s2_ds), .b_i (s2_dc), .ci_i (1'b0), .s_o (d), .co_o (unused_co4)
  );

  always_comb begin
    fb_neg = fb[FW-1];
    fb_pos = !fb[FW-1] && (fb != '0);
    msg    = s2_go && (s2_over || fb_neg || (fb_pos && s2_posok));
    if (s2_over)     mtype = cp_pkg::BcnMax;
    else if (fb_neg) mtype = cp_pkg::BcnNeg;
    else             mtype = cp_pkg::BcnPos;
  end

  logic          s3_go, s3_valid, s3_over, s3_neg;
  logic [1:0]    s3_type;
  logic [QW:0]   s3_qoff, s3_qdelta;
  logic [FW-1:0] s3_fb;
  logic [DW-1:0] s3_d;
  logic [PW-1:0] s3_pay;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s3_go    <= 1'b0;
      s3_valid <= 1'b0;
    end else begin
      s3_go    <= s2_go;
      s3_valid <= msg;
    end
  end
  always_ff @(posedge clk_i) begin
    s3_type   <= mtype;
    s3_over   <= s2_over;
    s3_neg    <= fb_neg;
    s3_qoff   <= s2_qoff;
    s3_qdelta <= s2_qdelta;
    s3_fb     <= fb;
    s3_d      <= d;
    s3_pay    <= s2_pay;
  end

  // ---- t+4: N = |Fb|*63 -----------------------------------------------------
  // x = Fb (Fb >= 0) or ~Fb = |Fb| - 1 (Fb < 0); |Fb| = x + neg and
  // 63*|Fb| = 64x - x + 63*neg = 64x + ~x + (neg ? 64 : 1) modulo 2^NW.
  logic [QW+3:0] x;
  logic [NW-1:0] n, n_s, n_c, n_a, n_b, n_k;
  logic          unused_co3;

  always_comb begin
    x   = s3_fb[QW+3:0] ^ {(QW+4){s3_neg}};
    n_a = NW'(x) << 6;
    n_b = ~(NW'(x));
    n_k = s3_neg ? NW'(64) : NW'(1);
    n_s = n_a ^ n_b ^ n_k;
    n_c = ((n_a & n_b) | (n_a & n_k) | (n_b & n_k)) << 1;
  end

  cp_ks_add #(.W(NW)) u_n (
    .a_i (n_s), .b_i (n_c), .ci_i (1'b0), .s_o (n), .co_o (unused_co3)
  );

  // ---- t+5..t+10: the quantiser; the message fields wait beside it ----------
  localparam int unsigned CW = 1 + 2 + (QW+1) + (QW+1) + FW + PW;  // over, type, fields, payload

  logic          s4_go, s4_valid;
  logic [CW-1:0] s4_carry;
  logic [NW-1:0] s4_n;
  logic [DW-1:0] s4_d;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s4_go    <= 1'b0;
      s4_valid <= 1'b0;
    end else begin
      s4_go    <= s3_go;
      s4_valid <= s3_valid;
    end
  end
  always_ff @(posedge clk_i) begin
    s4_carry <= {s3_over, s3_type, s3_qoff, s3_qdelta, s3_fb, s3_pay};
    s4_n     <= n;
    s4_d     <= s3_d;
  end

  logic [5:0] quot;

  cp_quantiser #(.QW(QW)) u_quantiser (
    .clk_i, .rst_ni, .v_i (s4_go), .n_i (s4_n), .d_i (s4_d), .qntz_o (quot)
  );

  // five stages of (valid, fields) beside the quantiser's five
  logic          g_q [5:9];
  logic          v_q [5:9];
  logic [CW-1:0] c_q [5:9];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      g_q[5] <= 1'b0;
      v_q[5] <= 1'b0;
    end else begin
      g_q[5] <= s4_go;
      v_q[5] <= s4_valid;
    end
  end
  always_ff @(posedge clk_i) c_q[5] <= s4_carry;
  for (genvar s = 6; s <= 9; s++) begin : gen_wait
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        g_q[s] <= 1'b0;
        v_q[s] <= 1'b0;
      end else begin
        g_q[s] <= g_q[s-1];
        v_q[s] <= v_q[s-1];
      end
    end
    always_ff @(posedge clk_i) c_q[s] <= c_q[s-1];
  end

  logic over9;

  // The counters' increments, decoded one stage early into registers of their
  // own (valid_o also steers the output registers' enables: its fanout would
  // delay a 32-bit increment behind it past the cycle).
  logic [2:0] cnt_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_q <= '0;
    else         cnt_q <= {3{v_q[8]}} & {c_q[8][CW-2 -: 2] == cp_pkg::BcnMax,
                                         c_q[8][CW-2 -: 2] == cp_pkg::BcnPos,
                                         c_q[8][CW-2 -: 2] == cp_pkg::BcnNeg};
  end
  assign cnt_o = cnt_q;

  assign {over9, type_o, qoff_o, qdelta_o, fb_o, pay_o} = c_q[9];
  assign go_o    = g_q[9];
  assign valid_o = v_q[9];
  assign qntz_o  = over9 ? 6'd63 : quot;   // MAX sends 63 (§7)

endmodule
