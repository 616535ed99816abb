// elan4_event_proc: the event FIFO and the event processor (docs/elan4.md
// §4.4, §6.7).
//
// FIFO of EpFifo requests: sets (translated local address from the IP, or
// VA + ctx from the CP or the DMA) and primes (WAITEVENT).
// One request at a time: taken in a cycle the EP is idle, its first step
// presented in that cycle; each later step from the cycle after the previous
// step ends (a lookup at its result, a read at its data, a write at its
// grant). A set reads e0, writes count + inc, and if that fires the event
// reads e1, e2, e3 and acts by type: INTERRUPT (cause 2), WRITE (param1 to
// param0's translation) or COPY (len dwords, one read then one write each).
// A prime writes e0..e3. Failures drop the request with interrupt cause 7.
module elan4_event_proc #(
  parameter int unsigned EpFifo = 4
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  // pushes (§6.7 order: IP, DMA, CP)
  output logic              ip_room_o,      // count < EpFifo (start of cycle)
  input  logic              ip_push_i,
  input  logic [30:0]       ip_addr_i,
  input  logic [31:0]       ip_inc_i,
  output logic              dma_ok_o,       // count < EpFifo - 1
  input  logic              dma_push_i,     // the DMA's local event (inc 1)
  input  logic [63:0]       dma_va_i,
  input  logic [13:0]       dma_ctx_i,
  output logic              cp_ok_o,        // count < EpFifo - 1 (and no DMA push)
  input  logic              cp_push_i,      // SETEVENT R = 0 or WAITEVENT accepted
  input  logic [11*64-1:0]  cp_cmd_i,
  input  logic [13:0]       cp_ctx_i,
  // MMU (EP class)
  output logic              mmu_req_o,
  output logic [13:0]       mmu_ctx_o,
  output logic [63:0]       mmu_va_o,
  input  logic              mmu_res_v_i,
  input  logic              mmu_ok_i,
  input  logic [1:0]        mmu_space_i,
  input  logic [49:0]       mmu_pa_i,
  // local memory (EP class)
  output logic              lm_req_v_o,
  output logic              lm_req_we_o,
  output logic [27:0]       lm_req_addr_o,
  output logic [63:0]       lm_req_wdata_o,
  input  logic              lm_gnt_i,
  input  logic              lm_rd_v_i,
  input  logic [63:0]       lm_rd_data_i,
  // host master (EP class: writes only)
  output logic              hm_req_v_o,
  output logic [49:0]       hm_req_addr_o,
  output logic [63:0]       hm_req_data_o,
  input  logic              hm_gnt_i,
  // internal queue write (after the IP's)
  input  logic              iw_gnt_i,       // intake ok and the IP does not present
  output logic              iw_v_o,
  output logic [12:0]       iw_q_o,
  output logic [8:0]        iw_k_o,
  output logic [63:0]       iw_data_o,
  output logic              iw_want_d_o,
  // interrupts (cause 2, 7), counters, trace
  output logic              irq_v_o,
  output logic [83:0]       irq_rec_o,
  output logic              cnt_set_o,
  output logic              cnt_fired_o,
  output logic              fire_o,
  output logic [30:0]       fire_addr_o
);
  // FIFO entry: {prime, xl, addr[63:0], inc[31:0], ctx[13:0], e0, p0, p1}
  localparam int unsigned FW = 1 + 1 + 64 + 32 + 14 + 192;
  localparam int unsigned CW = $clog2(EpFifo + 1);
  localparam logic [3:0] SIdle = 4'd0, SLook = 4'd1, SRd0 = 4'd2, SWr0 = 4'd3, SRd1 = 4'd4,
                         SRd2 = 4'd5, SRd3 = 4'd6, SLkW = 4'd7, SWrW = 4'd8, SLkS = 4'd9,
                         SLkD = 4'd10, SCpR = 4'd11, SCpW = 4'd12, SPr = 4'd13;

  logic [EpFifo*FW-1:0] f_q, f_d;
  logic [CW-1:0]        n_q, n_d;

  logic [3:0]   st_q, st_d;
  logic         pr_q, pr_d;          // the request is a prime
  logic [63:0]  va_q, va_d;          // its VA (or local address)
  logic [31:0]  inc_q, inc_d;
  logic [13:0]  ctx_q, ctx_d;        // request's ctx, then e3.ctx
  logic [30:0]  ea_q, ea_d;          // the event's local byte address
  logic [63:0]  e0_q, e0_d, p0_q, p0_d, p1_q, p1_d;
  logic         g_q, g_d;            // this step's read granted, data awaited
  logic [8:0]   i_q, i_d;            // COPY dword; prime dword
  logic [30:0]  sa_q, sa_d;          // COPY source (local)
  logic [49:0]  da_q, da_d;          // COPY / WRITE destination
  logic [1:0]   ds_q, ds_d;          // its space
  logic [63:0]  dw_q, dw_d;          // COPY: the dword read

  // ---------------------------------------------------------------- the request as it stands
  logic         take;
  logic [FW-1:0] hd;
  assign hd   = f_q[0 +: FW];
  assign take = st_q == SIdle && n_q != '0;

  logic [3:0]  st_c;
  logic        pr_c;
  logic [63:0] va_c, e0_c, p0_c, p1_c;
  logic [31:0] inc_c;
  logic [13:0] ctx_c;
  logic [30:0] ea_c;
  always_comb begin
    st_c = st_q; pr_c = pr_q; va_c = va_q; inc_c = inc_q; ctx_c = ctx_q; ea_c = ea_q;
    e0_c = e0_q; p0_c = p0_q; p1_c = p1_q;
    if (take) begin
      {pr_c, va_c, inc_c, ctx_c, e0_c, p0_c, p1_c} = {hd[FW-1], hd[FW-3:0]};
      ea_c = va_c[30:0];
      st_c = !hd[FW-2] ? SLook : (hd[FW-1] ? SPr : SRd0);
    end
  end

  function automatic logic legal_e0(input logic [31:0] x);   // e0[63:32]
    legal_e0 = x[8:0] <= 9'd256 && x[10:9] != 2'd3 && x[31:11] == '0;
  endfunction

  // count + inc is formed in SRd0's data cycle, from the read data, on the
  // kit's Kogge-Stone tree (rtl/cp/cp_ks_add.sv), and kept in cnt_q for SWr0
  // (e0 and inc do not change in between): SWr0's write data and its fire
  // decision then start at a register instead of a 32-bit add, 5.9 ns in
  // osu018 (docs/elan4.md "Timing") *(ours)*. ep_cnt_exact checks it.
  logic [31:0] cnt_new, cnt_sum, cnt_q, cnt_d;
  logic        fires, unused_cnt_co;
  cp_ks_add #(.W(32), .Keep(1)) u_cnt (
    .a_i (lm_rd_data_i[31:0]), .b_i (inc_q), .ci_i (1'b0), .s_o (cnt_sum), .co_o (unused_cnt_co)
  );
  assign cnt_new = cnt_q;
  assign fires   = e0_q[31] && !cnt_new[31];   // count < 0 and count' >= 0

  logic [8:0] clen;
  assign clen = e0_q[40:32];

  // ---------------------------------------------------------------- presentation
  // An event is 32 bytes, 32-byte aligned: every event address is checked
  // (§4.3: a command's event VAs have bits [4:0] = 0; §6.5: a packet's
  // misaligned VA is nacked) and translation keeps PA[12:0] = VA[12:0]
  // (§6.6), so dword i (i <= 3) of the event is {ea[30:5], i}: no adder
  // after the take multiplexer (timing; assertion ep_event_aligned) *(ours)*
  // a function of the start-of-cycle state (and, in the take cycle, of the
  // FIFO's head): §5.1 rule 3
  logic [63:0] wv;        // the value a WRITE / COPY step writes
  assign wv = (st_c == SWrW) ? p1_q : dw_q;
  // COPY's source and destination dword addresses PA + 8i: §6.7 checks both
  // ranges against their 8 KB page (VA[12:0] + 8 len <= 8192, and PA[12:0] =
  // VA[12:0], §6.6), so the sums never carry out of bit 12 and only PA[12:3]
  // is added (ep_page_bounded checks it in simulation) *(ours)*. A WRITE
  // step has i = 0.
  logic [9:0] sa_dw, da_dw;
  assign sa_dw = sa_q[12:3] + 10'(i_q);
  assign da_dw = da_q[12:3] + 10'(i_q);
  always_comb begin
    mmu_req_o = 1'b0; mmu_ctx_o = '0; mmu_va_o = '0;
    lm_req_v_o = 1'b0; lm_req_we_o = 1'b0; lm_req_addr_o = '0; lm_req_wdata_o = '0;
    hm_req_v_o = 1'b0; hm_req_addr_o = '0; hm_req_data_o = '0;
    iw_v_o = 1'b0; iw_q_o = '0; iw_k_o = '0; iw_data_o = '0;
    case (st_c)
      SLook: begin mmu_req_o = 1'b1; mmu_ctx_o = ctx_c; mmu_va_o = va_c; end
      SRd0: if (!g_q) begin lm_req_v_o = 1'b1; lm_req_addr_o = 28'(ea_c[30:3]); end
      SWr0: begin
        lm_req_v_o = 1'b1; lm_req_we_o = 1'b1; lm_req_addr_o = 28'(ea_q[30:3]);
        lm_req_wdata_o = {e0_q[63:32], cnt_new};
      end
      SRd1, SRd2, SRd3: if (!g_q) begin
        lm_req_v_o = 1'b1;
        lm_req_addr_o = {ea_q[30:5], (st_c == SRd1) ? 2'd1 : (st_c == SRd2) ? 2'd2 : 2'd3};
      end
      SLkW, SLkS, SLkD: begin
        mmu_req_o = 1'b1; mmu_ctx_o = ctx_q; mmu_va_o = (st_c == SLkD) ? p1_q : p0_q;
      end
      SCpR: if (!g_q) begin lm_req_v_o = 1'b1; lm_req_addr_o = {sa_q[30:13], sa_dw}; end
      SWrW, SCpW: begin
        case (ds_q)
          2'd1: begin
            lm_req_v_o = 1'b1; lm_req_we_o = 1'b1; lm_req_addr_o = {da_q[30:13], da_dw};
            lm_req_wdata_o = wv;
          end
          2'd0: begin
            hm_req_v_o = 1'b1; hm_req_addr_o = {da_q[49:13], da_dw, da_q[2:0]}; hm_req_data_o = wv;
          end
          default: begin
            iw_v_o = iw_gnt_i; iw_q_o = da_q[25:13];
            iw_k_o = (st_c == SWrW) ? p0_q[11:3] : p1_q[11:3] + i_q;
            iw_data_o = wv;
          end
        endcase
      end
      SPr: begin
        lm_req_v_o = 1'b1; lm_req_we_o = 1'b1; lm_req_addr_o = {ea_c[30:5], i_q[1:0]};
        case (i_q[1:0])
          2'd0: lm_req_wdata_o = e0_c;
          2'd1: lm_req_wdata_o = p0_c;
          2'd2: lm_req_wdata_o = p1_c;
          default: lm_req_wdata_o = {50'd0, ctx_c};
        endcase
      end
      default: ;
    endcase
  end

  // ---------------------------------------------------------------- step
  logic wgnt;
  assign wgnt = (ds_q == 2'd1) ? lm_gnt_i : (ds_q == 2'd0) ? hm_gnt_i : iw_gnt_i;
  always_comb begin
    st_d = st_c; pr_d = pr_c; va_d = va_c; inc_d = inc_c; ctx_d = ctx_c; ea_d = ea_c;
    e0_d = e0_c; p0_d = p0_c; p1_d = p1_c; g_d = g_q; i_d = i_q; sa_d = sa_q; da_d = da_q;
    ds_d = ds_q; dw_d = dw_q; cnt_d = cnt_q;
    irq_v_o = 1'b0; irq_rec_o = '0; cnt_set_o = 1'b0; cnt_fired_o = 1'b0;
    fire_o = 1'b0; fire_addr_o = '0;
    case (st_c)
      SLook: if (mmu_res_v_i) begin
        if (!mmu_ok_i || mmu_space_i != 2'd1) begin
          irq_v_o = 1'b1; irq_rec_o = {4'd7, 2'd0, ctx_c, va_c};
          st_d = SIdle;
        end else begin
          ea_d = mmu_pa_i[30:0];
          st_d = pr_c ? SPr : SRd0;
          i_d = '0; g_d = 1'b0;
        end
      end
      SRd0: begin
        if (!g_q) begin
          if (lm_gnt_i) g_d = 1'b1;
        end else if (lm_rd_v_i) begin
          g_d = 1'b0;
          e0_d = lm_rd_data_i;
          cnt_d = cnt_sum;
          if (!legal_e0(lm_rd_data_i[63:32])) begin
            irq_v_o = 1'b1; irq_rec_o = {4'd7, 16'd0, 33'd0, ea_q};
            st_d = SIdle;
          end else st_d = SWr0;
        end
      end
      SWr0: if (lm_gnt_i) begin
        cnt_set_o = 1'b1;
        if (fires) begin
          cnt_fired_o = 1'b1; fire_o = 1'b1; fire_addr_o = ea_q;
          st_d = SRd1;
        end else st_d = SIdle;
      end
      SRd1, SRd2, SRd3: begin
        if (!g_q) begin
          if (lm_gnt_i) g_d = 1'b1;
        end else if (lm_rd_v_i) begin
          g_d = 1'b0;
          if (st_c == SRd1) begin p0_d = lm_rd_data_i; st_d = SRd2; end
          else if (st_c == SRd2) begin p1_d = lm_rd_data_i; st_d = SRd3; end
          else begin
            ctx_d = lm_rd_data_i[13:0];
            case (e0_q[42:41])
              2'd2: begin
                irq_v_o = 1'b1; irq_rec_o = {4'd2, 2'd0, lm_rd_data_i[13:0], p0_q};
                st_d = SIdle;
              end
              2'd1: st_d = SLkW;
              default: st_d = (clen == '0) ? SIdle : SLkS;
            endcase
          end
        end
      end
      SLkW, SLkS, SLkD: if (mmu_res_v_i) begin
        logic bad;
        bad = !mmu_ok_i || mmu_va_o[2:0] != '0;
        if (st_c == SLkS) begin
          bad = bad || mmu_space_i != 2'd1 || 14'(p0_q[12:0]) + 14'({clen, 3'b000}) > 14'd8192;
        end
        if (st_c == SLkD) begin
          bad = bad || (mmu_space_i == 2'd2 ? 10'(p1_q[11:3]) + 10'(clen) > 10'd512
                                             : 14'(p1_q[12:0]) + 14'({clen, 3'b000}) > 14'd8192);
        end
        if (bad) begin
          irq_v_o = 1'b1; irq_rec_o = {4'd7, 2'd0, ctx_q, mmu_va_o};
          st_d = SIdle;
        end else if (st_c == SLkS) begin
          sa_d = mmu_pa_i[30:0]; st_d = SLkD;
        end else begin
          da_d = mmu_pa_i; ds_d = mmu_space_i; i_d = '0; g_d = 1'b0;
          st_d = (st_c == SLkW) ? SWrW : SCpR;
        end
      end
      SCpR: begin
        if (!g_q) begin
          if (lm_gnt_i) g_d = 1'b1;
        end else if (lm_rd_v_i) begin
          g_d = 1'b0; dw_d = lm_rd_data_i; st_d = SCpW;
        end
      end
      SWrW, SCpW: if (wgnt) begin
        if (st_c == SWrW || i_q + 1'b1 == clen) st_d = SIdle;
        else begin i_d = i_q + 1'b1; st_d = SCpR; end
      end
      SPr: if (lm_gnt_i) begin
        if (i_q[1:0] == 2'd3) st_d = SIdle;
        else i_d = i_q + 1'b1;
      end
      default: ;
    endcase
    if (st_d == SIdle) begin i_d = '0; g_d = 1'b0; end
  end

  // ---------------------------------------------------------------- FIFO
  // A CP set carries its VA in dw1 and inc in imm; a prime dw1..dw4
  logic [31:0] c0;       // dword 0's imm
  logic        cprime;
  assign c0     = cp_cmd_i[32 +: 32];
  assign cprime = cp_cmd_i[3:0] == 4'd4;
  always_comb begin
    logic [31:0] k;
    f_d = f_q;
    k   = 32'(n_q);
    if (take) begin
      for (int unsigned i = 0; i + 1 < EpFifo; i++) f_d[i*FW +: FW] = f_q[(i+1)*FW +: FW];
      f_d[(EpFifo-1)*FW +: FW] = '0;
      k = k - 1;
    end
    if (ip_push_i) begin
      f_d[k*FW +: FW] = {2'b01, 33'd0, ip_addr_i, ip_inc_i, 14'd0, 192'd0};
      k = k + 1;
    end
    if (dma_push_i) begin
      f_d[k*FW +: FW] = {2'b00, dma_va_i, 32'd1, dma_ctx_i, 192'd0};
      k = k + 1;
    end
    if (cp_push_i) begin
      f_d[k*FW +: FW] = cprime ? {2'b10, cp_cmd_i[64 +: 64], 32'd0, cp_ctx_i,
                                  cp_cmd_i[128 +: 64], cp_cmd_i[192 +: 64], cp_cmd_i[256 +: 64]}
                               : {2'b00, cp_cmd_i[64 +: 64], c0, cp_ctx_i, 192'd0};
      k = k + 1;
    end
    n_d = CW'(k);
  end
  assign ip_room_o = 32'(n_q) < EpFifo;
  assign dma_ok_o  = 32'(n_q) < EpFifo - 1;
  assign cp_ok_o   = 32'(n_q) < EpFifo - 1 && !dma_push_i;
  assign iw_want_d_o = (st_d == SWrW || st_d == SCpW) && ds_d == 2'd2;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_q <= '0; n_q <= '0;
      st_q <= SIdle; pr_q <= 1'b0; va_q <= '0; inc_q <= '0; ctx_q <= '0; ea_q <= '0;
      e0_q <= '0; p0_q <= '0; p1_q <= '0; g_q <= 1'b0; i_q <= '0; sa_q <= '0; da_q <= '0;
      ds_q <= '0; dw_q <= '0; cnt_q <= '0;
    end else begin
      f_q <= f_d; n_q <= n_d;
      st_q <= st_d; pr_q <= pr_d; va_q <= va_d; inc_q <= inc_d; ctx_q <= ctx_d; ea_q <= ea_d;
      e0_q <= e0_d; p0_q <= p0_d; p1_q <= p1_d; g_q <= g_d; i_q <= i_d; sa_q <= sa_d; da_q <= da_d;
      ds_q <= ds_d; dw_q <= dw_d; cnt_q <= cnt_d;
    end
  end

  logic unused_ep;
  assign unused_ep = ^{cp_cmd_i[11*64-1:320], cp_cmd_i[31:4]};

`ifndef SYNTHESIS
  // the FIFO never holds more than EpFifo requests (the push conditions of
  // §6.7 on the start-of-cycle count)
  always_ff @(posedge clk_i) begin
    ep_fifo_bound: assert (32'(n_q) <= EpFifo);
    // the count formed a cycle early is e0's count + inc (SWr0's write data)
    if (rst_ni && st_q == SWr0)
      ep_cnt_exact: assert (cnt_q == e0_q[31:0] + inc_q);
    // an event's dwords are {ea[30:5], i} (above): its address is aligned
    // in every state that reads or writes it (the take cycle's included)
    if (rst_ni && (st_c == SPr || st_c == SRd0 || st_c == SRd1 || st_c == SRd2 || st_c == SRd3 ||
                   st_c == SWr0))
      ep_event_aligned: assert (ea_c[4:0] == '0);
    // the page-bounded PA + 8i above is the full sum (no carry out of bit 12)
    if (rst_ni && st_q == SCpR && !g_q)
      ep_page_bounded_src: assert (11'(sa_q[12:3]) + 11'(i_q) < 11'd1024);
    if (rst_ni && (st_q == SWrW || st_q == SCpW) && ds_q != 2'd2)
      ep_page_bounded_dst: assert (11'(da_q[12:3]) + 11'(i_q) < 11'd1024);
  end
`endif
endmodule
