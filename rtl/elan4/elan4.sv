// elan4: the Quadrics Elan4 NIC. Spec: docs/elan4.md.
//
// PORT SHELL ONLY (branch wp/elan4base): the parameter and port list of
// docs/elan4.md §2 and §3, so that the RTL and the C model (written
// independently from the spec) generate the same co-simulation glue. Every
// output is 0. This file is replaced by the real top before it reaches main.
module elan4 #(
  parameter int unsigned NumCq          = 8,
  parameter int unsigned NumQueues      = 64,
  parameter int unsigned DepthKb0       = 1,
  parameter int unsigned DepthKb1       = 8,
  parameter int unsigned DepthKb2       = 64,
  parameter int unsigned DepthKb3       = 512,
  parameter int unsigned OooWindow      = 16,
  parameter int unsigned HeadDwords     = 16,
  parameter int unsigned GapTimeout     = 4096,
  parameter int unsigned NumNodes       = 64,
  parameter int unsigned NumVcs         = 2,
  parameter int unsigned LinkBuf        = 8,
  parameter int unsigned VcSten         = 0,
  parameter int unsigned VcDma          = 1,
  parameter int unsigned VcReply        = 0,
  parameter int unsigned MaxOutstanding = 16,
  parameter int unsigned RetryLimit     = 32,
  parameter int unsigned RetryBackoff   = 16,
  parameter int unsigned AckTimeout     = 16384,
  parameter int unsigned TlbEntries     = 16,
  parameter int unsigned PtBits         = 10,
  parameter int unsigned DescBase       = 32'h0,
  parameter int unsigned RtBase         = 32'h20000,
  parameter int unsigned PtBase         = 32'h40000,
  parameter int unsigned LmLatency      = 2,
  parameter int unsigned HostReadTags   = 12,
  parameter int unsigned ReplySlots     = 4,
  parameter int unsigned EpFifo         = 4,
  parameter int unsigned DmaQueue       = 4,
  parameter int unsigned DmaBufDw       = 256,
  parameter int unsigned IrqDepth       = 16,
  localparam int unsigned VcW           = $clog2(NumVcs)
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // host target port (§3.1)
  input  logic              ht_valid_i,
  input  logic              ht_write_i,
  input  logic [31:0]       ht_addr_i,
  input  logic [63:0]       ht_data_i,
  input  logic [7:0]        ht_be_i,
  input  logic [7:0]        ht_tag_i,
  output logic              ht_ready_o,
  output logic              ht_rvalid_o,
  output logic [63:0]       ht_rdata_o,
  output logic [7:0]        ht_rtag_o,
  // host master port (§3.2)
  output logic              hm_valid_o,
  output logic              hm_write_o,
  output logic [49:0]       hm_addr_o,
  output logic [63:0]       hm_data_o,
  output logic [7:0]        hm_be_o,
  output logic [6:0]        hm_len_o,
  output logic [3:0]        hm_tag_o,
  input  logic              hm_ready_i,
  input  logic              hm_rvalid_i,
  input  logic [63:0]       hm_rdata_i,
  input  logic [3:0]        hm_rtag_i,
  // local-memory port (§3.3)
  output logic              lm_valid_o,
  output logic              lm_write_o,
  output logic [27:0]       lm_addr_o,
  output logic [63:0]       lm_wdata_o,
  output logic [7:0]        lm_be_o,
  input  logic              lm_rvalid_i,
  input  logic [63:0]       lm_rdata_i,
  // link port: one elite4 port (§3.4)
  output logic              out_valid_o,
  output logic [1:0]        out_kind_o,
  output logic [VcW-1:0]    out_vc_o,
  output logic [31:0]       out_data_o,
  output logic [NumVcs-1:0] out_credit_o,
  input  logic              in_valid_i,
  input  logic [1:0]        in_kind_i,
  input  logic [VcW-1:0]    in_vc_i,
  input  logic [31:0]       in_data_i,
  input  logic [NumVcs-1:0] in_credit_i,
  // node identity, interrupts, counters, trace (§3.5)
  input  logic [11:0]       node_i,
  output logic              irq_valid_o,
  output logic [3:0]        irq_cause_o,
  output logic [15:0]       irq_info_o,
  output logic [63:0]       irq_data_o,
  output logic [32*28-1:0]  cnt_o,
  output logic              tr_cmd_o,
  output logic [12:0]       tr_cmd_q_o,
  output logic              tr_form_o,
  output logic [12:0]       tr_form_q_o,
  output logic              tr_fire_o,
  output logic [30:0]       tr_fire_addr_o
);
  assign ht_ready_o = 1'b0;
  assign ht_rvalid_o = 1'b0;
  assign ht_rdata_o = '0;
  assign ht_rtag_o = '0;
  assign hm_valid_o = 1'b0;
  assign hm_write_o = 1'b0;
  assign hm_addr_o = '0;
  assign hm_data_o = '0;
  assign hm_be_o = '0;
  assign hm_len_o = '0;
  assign hm_tag_o = '0;
  assign lm_valid_o = 1'b0;
  assign lm_write_o = 1'b0;
  assign lm_addr_o = '0;
  assign lm_wdata_o = '0;
  assign lm_be_o = '0;
  assign out_valid_o = 1'b0;
  assign out_kind_o = '0;
  assign out_vc_o = '0;
  assign out_data_o = '0;
  assign out_credit_o = '0;
  assign irq_valid_o = 1'b0;
  assign irq_cause_o = '0;
  assign irq_info_o = '0;
  assign irq_data_o = '0;
  assign cnt_o = '0;
  assign tr_cmd_o = 1'b0;
  assign tr_cmd_q_o = '0;
  assign tr_form_o = 1'b0;
  assign tr_form_q_o = '0;
  assign tr_fire_o = 1'b0;
  assign tr_fire_addr_o = '0;
endmodule
