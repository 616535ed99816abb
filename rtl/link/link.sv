// link: one direction of the seed-004 physical link (serialiser with training
// and exact pacing, cable delay line, receiver alignment and per-VC CRC check)
// plus that link's reverse credit sideband. Spec: docs/link.md.
//
// Latency: a flit accepted in cycle t leaves rx_*_o in t + L, L = 1 +
// WireCycles + AlignCycles; rx_credit_i reaches tx_credit_o after L too.
module link #(
  parameter int NumVcs      = 2,
  parameter int RateNum     = 1,
  parameter int RateDen     = 1,
  parameter int CorePs      = 4000,
  parameter int CableM      = 5,
  parameter int AlignCycles = 2,
  parameter int TrainCycles = 8,
  localparam int VcW        = $clog2(NumVcs),
  localparam int FlitW      = 1 + 2 + VcW + 32
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic              tx_valid_i,
  input  logic [1:0]        tx_kind_i,
  input  logic [VcW-1:0]    tx_vc_i,
  input  logic [31:0]       tx_data_i,
  input  logic [NumVcs-1:0] rx_credit_i,
  output logic              slot_o,
  output logic              up_o,
  output logic              tx_err_o,
  output logic [NumVcs-1:0] tx_credit_o,
  output logic              rx_valid_o,
  output logic [1:0]        rx_kind_o,
  output logic [VcW-1:0]    rx_vc_o,
  output logic [31:0]       rx_data_o,
  output logic              crc_err_o,
  output logic [31:0]       cnt_tx_flits_o,
  output logic [31:0]       cnt_tx_err_o,
  output logic [31:0]       cnt_rx_flits_o,
  output logic [31:0]       cnt_crc_err_o
);

  if (NumVcs != 2 && NumVcs != 4) begin : gen_vcs_check
    $error("link: NumVcs must be 2 or 4");
  end
  if (CorePs < 1000 || CorePs > 100000) begin : gen_core_check
    $error("link: CorePs must be 1000..100000");
  end
  if (CableM < 0 || CableM > 100) begin : gen_cable_check
    $error("link: CableM must be 0..100");
  end

  // the cable in core cycles: ceil(CableM * 4 ns / period)
  localparam int WireCycles = (CableM * 4000 + CorePs - 1) / CorePs;
  if (WireCycles > 256) begin : gen_wire_check
    $error("link: CableM and CorePs must give at most 256 wire cycles");
  end

  logic [FlitW-1:0]  txq, fw, rxq;
  logic              rx_inc, unused_accept, unused_offslot, unused_err_inc;
  logic [NumVcs-1:0] crq_q, rev;
  logic [3:0]        unused_sat;   // wrapping counters: all ones is just a value

  link_tx #(.NumVcs(NumVcs), .RateNum(RateNum), .RateDen(RateDen), .TrainCycles(TrainCycles)) u_tx (
    .clk_i, .rst_ni,
    .valid_i(tx_valid_i), .kind_i(tx_kind_i), .vc_i(tx_vc_i), .data_i(tx_data_i),
    .slot_o, .up_o, .err_o(tx_err_o), .accept_o(unused_accept), .offslot_o(unused_offslot), .flit_o(txq)
  );

  link_wire #(.Width(FlitW), .Cycles(WireCycles)) u_fwd (.clk_i, .rst_ni, .in_i(txq), .out_o(fw));

  link_rx #(.NumVcs(NumVcs), .AlignCycles(AlignCycles)) u_rx (
    .clk_i, .rst_ni, .flit_i(fw), .flit_o(rxq), .crc_err_o, .rx_inc_o(rx_inc), .err_inc_o(unused_err_inc)
  );

  assign {rx_valid_o, rx_kind_o, rx_vc_o, rx_data_o} = rxq;

  // reverse sideband: registered at the rx end, the cable, the tx end's alignment
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) crq_q <= '0;
    else         crq_q <= rx_credit_i;
  end
  link_wire #(.Width(NumVcs), .Cycles(WireCycles)) u_rev (.clk_i, .rst_ni, .in_i(crq_q), .out_o(rev));
  link_wire #(.Width(NumVcs), .Cycles(AlignCycles)) u_ralign (.clk_i, .rst_ni, .in_i(rev), .out_o(tx_credit_o));

  // each counter increments from a register: no input or long path feeds a 32-bit increment
  common_counter #(.Width(32), .IncW(1), .Saturate(0)) u_cnt_tx_flits (
    .clk_i, .rst_ni, .inc_i(txq[FlitW-1]), .clear_i(1'b0), .count_o(cnt_tx_flits_o), .sat_o(unused_sat[0])
  );
  common_counter #(.Width(32), .IncW(1), .Saturate(0)) u_cnt_tx_err (
    .clk_i, .rst_ni, .inc_i(tx_err_o), .clear_i(1'b0), .count_o(cnt_tx_err_o), .sat_o(unused_sat[1])
  );
  common_counter #(.Width(32), .IncW(1), .Saturate(0)) u_cnt_rx_flits (
    .clk_i, .rst_ni, .inc_i(rx_inc), .clear_i(1'b0), .count_o(cnt_rx_flits_o), .sat_o(unused_sat[2])
  );
  common_counter #(.Width(32), .IncW(1), .Saturate(0)) u_cnt_crc_err (
    .clk_i, .rst_ni, .inc_i(crc_err_o), .clear_i(1'b0), .count_o(cnt_crc_err_o), .sat_o(unused_sat[3])
  );

endmodule
