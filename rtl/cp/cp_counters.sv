// Event counters of the CP (wrap at 2^32), one cp_counter each.
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

  // Each counter is a cp_counter (common_counter's behaviour: wraps at 2^32,
  // never cleared; its sums are formed before the increment arrives).
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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      frame_q   <= 1'b0;
      err_inc_q <= '0;
    end else begin
      frame_q   <= frame_i;
      err_inc_q <= 2'(ev_reject_i) + 2'(cfg_reject_i);   // both in one cycle count 2
    end
  end

  cp_counter #(.IncW(1)) u_frames (
    .clk_i, .rst_ni, .inc_i (frame_q), .count_o (frames_o)
  );
  cp_counter #(.IncW(1)) u_samples (
    .clk_i, .rst_ni, .inc_i (sample_i), .count_o (samples_o)
  );
  cp_counter #(.IncW(1)) u_bcn_neg (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[0]), .count_o (bcn_neg_o)
  );
  cp_counter #(.IncW(1)) u_bcn_pos (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[1]), .count_o (bcn_pos_o)
  );
  cp_counter #(.IncW(1)) u_bcn_max (
    .clk_i, .rst_ni, .inc_i (bcn_inc_i[2]), .count_o (bcn_max_o)
  );
  cp_counter #(.IncW(1)) u_fbcn (
    .clk_i, .rst_ni, .inc_i (fbcn_inc_i), .count_o (fbcn_o)
  );
  cp_counter #(.IncW(1)) u_ft_full (
    .clk_i, .rst_ni, .inc_i (ft_full_i), .count_o (ft_full_o)
  );
  cp_counter #(.IncW(2)) u_errors (
    .clk_i, .rst_ni, .inc_i (err_inc_q), .count_o (errors_o)
  );

endmodule
