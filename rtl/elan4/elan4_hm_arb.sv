// elan4_hm_arb: the host master port (docs/elan4.md §3.2, §5.1 rule 5, §5.2).
//
// Fixed priority IP > RP > EP > DMA among the requests presented this cycle.
// A request granted in g is on hm_* from g+1 until the host takes it
// (hm_ready_i); nothing else is granted before the cycle it is taken, and in
// that cycle the next one may be (back to back). A read gets the lowest free
// tag at its grant (requesters present reads only while tag_free_o) and holds
// it until its last dword; each dword goes to the tag's owner in the cycle it
// arrives. A dword with a tag not outstanding, or beyond the read's length,
// is ignored and counted (cnt_proto_err).
module elan4_hm_arb #(
  parameter int unsigned HostReadTags = 12,
  parameter int unsigned NumReq       = 4
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [NumReq-1:0]      req_v_i,      // index 0 = highest priority
  input  logic [NumReq-1:0]      req_we_i,
  input  logic [NumReq*50-1:0]   req_addr_i,
  input  logic [NumReq*64-1:0]   req_data_i,
  input  logic [NumReq*7-1:0]    req_len_i,    // reads: 1..64 dwords
  output logic [NumReq-1:0]      gnt_o,        // same cycle
  output logic [3:0]             gnt_tag_o,    // the tag a granted read holds
  output logic                   tag_free_o,   // a tag is free (start of cycle)
  output logic [NumReq-1:0]      rd_v_o,       // a dword for requester i this cycle
  output logic [3:0]             rd_tag_o,
  output logic [63:0]            rd_data_o,
  output logic                   proto_err_o,
  output logic                   hm_valid_o,
  output logic                   hm_write_o,
  output logic [49:0]            hm_addr_o,
  output logic [63:0]            hm_data_o,
  output logic [7:0]             hm_be_o,
  output logic [6:0]             hm_len_o,
  output logic [3:0]             hm_tag_o,
  input  logic                   hm_ready_i,
  input  logic                   hm_rvalid_i,
  input  logic [63:0]            hm_rdata_i,
  input  logic [3:0]             hm_rtag_i
);
  localparam int unsigned IdW = (NumReq > 1) ? $clog2(NumReq) : 1;

  logic         v_q, we_q;
  logic [49:0]  a_q;
  logic [63:0]  d_q;
  logic [6:0]   l_q;
  logic [3:0]   t_q;
  logic [HostReadTags-1:0]      tv_q, tv_d;       // tag outstanding
  logic [HostReadTags*IdW-1:0]  tid_q, tid_d;     // its owner
  logic [HostReadTags*7-1:0]    tl_q, tl_d;       // dwords still to come

  // the lowest free tag
  logic       tfree;
  logic [3:0] tlow;
  always_comb begin
    tfree = 1'b0; tlow = '0;
    for (int unsigned t = 0; t < HostReadTags; t++) begin
      if (!tv_q[t] && !tfree) begin tfree = 1'b1; tlow = 4'(t); end
    end
  end
  assign tag_free_o = tfree;

  logic           can, any;
  logic [IdW-1:0] gid;
  always_comb begin
    can = !v_q || hm_ready_i;
    any = 1'b0; gid = '0; gnt_o = '0;
    for (int unsigned i = 0; i < NumReq; i++) begin
      if (req_v_i[i] && !any && can) begin any = 1'b1; gid = IdW'(i); gnt_o[i] = 1'b1; end
    end
  end
  assign gnt_tag_o = tlow;

  logic grd;   // a read granted
  assign grd = any && !req_we_i[gid];

  // read data
  logic tok_ok;
  always_comb begin
    tv_d = tv_q; tid_d = tid_q; tl_d = tl_q;
    rd_v_o = '0; tok_ok = 1'b0;
    for (int unsigned t = 0; t < HostReadTags; t++) begin
      if (hm_rvalid_i && hm_rtag_i == 4'(t) && tv_q[t] && tl_q[t*7 +: 7] != '0) begin
        tok_ok = 1'b1;
        rd_v_o[tid_q[t*IdW +: IdW]] = 1'b1;
        tl_d[t*7 +: 7] = tl_q[t*7 +: 7] - 1'b1;
        if (tl_q[t*7 +: 7] == 7'd1) tv_d[t] = 1'b0;
      end
      if (grd && tlow == 4'(t)) begin
        tv_d[t] = 1'b1;
        tid_d[t*IdW +: IdW] = gid;
        tl_d[t*7 +: 7] = req_len_i[32'(gid)*7 +: 7];
      end
    end
  end
  assign rd_tag_o    = hm_rtag_i;
  assign rd_data_o   = tok_ok ? hm_rdata_i : 64'd0;
  assign proto_err_o = hm_rvalid_i && !tok_ok;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_q <= 1'b0; we_q <= 1'b0; a_q <= '0; d_q <= '0; l_q <= '0; t_q <= '0;
      tv_q <= '0; tid_q <= '0; tl_q <= '0;
    end else begin
      if (any) begin
        v_q  <= 1'b1;
        we_q <= req_we_i[gid];
        a_q  <= req_addr_i[32'(gid)*50 +: 50];
        d_q  <= req_we_i[gid] ? req_data_i[32'(gid)*64 +: 64] : 64'd0;
        l_q  <= req_we_i[gid] ? 7'd0 : req_len_i[32'(gid)*7 +: 7];
        t_q  <= req_we_i[gid] ? 4'd0 : tlow;
      end else if (v_q && hm_ready_i) begin
        v_q <= 1'b0; we_q <= 1'b0; a_q <= '0; d_q <= '0; l_q <= '0; t_q <= '0;
      end
      tv_q <= tv_d; tid_q <= tid_d; tl_q <= tl_d;
    end
  end

  assign hm_valid_o = v_q;
  assign hm_write_o = we_q;
  assign hm_addr_o  = a_q;
  assign hm_data_o  = d_q;
  assign hm_be_o    = we_q ? 8'hFF : 8'h00;
  assign hm_len_o   = l_q;
  assign hm_tag_o   = t_q;

`ifndef SYNTHESIS
  // a read is granted only with a free tag; nothing is granted over a
  // request the host has not taken (§5.1 rule 5)
  always_ff @(posedge clk_i) begin
    hm_read_has_tag: assert (!(grd && !tfree));
    hm_no_grant_over_held: assert (!(any && v_q && !hm_ready_i));
  end
`endif
endmodule
