// ST for one output port (docs/elite4.md §5.6): SA's decision is registered
// here (sel), and in the next cycle the output register takes the token it
// names or the staged flit of the input VC it names; otherwise the link is
// idle with every field 0. The flit counters count what enters the register.
//
// Input VCs (i, v) at index i*NumVcs + v.
module elite4_crossbar #(
  parameter int unsigned NumPorts = 8,
  parameter int unsigned NumVcs   = 2,
  localparam int unsigned VcW     = $clog2(NumVcs),
  localparam int unsigned NumReq  = NumPorts * NumVcs
) (
  input  logic                clk_i,
  input  logic                rst_ni,
  // SA's decision for this output
  input  logic                tok_send_i,
  input  logic [VcW-1:0]      tok_vc_i,
  input  logic                tok_ack_i,
  input  logic                data_send_i,
  input  logic [VcW-1:0]      data_vc_i,
  input  logic [NumReq-1:0]   data_src_i,    // one-hot input VC
  // the staging registers of every input VC
  input  logic [NumReq*2-1:0] stg_kind_i,
  input  logic [NumReq*32-1:0] stg_data_i,
  // the link
  output logic                out_valid_o,
  output logic [1:0]          out_kind_o,
  output logic [VcW-1:0]      out_vc_o,
  output logic [31:0]         out_data_o,
  // counted this cycle (the flit entering the output register)
  output logic                xmit_o,
  output logic                xmit_pkt_o
);

  logic              tok_q, ack_q, dat_q;
  logic [VcW-1:0]    vc_q;
  logic [NumReq-1:0] src_q;
  logic              valid_d;
  logic [1:0]        kind_d;
  logic [VcW-1:0]    vc_d;
  logic [31:0]       data_d;
  logic [1:0]        skind;
  logic [31:0]       sdata;

  always_comb begin
    skind = '0; sdata = '0;
    for (int unsigned q = 0; q < NumReq; q++) begin
      if (src_q[q]) begin
        skind = skind | stg_kind_i[q*2 +: 2];
        sdata = sdata | stg_data_i[q*32 +: 32];
      end
    end
    valid_d = tok_q || dat_q;
    vc_d    = valid_d ? vc_q : '0;
    if (tok_q) begin
      kind_d = elite4_pkg::KindToken;
      data_d = {31'b0, ack_q};
    end else if (dat_q) begin
      kind_d = skind;
      data_d = sdata;
    end else begin
      kind_d = '0;
      data_d = '0;
    end
    xmit_o     = valid_d;
    xmit_pkt_o = dat_q && skind == elite4_pkg::KindTail;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tok_q <= 1'b0; ack_q <= 1'b0; dat_q <= 1'b0; vc_q <= '0; src_q <= '0;
      out_valid_o <= 1'b0; out_kind_o <= '0; out_vc_o <= '0; out_data_o <= '0;
    end else begin
      tok_q <= tok_send_i;
      ack_q <= tok_send_i && tok_ack_i;
      dat_q <= data_send_i && !tok_send_i;
      vc_q  <= tok_send_i ? tok_vc_i : data_vc_i;
      src_q <= (data_send_i && !tok_send_i) ? data_src_i : '0;
      out_valid_o <= valid_d; out_kind_o <= kind_d; out_vc_o <= vc_d; out_data_o <= data_d;
    end
  end

endmodule
