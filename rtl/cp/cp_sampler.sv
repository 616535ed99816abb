// Chooses which enqueued frames are sampled. Spec: docs/cp.md §6.
//
// Random sampling draws from common_lfsr32, the generator whose sequence the
// C model reproduces bit for bit; the byte countdown is the deterministic
// alternative.
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

  logic [31:0] lfsr;
  logic [31:0] cd_q, cd_d;
  logic        random_mode;
  logic        unused_seed_err;

  assign random_mode = (sample_bytes_i == '0);

  common_lfsr32 #(.Seed(32'h1)) u_lfsr (
    .clk_i,
    .rst_ni,
    .en_i      (candidate_i && random_mode),
    .load_i    (apply_i),               // APPLY wins over the step
    .seed_i    (apply_seed_i),          // validated non-zero by cp_config
    .state_o   (lfsr),
    .seed_err_o(unused_seed_err)
  );

  always_comb begin
    if (random_mode) sample_o = candidate_i && (lfsr < psample_i);
    else             sample_o = candidate_i && (32'(len_i) >= cd_q);
    cd_d = cd_q;
    if (apply_i)                         cd_d = apply_sample_bytes_i;
    else if (candidate_i && !random_mode) cd_d = sample_o ? sample_bytes_i : cd_q - 32'(len_i);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cd_q <= '0;
    else         cd_q <= cd_d;
  end

endmodule
