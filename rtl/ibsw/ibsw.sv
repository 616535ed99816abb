// ibsw: InfiniBand switch with per-port power gating. Spec: docs/ibsw.md.
//
// PORT SHELL ONLY (branch wp/ibbase): the parameter and port list of
// docs/ibsw.md §2 and §4, so that the RTL and the C model (written
// independently from the spec) generate the same co-simulation glue. Every
// output is 0. This file is replaced by the real top before it reaches main.
// Buses are flat: port n (1..P) at [(n-1)*W +: W]; credits V+1 bits per port.
module ibsw #(
  parameter int unsigned NumPorts    = 24,
  parameter int unsigned NumDataVls  = 4,
  parameter int unsigned BufDepth    = 16,
  parameter int unsigned Buf15Depth  = 8,
  parameter int unsigned RouteCycles = 25,
  parameter int unsigned WakeCycles  = 1024,
  parameter int unsigned LftBlocks   = 64,
  parameter int unsigned LinkSpeed   = 3,
  parameter int unsigned CntW        = 32,
  parameter int unsigned ExtW        = 64,
  parameter int unsigned BootActive  = 0,
  localparam int unsigned P   = NumPorts,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned C16 = (CntW < 16) ? CntW : 16,
  localparam int unsigned C8  = (CntW < 8) ? CntW : 8
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  input  logic [P-1:0]        in_valid_i,
  input  logic [2*P-1:0]      in_kind_i,
  input  logic [4*P-1:0]      in_vl_i,
  input  logic [64*P-1:0]     in_data_i,
  input  logic [LanW*P-1:0]   in_credit_i,
  output logic [P-1:0]        out_valid_o,
  output logic [2*P-1:0]      out_kind_o,
  output logic [4*P-1:0]      out_vl_o,
  output logic [64*P-1:0]     out_data_o,
  output logic [LanW*P-1:0]   out_credit_o,
  input  logic                cfg_valid_i,
  input  logic [1:0]          cfg_sel_i,
  input  logic [15:0]         cfg_addr_i,
  input  logic [15:0]         cfg_data_i,
  output logic [3*P-1:0]      port_state_o,
  output logic [3*P-1:0]      phys_state_o,
  output logic [P-1:0]        draining_o,
  output logic [P-1:0]        power_on_o,
  output logic [16:0]         power_mw_o,
  output logic [63:0]         energy_o,
  output logic [P-1:0]        err_o,
  output logic [4*P-1:0]      err_code_o,
  output logic                sma_err_o,
  output logic [3:0]          sma_err_code_o,
  output logic [2*P-1:0]      sample_status_o,
  output logic [CntW*P-1:0]   cnt_xmit_data_o,
  output logic [CntW*P-1:0]   cnt_rcv_data_o,
  output logic [CntW*P-1:0]   cnt_xmit_pkts_o,
  output logic [CntW*P-1:0]   cnt_rcv_pkts_o,
  output logic [CntW*P-1:0]   cnt_xmit_wait_o,
  output logic [C16*P-1:0]    cnt_symbol_err_o,
  output logic [C16*P-1:0]    cnt_rcv_err_o,
  output logic [C16*P-1:0]    cnt_relay_err_o,
  output logic [C16*P-1:0]    cnt_xmit_discards_o,
  output logic [C16*P-1:0]    cnt_vl15_dropped_o,
  output logic [C8*P-1:0]     cnt_link_downed_o,
  output logic [ExtW*P-1:0]   ext_xmit_data_o,
  output logic [ExtW*P-1:0]   ext_rcv_data_o,
  output logic [ExtW*P-1:0]   ext_xmit_pkts_o,
  output logic [ExtW*P-1:0]   ext_rcv_pkts_o,
  output logic [C16-1:0]      cnt_sma_dropped_o
);
  assign out_valid_o = '0;
  assign out_kind_o = '0;
  assign out_vl_o = '0;
  assign out_data_o = '0;
  assign out_credit_o = '0;
  assign port_state_o = '0;
  assign phys_state_o = '0;
  assign draining_o = '0;
  assign power_on_o = '0;
  assign power_mw_o = '0;
  assign energy_o = '0;
  assign err_o = '0;
  assign err_code_o = '0;
  assign sma_err_o = 1'b0;
  assign sma_err_code_o = '0;
  assign sample_status_o = '0;
  assign cnt_xmit_data_o = '0;
  assign cnt_rcv_data_o = '0;
  assign cnt_xmit_pkts_o = '0;
  assign cnt_rcv_pkts_o = '0;
  assign cnt_xmit_wait_o = '0;
  assign cnt_symbol_err_o = '0;
  assign cnt_rcv_err_o = '0;
  assign cnt_relay_err_o = '0;
  assign cnt_xmit_discards_o = '0;
  assign cnt_vl15_dropped_o = '0;
  assign cnt_link_downed_o = '0;
  assign ext_xmit_data_o = '0;
  assign ext_rcv_data_o = '0;
  assign ext_xmit_pkts_o = '0;
  assign ext_rcv_pkts_o = '0;
  assign cnt_sma_dropped_o = '0;
endmodule
