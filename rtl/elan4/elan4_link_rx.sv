// elan4_link_rx: the link receiver (docs/elan4.md §6.5 "Receiver").
//
// Every HEAD/BODY/TAIL returns its credit the next cycle. One packet
// register per VC (FREE, OPEN, FULL): body words kept up to 22 (beyond: only
// the fact "overlength"), CRC fed per BODY, verdict at the TAIL. FULL
// packets wait for the input processor in TAIL order; a register is FREE
// again at the end of the cycle its token is queued (free_i). A HEAD on an
// OPEN or FULL register is a neighbour's protocol error: that packet is
// absorbed up to its TAIL, the register unaffected. The IP reads the words
// of the packet it works on through sel_vc_i (a FULL register is not
// written until it is FREE again).
module elan4_link_rx #(
  parameter int unsigned NumVcs = 2,
  localparam int unsigned VcW   = $clog2(NumVcs)
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic                   in_valid_i,
  input  logic [1:0]             in_kind_i,
  input  logic [VcW-1:0]         in_vc_i,
  input  logic [31:0]            in_data_i,
  output logic [NumVcs-1:0]      out_credit_o,
  // the oldest FULL packet, for the input processor
  output logic                   pk_v_o,
  output logic [VcW-1:0]         pk_vc_o,
  output logic [31:0]            pk_route_o,
  output logic [22*32-1:0]       pk_words_o,
  output logic [4:0]             pk_nwords_o,
  output logic                   pk_over_o,
  output logic                   pk_crc_ok_o,
  input  logic                   pk_take_i,  // the IP takes the oldest (leaves the queue)
  input  logic [NumVcs-1:0]      free_i,     // token queued for the VC's packet
  input  logic [VcW-1:0]         sel_vc_i,   // the packet the IP works on (its register is FULL)
  output logic [22*32-1:0]       sel_words_o,
  output logic                   cnt_rx_pkt_o,
  output logic                   cnt_proto_o
);
  localparam logic [1:0] Free = 2'd0, Open = 2'd1, Full = 2'd2;
  localparam int unsigned QW = $clog2(NumVcs + 1);

  logic [NumVcs*2-1:0]     st_q, st_d;
  logic [NumVcs-1:0]       drop_q, drop_d, over_q, over_d, ok_q, ok_d;
  logic [NumVcs*32-1:0]    rt_q, rt_d;
  logic [NumVcs*5-1:0]     nw_q, nw_d;
  logic [NumVcs*22*32-1:0] w_q, w_d;
  logic [NumVcs*VcW-1:0]   fq_q, fq_d;    // FULL packets' VCs, oldest first
  logic [QW-1:0]           fn_q, fn_d;
  logic [NumVcs-1:0]       cred_q;

  // one CRC per VC (common_crc32): started by an accepted HEAD, fed by an
  // accepted BODY; the packet's verdict is taken at its TAIL
  logic [NumVcs*32-1:0] crc;
  logic [NumVcs-1:0]    crc_keep_err;
  for (genvar v = 0; v < NumVcs; v++) begin : g_crc
    logic hit, st_free, st_open;
    assign hit     = in_valid_i && in_vc_i == VcW'(v) && !drop_q[v];
    assign st_free = st_q[v*2 +: 2] == Free;
    assign st_open = st_q[v*2 +: 2] == Open;
    common_crc32 u_crc (
      .clk_i, .rst_ni, .init_i(hit && in_kind_i == 2'd0 && st_free),
      .valid_i(hit && in_kind_i == 2'd1 && st_open),
      .data_i(in_data_i), .keep_i(4'b1111), .crc_o(crc[v*32 +: 32]), .keep_err_o(crc_keep_err[v])
    );
  end
  logic unused_rx;
  assign unused_rx = ^crc_keep_err;
  logic                    rxp, perr;

  always_comb begin
    logic [1:0] s;
    s = Free;
    st_d = st_q; drop_d = drop_q; over_d = over_q; ok_d = ok_q; rt_d = rt_q;
    nw_d = nw_q; w_d = w_q; fq_d = fq_q; fn_d = fn_q;
    rxp = 1'b0; perr = 1'b0;
    // the IP takes the oldest FULL packet
    if (pk_take_i && fn_q != '0) begin
      for (int unsigned i = 0; i + 1 < NumVcs; i++) fq_d[i*VcW +: VcW] = fq_q[(i+1)*VcW +: VcW];
      fn_d = fn_q - 1'b1;
    end
    for (int unsigned v = 0; v < NumVcs; v++) begin
      if (free_i[v]) st_d[v*2 +: 2] = Free;
    end
    if (in_valid_i && in_kind_i != 2'd3) begin
      s = st_q[32'(in_vc_i)*2 +: 2];
      if (drop_q[in_vc_i]) begin
        if (in_kind_i == 2'd2) drop_d[in_vc_i] = 1'b0;
      end else if (in_kind_i == 2'd0) begin
        if (s == Free) begin
          st_d[32'(in_vc_i)*2 +: 2] = Open;
          rt_d[32'(in_vc_i)*32 +: 32] = in_data_i;
          nw_d[32'(in_vc_i)*5 +: 5] = '0;
          over_d[in_vc_i] = 1'b0;
        end else begin
          perr = 1'b1;
          drop_d[in_vc_i] = 1'b1;
        end
      end else if (s == Open) begin
        if (in_kind_i == 2'd1) begin
          if (nw_q[32'(in_vc_i)*5 +: 5] == 5'd22) over_d[in_vc_i] = 1'b1;
          else begin
            w_d[(32'(in_vc_i)*22 + 32'(nw_q[32'(in_vc_i)*5 +: 5]))*32 +: 32] = in_data_i;
            nw_d[32'(in_vc_i)*5 +: 5] = nw_q[32'(in_vc_i)*5 +: 5] + 1'b1;
          end
        end else begin
          st_d[32'(in_vc_i)*2 +: 2] = Full;
          ok_d[in_vc_i] = in_data_i == crc[32'(in_vc_i)*32 +: 32];
          rxp = 1'b1;
          fq_d[32'(fn_d)*VcW +: VcW] = in_vc_i;
          fn_d = fn_d + 1'b1;
        end
      end else begin
        perr = 1'b1;      // BODY/TAIL on a FREE or FULL register
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= '0; drop_q <= '0; over_q <= '0; ok_q <= '0; rt_q <= '0;
      nw_q <= '0; w_q <= '0; fq_q <= '0; fn_q <= '0; cred_q <= '0;
    end else begin
      st_q <= st_d; drop_q <= drop_d; over_q <= over_d; ok_q <= ok_d; rt_q <= rt_d;
      nw_q <= nw_d; w_q <= w_d; fq_q <= fq_d; fn_q <= fn_d;
      for (int unsigned v = 0; v < NumVcs; v++)
        cred_q[v] <= in_valid_i && in_kind_i != 2'd3 && in_vc_i == VcW'(v);
    end
  end

  logic [VcW-1:0] ov;
  assign ov           = fq_q[VcW-1:0];
  assign out_credit_o = cred_q;
  assign pk_v_o       = fn_q != '0;
  assign pk_vc_o      = ov;
  assign pk_route_o   = rt_q[32'(ov)*32 +: 32];
  assign pk_words_o   = w_q[32'(ov)*22*32 +: 22*32];
  assign pk_nwords_o  = nw_q[32'(ov)*5 +: 5];
  assign pk_over_o    = over_q[ov];
  assign pk_crc_ok_o  = ok_q[ov];
  assign sel_words_o  = w_q[32'(sel_vc_i)*22*32 +: 22*32];
  assign cnt_rx_pkt_o = rxp;
  assign cnt_proto_o  = perr;

`ifndef SYNTHESIS
  // at most one FULL packet per VC waits for the input processor
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      rx_queue_bound: assert (32'(fn_q) <= NumVcs);
    end
  end
`endif
endmodule
