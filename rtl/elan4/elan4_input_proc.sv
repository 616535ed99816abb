// elan4_input_proc: the input processor (docs/elan4.md §6.5 "Input processor").
//
// Sequential, one packet at a time: takes the oldest FULL packet of the
// receiver when idle (cycle x), checks it in x, translates the target VA and
// (WRITE with E) the event VA through the MMU, then executes: WRITE dwords to
// local memory, host memory or a queue page (an internal queue write, §6.1),
// event sets pushed into the event FIFO, READ/ATOMIC reply slots reserved in
// the reply unit, the atomic's read-modify-write. A nack ends the packet at
// once; the token (ack or nack) is queued at the end of the cycle that
// decides it, and the IP is idle from the next cycle. The packet's words stay
// in the receiver's register (FREE only when the token is queued), read
// through the receiver's select port.
module elan4_input_proc #(
  parameter int unsigned NumVcs     = 2,
  parameter int unsigned NumNodes   = 64,
  parameter int unsigned ReplySlots = 4,
  localparam int unsigned VcW       = $clog2(NumVcs),
  localparam int unsigned RsW       = (ReplySlots > 1) ? $clog2(ReplySlots) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  // the receiver: oldest FULL packet, and the words of the packet in work
  input  logic                  pk_v_i,
  input  logic [VcW-1:0]        pk_vc_i,
  input  logic [31:0]           pk_route_i,
  input  logic [22*32-1:0]      pk_words_i,
  input  logic [4:0]            pk_nwords_i,
  input  logic                  pk_over_i,
  input  logic                  pk_crc_ok_i,
  output logic                  pk_take_o,
  output logic [VcW-1:0]        sel_vc_o,
  input  logic [22*32-1:0]      sel_words_i,
  // token queued at the end of this cycle (also frees the packet register)
  output logic                  tok_v_o,
  output logic [VcW-1:0]        tok_vc_o,
  output logic                  tok_ack_o,
  // MMU (IP class)
  output logic                  mmu_req_o,
  output logic [13:0]           mmu_ctx_o,
  output logic [63:0]           mmu_va_o,
  input  logic                  mmu_res_v_i,
  input  logic                  mmu_ok_i,
  input  logic                  mmu_w_i,
  input  logic                  mmu_r_i,
  input  logic [1:0]            mmu_space_i,
  input  logic [49:0]           mmu_pa_i,
  // local memory (IP class)
  output logic                  lm_req_v_o,
  output logic                  lm_req_we_o,
  output logic [27:0]           lm_req_addr_o,
  output logic [63:0]           lm_req_wdata_o,
  input  logic                  lm_gnt_i,
  input  logic                  lm_rd_v_i,
  input  logic [63:0]           lm_rd_data_i,
  // host master (IP class)
  output logic                  hm_req_v_o,
  output logic                  hm_req_we_o,
  output logic [49:0]           hm_req_addr_o,
  output logic [63:0]           hm_req_data_o,
  output logic [6:0]            hm_req_len_o,
  input  logic                  hm_tag_free_i,  // a host-read tag is free (start of cycle)
  input  logic                  hm_gnt_i,
  input  logic                  hm_rd_v_i,
  input  logic [63:0]           hm_rd_data_i,
  // internal queue write (§6.1): presented only while the intake is ok
  input  logic                  iok_i,
  output logic                  iw_v_o,          // presented (= accepted) this cycle
  output logic [12:0]           iw_q_o,
  output logic [8:0]            iw_k_o,
  output logic [63:0]           iw_data_o,
  output logic                  iw_want_d_o,     // will want to present next cycle
  output logic                  iw_want_o,       // wants to present this cycle (iw_v_o = iok_i then)
  // event FIFO push (a translated set)
  input  logic                  ep_room_i,       // the FIFO holds fewer than EpFifo (start of cycle)
  output logic                  ep_push_o,
  output logic [30:0]           ep_addr_o,
  output logic [31:0]           ep_inc_o,
  // reply slots (§6.5): reserve at e; an atomic's old value at d
  input  logic [ReplySlots-1:0] rs_free_i,
  output logic                  rs_res_o,
  output logic [RsW-1:0]        rs_idx_o,
  // {atomic, E, n[3:0], ctx[13:0], src[11:0], space[1:0], PA[49:3], reply VA, event VA}
  output logic [208:0]          rs_info_o,
  output logic                  rs_old_v_o,
  output logic [RsW-1:0]        rs_old_idx_o,
  output logic [63:0]           rs_old_o,
  // interrupt cause 4, counters
  output logic                  irq_v_o,
  output logic [83:0]           irq_rec_o,
  output logic                  cnt_crc_o,
  output logic                  cnt_bad_o,
  output logic                  cnt_xlate_o,
  output logic                  cnt_prot_o,
  output logic                  cnt_busy_o
);
  localparam logic [3:0] KWrite = 4'd1, KRead = 4'd2, KSetev = 4'd3, KAtomic = 4'd4;
  localparam logic [2:0] SIdle = 3'd0, SLookT = 3'd1, SLookE = 3'd2, SWrite = 3'd3,
                         SPush = 3'd4, SExec = 3'd5, SAtRd = 3'd6, SAtWr = 3'd7;

  logic [2:0]     st_q, st_d;
  logic [VcW-1:0] vc_q, vc_d;
  logic [3:0]     i_q, i_d;          // WRITE: next dword; ATOMIC: 1 = read granted
  logic [49:0]    pa_q, pa_d;        // translated target
  logic [1:0]     sp_q, sp_d;        // its space
  logic [30:0]    ea_q, ea_d;        // translated event address (local)
  logic [63:0]    new_q, new_d;      // atomic: the value to write
  logic [RsW-1:0] rsi_q, rsi_d;      // atomic: its reply slot
  logic           xl_q, xl_d;        // the packet in work passed its target translation

  // the packet in work (words held in the receiver)
  logic [31:0] w0, w1;
  logic [63:0] va;
  logic [3:0]  kind, n;
  logic        e, a;
  logic [13:0] ctx;
  assign sel_vc_o = vc_q;
  assign w0   = sel_words_i[0 +: 32];
  assign w1   = sel_words_i[32 +: 32];
  assign va   = {sel_words_i[96 +: 32], sel_words_i[64 +: 32]};
  assign kind = w0[3:0];
  assign n    = w0[7:4];
  assign e    = w0[8];
  assign a    = w0[9];
  assign ctx  = w0[29:16];

  function automatic logic [63:0] dw(input logic [22*32-1:0] w, input logic [4:0] k);  // words k, k+1
    dw = {w[(32'(k) + 1)*32 +: 32], w[32'(k)*32 +: 32]};
  endfunction

  // event VA of the packet: its last dword
  logic [63:0] eva;
  assign eva = dw(sel_words_i, (kind == KWrite) ? 5'(5'd4 + 5'({n, 1'b0})) :
                               (kind == KRead) ? 5'd6 : 5'd10);

  // ---------------------------------------------------------------- check (cycle x)
  logic        bad_crc, bad_pkt;
  always_comb begin
    logic [15:0] c0;
    logic [1:0]  c0h;
    logic [31:0] c1;
    logic [12:0] cva;
    logic [4:0]  cev;
    logic [3:0]  ck, cn;
    logic        ce, ca;
    logic [4:0]  exp;
    logic [13:0] bytes;
    c0 = pk_words_i[0 +: 16]; c0h = pk_words_i[30 +: 2]; c1 = pk_words_i[32 +: 32];
    cva = pk_words_i[64 +: 13];
    ck = c0[3:0]; cn = c0[7:4]; ce = c0[8]; ca = c0[9];
    bad_crc = !pk_crc_ok_i;
    bad_pkt = 1'b0;
    exp = 5'd0; bytes = 14'd0;
    case (ck)
      KWrite:  begin exp = 5'(5'd4 + 5'({cn, 1'b0}) + 5'({ce, 1'b0})); bytes = 14'({cn, 3'b000}); end
      KRead:   begin exp = 5'(5'd6 + 5'({ce, 1'b0}));              bytes = 14'({cn, 3'b000}); end
      KSetev:  begin exp = 5'd5;                               bytes = 14'd32; end
      KAtomic: begin exp = 5'(5'd10 + 5'({ce, 1'b0}));             bytes = 14'd8; end
      default: bad_pkt = 1'b1;
    endcase
    if (pk_route_i != 32'hFFFF_FFFF || pk_over_i) bad_pkt = 1'b1;
    if (c0[15:10] != '0 || c0h != '0 || c1[31:12] != '0) bad_pkt = 1'b1;
    if ((ck == KWrite || ck == KRead) ? (cn == 4'd0 || cn > 4'd8) : (cn != 4'd0)) bad_pkt = 1'b1;
    // E exists for WRITE, READ, ATOMIC (§4.6); A only for ATOMIC
    if (ce && ck == KSetev) bad_pkt = 1'b1;
    if (ca && ck != KAtomic) bad_pkt = 1'b1;
    if (pk_nwords_i != exp) bad_pkt = 1'b1;
    if (32'(c1[11:0]) >= NumNodes) bad_pkt = 1'b1;
    if (ck == KSetev ? cva[4:0] != '0 : cva[2:0] != '0) bad_pkt = 1'b1;
    if (14'(cva[12:0]) + bytes > 14'd8192) bad_pkt = 1'b1;
    if (ck == KWrite && ce && cn <= 4'd8) begin
      cev = pk_words_i[(4 + 2 * 32'(cn))*32 +: 5];
      if (cev[4:0] != '0) bad_pkt = 1'b1;
    end else cev = '0;
  end

  // permission of the current lookup's result (§6.5 step 2)
  logic perm_ok;
  always_comb begin
    perm_ok = 1'b0;
    if (st_q == SLookE) perm_ok = mmu_w_i && mmu_space_i == 2'd1;
    else case (kind)
      KWrite:  perm_ok = mmu_w_i;
      KRead:   perm_ok = mmu_r_i && mmu_space_i != 2'd2;
      KAtomic: perm_ok = mmu_r_i && mmu_w_i && mmu_space_i != 2'd2;
      default: perm_ok = mmu_w_i && mmu_space_i == 2'd1;
    endcase
  end

  // lowest free reply slot
  logic           rs_any;
  logic [RsW-1:0] rs_low;
  always_comb begin
    rs_any = 1'b0; rs_low = '0;
    for (int unsigned s = 0; s < ReplySlots; s++) begin
      if (rs_free_i[s] && !rs_any) begin rs_any = 1'b1; rs_low = RsW'(s); end
    end
  end

  logic [63:0] wdat;   // WRITE: dword i_q of the data
  assign wdat = dw(sel_words_i, 5'(5'd4 + 5'({i_q, 1'b0})));
  logic [63:0] opa, opb;
  assign opa = dw(sel_words_i, 5'd4);
  assign opb = dw(sel_words_i, 5'd6);

  logic [63:0] old;    // the atomic's read data, in its data cycle
  assign old = (sp_q == 2'd0) ? hm_rd_data_i : lm_rd_data_i;

  // FADD's old + opa on the kit's Kogge-Stone tree (rtl/cp/cp_ks_add.sv): `+`
  // maps to a near-ripple chain in the osu018 flow, 10.1 ns for these 64 bits
  // (docs/elan4.md "Timing") *(ours)*. Same sum, same cycle.
  logic [63:0] fadd;
  logic        unused_fadd_co;
  cp_ks_add #(.W(64), .Keep(1)) u_fadd (
    .a_i (old), .b_i (opa), .ci_i (1'b0), .s_o (fadd), .co_o (unused_fadd_co)
  );

  // WRITE's dword address PA + 8i: the packet's range lies in one 8 KB page
  // (§6.5's check: VA[12:0] + 8n <= 8192, and PA[12:0] = VA[12:0], §6.6), so
  // the sum never carries out of bit 12 and only PA[12:3] is added
  // (ip_page_bounded checks it in simulation) *(ours)*.
  logic [9:0] pg_dw;
  assign pg_dw = pa_q[12:3] + 10'(i_q);

  // ---------------------------------------------------------------- presentation
  // requests are a function of the start-of-cycle state only (§5.1 rule 3)
  always_comb begin
    mmu_req_o = 1'b0; mmu_ctx_o = '0; mmu_va_o = '0;
    lm_req_v_o = 1'b0; lm_req_we_o = 1'b0; lm_req_addr_o = '0; lm_req_wdata_o = '0;
    hm_req_v_o = 1'b0; hm_req_we_o = 1'b0; hm_req_addr_o = '0; hm_req_data_o = '0; hm_req_len_o = '0;
    iw_v_o = 1'b0; iw_q_o = '0; iw_k_o = '0; iw_data_o = '0;
    ep_push_o = 1'b0; ep_addr_o = '0; ep_inc_o = '0;
    case (st_q)
      SLookT, SLookE: begin
        mmu_req_o = 1'b1;
        mmu_ctx_o = ctx;
        mmu_va_o  = (st_q == SLookT) ? va : eva;
      end
      SWrite: begin
        // dword i_q, presented from the cycle after the previous grant
        case (sp_q)
          2'd1: begin
            lm_req_v_o = 1'b1; lm_req_we_o = 1'b1;
            lm_req_addr_o = {pa_q[30:13], pg_dw}; lm_req_wdata_o = wdat;
          end
          2'd0: begin
            hm_req_v_o = 1'b1; hm_req_we_o = 1'b1;
            hm_req_addr_o = {pa_q[49:13], pg_dw, pa_q[2:0]}; hm_req_data_o = wdat;
          end
          default: begin
            iw_v_o = iok_i;
            iw_q_o = pa_q[25:13];
            // the page dword, mod 512 (docs/elan4.md §14)
            iw_k_o = va[11:3] + 9'(i_q);
            iw_data_o = wdat;
          end
        endcase
      end
      SPush: begin
        // SETEVENT: the target's address and increment; WRITE with E: the event, inc 1
        ep_push_o = ep_room_i;
        ep_addr_o = (kind == KSetev) ? pa_q[30:0] : ea_q;
        ep_inc_o  = (kind == KSetev) ? sel_words_i[4*32 +: 32] : 32'd1;
      end
      SAtRd: if (i_q == 4'd0) begin
        if (sp_q == 2'd1) begin
          lm_req_v_o = 1'b1; lm_req_addr_o = pa_q[30:3];
        end else if (hm_tag_free_i) begin
          hm_req_v_o = 1'b1; hm_req_addr_o = pa_q; hm_req_len_o = 7'd1;
        end
      end
      SAtWr: begin
        if (sp_q == 2'd1) begin
          lm_req_v_o = 1'b1; lm_req_we_o = 1'b1; lm_req_addr_o = pa_q[30:3]; lm_req_wdata_o = new_q;
        end else begin
          hm_req_v_o = 1'b1; hm_req_we_o = 1'b1; hm_req_addr_o = pa_q; hm_req_data_o = new_q;
        end
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- step
  logic tok, ack, last_w, wgnt;
  assign wgnt = (sp_q == 2'd1 && lm_gnt_i) || (sp_q == 2'd0 && hm_gnt_i) || (sp_q == 2'd2 && iw_v_o);
  always_comb begin
    st_d = st_q; vc_d = vc_q; i_d = i_q; pa_d = pa_q; sp_d = sp_q; ea_d = ea_q;
    new_d = new_q; rsi_d = rsi_q; xl_d = xl_q;
    tok = 1'b0; ack = 1'b0; pk_take_o = 1'b0;
    rs_res_o = 1'b0; rs_idx_o = '0; rs_old_v_o = 1'b0; rs_old_o = '0;
    irq_v_o = 1'b0; irq_rec_o = '0;
    cnt_crc_o = 1'b0; cnt_bad_o = 1'b0; cnt_xlate_o = 1'b0; cnt_prot_o = 1'b0; cnt_busy_o = 1'b0;
    last_w = i_q + 1'b1 == n;
    case (st_q)
      SIdle: if (pk_v_i) begin
        pk_take_o = 1'b1;
        vc_d = pk_vc_i;
        xl_d = 1'b0;
        if (bad_crc || bad_pkt) begin
          tok = 1'b1;
          cnt_crc_o = bad_crc;
          cnt_bad_o = !bad_crc;
        end else st_d = SLookT;
      end
      SLookT, SLookE: if (mmu_res_v_i) begin
        if (!mmu_ok_i) begin
          tok = 1'b1; cnt_xlate_o = 1'b1;
          irq_v_o = 1'b1;
          irq_rec_o = {4'd4, 2'd0, ctx, (st_q == SLookT) ? va : eva};
        end else if (!perm_ok) begin
          tok = 1'b1; cnt_prot_o = 1'b1;
        end else if (st_q == SLookT) begin
          pa_d = mmu_pa_i; sp_d = mmu_space_i; xl_d = 1'b1;
          st_d = (kind == KWrite && e) ? SLookE : ((kind == KWrite) ? SWrite :
                 (kind == KSetev) ? SPush : SExec);
          i_d = '0;
        end else begin
          ea_d = mmu_pa_i[30:0];
          st_d = SWrite; i_d = '0;
        end
      end
      SWrite: if (wgnt) begin
        i_d = i_q + 1'b1;
        if (last_w) begin
          if (e) st_d = SPush;
          else begin tok = 1'b1; ack = 1'b1; end
        end
      end
      SPush: if (ep_room_i) begin tok = 1'b1; ack = 1'b1; end
      SExec: begin
        // READ / ATOMIC in e: a reply slot, else nack (busy)
        if (!rs_any) begin
          tok = 1'b1; cnt_busy_o = 1'b1;
        end else begin
          rs_res_o = 1'b1; rs_idx_o = rs_low;
          if (kind == KRead) begin tok = 1'b1; ack = 1'b1; end
          else begin st_d = SAtRd; rsi_d = rs_low; i_d = '0; end
        end
      end
      SAtRd: begin
        if (i_q == 4'd0) begin
          if ((sp_q == 2'd1 && lm_gnt_i) || (sp_q == 2'd0 && hm_gnt_i)) i_d = 4'd1;
        end else if ((sp_q == 2'd1 && lm_rd_v_i) || (sp_q == 2'd0 && hm_rd_v_i)) begin
          // data cycle d: the old value to the slot, the new one computed
          rs_old_v_o = 1'b1; rs_old_o = old;
          if (!a) new_d = fadd;
          else new_d = opb;
          if (a && old != opa) begin tok = 1'b1; ack = 1'b1; end
          else st_d = SAtWr;
        end
      end
      SAtWr: if ((sp_q == 2'd1 && lm_gnt_i) || (sp_q == 2'd0 && hm_gnt_i)) begin
        tok = 1'b1; ack = 1'b1;
      end
      default: ;
    endcase
    if (tok) st_d = SIdle;
  end

  assign rs_old_idx_o = rsi_q;
  assign tok_v_o   = tok;
  assign tok_vc_o  = (st_q == SIdle) ? pk_vc_i : vc_q;
  assign tok_ack_o = ack;
  assign iw_want_d_o = st_d == SWrite && sp_d == 2'd2;
  assign iw_want_o   = st_q == SWrite && sp_q == 2'd2;
  // the slot's request: READ {n, source PA}, ATOMIC n = 1; reply VA and event VA
  // READ: reply VA dw 4, event dw 6; ATOMIC: reply VA dw 8, event dw 10
  assign rs_info_o = {kind == KAtomic, e, (kind == KAtomic) ? 4'd1 : n, ctx, w1[11:0],
                      sp_q, pa_q[49:3],
                      dw(sel_words_i, (kind == KAtomic) ? 5'd8 : 5'd4), e ? eva : 64'd0};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle; vc_q <= '0; i_q <= '0; pa_q <= '0; sp_q <= '0; ea_q <= '0;
      new_q <= '0; rsi_q <= '0; xl_q <= 1'b0;
    end else begin
      st_q <= st_d; vc_q <= vc_d; i_q <= i_d; pa_q <= pa_d; sp_q <= sp_d; ea_q <= ea_d;
      new_q <= new_d; rsi_q <= rsi_d; xl_q <= xl_d;
    end
  end

  logic unused_ip;
  assign unused_ip = ^{w0[31:30], w0[15:10], w1[31:12]};

`ifndef SYNTHESIS
  // a packet writes memory (local, host or a queue page) only after its
  // target VA translated with the access allowed (§6.5 steps 2, 3)
  logic a_stray_write;
  assign a_stray_write = ((lm_req_v_o && lm_req_we_o) || (hm_req_v_o && hm_req_we_o) || iw_v_o) &&
                         !xl_q;
  always_ff @(posedge clk_i) begin
    ip_write_after_xlate: assert (!a_stray_write);
    // the page-bounded PA + 8i above is the full sum (no carry out of bit 12)
    if (rst_ni && st_q == SWrite && sp_q != 2'd2)
      ip_page_bounded: assert (11'(pa_q[12:3]) + 11'(i_q) < 11'd1024);
  end
`endif
endmodule
