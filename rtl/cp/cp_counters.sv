// Event counters of the CP (wrap at 2^32). Spec: docs/cp.md §4, §7.
module cp_counters (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        frame_i,
  input  logic        sample_i,
  input  logic        bcn_valid_i,
  input  logic [1:0]  bcn_type_i,
  input  logic        fbcn_valid_i,
  input  logic        ft_full_i,
  input  logic        ev_reject_i,
  input  logic        cfg_reject_i,
  output logic [31:0] frames_o,
  output logic [31:0] samples_o,
  output logic [31:0] bcn_neg_o,
  output logic [31:0] bcn_pos_o,
  output logic [31:0] bcn_max_o,
  output logic [31:0] fbcn_o,
  output logic [31:0] ft_full_o,
  output logic [31:0] errors_o
);

  logic [31:0] frames_q, samples_q, neg_q, pos_q, max_q, fbcn_q, full_q, errors_q;
  logic [31:0] frames_d, samples_d, neg_d, pos_d, max_d, fbcn_d, full_d, errors_d;

  always_comb begin
    frames_d  = frames_q + 32'(frame_i);
    samples_d = samples_q + 32'(sample_i);
    neg_d     = neg_q + 32'(bcn_valid_i && bcn_type_i == cp_pkg::BcnNeg);
    pos_d     = pos_q + 32'(bcn_valid_i && bcn_type_i == cp_pkg::BcnPos);
    max_d     = max_q + 32'(bcn_valid_i && bcn_type_i == cp_pkg::BcnMax);
    fbcn_d    = fbcn_q + 32'(fbcn_valid_i);
    full_d    = full_q + 32'(ft_full_i);
    errors_d  = errors_q + 32'(ev_reject_i) + 32'(cfg_reject_i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      frames_q <= '0; samples_q <= '0; neg_q <= '0; pos_q <= '0;
      max_q    <= '0; fbcn_q    <= '0; full_q <= '0; errors_q <= '0;
    end else begin
      frames_q <= frames_d; samples_q <= samples_d; neg_q <= neg_d; pos_q <= pos_d;
      max_q    <= max_d;    fbcn_q    <= fbcn_d;    full_q <= full_d; errors_q <= errors_d;
    end
  end

  assign frames_o  = frames_q;
  assign samples_o = samples_q;
  assign bcn_neg_o = neg_q;
  assign bcn_pos_o = pos_q;
  assign bcn_max_o = max_q;
  assign fbcn_o    = fbcn_q;
  assign ft_full_o = full_q;
  assign errors_o  = errors_q;

endmodule
