// ECM / E2CM congestion point of one output queue. Spec: docs/cp.md.
//
// Pipeline: cycle t sees the enqueue/dequeue events (queue monitor, sampler);
// the flow table applies them in t+1 (docs/cp.md §8); cycle t+1 takes the
// snapshot of t's sample (and updates Qold); cycles t+2..t+10 compute its
// feedback; the BCN is on the outputs in cycle t+11. The per-flow channel
// runs a cycle later (entry looked up in t+2, per-flow BCN at t+12).
// Latency contract: docs/cp.md §10.
module cp #(
  parameter int unsigned QW       = 27,
  parameter int unsigned NumFlows = 16,
  parameter int unsigned FlowW    = 8,
  parameter int unsigned NodeW    = 8,
  parameter int unsigned MaxFrame = 9216
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  // configuration register port
  input  logic             cfg_we_i,
  input  logic [3:0]       cfg_addr_i,
  input  logic [31:0]      cfg_wdata_i,
  // a frame enters the queue
  input  logic             enq_valid_i,
  input  logic [15:0]      enq_len_i,
  input  logic [FlowW-1:0] enq_flow_i,
  input  logic [NodeW-1:0] enq_src_i,
  input  logic             enq_probe_i,
  input  logic             enq_tagged_i,
  input  logic [15:0]      enq_tag_cpid_i,
  // a frame leaves the queue
  input  logic             deq_valid_i,
  input  logic [15:0]      deq_len_i,
  input  logic [FlowW-1:0] deq_flow_i,
  // occupancy
  output logic [QW-1:0]    q_o,
  // queue-level BCN (ECM)
  output logic             bcn_valid_o,
  output logic [1:0]       bcn_type_o,
  output logic [NodeW-1:0] bcn_dst_o,
  output logic [FlowW-1:0] bcn_flow_o,
  output logic [15:0]      bcn_cpid_o,
  output logic [QW:0]      bcn_qoff_o,
  output logic [QW:0]      bcn_qdelta_o,
  output logic [QW+4:0]    bcn_fb_o,
  output logic [5:0]       bcn_qntzfb_o,
  // per-flow BCN (E2CM)
  output logic             fbcn_valid_o,
  output logic [1:0]       fbcn_type_o,
  output logic [NodeW-1:0] fbcn_dst_o,
  output logic [FlowW-1:0] fbcn_flow_o,
  output logic [QW:0]      fbcn_qoff_o,
  output logic [QW:0]      fbcn_qdelta_o,
  output logic [QW+4:0]    fbcn_fb_o,
  output logic [5:0]       fbcn_qntzfb_o,
  // errors
  output logic             cfg_err_o,
  output logic [2:0]       cfg_err_code_o,
  output logic             ev_err_o,
  output logic [2:0]       ev_err_code_o,
  output logic             ft_full_o,
  // counters
  output logic [31:0]      cnt_frames_o,
  output logic [31:0]      cnt_samples_o,
  output logic [31:0]      cnt_bcn_neg_o,
  output logic [31:0]      cnt_bcn_pos_o,
  output logic [31:0]      cnt_bcn_max_o,
  output logic [31:0]      cnt_fbcn_o,
  output logic [31:0]      cnt_ft_full_o,
  output logic [31:0]      cnt_errors_o
);

  if (QW < 16 || QW > 30) begin : gen_qw_check
    $error("cp: QW must be 16..30");
  end
  if (NumFlows < 2 || NumFlows > 256) begin : gen_flows_check
    $error("cp: NumFlows must be 2..256");
  end
  if (FlowW < 1 || FlowW > 16 || NodeW < 1 || NodeW > 16) begin : gen_id_check
    $error("cp: FlowW and NodeW must be 1..16");
  end
  if (MaxFrame < 64 || MaxFrame > 65535) begin : gen_frame_check
    $error("cp: MaxFrame must be 64..65535");
  end

  // active configuration
  logic [1:0]    mode;
  logic [QW-1:0] qeq, bcnmax, qeq_flow, bcnmax_flow;
  logic [3:0]    w;
  logic [31:0]   psample, sample_bytes, apply_seed, apply_sample_bytes;
  logic [15:0]   cpid;
  logic          apply, cfg_reject;

  cp_config #(.QW(QW)) u_config (
    .clk_i, .rst_ni, .cfg_we_i, .cfg_addr_i, .cfg_wdata_i,
    .mode_o (mode), .qeq_o (qeq), .w_o (w), .psample_o (psample),
    .sample_bytes_o (sample_bytes), .bcnmax_o (bcnmax), .qeq_flow_o (qeq_flow),
    .bcnmax_flow_o (bcnmax_flow), .cpid_o (cpid),
    .apply_o (apply), .apply_seed_o (apply_seed), .apply_sample_bytes_o (apply_sample_bytes),
    .reject_o (cfg_reject), .cfg_err_o, .cfg_err_code_o
  );

  logic enq_ok, deq_ok, ev_reject;

  cp_queue_monitor #(.QW(QW), .MaxFrame(MaxFrame)) u_queue_monitor (
    .clk_i, .rst_ni, .enq_valid_i, .enq_len_i, .deq_valid_i, .deq_len_i,
    .enq_ok_o (enq_ok), .deq_ok_o (deq_ok), .reject_o (ev_reject),
    .q_o, .ev_err_o, .ev_err_code_o
  );

  logic mode_on, candidate, sample, answer_probe, tag_ok;

  assign mode_on   = (mode != cp_pkg::ModeOff);
  assign candidate = enq_ok && mode_on;

  cp_sampler u_sampler (
    .clk_i, .rst_ni,
    .candidate_i (candidate), .len_i (enq_len_i), .psample_i (psample),
    .sample_bytes_i (sample_bytes), .apply_i (apply), .apply_seed_i (apply_seed),
    .apply_sample_bytes_i (apply_sample_bytes), .sample_o (sample)
  );

  // E2CM answers probes from rate-limited sources; E2CM-CP treats every
  // sample as a probe (continuous probing).
  assign answer_probe = enq_ok && ((mode == cp_pkg::ModeE2cm && enq_probe_i) ||
                                   (mode == cp_pkg::ModeE2cmCp && sample));
  assign tag_ok = enq_tagged_i && (enq_tag_cpid_i == cpid);

  logic [FlowW-1:0] lk_flow;
  logic             lk_hit, qold_flow_we, ft_full_now;
  logic [QW-1:0]    lk_q, lk_qold;

  cp_flow_table #(.QW(QW), .NumFlows(NumFlows), .FlowW(FlowW)) u_flow_table (
    .clk_i, .rst_ni, .en_i (mode_on),
    .enq_ok_i (enq_ok), .enq_flow_i, .enq_len_i,
    .deq_ok_i (deq_ok), .deq_flow_i, .deq_len_i, .clear_qold_i (apply),
    .lk_flow_i (lk_flow), .lk_hit_o (lk_hit), .lk_q_o (lk_q), .lk_qold_o (lk_qold),
    .qold_we_i (qold_flow_we),
    .full_now_o (ft_full_now), .ft_full_o
  );

  logic             sampled, msg_valid, fmsg_valid;
  logic [NodeW-1:0] dst, fdst;
  logic [FlowW-1:0] flow, fflow;
  logic [1:0]       msg_type, fmsg_type;
  logic [QW:0]      msg_qoff, msg_qdelta, fmsg_qoff, fmsg_qdelta;
  logic [QW+4:0]    msg_fb, fmsg_fb;
  logic [5:0]       msg_qntz, fmsg_qntz;
  logic [15:0]      msg_cpid;
  logic [2:0]       msg_cnt;
  logic             fmsg_cnt;

  cp_feedback #(.QW(QW), .FlowW(FlowW), .NodeW(NodeW)) u_feedback (
    .clk_i, .rst_ni,
    .sample_i (sample), .answer_probe_i (answer_probe), .src_i (enq_src_i),
    .flow_i (enq_flow_i), .tag_ok_i (tag_ok),
    .q_i (q_o), .qeq_i (qeq), .w_i (w), .bcnmax_i (bcnmax),
    .qeq_flow_i (qeq_flow), .bcnmax_flow_i (bcnmax_flow), .cpid_i (cpid), .apply_i (apply),
    .lk_flow_o (lk_flow), .lk_hit_i (lk_hit), .lk_q_i (lk_q), .lk_qold_i (lk_qold),
    .qold_flow_we_o (qold_flow_we),
    .sampled_o (sampled), .dst_o (dst), .flow_o (flow), .cpid_o (msg_cpid),
    .fdst_o (fdst), .fflow_o (fflow),
    .msg_cnt_o (msg_cnt), .fmsg_cnt_o (fmsg_cnt),
    .msg_valid_o (msg_valid), .msg_type_o (msg_type), .msg_qoff_o (msg_qoff),
    .msg_qdelta_o (msg_qdelta), .msg_fb_o (msg_fb), .msg_qntz_o (msg_qntz),
    .fmsg_valid_o (fmsg_valid), .fmsg_type_o (fmsg_type), .fmsg_qoff_o (fmsg_qoff),
    .fmsg_qdelta_o (fmsg_qdelta), .fmsg_fb_o (fmsg_fb), .fmsg_qntz_o (fmsg_qntz)
  );

  cp_bcn_out #(.QW(QW), .FlowW(FlowW), .NodeW(NodeW)) u_bcn_out (
    .clk_i, .rst_ni,
    .valid_i (msg_valid), .type_i (msg_type), .dst_i (dst), .flow_i (flow),
    .qoff_i (msg_qoff), .qdelta_i (msg_qdelta), .fb_i (msg_fb), .qntz_i (msg_qntz),
    .valid_o (bcn_valid_o), .type_o (bcn_type_o), .dst_o (bcn_dst_o), .flow_o (bcn_flow_o),
    .qoff_o (bcn_qoff_o), .qdelta_o (bcn_qdelta_o), .fb_o (bcn_fb_o), .qntz_o (bcn_qntzfb_o)
  );

  cp_bcn_out #(.QW(QW), .FlowW(FlowW), .NodeW(NodeW)) u_fbcn_out (
    .clk_i, .rst_ni,
    .valid_i (fmsg_valid), .type_i (fmsg_type), .dst_i (fdst), .flow_i (fflow),
    .qoff_i (fmsg_qoff), .qdelta_i (fmsg_qdelta), .fb_i (fmsg_fb), .qntz_i (fmsg_qntz),
    .valid_o (fbcn_valid_o), .type_o (fbcn_type_o), .dst_o (fbcn_dst_o), .flow_o (fbcn_flow_o),
    .qoff_o (fbcn_qoff_o), .qdelta_o (fbcn_qdelta_o), .fb_o (fbcn_fb_o), .qntz_o (fbcn_qntzfb_o)
  );

  // The CPID (as active in t+1) travels with the queue-level message.
  logic [15:0] cpid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni)        cpid_q <= '0;
    else if (msg_valid) cpid_q <= msg_cpid;
  end
  assign bcn_cpid_o = cpid_q;

  cp_counters u_counters (
    .clk_i, .rst_ni,
    .frame_i (enq_ok), .sample_i (sampled),
    .bcn_inc_i (msg_cnt), .fbcn_inc_i (fmsg_cnt),
    .ft_full_i (ft_full_now), .ev_reject_i (ev_reject), .cfg_reject_i (cfg_reject),
    .frames_o (cnt_frames_o), .samples_o (cnt_samples_o), .bcn_neg_o (cnt_bcn_neg_o),
    .bcn_pos_o (cnt_bcn_pos_o), .bcn_max_o (cnt_bcn_max_o), .fbcn_o (cnt_fbcn_o),
    .ft_full_o (cnt_ft_full_o), .errors_o (cnt_errors_o)
  );

endmodule
