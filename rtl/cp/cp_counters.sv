// Event counters of the CP (wrap at 2^32), one common_counter each.
// Spec: docs/cp.md §4, §7.
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

  // Each counter is a common_counter (docs/common.md#common_counter): wraps at
  // 2^32, never cleared.
  logic [1:0] err_inc;
  logic [7:0] unused_sat;   // wrapping counters: all ones is just a value
  assign err_inc = 2'(ev_reject_i) + 2'(cfg_reject_i);   // both in one cycle count 2

  common_counter #(.Width(32), .IncW(1)) u_frames (
    .clk_i, .rst_ni, .inc_i (frame_i), .clear_i (1'b0), .count_o (frames_o), .sat_o (unused_sat[0])
  );
  common_counter #(.Width(32), .IncW(1)) u_samples (
    .clk_i, .rst_ni, .inc_i (sample_i), .clear_i (1'b0), .count_o (samples_o), .sat_o (unused_sat[1])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_neg (
    .clk_i, .rst_ni, .inc_i (bcn_valid_i && bcn_type_i == cp_pkg::BcnNeg), .clear_i (1'b0),
    .count_o (bcn_neg_o), .sat_o (unused_sat[2])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_pos (
    .clk_i, .rst_ni, .inc_i (bcn_valid_i && bcn_type_i == cp_pkg::BcnPos), .clear_i (1'b0),
    .count_o (bcn_pos_o), .sat_o (unused_sat[3])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_max (
    .clk_i, .rst_ni, .inc_i (bcn_valid_i && bcn_type_i == cp_pkg::BcnMax), .clear_i (1'b0),
    .count_o (bcn_max_o), .sat_o (unused_sat[4])
  );
  common_counter #(.Width(32), .IncW(1)) u_fbcn (
    .clk_i, .rst_ni, .inc_i (fbcn_valid_i), .clear_i (1'b0), .count_o (fbcn_o), .sat_o (unused_sat[5])
  );
  common_counter #(.Width(32), .IncW(1)) u_ft_full (
    .clk_i, .rst_ni, .inc_i (ft_full_i), .clear_i (1'b0), .count_o (ft_full_o), .sat_o (unused_sat[6])
  );
  common_counter #(.Width(32), .IncW(2)) u_errors (
    .clk_i, .rst_ni, .inc_i (err_inc), .clear_i (1'b0), .count_o (errors_o), .sat_o (unused_sat[7])
  );

endmodule
