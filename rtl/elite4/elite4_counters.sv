// Per-port counters in the style of InfiniBand PortCounters, and the error
// status of the port. Spec: docs/elite4.md §4, §5.6, §6.
module elite4_counters #(
  parameter int unsigned EvW = 4   // bits of the per-cycle error event count
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           xmit_i,       // a flit left (data or token)
  input  logic           xmit_pkt_i,   // a TAIL left
  input  logic           rcv_i,        // a flit arrived
  input  logic           rcv_pkt_i,    // a TAIL arrived
  input  logic           wait_i,       // a circuit had a flit ready, no data left
  input  logic [EvW-1:0] ev_count_i,   // error events this cycle
  input  logic [2:0]     ev_code_i,    // lowest code among them (0 = none)
  input  logic [EvW-1:0] crc_errs_i,   // TAILs with a bad CRC this cycle
  output logic [31:0]    xmit_flits_o,
  output logic [31:0]    rcv_flits_o,
  output logic [31:0]    xmit_pkts_o,
  output logic [31:0]    rcv_pkts_o,
  output logic [31:0]    xmit_wait_o,
  output logic [31:0]    errors_o,
  output logic [31:0]    crc_errors_o,
  output logic           err_o,        // registered pulse
  output logic [2:0]     err_code_o    // held until the next error
);

  logic [31:0] xf_q, rf_q, xp_q, rp_q, xw_q, er_q, ce_q;
  logic [31:0] xf_d, rf_d, xp_d, rp_d, xw_d, er_d, ce_d;
  logic        err_q, err_d;
  logic [2:0]  code_q, code_d;

  always_comb begin
    xf_d = xf_q + 32'(xmit_i);
    rf_d = rf_q + 32'(rcv_i);
    xp_d = xp_q + 32'(xmit_pkt_i);
    rp_d = rp_q + 32'(rcv_pkt_i);
    xw_d = xw_q + 32'(wait_i);
    er_d = er_q + 32'(ev_count_i);
    ce_d = ce_q + 32'(crc_errs_i);
    err_d  = (ev_count_i != '0);
    code_d = err_d ? ev_code_i : code_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      xf_q <= '0; rf_q <= '0; xp_q <= '0; rp_q <= '0; xw_q <= '0; er_q <= '0; ce_q <= '0;
      err_q <= 1'b0; code_q <= '0;
    end else begin
      xf_q <= xf_d; rf_q <= rf_d; xp_q <= xp_d; rp_q <= rp_d; xw_q <= xw_d; er_q <= er_d; ce_q <= ce_d;
      err_q <= err_d; code_q <= code_d;
    end
  end

  assign xmit_flits_o = xf_q;
  assign rcv_flits_o  = rf_q;
  assign xmit_pkts_o  = xp_q;
  assign rcv_pkts_o   = rp_q;
  assign xmit_wait_o  = xw_q;
  assign errors_o     = er_q;
  assign crc_errors_o = ce_q;
  assign err_o        = err_q;
  assign err_code_o   = code_q;

endmodule
