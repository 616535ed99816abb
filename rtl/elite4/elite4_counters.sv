// Per-port counters in the style of InfiniBand PortCounters, and the error
// status of the port. Spec: docs/elite4.md §4, §5.6, §5.7, §6.
//
// Two groups (§5.7): the flit and packet counters count this cycle's events
// (they show in the next cycle); the error and wait group gets the events of
// the previous cycle from registers (elite4.sv), so it shows a cycle's
// events two cycles later and none of its paths starts in SA.
module elite4_counters #(
  parameter int unsigned EvW   = 4,  // bits of the per-cycle early error event count
  parameter int unsigned LateW = 1   // the other error events, one bit each
) (
  input  logic           clk_i,
  input  logic           rst_ni,
  input  logic           xmit_i,        // a flit left (data or token), this cycle
  input  logic           xmit_pkt_i,    // a TAIL left, this cycle
  input  logic           rcv_i,         // a flit arrived, this cycle
  input  logic           rcv_pkt_i,     // a TAIL arrived, this cycle
  input  logic           wait_q_i,      // XmitWait in the previous cycle (registered)
  input  logic [EvW-1:0] ev_early_q_i,  // error events of the previous cycle (from registers):
  input  logic [LateW-1:0] ev_late_q_i, //   counted before the register, and one bit each
  input  logic [2:0]     ev_code_q_i,   // lowest code among them all (0 = none)
  input  logic [EvW-1:0] crc_errs_q_i,  // TAILs with a bad CRC in the previous cycle
  output logic [31:0]    xmit_flits_o,
  output logic [31:0]    rcv_flits_o,
  output logic [31:0]    xmit_pkts_o,
  output logic [31:0]    rcv_pkts_o,
  output logic [31:0]    xmit_wait_o,
  output logic [31:0]    errors_o,
  output logic [31:0]    crc_errors_o,
  output logic           err_o,         // registered pulse
  output logic [2:0]     err_code_o     // held until the next error
);

  // The seven statistics wrap at 2^32 and are never cleared, as a
  // common_counter with Saturate = 0 (docs/common.md#common_counter) would;
  // they are elite4_event_counters, built so that an increment decided late
  // in the cycle (the flit counters', after the crossbar) meets the clock
  // (docs/elite4.md §10).
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
    .clk_i, .rst_ni, .early_i (1'b0), .late_i (wait_q_i), .count_o (xmit_wait_o)
  );
  elite4_event_counter #(.EarlyW(EvW), .LateW(LateW), .HiReg(1'b1)) u_errors (
    .clk_i, .rst_ni, .early_i (ev_early_q_i), .late_i (ev_late_q_i), .count_o (errors_o)
  );
  elite4_event_counter #(.EarlyW(EvW), .LateW(1)) u_crc_errors (
    .clk_i, .rst_ni, .early_i (crc_errs_q_i), .late_i (1'b0), .count_o (crc_errors_o)
  );

  always_comb begin
    err_d  = ev_early_q_i != '0 || ev_late_q_i != '0;
    code_d = err_d ? ev_code_q_i : code_q;
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
