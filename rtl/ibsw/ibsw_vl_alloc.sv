// ibsw_vl_alloc: VA of one output lane (o, l) (docs/ibsw.md §5.4): when FREE
// (and, for the SMA, the SMA IDLE), grant the first requesting input at or
// after the round-robin pointer in the order vrr, ..., P, 0, ...; hold the
// circuit (BUSY, owner) until SA closes it.
module ibsw_vl_alloc #(
  parameter int unsigned NumPorts = 4,
  localparam int unsigned NIn = NumPorts + 1
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic [NIn-1:0] req_i,      // input n requests this output lane
  input  logic           enable_i,   // grantable beyond FREE (the SMA IDLE for o = 0)
  input  logic           close_i,    // SA ends the circuit (TAIL or synthetic close)
  output logic [NIn-1:0] gnt_o,
  output logic           busy_o,
  output logic [4:0]     owner_o
);
  logic       busy_q;
  logic [4:0] owner_q, vrr_q, vrr_d, owner_d;
  logic       found;
  logic [4:0] idx;

  always_comb begin
    gnt_o   = '0;
    found   = 1'b0;
    idx     = '0;
    vrr_d   = vrr_q;
    owner_d = owner_q;
    if (!busy_q && enable_i) begin
      // first requester at or after vrr, then from 0 (constant indices only)
      for (int unsigned n = 0; n < NIn; n++) begin
        if (!found && req_i[n] && n >= 32'(vrr_q)) begin
          found = 1'b1;
          idx   = 5'(n);
        end
      end
      for (int unsigned n = 0; n < NIn; n++) begin
        if (!found && req_i[n] && n < 32'(vrr_q)) begin
          found = 1'b1;
          idx   = 5'(n);
        end
      end
      for (int unsigned n = 0; n < NIn; n++) if (found && 32'(idx) == n) gnt_o[n] = 1'b1;
      if (found) begin
        owner_d = idx;
        vrr_d   = (32'(idx) + 1 == NIn) ? 5'd0 : idx + 5'd1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      owner_q <= '0;
      vrr_q   <= '0;
    end else begin
      if (found) busy_q <= 1'b1;
      else if (close_i) busy_q <= 1'b0;
      owner_q <= owner_d;
      vrr_q   <= vrr_d;
    end
  end
  assign busy_o  = busy_q;
  assign owner_o = owner_q;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    va_grant_onehot0: assert ($onehot0(gnt_o));
    va_grant_requested: assert ((gnt_o & ~req_i) == '0);
    va_close_busy: assert (!(close_i && !busy_q));
    va_owner_range: assert (32'(owner_q) < NIn);
  end
`endif
endmodule
