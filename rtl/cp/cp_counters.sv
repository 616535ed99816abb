// Event counters of the CP (wrap at 2^32), one common_counter each.
// Spec: docs/cp.md §4, §7, §10.
module cp_counters (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        frame_i,
  input  logic        sample_i,
  input  logic [2:0]  bcn_inc_i,     // the queue-level message, one-hot {MAX, POS, NEG}
  input  logic        fbcn_inc_i,    // a per-flow message
  input  logic        ft_full_i,     // the flow table's full verdict of t+1 for t's enqueue
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
  //
  // The event pulses (an accepted frame, a rejection) are registered before
  // they count: they are decided late in their cycle (after the queue
  // monitor's limit checks), and a 32-bit increment behind them does not fit
  // a 250 MHz cycle (docs/cp.md §13). So these counters show cycle t's events
  // at t+2 (§10). The flow table decides "full" for t's enqueue early in t+1,
  // from its event register (§8), so ft_full_i counts as it comes: also t+2.
  // The message counters count from pipeline registers and show a message
  // together with it.
  logic [1:0] err_inc_q;
  logic       frame_q;
  logic [7:0] unused_sat;   // wrapping counters: all ones is just a value

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      frame_q   <= 1'b0;
      err_inc_q <= '0;
    end else begin
      frame_q   <= frame_i;
      err_inc_q <= 2'(ev_reject_i) + 2'(cfg_reject_i);   // both in one cycle count 2
    end
  end

  common_counter #(.Width(32), .IncW(1)) u_frames (
    .clk_i, .rst_ni, .inc_i (frame_q), .clear_i (1'b0), .count_o (frames_o), .sat_o (unused_sat[0])
  );
  common_counter #(.Width(32), .IncW(1)) u_samples (
    .clk_i, .rst_ni, .inc_i (sample_i), .clear_i (1'b0), .count_o (samples_o), .sat_o (unused_sat[1])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_neg (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[0]), .clear_i (1'b0),
    .count_o (bcn_neg_o), .sat_o (unused_sat[2])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_pos (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[1]), .clear_i (1'b0),
    .count_o (bcn_pos_o), .sat_o (unused_sat[3])
  );
  common_counter #(.Width(32), .IncW(1)) u_bcn_max (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[2]), .clear_i (1'b0),
    .count_o (bcn_max_o), .sat_o (unused_sat[4])
  );
  common_counter #(.Width(32), .IncW(1)) u_fbcn (
    .clk_i, .rst_ni, .inc_i (fbcn_inc_i), .clear_i (1'b0), .count_o (fbcn_o), .sat_o (unused_sat[5])
  );
  common_counter #(.Width(32), .IncW(1)) u_ft_full (
    .clk_i, .rst_ni, .inc_i (ft_full_i), .clear_i (1'b0), .count_o (ft_full_o), .sat_o (unused_sat[6])
  );
  common_counter #(.Width(32), .IncW(2)) u_errors (
    .clk_i, .rst_ni, .inc_i (err_inc_q), .clear_i (1'b0), .count_o (errors_o), .sat_o (unused_sat[7])
  );

endmodule
