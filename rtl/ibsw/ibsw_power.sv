// ibsw_power: the power meter of seed 000 Table 1 (docs/ibsw.md §9): PW takes
// power(c) at the end of c, E adds the PW of c (saturating).
module ibsw_power #(
  parameter int unsigned NumPorts  = 4,
  parameter int unsigned LinkSpeed = 3
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [NumPorts-1:0] on_i,
  output logic [16:0]         power_mw_o,
  output logic [63:0]         energy_o
);
  if (LinkSpeed > 3) begin : gen_speed_check
    $error("ibsw_power: LinkSpeed must be 0..3");
  end
  localparam int unsigned Wp = (LinkSpeed == 0) ? 210 : (LinkSpeed == 1) ? 770 : (LinkSpeed == 2) ? 260 : 950;
  // reset state: every port Polling (on) or LinkUp (on) -- all powered
  localparam logic [16:0] PwReset = 17'(43400 + NumPorts * Wp);
  logic [16:0] pw_q, pw_d;
  logic [63:0] e_q, e_s;
  logic        e_co;
  always_comb begin
    pw_d = 17'd43400;
    for (int unsigned n = 0; n < NumPorts; n++) if (on_i[n]) pw_d = pw_d + 17'(Wp);
  end
  // E + PW on a Kogge-Stone tree: `+` maps to a near-ripple 64-bit chain in the
  // osu018 flow (7.4 ns in ibsw_p4, docs/timing.md); cp_ks_add is cp's adder.
  cp_ks_add #(.W(64), .Keep(1)) u_e_add (
    .a_i(e_q), .b_i(64'(pw_q)), .ci_i(1'b0), .s_o(e_s), .co_o(e_co)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pw_q <= PwReset;
      e_q  <= '0;
    end else begin
      pw_q <= pw_d;
      e_q  <= e_co ? 64'hFFFF_FFFF_FFFF_FFFF : e_s;
    end
  end
  assign power_mw_o = pw_q;
  assign energy_o = e_q;
endmodule
