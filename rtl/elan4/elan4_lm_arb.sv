// elan4_lm_arb: the local-memory port (docs/elan4.md §3.3, §5.1 rule 4, §5.2).
//
// Fixed priority MMU > IP > RP > EP > CQ > ST > DMA among the requests
// presented this cycle; the grant is same-cycle (requesters present from
// start-of-cycle state, so there is no loop), the request is on lm_* in the
// next cycle. A read's data is delivered to its requester with its tag in
// the data cycle g+1+LmLatency: a shift register of LmLatency+1 stages
// remembers who asked. A missing lm_rvalid_i gives data 0; an unexpected one
// is ignored; both count cnt_proto_err (§3.3).
module elan4_lm_arb #(
  parameter int unsigned LmLatency = 2,
  parameter int unsigned NumReq    = 7,
  parameter int unsigned TagW      = 12
) (
  input  logic                     clk_i,
  input  logic                     rst_ni,
  input  logic [NumReq-1:0]        req_v_i,     // index 0 = highest priority
  input  logic [NumReq-1:0]        req_we_i,
  input  logic [NumReq*28-1:0]     req_addr_i,
  input  logic [NumReq*64-1:0]     req_wdata_i,
  input  logic [NumReq*TagW-1:0]   req_tag_i,
  output logic [NumReq-1:0]        gnt_o,       // same cycle
  output logic [NumReq-1:0]        rd_v_o,      // data cycle of a read of requester i
  output logic [TagW-1:0]          rd_tag_o,
  output logic [63:0]              rd_data_o,
  output logic                     proto_err_o, // this cycle: missing or stray lm_rvalid_i
  output logic                     lm_valid_o,
  output logic                     lm_write_o,
  output logic [27:0]              lm_addr_o,
  output logic [63:0]              lm_wdata_o,
  output logic [7:0]               lm_be_o,
  input  logic                     lm_rvalid_i,
  input  logic [63:0]              lm_rdata_i
);
  localparam int unsigned IdW = $clog2(NumReq);
  localparam int unsigned D   = LmLatency + 1;

  logic [NumReq-1:0] gnt;
  logic              any;
  logic [IdW-1:0]    gid;
  always_comb begin
    gnt = '0;
    any = 1'b0;
    gid = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (req_v_i[i] && !any) begin
        gnt[i] = 1'b1;
        any    = 1'b1;
        gid    = IdW'(i);
      end
    end
  end
  assign gnt_o = gnt;

  logic          v_q, we_q;
  logic [27:0]   a_q;
  logic [63:0]   d_q;
  logic [D-1:0]  pv_q;
  logic [D*IdW-1:0]  pid_q;
  logic [D*TagW-1:0] ptag_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= 1'b0; we_q <= 1'b0; a_q <= '0; d_q <= '0;
      pv_q <= '0; pid_q <= '0; ptag_q <= '0;
    end else begin
      v_q  <= any;
      we_q <= any && req_we_i[gid];
      a_q  <= any ? req_addr_i[32'(gid)*28 +: 28] : 28'd0;
      d_q  <= (any && req_we_i[gid]) ? req_wdata_i[32'(gid)*64 +: 64] : 64'd0;
      pv_q[0]            <= any && !req_we_i[gid];
      pid_q[0 +: IdW]    <= gid;
      ptag_q[0 +: TagW]  <= req_tag_i[32'(gid)*TagW +: TagW];
      for (int unsigned s = 1; s < D; s++) begin
        pv_q[s]                <= pv_q[s-1];
        pid_q[s*IdW +: IdW]    <= pid_q[(s-1)*IdW +: IdW];
        ptag_q[s*TagW +: TagW] <= ptag_q[(s-1)*TagW +: TagW];
      end
    end
  end

  logic          last_v;
  logic [IdW-1:0] last_id;
  assign last_v  = pv_q[D-1];
  assign last_id = pid_q[(D-1)*IdW +: IdW];
  always_comb begin
    rd_v_o = '0;
    if (last_v) rd_v_o[last_id] = 1'b1;
  end
  assign rd_tag_o    = ptag_q[(D-1)*TagW +: TagW];
  assign rd_data_o   = (last_v && lm_rvalid_i) ? lm_rdata_i : 64'd0;
  assign proto_err_o = last_v != lm_rvalid_i;

  assign lm_valid_o = v_q;
  assign lm_write_o = we_q;
  assign lm_addr_o  = a_q;
  assign lm_wdata_o = d_q;
  assign lm_be_o    = we_q ? 8'hFF : 8'h00;

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    lm_one_grant: assert ($onehot0(gnt));
  end
`endif
endmodule
