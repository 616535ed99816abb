// 32-bit maximal-length Galois LFSR. Spec: docs/common.md#common_lfsr32.
//
// Shifts right; feedback x^32 + x^22 + x^2 + x + 1 (mask 0x80200003), period
// 2^32-1. ECM sampling draws from this exact sequence, so it is part of the
// bit-exact contract between RTL and C model.
module common_lfsr32 #(
  parameter logic [31:0] Seed = 32'h1
) (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        en_i,        // advance one step
  input  logic        load_i,      // load seed_i; wins over en_i
  input  logic [31:0] seed_i,
  output logic [31:0] state_o,
  output logic        seed_err_o   // registered pulse: load of 0 rejected
);

  if (Seed == 32'h0) begin : gen_seed_check
    $error("common_lfsr32: Seed must be non-zero");
  end

  localparam logic [31:0] Taps = 32'h80200003;

  logic [31:0] state_q, state_d;
  logic        seed_err_q, seed_err_d;

  always_comb begin
    state_d    = state_q;
    seed_err_d = 1'b0;
    if (load_i) begin
      if (seed_i != '0) state_d    = seed_i;
      else              seed_err_d = 1'b1;
    end else if (en_i) begin
      state_d = (state_q >> 1) ^ (state_q[0] ? Taps : 32'h0);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q    <= Seed;
      seed_err_q <= 1'b0;
    end else begin
      state_q    <= state_d;
      seed_err_q <= seed_err_d;
    end
  end

  assign state_o    = state_q;
  assign seed_err_o = seed_err_q;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  always_ff @(posedge clk_i) begin
    // zero is the Galois LFSR's fixed point: it must never be entered
    lfsr_nonzero: assert (state_q != '0);
  end
`endif

endmodule
