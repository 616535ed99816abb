// Feedback unit: holds the sample taken in cycle t and, in cycle t+1, turns
// it into at most one queue-level and one per-flow BCN. Spec: docs/cp.md §7.
module cp_feedback #(
  parameter int unsigned QW    = 27,
  parameter int unsigned FlowW = 8,
  parameter int unsigned NodeW = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // cycle t: what the sampler decided about this cycle's enqueue
  input  logic             sample_i,
  input  logic             answer_probe_i,
  input  logic [NodeW-1:0] src_i,
  input  logic [FlowW-1:0] flow_i,
  input  logic             tag_ok_i,
  // cycle t+1: registered queue state and active configuration
  input  logic [QW-1:0]    q_i,
  input  logic [QW-1:0]    qeq_i,
  input  logic [3:0]       w_i,
  input  logic [QW-1:0]    bcnmax_i,
  input  logic [QW+4:0]    d_i,
  input  logic [QW-1:0]    qeq_flow_i,
  input  logic [QW-1:0]    bcnmax_flow_i,
  input  logic [QW+4:0]    df_i,
  input  logic             apply_i,        // APPLY clears Qold
  // the sampled flow's table entry
  output logic [FlowW-1:0] lk_flow_o,
  input  logic             lk_hit_i,
  input  logic [QW-1:0]    lk_q_i,
  input  logic [QW-1:0]    lk_qold_i,
  output logic             qold_flow_we_o,
  // messages of cycle t+1 (combinational; cp_bcn_out registers them)
  output logic             sampled_o,      // a sample is being evaluated (counter)
  output logic [NodeW-1:0] dst_o,
  output logic [FlowW-1:0] flow_o,
  output logic             msg_valid_o,
  output logic [1:0]       msg_type_o,
  output logic [QW:0]      msg_qoff_o,
  output logic [QW:0]      msg_qdelta_o,
  output logic [QW+4:0]    msg_fb_o,
  output logic [5:0]       msg_qntz_o,
  output logic             fmsg_valid_o,
  output logic [1:0]       fmsg_type_o,
  output logic [QW:0]      fmsg_qoff_o,
  output logic [QW:0]      fmsg_qdelta_o,
  output logic [QW+4:0]    fmsg_fb_o,
  output logic [5:0]       fmsg_qntz_o
);

  // the sample register (§7, end of cycle t)
  logic             sample_q, probe_q, tag_ok_q;
  logic [NodeW-1:0] src_q;
  logic [FlowW-1:0] flow_q;
  logic [QW-1:0]    qold_q, qold_d;

  logic fb_neg, fb_pos, ffb_neg, ffb_pos;
  logic [5:0] qntz, fqntz;

  cp_fb_calc #(.QW(QW)) u_queue_fb (
    .q_i      (q_i),
    .qold_i   (qold_q),
    .qeq_i    (qeq_i),
    .w_i      (w_i),
    .d_i      (d_i),
    .qoff_o   (msg_qoff_o),
    .qdelta_o (msg_qdelta_o),
    .fb_o     (msg_fb_o),
    .fb_neg_o (fb_neg),
    .fb_pos_o (fb_pos),
    .qntz_o   (qntz)
  );

  cp_fb_calc #(.QW(QW)) u_flow_fb (
    .q_i      (lk_q_i),
    .qold_i   (lk_qold_i),
    .qeq_i    (qeq_flow_i),
    .w_i      (w_i),
    .d_i      (df_i),
    .qoff_o   (fmsg_qoff_o),
    .qdelta_o (fmsg_qdelta_o),
    .fb_o     (fmsg_fb_o),
    .fb_neg_o (ffb_neg),
    .fb_pos_o (ffb_pos),
    .qntz_o   (fqntz)
  );

  // Queue-level decision (§7 table): MAX above BCNMAX, NEG on congestion,
  // POS only to frames tagged by this CP; no BCN(0,0), no self-increase.
  always_comb begin
    msg_valid_o = 1'b0;
    msg_type_o  = cp_pkg::BcnNeg;
    msg_qntz_o  = qntz;
    if (sample_q) begin
      if (q_i > bcnmax_i) begin
        msg_valid_o = 1'b1; msg_type_o = cp_pkg::BcnMax; msg_qntz_o = 6'd63;
      end else if (fb_neg) begin
        msg_valid_o = 1'b1; msg_type_o = cp_pkg::BcnNeg;
      end else if (fb_pos && tag_ok_q) begin
        msg_valid_o = 1'b1; msg_type_o = cp_pkg::BcnPos;
      end
    end
  end

  // Per-flow decision: probes are answered with either sign, whatever their tag.
  always_comb begin
    fmsg_valid_o = 1'b0;
    fmsg_type_o  = cp_pkg::BcnNeg;
    fmsg_qntz_o  = fqntz;
    if (probe_q && lk_hit_i) begin
      if (lk_q_i > bcnmax_flow_i) begin
        fmsg_valid_o = 1'b1; fmsg_type_o = cp_pkg::BcnMax; fmsg_qntz_o = 6'd63;
      end else if (ffb_neg) begin
        fmsg_valid_o = 1'b1; fmsg_type_o = cp_pkg::BcnNeg;
      end else if (ffb_pos) begin
        fmsg_valid_o = 1'b1; fmsg_type_o = cp_pkg::BcnPos;
      end
    end
  end

  always_comb begin
    qold_d = qold_q;
    if (sample_q) qold_d = q_i;   // at every sample, message or not
    if (apply_i)  qold_d = '0;    // APPLY wins
  end

  assign lk_flow_o      = flow_q;
  assign qold_flow_we_o = probe_q && lk_hit_i;
  assign sampled_o      = sample_q;
  assign dst_o          = src_q;
  assign flow_o         = flow_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sample_q <= 1'b0;
      probe_q  <= 1'b0;
      tag_ok_q <= 1'b0;
      src_q    <= '0;
      flow_q   <= '0;
      qold_q   <= '0;
    end else begin
      sample_q <= sample_i;
      probe_q  <= answer_probe_i;
      tag_ok_q <= tag_ok_i;
      src_q    <= src_i;
      flow_q   <= flow_i;
      qold_q   <= qold_d;
    end
  end

endmodule
