// elan4_mmu: the TLB and its fill engine (docs/elan4.md §4.5, §6.6).
//
// One lookup per cycle, granted to the first of IP, EP, DMA presenting one,
// none while a fill is in progress. A hit answers at the end of the grant
// cycle c; a miss reads the PTE's bucket (p0 in c+1, p1 in c+2: the fill has
// the highest local-memory priority, so these are its grant cycles) and
// answers in c+3+LmLatency, installing a matching PTE in the lowest invalid
// entry, else at the replacement pointer (which advances). Negative results
// are not kept. The requester checks permission and space (§6.6).
module elan4_mmu #(
  parameter int unsigned TlbEntries = 16,
  parameter int unsigned PtBits     = 10,
  parameter int unsigned PtBase     = 32'h40000,
  parameter int unsigned NumQueues  = 64,
  parameter int unsigned LmLatency  = 2,
  parameter int unsigned TagW       = 12
) (
  input  logic              clk_i,
  input  logic              rst_ni,
  input  logic [2:0]        req_v_i,      // 0 IP, 1 EP, 2 DMA
  input  logic [3*14-1:0]   req_ctx_i,
  input  logic [3*64-1:0]   req_va_i,
  output logic [2:0]        gnt_o,
  output logic [2:0]        res_v_o,      // the result for requester i, this cycle
  output logic              res_ok_o,     // a matching PTE (else a fault)
  output logic              res_w_o,
  output logic              res_r_o,
  output logic [1:0]        res_space_o,  // 0 host, 1 local, 2 queue
  output logic [49:0]       res_pa_o,     // PA[49:13] . VA[12:0]
  output logic              fill_busy_o,  // a fill is in progress this cycle
  input  logic              flush_i,      // TLBFLUSH (the host port picks the cycle)
  output logic              lm_req_v_o,
  output logic [27:0]       lm_req_addr_o,
  output logic [TagW-1:0]   lm_req_tag_o,
  input  logic              lm_rd_v_i,
  input  logic [63:0]       lm_rd_data_i,
  output logic              cnt_hit_o,
  output logic              cnt_miss_o
);
  localparam int unsigned IW = $clog2(TlbEntries);
  localparam int unsigned EW = 1 + 14 + 51 + 4 + 37;   // {valid, ctx, VA[63:13], space, R, W, PA[49:13]}
  localparam int unsigned LW = $clog2(LmLatency + 5);

  logic [TlbEntries*EW-1:0] tlb_q, tlb_d;
  logic [IW-1:0]            ptr_q, ptr_d;
  logic                     fb_q, fb_d;          // fill in progress
  logic [LW-1:0]            fc_q, fc_d;          // cycles since the miss's grant
  logic [1:0]               fid_q, fid_d;        // requester of the fill
  logic [13:0]              fctx_q, fctx_d;
  logic [63:0]              fva_q, fva_d, p0_q, p0_d;

  // grant
  logic       any;
  logic [1:0] gid;
  always_comb begin
    any = 1'b0; gid = '0; gnt_o = '0;
    for (int unsigned i = 0; i < 3; i++) begin
      if (req_v_i[i] && !any && !fb_q) begin any = 1'b1; gid = 2'(i); gnt_o[i] = 1'b1; end
    end
  end
  logic [13:0] lctx;
  logic [63:0] lva;
  assign lctx = req_ctx_i[32'(gid)*14 +: 14];
  assign lva  = req_va_i[32'(gid)*64 +: 64];

  // hit search (start-of-cycle TLB)
  logic          hit;
  logic [EW-1:0] he;
  always_comb begin
    hit = 1'b0; he = '0;
    for (int unsigned e = 0; e < TlbEntries; e++) begin
      logic [EW-1:0] x;
      x = tlb_q[e*EW +: EW];
      if (!hit && x[EW-1] && x[EW-2 -: 14] == lctx && x[EW-16 -: 51] == lva[63:13] &&
          !(x[40:39] == 2'd2 && lva[12])) begin
        hit = 1'b1; he = x;
      end
    end
  end

  logic lk_hit, lk_miss;
  assign lk_hit  = any && hit;
  assign lk_miss = any && !hit;

  // the fill's reads and its answer
  logic [PtBits-1:0] h;
  assign h = fva_q[13 +: PtBits] ^ PtBits'(fctx_q);
  always_comb begin
    lm_req_v_o = 1'b0; lm_req_addr_o = '0;
    if (fb_q && (fc_q == LW'(0) || fc_q == LW'(1))) begin
      lm_req_v_o = 1'b1;
      lm_req_addr_o = 28'((PtBase >> 3) + 2 * 32'(h) + 32'(fc_q));
    end
  end
  assign lm_req_tag_o = '0;

  logic done;           // c+3+L: the fill's p1 arrives
  assign done = fb_q && 32'(fc_q) == LmLatency + 2;

  always_comb begin
    logic          fm, fi;
    logic [IW-1:0] slot;
    tlb_d = tlb_q; ptr_d = ptr_q; fb_d = fb_q; fc_d = fc_q; fid_d = fid_q; fctx_d = fctx_q;
    fva_d = fva_q; p0_d = p0_q;
    res_v_o = '0; res_ok_o = 1'b0; res_w_o = 1'b0; res_r_o = 1'b0; res_space_o = '0; res_pa_o = '0;
    fm = 1'b0; fi = 1'b0; slot = '0;
    if (fb_q) fc_d = fc_q + 1'b1;
    if (lm_rd_v_i && fb_q && 32'(fc_q) == LmLatency + 1) p0_d = lm_rd_data_i;
    if (lk_hit) begin
      res_v_o[gid] = 1'b1; res_ok_o = 1'b1;
      res_w_o = he[37]; res_r_o = he[38]; res_space_o = he[40:39];
      res_pa_o = {he[36:0], lva[12:0]};
    end
    if (lk_miss) begin
      fb_d = 1'b1; fc_d = '0; fid_d = gid; fctx_d = lctx; fva_d = lva;
    end
    if (done) begin
      fb_d = 1'b0;
      // §4.5: the PTE matches (ctx, VA)
      fm = p0_q[0] && p0_q[63:13] == fva_q[63:13] && lm_rd_data_i[63:50] == fctx_q &&
           p0_q[4:3] != 2'd3 && p0_q[12:5] == '0 && lm_rd_data_i[12:0] == '0;
      if (p0_q[4:3] == 2'd1 && lm_rd_data_i[49:31] != '0) fm = 1'b0;
      if (p0_q[4:3] == 2'd2 && (32'(lm_rd_data_i[25:13]) >= NumQueues || fva_q[12])) fm = 1'b0;
      res_v_o[fid_q] = 1'b1;
      if (fm) begin
        res_ok_o = 1'b1; res_w_o = p0_q[1]; res_r_o = p0_q[2]; res_space_o = p0_q[4:3];
        res_pa_o = {lm_rd_data_i[49:13], fva_q[12:0]};
        for (int unsigned e = 0; e < TlbEntries; e++) begin
          if (!fi && !tlb_q[e*EW + EW - 1]) begin fi = 1'b1; slot = IW'(e); end
        end
        if (!fi) begin
          slot = ptr_q;
          ptr_d = (32'(ptr_q) == TlbEntries - 1) ? '0 : ptr_q + 1'b1;
        end
        tlb_d[32'(slot)*EW +: EW] = {1'b1, fctx_q, fva_q[63:13], p0_q[4:3], p0_q[2], p0_q[1],
                                     lm_rd_data_i[49:13]};
      end
    end
    if (flush_i) begin
      for (int unsigned e = 0; e < TlbEntries; e++) tlb_d[e*EW + EW - 1] = 1'b0;
      ptr_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int unsigned e = 0; e < TlbEntries; e++) tlb_q[e*EW +: EW] <= '0;
      ptr_q <= '0; fb_q <= 1'b0; fc_q <= '0; fid_q <= '0; fctx_q <= '0;
      fva_q <= '0; p0_q <= '0;
    end else begin
      tlb_q <= tlb_d; ptr_q <= ptr_d; fb_q <= fb_d; fc_q <= fc_d; fid_q <= fid_d; fctx_q <= fctx_d;
      fva_q <= fva_d; p0_q <= p0_d;
    end
  end
  logic unused_mmu;
  assign unused_mmu = ^he[EW-1:41];
  assign fill_busy_o = fb_q;
  assign cnt_hit_o   = lk_hit;
  assign cnt_miss_o  = lk_miss;

`ifndef SYNTHESIS
  // no lookup is granted while a fill is in progress (§6.6)
  always_ff @(posedge clk_i) begin
    if (rst_ni) begin
      mmu_no_grant_in_fill: assert (!(fb_q && gnt_o != '0));
    end
  end
`endif
endmodule
