// Qoff, Qdelta and Fb of one queue (the whole output queue, or one flow's
// share of it) and its quantised magnitude. Spec: docs/cp.md §2, §7.
// Widths (proved in docs/cp.md §7): Qoff, Qdelta QW+1 bits, Fb QW+5 bits.
module cp_fb_calc #(
  parameter int unsigned QW = 27
) (
  input  logic [QW-1:0] q_i,
  input  logic [QW-1:0] qold_i,
  input  logic [QW-1:0] qeq_i,
  input  logic [3:0]    w_i,
  input  logic [QW+4:0] d_i,
  output logic [QW:0]   qoff_o,     // two's complement
  output logic [QW:0]   qdelta_o,   // two's complement
  output logic [QW+4:0] fb_o,       // two's complement
  output logic          fb_neg_o,
  output logic          fb_pos_o,
  output logic [5:0]    qntz_o
);

  logic signed [QW+4:0] qoff_x, qdelta_x, w_qdelta, fb;
  logic        [QW+3:0] mag;

  always_comb begin
    qoff_o   = (QW+1)'(qeq_i) - (QW+1)'(q_i);
    qdelta_o = (QW+1)'(q_i) - (QW+1)'(qold_i);
    qoff_x   = $signed({{4{qoff_o[QW]}}, qoff_o});
    qdelta_x = $signed({{4{qdelta_o[QW]}}, qdelta_o});
    w_qdelta = qdelta_x * $signed({{(QW+1){1'b0}}, w_i});
    fb       = qoff_x - w_qdelta;
    fb_o     = fb;
    fb_neg_o = fb[QW+4];
    fb_pos_o = !fb[QW+4] && (fb != '0);
    mag      = fb[QW+4] ? (QW+4)'(0) - fb[QW+3:0] : fb[QW+3:0];
  end

  cp_quantiser #(.QW(QW)) u_quantiser (
    .mag_i (mag),
    .d_i,
    .qntz_o
  );

endmodule
