// Per-port counters in the style of InfiniBand PortCounters, and the error
// status of the port. Spec: docs/elite4.md §4, §5.6, §6.
module elite4_counters #(
  parameter int unsigned EvW   = 4,  // bits of the per-cycle error event counts
  parameter int unsigned LateW = 1   // error events decided late (SA), one bit each
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           xmit_i,       // a flit left (data or token)
  input  logic           xmit_pkt_i,   // a TAIL left
  input  logic           rcv_i,        // a flit arrived
  input  logic           rcv_pkt_i,    // a TAIL arrived
  input  logic           wait_i,       // a circuit had a flit ready, no data left (late)
  input  logic [EvW-1:0] ev_count_i,   // error events this cycle, decided early ...
  input  logic [LateW-1:0] ev_late_i,  // ... and late
  input  logic [2:0]     ev_code_i,    // lowest code among them all (0 = none)
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

  // The seven statistics wrap at 2^32 and are never cleared, as a
  // common_counter with Saturate = 0 (docs/common.md#common_counter) would;
  // they are elite4_event_counters, built so that an increment decided late
  // in the cycle meets the clock (docs/elite4.md §10).
  logic        err_q, err_d;
  logic [2:0]  code_q, code_d;

  elite4_event_counter #(.EarlyW(1), .LateW(1)) u_xmit_flits (
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (xmit_i), .count_o (xmit_flits_o)
  );
  elite4_event_counter #(.EarlyW(1), .LateW(1)) u_rcv_flits (
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (rcv_i), .count_o (rcv_flits_o)
  );
  elite4_event_counter #(.EarlyW(1), .LateW(1)) u_xmit_pkts (
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (xmit_pkt_i), .count_o (xmit_pkts_o)
  );
  elite4_event_counter #(.EarlyW(1), .LateW(1)) u_rcv_pkts (
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (rcv_pkt_i), .count_o (rcv_pkts_o)
  );
  elite4_event_counter #(.EarlyW(1), .LateW(1), .HiReg(1'b1)) u_xmit_wait (
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (wait_i), .count_o (xmit_wait_o)
  );
  elite4_event_counter #(.EarlyW(EvW), .LateW(LateW), .HiReg(1'b1)) u_errors (
    .clk_i, .rst_ni, .early_i (ev_count_i), .late_i (ev_late_i), .count_o (errors_o)
  );
  elite4_event_counter #(.EarlyW(EvW), .LateW(1)) u_crc_errors (
    .clk_i, .rst_ni, .early_i (crc_errs_i), .late_i (1'b0), .count_o (crc_errors_o)
  );

  always_comb begin
    err_d  = ev_count_i != '0 || ev_late_i != '0;
    code_d = err_d ? ev_code_i : code_q;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      err_q <= 1'b0; code_q <= '0;
    end else begin
      err_q <= err_d; code_q <= code_d;
    end
  end

  assign err_o      = err_q;
  assign err_code_o = code_q;

endmodule
