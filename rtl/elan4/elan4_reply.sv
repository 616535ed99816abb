// elan4_reply: the reply unit (docs/elan4.md §6.5 "Reply unit").
//
// ReplySlots slots, reserved by the input processor for READ and ATOMIC.
// One gatherer serves the reserved slots in reservation order, one request
// at a time, each from the cycle after the previous one's grant (after the
// last data dword's arrival for the route read): a READ's n dwords (local
// reads, or one host read of n dwords), or an ATOMIC's old value (put in by
// the IP), then the route entry of the source node. The gatherer serves one
// slot at a time: it moves to the next slot after the route's data cycle
// (§6.5), which puts the slot on the send list (or fails it). The send list's oldest eligible slot
// requests the link with a WRITE packet (§4.6) and leaves the list at its
// HEAD; an ack frees the slot, a nack/timeout within RetryLimit puts it back
// at the end of the list (eligible RetryBackoff*k cycles later), else the
// reply fails: slot freed, interrupt cause 6.
module elan4_reply #(
  parameter int unsigned ReplySlots   = 4,
  parameter int unsigned RtBase       = 32'h20000,
  parameter int unsigned RetryLimit   = 32,
  parameter int unsigned RetryBackoff = 16,
  parameter int unsigned TagW         = 12,
  localparam int unsigned RsW         = (ReplySlots > 1) ? $clog2(ReplySlots) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [11:0]           node_i,
  // the IP: reservation in e, an atomic's old value in d
  output logic [ReplySlots-1:0] free_o,
  input  logic                  res_v_i,
  input  logic [RsW-1:0]        res_idx_i,
  input  logic [208:0]          res_info_i,
  input  logic                  old_v_i,
  input  logic [RsW-1:0]        old_idx_i,
  input  logic [63:0]           old_i,
  // RP-class local memory
  output logic                  lm_req_v_o,
  output logic [27:0]           lm_req_addr_o,
  output logic [TagW-1:0]       lm_req_tag_o,
  input  logic                  lm_gnt_i,
  input  logic                  lm_rd_v_i,
  input  logic [TagW-1:0]       lm_rd_tag_i,
  input  logic [63:0]           lm_rd_data_i,
  // RP-class host master
  output logic                  hm_req_v_o,
  output logic [49:0]           hm_req_addr_o,
  output logic [6:0]            hm_req_len_o,
  input  logic                  hm_tag_free_i,
  input  logic                  hm_gnt_i,
  input  logic                  hm_rd_v_i,
  input  logic [63:0]           hm_rd_data_i,
  // link transmitter
  output logic                  tx_req_o,
  output logic [31:0]           tx_route_o,
  output logic [4:0]            tx_nbody_o,
  output logic [22*32-1:0]      tx_words_o,     // the requesting slot's, or the one in progress
  output logic [RsW-1:0]        tx_slot_o,
  output logic [7:0]            tx_try_o,
  input  logic                  tx_head_i,
  input  logic                  tx_tail_i,
  input  logic                  tk_v_i,         // token result of a reply packet
  input  logic                  tk_ack_i,
  input  logic [RsW-1:0]        tk_slot_i,
  input  logic [7:0]            tk_try_i,
  // interrupt cause 6: route failure, token failure (RP's place, that order)
  output logic [1:0]            irq_v_o,
  output logic [2*84-1:0]       irq_rec_o
);
  localparam int unsigned CdW = 19;
  localparam int unsigned NW  = $clog2(ReplySlots + 1);
  // slot states
  localparam logic [1:0] Free = 2'd0, Res = 2'd1, List = 2'd2, Sent = 2'd3;

  logic [ReplySlots*2-1:0]    st_q, st_d;
  logic [ReplySlots*209-1:0]  inf_q, inf_d;
  logic [ReplySlots*512-1:0]  dat_q, dat_d;
  logic [ReplySlots*4-1:0]    nd_q, nd_d;       // data dwords arrived
  logic [ReplySlots*32-1:0]   rt_q, rt_d;
  logic [ReplySlots*8-1:0]    try_q, try_d;
  logic [ReplySlots*CdW-1:0]  cd_q, cd_d;       // cycles until eligible - 1
  // reservation order (gatherer queue) and send list: slot indices, oldest first
  logic [ReplySlots*RsW-1:0]  gq_q, gq_d, sl_q, sl_d;
  logic [NW-1:0]              gn_q, gn_d, sn_q, sn_d;
  logic [3:0]                 gi_q, gi_d;       // gatherer: data requests granted for the head slot
  logic                       gh_q, gh_d;       // gatherer: the host read granted
  logic                       gr_q, gr_d;       // gatherer: the route read granted, its data awaited
  logic                       ip_q, ip_d;       // a reply packet in progress on the link
  logic [RsW-1:0]             cur_q, cur_d;

  // slot info fields (elan4_input_proc rs_info_o): {atomic 208, E 207, n 206:203,
  // ctx 202:189, src 188:177, space 176:175, PA[49:3] 174:128, reply VA 127:64, event VA 63:0}

  always_comb begin
    for (int unsigned s = 0; s < ReplySlots; s++) free_o[s] = st_q[s*2 +: 2] == Free;
  end

  // ---------------------------------------------------------------- gatherer
  logic [RsW-1:0] g;            // the slot it serves
  logic [208:0]   gin;
  logic           gv, gread, gdone;
  assign g     = gq_q[0 +: RsW];
  assign gv    = gn_q != '0;
  assign gin   = inf_q[32'(g)*209 +: 209];
  // all data present: READ's n dwords arrived, ATOMIC's old value put in
  assign gdone = nd_q[32'(g)*4 +: 4] == gin[206:203];
  assign gread = !gin[208] && !gdone;
  logic [49:0] gpa;
  assign gpa = {gin[174:128], 3'b000};

  // requests (start-of-cycle state); tags: [RsW] = route read, [RsW-1:0] slot
  always_comb begin
    lm_req_v_o = 1'b0; lm_req_addr_o = '0; lm_req_tag_o = '0;
    hm_req_v_o = 1'b0; hm_req_addr_o = '0; hm_req_len_o = '0;
    if (gv) begin
      if (gread) begin
        if (gin[176:175] == 2'd1) begin
          if (gi_q != gin[206:203]) begin
            lm_req_v_o = 1'b1;
            lm_req_addr_o = gpa[30:3] + 28'(gi_q);
            lm_req_tag_o = TagW'(g);
          end
        end else if (!gh_q && hm_tag_free_i) begin
          hm_req_v_o = 1'b1; hm_req_addr_o = gpa; hm_req_len_o = {3'd0, gin[206:203]};
        end
      end else if (gdone && !gr_q) begin
        lm_req_v_o = 1'b1;
        lm_req_addr_o = 28'((RtBase >> 3) + 32'(gin[188:177]));
        lm_req_tag_o = TagW'({1'b1, g});
      end
    end
  end

  // ---------------------------------------------------------------- send list
  logic          el;
  logic [31:0]   eli;
  logic [RsW-1:0] es;
  always_comb begin
    el = 1'b0; eli = '0;
    for (int unsigned i = 0; i < ReplySlots; i++) begin
      if (!el && 32'(i) < 32'(sn_q) && cd_q[32'(sl_q[i*RsW +: RsW])*CdW +: CdW] == '0) begin
        el = 1'b1; eli = i;
      end
    end
  end
  assign es = sl_q[eli*RsW +: RsW];

  // the packet of slot s (§4.6: a WRITE to the reply VA)
  function automatic logic [22*32-1:0] pkt(input logic [3:0] n, input logic e, input logic [13:0] ctx,
                                          input logic [63:0] rva, input logic [63:0] eva,
                                          input logic [511:0] d, input logic [11:0] node);
    logic [22*32-1:0] w;
    w = '0;
    w[0 +: 32]  = {2'd0, ctx, 6'd0, 1'b0, e, n, 4'd1};
    w[32 +: 32] = {20'd0, node};
    w[64 +: 64] = rva;
    for (int unsigned i = 0; i < 8; i++) begin
      if (i < 32'(n)) w[(4 + 2*i)*32 +: 64] = d[i*64 +: 64];
    end
    if (e) w[(4 + 2*32'(n))*32 +: 64] = eva;
    pkt = w;
  endfunction

  logic [RsW-1:0] ws;   // the slot whose words the transmitter reads
  assign ws         = ip_q ? cur_q : es;
  assign tx_req_o   = el;
  assign tx_slot_o  = es;
  assign tx_route_o = rt_q[32'(es)*32 +: 32];
  assign tx_try_o   = try_q[32'(es)*8 +: 8];
  logic [208:0] win;
  assign win        = inf_q[32'(ws)*209 +: 209];
  assign tx_words_o = pkt(win[206:203], win[207], win[202:189], win[127:64], win[63:0],
                          dat_q[32'(ws)*512 +: 512], node_i);
  assign tx_nbody_o = 5'(5'd4 + 5'({win[206:203], 1'b0}) + 5'({win[207], 1'b0}));

  // ---------------------------------------------------------------- state
  always_comb begin
    logic [31:0] k, bk;
    logic [RsW-1:0] rs;
    logic           rv, rok;
    bk = '0;
    st_d = st_q; inf_d = inf_q; dat_d = dat_q; nd_d = nd_q; rt_d = rt_q; try_d = try_q;
    cd_d = cd_q; gq_d = gq_q; gn_d = gn_q; sl_d = sl_q; sn_d = sn_q; gi_d = gi_q; gh_d = gh_q;
    ip_d = ip_q; cur_d = cur_q; gr_d = gr_q;
    irq_v_o = '0; irq_rec_o = '0;
    for (int unsigned s = 0; s < ReplySlots; s++) begin
      if (cd_q[s*CdW +: CdW] != '0) cd_d[s*CdW +: CdW] = cd_q[s*CdW +: CdW] - 1'b1;
    end
    // gatherer progress
    if (gv && gread && gin[176:175] == 2'd1 && lm_gnt_i) gi_d = gi_q + 1'b1;
    if (gv && gread && gin[176:175] != 2'd1 && hm_gnt_i) gh_d = 1'b1;
    if (gv && lm_rd_v_i && !lm_rd_tag_i[RsW] && lm_rd_tag_i[RsW-1:0] == g) begin
      dat_d[32'(g)*512 + 32'(nd_q[32'(g)*4 +: 4])*64 +: 64] = lm_rd_data_i;
      nd_d[32'(g)*4 +: 4] = nd_q[32'(g)*4 +: 4] + 1'b1;
    end
    if (gv && hm_rd_v_i) begin
      dat_d[32'(g)*512 + 32'(nd_q[32'(g)*4 +: 4])*64 +: 64] = hm_rd_data_i;
      nd_d[32'(g)*4 +: 4] = nd_q[32'(g)*4 +: 4] + 1'b1;
    end
    if (old_v_i) begin
      dat_d[32'(old_idx_i)*512 +: 64] = old_i;
      nd_d[32'(old_idx_i)*4 +: 4] = 4'd1;
    end
    // the route read granted: its data awaited; the route's data cycle ends
    // the slot's service (§6.5 "one at a time"): the gatherer moves on
    k = 32'(gn_q);
    if (gv && !gread && gdone && !gr_q && lm_gnt_i) gr_d = 1'b1;
    if (gv && gr_q && lm_rd_v_i && lm_rd_tag_i[RsW] && lm_rd_tag_i[RsW-1:0] == g) begin
      for (int unsigned i = 0; i + 1 < ReplySlots; i++) gq_d[i*RsW +: RsW] = gq_q[(i+1)*RsW +: RsW];
      k = k - 1;
      gi_d = '0; gh_d = 1'b0; gr_d = 1'b0;
    end
    if (res_v_i) begin
      gq_d[k*RsW +: RsW] = res_idx_i;
      k = k + 1;
      st_d[32'(res_idx_i)*2 +: 2] = Res;
      inf_d[32'(res_idx_i)*209 +: 209] = res_info_i;
      nd_d[32'(res_idx_i)*4 +: 4] = '0;
      try_d[32'(res_idx_i)*8 +: 8] = '0;
      cd_d[32'(res_idx_i)*CdW +: CdW] = '0;
    end
    gn_d = NW'(k);

    // send list: the HEAD takes the entry out; route arrivals and resends append
    k = 32'(sn_q);
    if (tx_head_i) begin
      for (int unsigned i = 0; i + 1 < ReplySlots; i++) begin
        if (i >= eli) sl_d[i*RsW +: RsW] = sl_q[(i+1)*RsW +: RsW];
      end
      k = k - 1;
      st_d[32'(es)*2 +: 2] = Sent;
      ip_d = 1'b1; cur_d = es;
    end
    if (tx_tail_i) ip_d = 1'b0;
    rs = lm_rd_tag_i[RsW-1:0];
    rv = lm_rd_v_i && lm_rd_tag_i[RsW];
    rok = lm_rd_data_i[32];
    if (rv) begin
      if (rok) begin
        rt_d[32'(rs)*32 +: 32] = lm_rd_data_i[31:0];
        sl_d[k*RsW +: RsW] = rs;
        k = k + 1;
        st_d[32'(rs)*2 +: 2] = List;
      end else begin
        st_d[32'(rs)*2 +: 2] = Free;
        irq_v_o[0] = 1'b1;
        irq_rec_o[0 +: 84] = {4'd6, 2'd0, inf_q[32'(rs)*209 + 189 +: 14],
                              inf_q[32'(rs)*209 + 64 +: 64]};
      end
    end
    if (tk_v_i) begin
      if (tk_ack_i) st_d[32'(tk_slot_i)*2 +: 2] = Free;
      else if (32'(tk_try_i) + 1 <= RetryLimit) begin
        bk = RetryBackoff * (32'(tk_try_i) + 1);
        sl_d[k*RsW +: RsW] = tk_slot_i;
        k = k + 1;
        st_d[32'(tk_slot_i)*2 +: 2] = List;
        try_d[32'(tk_slot_i)*8 +: 8] = tk_try_i + 8'd1;
        cd_d[32'(tk_slot_i)*CdW +: CdW] = (bk == 0) ? CdW'(0) : CdW'(bk - 1);
      end else begin
        st_d[32'(tk_slot_i)*2 +: 2] = Free;
        irq_v_o[1] = 1'b1;
        irq_rec_o[84 +: 84] = {4'd6, 2'd0, inf_q[32'(tk_slot_i)*209 + 189 +: 14],
                               inf_q[32'(tk_slot_i)*209 + 64 +: 64]};
      end
    end
    sn_d = NW'(k);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= '0; inf_q <= '0; dat_q <= '0; nd_q <= '0; rt_q <= '0; try_q <= '0; cd_q <= '0;
      gq_q <= '0; gn_q <= '0; sl_q <= '0; sn_q <= '0; gi_q <= '0; gh_q <= 1'b0; gr_q <= 1'b0;
      ip_q <= 1'b0; cur_q <= '0;
    end else begin
      st_q <= st_d; inf_q <= inf_d; dat_q <= dat_d; nd_q <= nd_d; rt_q <= rt_d; try_q <= try_d;
      cd_q <= cd_d; gq_q <= gq_d; gn_q <= gn_d; sl_q <= sl_d; sn_q <= sn_d; gi_q <= gi_d;
      gh_q <= gh_d; gr_q <= gr_d; ip_q <= ip_d; cur_q <= cur_d;
    end
  end

  logic unused_rp;
  assign unused_rp = ^{gin[207], gin[202:189], gin[127:0], win[208], win[188:128]};

`ifndef SYNTHESIS
  // the IP reserves only a free slot; a token result names a slot awaiting one
  logic a_res_busy, a_tok_stray;
  assign a_res_busy  = res_v_i && st_q[32'(res_idx_i)*2 +: 2] != Free;
  assign a_tok_stray = tk_v_i && st_q[32'(tk_slot_i)*2 +: 2] != Sent;
  always_ff @(posedge clk_i) begin
    rp_reserve_free: assert (!a_res_busy);
    rp_token_for_sent: assert (!a_tok_stray);
  end
`endif
endmodule
