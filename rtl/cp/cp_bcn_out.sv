// Output registers of one BCN channel (queue-level or per-flow). The data
// fields keep the last message while no new one is sent. Spec: docs/cp.md §4, §7.
module cp_bcn_out #(
  parameter int unsigned QW    = 27,
  parameter int unsigned FlowW = 8,
  parameter int unsigned NodeW = 8
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             valid_i,
  input  logic [1:0]       type_i,
  input  logic [NodeW-1:0] dst_i,
  input  logic [FlowW-1:0] flow_i,
  input  logic [QW:0]      qoff_i,
  input  logic [QW:0]      qdelta_i,
  input  logic [QW+4:0]    fb_i,
  input  logic [5:0]       qntz_i,
  output logic             valid_o,
  output logic [1:0]       type_o,
  output logic [NodeW-1:0] dst_o,
  output logic [FlowW-1:0] flow_o,
  output logic [QW:0]      qoff_o,
  output logic [QW:0]      qdelta_o,
  output logic [QW+4:0]    fb_o,
  output logic [5:0]       qntz_o
);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      valid_o  <= 1'b0;
      type_o   <= '0;
      dst_o    <= '0;
      flow_o   <= '0;
      qoff_o   <= '0;
      qdelta_o <= '0;
      fb_o     <= '0;
      qntz_o   <= '0;
    end else begin
      valid_o <= valid_i;
      if (valid_i) begin
        type_o   <= type_i;
        dst_o    <= dst_i;
        flow_o   <= flow_i;
        qoff_o   <= qoff_i;
        qdelta_o <= qdelta_i;
        fb_o     <= fb_i;
        qntz_o   <= qntz_i;
      end
    end
  end

endmodule
