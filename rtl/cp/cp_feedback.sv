// Feedback unit: holds the sample taken in cycle t, takes its snapshot in
// t+1 (Q, Qold, the active configuration; Qold is updated there) and turns
// it, over the queue channel's pipeline (cp_fb_calc), into at most one
// queue-level BCN in cycle t+10, registered by cp_bcn_out (on the outputs at
// t+11). The flow table holds the state after t's events only in t+2 (it
// runs one cycle behind, docs/cp.md §8), so the flow's entry is looked up
// (and Qold_flow written) in t+2, and the per-flow channel, with t+1's
// configuration and payload carried along, ends at t+11 (outputs at t+12).
// Spec: docs/cp.md §7, §8, §10; structure: §13.
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
  input  logic [QW-1:0]    qeq_flow_i,
  input  logic [QW-1:0]    bcnmax_flow_i,
  input  logic [15:0]      cpid_i,
  input  logic             apply_i,        // APPLY clears Qold
  // the sampled flow's table entry (t+2)
  output logic [FlowW-1:0] lk_flow_o,
  input  logic             lk_hit_i,
  input  logic [QW-1:0]    lk_q_i,
  input  logic [QW-1:0]    lk_qold_i,
  output logic             qold_flow_we_o,
  // messages of cycle t+10 (combinational from registers; cp_bcn_out registers them)
  output logic             sampled_o,      // a sample's evaluation ends (counter)
  output logic [NodeW-1:0] dst_o,
  output logic [FlowW-1:0] flow_o,
  output logic [15:0]      cpid_o,
  output logic [NodeW-1:0] fdst_o,         // the per-flow message's (a cycle later)
  output logic [FlowW-1:0] fflow_o,
  output logic [2:0]       msg_cnt_o,      // one-hot {MAX, POS, NEG} of msg (counters)
  output logic             fmsg_cnt_o,     // fmsg_valid_o, for the counter
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

  localparam int unsigned PW  = NodeW + FlowW + 16;   // dst, flow, CPID of the message
  localparam int unsigned FPW = NodeW + FlowW;        // dst, flow of the per-flow message

  // the sample register (§7, end of cycle t); probe and flow once more for
  // the per-flow lookup in t+2
  logic             sample_q, probe_q, probe_qq, tag_ok_q;
  logic [NodeW-1:0] src_q;
  logic [FlowW-1:0] flow_q, flow_qq;
  logic [QW-1:0]    qold_q, qold_d;

  always_comb begin
    qold_d = qold_q;
    if (sample_q) qold_d = q_i;   // at every sample, message or not
    if (apply_i)  qold_d = '0;    // APPLY wins
  end

  assign lk_flow_o      = flow_qq;
  assign qold_flow_we_o = probe_qq && lk_hit_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sample_q <= 1'b0;
      probe_q  <= 1'b0;
      probe_qq <= 1'b0;
      tag_ok_q <= 1'b0;
      src_q    <= '0;
      flow_q   <= '0;
      flow_qq  <= '0;
      qold_q   <= '0;
    end else begin
      sample_q <= sample_i;
      probe_q  <= answer_probe_i;
      probe_qq <= probe_q;
      tag_ok_q <= tag_ok_i;
      src_q    <= src_i;
      flow_q   <= flow_i;
      flow_qq  <= flow_q;
      qold_q   <= qold_d;
    end
  end

  // the snapshot (end of t+1): everything the decision uses, so that the
  // events and configuration writes of t+2 on cannot reach it; the per-flow
  // channel's (end of t+2): the flow's entry, with t+1's configuration
  // (m_*, n_w) and payload
  logic             n_go, n_tag_ok, f_go;
  logic [QW-1:0]    n_q, n_qold, n_qeq, n_bmax, m_qeq, m_bmax, f_q, f_qold, f_qeq, f_bmax;
  logic [3:0]       n_w, f_w;
  logic [PW-1:0]    n_pay;
  logic [FPW-1:0]   f_pay;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_go <= 1'b0;
      f_go <= 1'b0;
    end else begin
      n_go <= sample_q;
      f_go <= probe_qq && lk_hit_i;
    end
  end
  always_ff @(posedge clk_i) begin
    n_tag_ok <= tag_ok_q;
    n_q      <= q_i;
    n_qold   <= qold_q;
    n_qeq    <= qeq_i;
    n_w      <= w_i;
    n_bmax   <= bcnmax_i;
    n_pay    <= {src_q, flow_q, cpid_i};
    m_qeq    <= qeq_flow_i;
    m_bmax   <= bcnmax_flow_i;
    // end of t+2
    f_q      <= lk_q_i;
    f_qold   <= lk_qold_i;
    f_qeq    <= m_qeq;
    f_bmax   <= m_bmax;
    f_w      <= n_w;
    f_pay    <= n_pay[PW-1:16];
  end

  // Queue-level channel (§7 table): MAX above BCNMAX, NEG on congestion,
  // POS only to frames tagged by this CP; no BCN(0,0), no self-increase.
  logic [PW-1:0] pay;

  cp_fb_calc #(.QW(QW), .PW(PW)) u_queue_fb (
    .clk_i, .rst_ni,
    .go_i (n_go), .posok_i (n_tag_ok), .q_i (n_q), .qold_i (n_qold), .qeq_i (n_qeq),
    .w_i (n_w), .bmax_i (n_bmax), .pay_i (n_pay),
    .go_o (sampled_o), .cnt_o (msg_cnt_o), .valid_o (msg_valid_o), .type_o (msg_type_o), .qoff_o (msg_qoff_o),
    .qdelta_o (msg_qdelta_o), .fb_o (msg_fb_o), .qntz_o (msg_qntz_o), .pay_o (pay)
  );

  // Per-flow channel: probes are answered with either sign, whatever their tag.
  // W is the same register for both levels.
  logic       unused_fgo;
  logic [2:0] fcnt;

  cp_fb_calc #(.QW(QW), .PW(FPW)) u_flow_fb (
    .clk_i, .rst_ni,
    .go_i (f_go), .posok_i (1'b1), .q_i (f_q), .qold_i (f_qold), .qeq_i (f_qeq),
    .w_i (f_w), .bmax_i (f_bmax), .pay_i (f_pay),
    .go_o (unused_fgo), .cnt_o (fcnt), .valid_o (fmsg_valid_o), .type_o (fmsg_type_o), .qoff_o (fmsg_qoff_o),
    .qdelta_o (fmsg_qdelta_o), .fb_o (fmsg_fb_o), .qntz_o (fmsg_qntz_o), .pay_o ({fdst_o, fflow_o})
  );

  assign {dst_o, flow_o, cpid_o} = pay;
  assign fmsg_cnt_o = |fcnt;

endmodule
