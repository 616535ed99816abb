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
  output logic [4:0]     owner_o,
  output logic [NIn-1:0] owner_oh_o  // owner_o one-hot, its own register (the crossbar's ready)
);
  logic       busy_q;
  logic [4:0] owner_q, vrr_q, vrr_d, owner_d;
  logic       found;
  logic [NIn-1:0] owner_oh_q;

  // Built for depth, as elite4's elite4_va_arbiter (the scan over 9 inputs was
  // 4.16 ns in ibsw_p8_w24, docs/ibsw.md Status) *(ours)*: the registered
  // pointer alone decides, for every pair of inputs, which one the scan from
  // vrr meets first (ahead), so each grant is its request AND no request ahead
  // of it; owner and the next pointer are ORs of the one-hot grant. The same
  // choice as the scan (va_grant_is_scan).
  logic [NIn-1:0]     hi, win;
  logic [NIn*NIn-1:0] ahead;   // [i*NIn + j]: the scan from vrr meets j before i
  always_comb begin
    for (int unsigned k = 0; k < NIn; k++) hi[k] = k >= 32'(vrr_q);
    for (int unsigned i = 0; i < NIn; i++) begin
      for (int unsigned j = 0; j < NIn; j++) begin
        if (j < i)      ahead[i*NIn + j] = hi[j] || !hi[i];
        else if (j > i) ahead[i*NIn + j] = hi[j] && !hi[i];
        else            ahead[i*NIn + j] = 1'b0;
      end
    end
    for (int unsigned i = 0; i < NIn; i++) win[i] = req_i[i] && ((req_i & ahead[i*NIn +: NIn]) == '0);
    found   = !busy_q && enable_i && req_i != '0;
    gnt_o   = found ? win : '0;
    owner_d = owner_q;
    vrr_d   = vrr_q;
    if (found) begin
      owner_d = '0;
      vrr_d   = '0;
      for (int unsigned i = 0; i < NIn; i++) begin
        if (win[i]) begin
          owner_d = owner_d | 5'(i);
          vrr_d   = vrr_d | 5'((i + 1) % NIn);
        end
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q  <= 1'b0;
      owner_q <= '0;
      owner_oh_q <= NIn'(1);
      vrr_q   <= '0;
    end else begin
      if (found) busy_q <= 1'b1;
      else if (close_i) busy_q <= 1'b0;
      owner_q <= owner_d;
      if (found) owner_oh_q <= win;
      vrr_q   <= vrr_d;
    end
  end
  assign busy_o  = busy_q;
  assign owner_o = owner_q;
  assign owner_oh_o = owner_oh_q;

`ifndef SYNTHESIS
  // §5.4's scan as written: the first requester at or after vrr, then from 0
  function automatic logic [NIn-1:0] scan_gnt(input logic [NIn-1:0] req, input logic [4:0] vrr, input logic en);
    logic f;
    f = 1'b0;
    scan_gnt = '0;
    for (int unsigned n = 0; n < NIn; n++) if (en && !f && req[n] && n >= 32'(vrr)) begin f = 1'b1; scan_gnt[n] = 1'b1; end
    for (int unsigned n = 0; n < NIn; n++) if (en && !f && req[n] && n < 32'(vrr)) begin f = 1'b1; scan_gnt[n] = 1'b1; end
  endfunction
  always_ff @(posedge clk_i) begin
    va_grant_onehot0: assert ($onehot0(gnt_o));
    va_grant_requested: assert ((gnt_o & ~req_i) == '0);
    va_close_busy: assert (!(close_i && !busy_q));
    va_owner_range: assert (32'(owner_q) < NIn);
    // a one-hot, requested grant is the scan's (the two checks above name the others)
    va_grant_is_scan: assert (!($onehot0(gnt_o) && (gnt_o & ~req_i) == '0) ||
                              gnt_o == scan_gnt(req_i, vrr_q, !busy_q && enable_i));
  end
`endif
endmodule
