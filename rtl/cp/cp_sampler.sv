// Chooses which enqueued frames are sampled. Spec: docs/cp.md §6.
//
// Random sampling draws from common_lfsr32, the generator whose sequence the
// C model reproduces bit for bit; the byte countdown is the deterministic
// alternative.
//
// For 250 MHz (docs/cp.md §13) the queue monitor's verdict, which arrives
// late, only goes into one-bit registers: the countdown and the LFSR apply a
// candidate's update one cycle later, and the cycle after reads the state
// that update would have left (a 2:1 choice on registers). sample_o and the
// sequence of states are those of §6 in every cycle; only where the state is
// held changes (it is not visible at any port).
module cp_sampler (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        candidate_i,      // accepted enqueue while MODE is on
  input  logic [15:0] len_i,
  input  logic [31:0] psample_i,
  input  logic [31:0] sample_bytes_i,   // 0: random sampling
  input  logic        apply_i,          // APPLY: reload seed and countdown
  input  logic [31:0] apply_seed_i,
  input  logic [31:0] apply_sample_bytes_i,
  output logic        sample_o          // combinational: this enqueue is sampled
);

  // common_lfsr32's step (docs/common.md#common_lfsr32: Galois, shifts right)
  localparam logic [31:0] Taps = 32'h80200003;

  logic [31:0] lfsr;
  logic        step_q, step_d;          // the LFSR owes last cycle's step
  logic [31:0] cd_q, cd_d;              // countdown, unless cdx_q holds it
  logic [31:0] cdx_q, cdx_d;            // countdown after last cycle's candidate
  logic        cdx_q_valid, cdx_d_valid; // last cycle had a countdown candidate
  logic [31:0] cd_now;
  logic        random_mode, hit;
  logic        unused_seed_err;

  assign random_mode = (sample_bytes_i == '0);

  // The owed step is taken in this cycle (APPLY's load wins, as in §6: the
  // step was the last one before the reload).
  common_lfsr32 #(.Seed(32'h1)) u_lfsr (
    .clk_i,
    .rst_ni,
    .en_i      (step_q),
    .load_i    (apply_i),
    .seed_i    (apply_seed_i),          // validated non-zero by cp_config
    .state_o   (lfsr),
    .seed_err_o(unused_seed_err)
  );

  // Both possible countdowns are in registers, so the compare and the
  // subtraction run on each in parallel and the 2:1 choice comes last.
  logic [31:0] len32, sub_c, sub_x;
  logic        ge_c, ge_x, unused_co_c, unused_co_x;
  logic [31:0] unused_s_c, unused_s_x;
  assign len32 = 32'(len_i);
  cp_ks_add #(.W(32)) u_ge_c (
    .a_i (len32), .b_i (~cd_q), .ci_i (1'b1), .s_o (unused_s_c), .co_o (ge_c)
  );
  cp_ks_add #(.W(32)) u_ge_x (
    .a_i (len32), .b_i (~cdx_q), .ci_i (1'b1), .s_o (unused_s_x), .co_o (ge_x)
  );
  cp_ks_add #(.W(32)) u_sub_c (
    .a_i (cd_q), .b_i (~len32), .ci_i (1'b1), .s_o (sub_c), .co_o (unused_co_c)
  );
  cp_ks_add #(.W(32)) u_sub_x (
    .a_i (cdx_q), .b_i (~len32), .ci_i (1'b1), .s_o (sub_x), .co_o (unused_co_x)
  );

  always_comb begin
    logic [31:0] lfsr_next;
    // the state as §6 has it at the start of this cycle
    lfsr_next = (lfsr >> 1) ^ (lfsr[0] ? Taps : 32'h0);
    cd_now    = cdx_q_valid ? cdx_q : cd_q;
    if (random_mode) hit = step_q ? (lfsr_next < psample_i) : (lfsr < psample_i);
    else             hit = cdx_q_valid ? ge_x : ge_c;   // len >= cd_now
    sample_o = candidate_i && hit;

    // Everything below but the two one-bit registers is independent of
    // candidate_i: cdx is the countdown a candidate leaves.
    step_d      = candidate_i && random_mode && !apply_i;
    cdx_d_valid = candidate_i && !random_mode && !apply_i;
    cdx_d       = hit ? sample_bytes_i : (cdx_q_valid ? sub_x : sub_c);   // cd_now - len
    cd_d        = apply_i ? apply_sample_bytes_i : cd_now;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cd_q        <= '0;
      cdx_q       <= '0;
      cdx_q_valid <= 1'b0;
      step_q      <= 1'b0;
    end else begin
      cd_q        <= cd_d;
      cdx_q       <= cdx_d;
      cdx_q_valid <= cdx_d_valid;
      step_q      <= step_d;
    end
  end

endmodule
