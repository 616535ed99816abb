// QntzFb = min(63, floor(N / D)) with N = |Fb|*63, exact, as a 6-cycle
// pipeline. Spec: docs/cp.md §7.1; structure and timing: §13.
//
// The quotient is clamped before it is formed (N >= 64*D gives 63), so six
// restoring steps, one quotient bit each (cp_div_step), are enough and no
// reciprocal (with its rounding) is needed. One step per cycle: a step is a
// QW+6-bit compare and subtract, the most a 250 MHz cycle holds in osu018.
//
//   cycle 1 (n_i, d_i): clamp compare N >= 64*D, and quotient bit 5
//   cycles 2..5:        bits 4, 3, 2, 1 (one step each)
//   cycle 6:            bit 0 (compare only); qntz_o is combinational here
//
// A new N/D may enter every cycle. D travels with its N, so a change of the
// configuration never mixes two divisors in one division.
module cp_quantiser #(
  parameter int unsigned QW = 27,
  localparam int unsigned NW = QW + 10,  // |Fb|*63 < 2^(QW+10)
  localparam int unsigned DW = QW + 5    // D < 2^(QW+5)
) (
  input  logic          clk_i,
  input  logic          rst_ni,    // only for the assertion's valid bits
  input  logic          v_i,       // n_i/d_i are a real division (assertion only)
  input  logic [NW-1:0] n_i,       // |Fb|*63
  input  logic [DW-1:0] d_i,       // non-zero after validation
  output logic [5:0]    qntz_o     // five cycles after n_i, combinational
);

  // stage registers after cycles 1..5: remainder, divisor, quotient bits so
  // far, clamp flag. Data only (no reset): the channel's valid bits say which
  // stages hold a real division.
  logic [NW-1:0] rem_q [1:5];
  logic [DW-1:0] d_q   [1:5];
  logic [4:0]    q_q   [1:5];
  logic          sat_q [1:5];

  logic [NW-1:0] rem_d [1:5];
  logic [4:0]    q_d   [1:5];
  logic          b     [0:5];
  logic [NW-1:0] unused_rem0;

  // cycle 1: the clamp (N >= 64*D <=> N/64 >= D, as 64*D has six zero low bits)
  cp_div_step #(.QW(QW), .K(5)) u_step5 (.rem_i (n_i), .d_i, .b_o (b[5]), .rem_o (rem_d[1]));
  assign q_d[1] = {4'b0, b[5]};

  for (genvar s = 2; s <= 5; s++) begin : gen_step
    cp_div_step #(.QW(QW), .K(6 - s)) u_step (
      .rem_i (rem_q[s-1]), .d_i (d_q[s-1]), .b_o (b[6-s]), .rem_o (rem_d[s])
    );
    assign q_d[s] = {q_q[s-1][3:0], b[6-s]};
  end

  cp_div_step #(.QW(QW), .K(0)) u_step0 (
    .rem_i (rem_q[5]), .d_i (d_q[5]), .b_o (b[0]), .rem_o (unused_rem0)
  );

  always_ff @(posedge clk_i) begin
    rem_q[1] <= rem_d[1];
    d_q[1]   <= d_i;
    q_q[1]   <= q_d[1];
    sat_q[1] <= (DW'(n_i[NW-1:6]) >= d_i);
  end
  for (genvar s = 2; s <= 5; s++) begin : gen_stage
    always_ff @(posedge clk_i) begin
      rem_q[s] <= rem_d[s];
      d_q[s]   <= d_q[s-1];
      q_q[s]   <= q_d[s];
      sat_q[s] <= sat_q[s-1];
    end
  end

  always_comb begin
    if (sat_q[5]) qntz_o = 6'd63;
    else          qntz_o = {q_q[5], b[0]};
  end

  // Assertion (docs/cp.md "Assertions"): the result is min(63, floor(N / D))
  // for the N and D that entered five cycles earlier, stated without a
  // division: q*D <= N, and N < (q+1)*D unless q = 63. D = 0 is excluded by
  // the configuration checks. Not synthesized. Each step's own assertion
  // (cpq_step, cp_div_step) is the part `make formal` proves.
`ifndef SYNTHESIS
  localparam int unsigned AW = NW + 7;
  logic [NW-1:0] a_n_q [1:5];
  logic [DW-1:0] a_d_q [1:5];
  logic [5:1]    a_v_q;
  logic [AW-1:0] a_n, a_qd, a_q1d;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) a_v_q <= '0;
    else         a_v_q <= {a_v_q[4:1], v_i};
  end
  always_ff @(posedge clk_i) begin
    a_n_q[1] <= n_i;
    a_d_q[1] <= d_i;
  end
  for (genvar s = 2; s <= 5; s++) begin : gen_a_stage
    always_ff @(posedge clk_i) begin
      a_n_q[s] <= a_n_q[s-1];
      a_d_q[s] <= a_d_q[s-1];
    end
  end
  always_comb begin
    a_n   = AW'(a_n_q[5]);
    a_qd  = AW'(qntz_o) * AW'(a_d_q[5]);
    a_q1d = a_qd + AW'(a_d_q[5]);
  end
  always_comb begin
    if (rst_ni && a_v_q[5] && a_d_q[5] != '0) begin
      cpq_exact: assert (a_qd <= a_n && (qntz_o == 6'd63 || a_n < a_q1d));
    end
  end
`endif

endmodule
