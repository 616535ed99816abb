// elan4_host_port: the host target port and its PIO operations
// (docs/elan4.md §3.1, §4.1, §6.1 "Accepting" and "PIO operations").
//
// A request accepted in t is registered and acts in t+1: a queue-page write
// to a cached queue arrives at the intake (case a); a queue-page write to an
// uncached queue starts the cache's miss sequence (case b); anything else
// is a held PIO operation (case c). ht_ready_o is decided from next-state
// values (an output of cycle u from the state at the start of u).
module elan4_host_port #(
  parameter int unsigned NumQueues = 64,
  parameter int unsigned DepthKb0  = 1,
  parameter int unsigned DepthKb1  = 8,
  parameter int unsigned DepthKb2  = 64,
  parameter int unsigned DepthKb3  = 512,
  parameter int unsigned DescBase  = 32'h0,
  parameter int unsigned NumCq     = 8,
  localparam int unsigned SW       = (NumCq > 1) ? $clog2(NumCq) : 1
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  input  logic          ht_valid_i,
  input  logic          ht_write_i,
  input  logic [31:0]   ht_addr_i,
  input  logic [63:0]   ht_data_i,
  input  logic [7:0]    ht_be_i,
  input  logic [7:0]    ht_tag_i,
  output logic          ht_ready_o,
  output logic          ht_rvalid_o,
  output logic [63:0]   ht_rdata_o,
  output logic [7:0]    ht_rtag_o,
  // the cache
  output logic [12:0]   lka_q_o,        // lookup of the request on ht_* (acceptance)
  input  logic          lka_hit_i,
  input  logic [SW-1:0] lka_slot_i,
  output logic [12:0]   lkb_q_o,        // lookup of the registered request (CQCTL)
  input  logic          lkb_hit_i,
  input  logic [SW-1:0] lkb_slot_i,
  input  logic [63:0]   lkb_stat_i,     // status word of slot lkb_slot_i
  input  logic          win_ok_i,       // every cached OK queue: wp - dp < OooWindow (this cycle)
  input  logic          iw_present_d_i, // an internal queue write is presented next cycle
  output logic          iok_o,          // intake_ok of this cycle (start-of-cycle state)
  input  logic          iw_v_i,         // an internal queue write presented (accepted) this cycle
  input  logic [12:0]   iw_q_i,
  input  logic [8:0]    iw_k_i,
  input  logic [63:0]   iw_data_i,
  output logic          arr_v_o,        // case (a): arrival this cycle
  output logic [SW-1:0] arr_slot_o,
  output logic [8:0]    arr_k_o,
  output logic [63:0]   arr_data_o,
  output logic [7:0]    arr_be_o,
  output logic          miss_v_o,       // case (b): start the miss sequence
  output logic [12:0]   miss_q_o,
  input  logic          miss_done_i,    // the held write arrived (completion)
  output logic          ri_v_o,         // CQCTL write: re-initialise / describe queue
  output logic          ri_hit_o,
  output logic [SW-1:0] ri_slot_o,
  output logic [12:0]   ri_q_o,
  output logic [63:0]   ri_val_o,
  output logic [1:0]    ri_st_o,
  output logic [7:0]    ri_code_o,
  output logic          pio_req_v_o,    // CQ-class local-memory request of the PIO
  output logic          pio_req_we_o,
  output logic [27:0]   pio_req_addr_o,
  output logic [63:0]   pio_req_wdata_o,
  input  logic          pio_gnt_i,
  input  logic          pio_rd_v_i,
  input  logic [63:0]   pio_rd_data_i,
  input  logic          fill_busy_i,    // an MMU fill is in progress
  output logic          tlb_flush_o,
  output logic          cnt_wr_o,
  output logic          cnt_rd_o,
  output logic          cnt_bad_o
);
  localparam logic [31:0] CtlBase   = 32'h0200_0000;
  localparam logic [31:0] FlushAddr = 32'h0210_0000;

  // operations held from t+1
  localparam logic [2:0] OpNone = 3'd0, OpMiss = 3'd1, OpCtlWr = 3'd2, OpCtlRd = 3'd3,
                         OpFlush = 3'd4, OpWinWr = 3'd5, OpWinRd = 3'd6, OpBad = 3'd7;

  function automatic logic [2:0] classify(input logic wr, input logic [31:0] a,
                                          input logic [7:0] be, input logic hit);
    logic [2:0] c;
    c = OpBad;
    if (a[2:0] != 3'd0) c = OpBad;
    else if (32'(a[31:12]) < NumQueues) c = wr ? (hit ? OpNone : OpMiss) : OpBad;
    else if (a >= CtlBase && ((a - CtlBase) >> 3) < NumQueues)
      c = wr ? ((be == 8'hFF) ? OpCtlWr : OpBad) : OpCtlRd;
    else if (a == FlushAddr) c = wr ? ((be == 8'hFF) ? OpFlush : OpBad) : OpBad;
    else if (a[31]) c = wr ? ((be == 8'hFF) ? OpWinWr : OpBad) : OpWinRd;
    classify = c;
  endfunction
  // a TLBFLUSH read returns 0 without being bad (§4.1): modelled as a bad
  // read without the count, see rd_flush below.

  function automatic logic [31:0] depth_bytes(input logic [1:0] c);
    case (c)
      2'd0: depth_bytes = DepthKb0 * 1024;
      2'd1: depth_bytes = DepthKb1 * 1024;
      2'd2: depth_bytes = DepthKb2 * 1024;
      default: depth_bytes = DepthKb3 * 1024;
    endcase
  endfunction

  logic        ready;
  logic        acc;
  logic [2:0]  acls;
  logic        rv_q, rwr_q;      // the registered request (t+1)
  logic [2:0]  rop_q;
  logic [31:0] raddr_q;
  logic [63:0] rdata_q;
  logic [7:0]  rbe_q, rtag_q;
  logic [SW-1:0] rslot_q;
  logic        rflush_rd_q;      // a read of TLBFLUSH: answers 0, not bad
  logic [2:0]  op_q, op_d;       // held operation
  logic [1:0]  ph_q, ph_d;       // its phase
  logic [63:0] val_q, val_d;
  logic [12:0] oq_q, oq_d;
  logic [7:0]  otag_q, otag_d;
  logic [63:0] d1w_q, d1w_d;
  logic        ans_v, ans_v_q;
  logic [63:0] ans_d, ans_d_q;
  logic [7:0]  ans_t, ans_t_q;

  // an internal queue write (IP, EP: §6.1) is accepted like a host write of
  // that dword with ht_be_i = 0xFF; it is only presented when intake_ok, and
  // then ht_ready_o is 0, so it never meets a host request
  logic        iok;
  logic        held_q;          // a PIO operation is held (start-of-cycle)
  logic        iwp_q;           // an internal queue write wants the intake this cycle
  logic        hwr;
  logic [31:0] haddr;
  logic [63:0] hdata;
  logic [7:0]  hbe;
  // the request's fields are the internal write's whenever one wants the
  // intake (iwp_q, a register): then ht_ready_o is 0, so a host request is
  // never accepted in that cycle, and the lookup and classification need
  // not wait for intake_ok (timing; the same requests are accepted)
  assign hwr     = iwp_q || ht_write_i;
  assign haddr   = iwp_q ? {7'd0, iw_q_i, iw_k_i, 3'b000} : ht_addr_i;
  assign hdata   = iwp_q ? iw_data_i : ht_data_i;
  assign hbe     = iwp_q ? 8'hFF : ht_be_i;
  assign lka_q_o = haddr[24:12];
  // intake_ok and ready from this cycle's state (§6.1), not registered from
  // the next state: the window check then starts at the slots' registers
  // instead of ending the arrival logic (the cycle's behaviour is the same)
  assign iok     = !held_q && win_ok_i;
  assign ready   = iok && !iwp_q;
  assign acc     = (ht_valid_i && ready) || iw_v_i;
  assign acls    = classify(hwr, haddr, hbe, lka_hit_i);
  assign iok_o   = iok;

  logic [12:0] rq_ctl;
  assign rq_ctl  = 13'((raddr_q - CtlBase) >> 3);
  assign lkb_q_o = rq_ctl;

  // the new queue state of a CQCTL write (§4.2)
  logic [1:0]  nst;
  logic [7:0]  ncode;
  always_comb begin
    logic [31:0] sz;
    sz    = depth_bytes(rdata_q[32:31]);
    nst   = 2'd0;
    ncode = 8'd0;
    if (rdata_q[63]) begin
      if (rdata_q[62:54] != '0 || (32'(rdata_q[30:0]) & (sz - 1)) != 0 ||
          33'(rdata_q[30:0]) + 33'(sz) > 33'h8000_0000) begin
        nst = 2'd2; ncode = 8'd1;
      end else begin
        nst = 2'd1;
      end
    end
  end

  // the operation as it stands this cycle: the held one, or the one the
  // request accepted last cycle starts now (it presents from this cycle)
  logic [2:0]  op_c;
  logic [1:0]  ph_c;
  logic [63:0] val_c, d1w_c;
  logic [12:0] oq_c;
  logic [7:0]  otag_c;
  logic        ans0_v;
  logic [63:0] ans0_d;
  logic [7:0]  ans0_t;
  always_comb begin
    op_c = op_q; ph_c = ph_q; val_c = val_q; oq_c = oq_q; otag_c = otag_q; d1w_c = d1w_q;
    ans0_v = 1'b0; ans0_d = '0; ans0_t = '0;
    arr_v_o = 1'b0; miss_v_o = 1'b0; ri_v_o = 1'b0; cnt_bad_o = 1'b0;
    if (rv_q) begin
      case (rop_q)
        OpNone: arr_v_o = 1'b1;
        OpMiss: begin miss_v_o = 1'b1; op_c = OpMiss; end
        OpCtlWr: begin
          ri_v_o = 1'b1;
          op_c = OpCtlWr; ph_c = 2'd0; val_c = rdata_q; oq_c = rq_ctl;
          d1w_c = {54'd0, nst, ncode};
        end
        OpCtlRd: begin
          if (lkb_hit_i) begin
            ans0_v = 1'b1; ans0_d = lkb_stat_i; ans0_t = rtag_q;
          end else begin
            op_c = OpCtlRd; ph_c = 2'd0; oq_c = rq_ctl; otag_c = rtag_q;
          end
        end
        OpFlush: op_c = OpFlush;
        OpWinWr: begin op_c = OpWinWr; val_c = rdata_q; end
        OpWinRd: begin op_c = OpWinRd; ph_c = 2'd0; otag_c = rtag_q; end
        default: begin
          cnt_bad_o = !rflush_rd_q;
          if (!rwr_q) begin ans0_v = 1'b1; ans0_t = rtag_q; end
        end
      endcase
    end
  end

  // presentation: a function of op_c / ph_c only (never of a grant)
  always_comb begin
    pio_req_v_o = 1'b0; pio_req_we_o = 1'b0; pio_req_addr_o = '0; pio_req_wdata_o = '0;
    case (op_c)
      OpCtlWr: begin
        pio_req_v_o = 1'b1;
        pio_req_we_o = 1'b1;
        pio_req_addr_o = 28'((DescBase >> 3) + 2 * 32'(oq_c) + 32'(ph_c[0]));
        pio_req_wdata_o = ph_c[0] ? d1w_c : val_c;
      end
      OpCtlRd: if (ph_c == 2'd0) begin
        pio_req_v_o = 1'b1;
        pio_req_addr_o = 28'((DescBase >> 3) + 2 * 32'(oq_c) + 1);
      end
      OpWinWr: begin
        pio_req_v_o = 1'b1;
        pio_req_we_o = 1'b1;
        pio_req_addr_o = raddr_q[30:3];
        pio_req_wdata_o = val_c;
      end
      OpWinRd: if (ph_c == 2'd0) begin
        pio_req_v_o = 1'b1;
        pio_req_addr_o = raddr_q[30:3];
      end
      default: ;
    endcase
  end

  // progress and completion
  always_comb begin
    op_d = op_c; ph_d = ph_c; val_d = val_c; oq_d = oq_c; otag_d = otag_c; d1w_d = d1w_c;
    ans_v = ans0_v; ans_d = ans0_d; ans_t = ans0_t;
    tlb_flush_o = 1'b0;
    case (op_c)
      OpMiss: if (miss_done_i) op_d = OpNone;
      OpCtlWr: if (pio_gnt_i) begin
        if (ph_c[0]) op_d = OpNone;
        ph_d = 2'd1;
      end
      OpCtlRd: begin
        if (ph_c == 2'd0) begin
          if (pio_gnt_i) ph_d = 2'd1;
        end else if (pio_rd_v_i) begin
          ans_v = 1'b1;
          ans_t = otag_c;
          // uncached status (§6.1): stored state and code, cached 0,
          // busy = OK and rp != wp, [31:12] = d1[51:32], [51:32] = d1[31:12]
          ans_d = {12'd0, pio_rd_data_i[31:12], pio_rd_data_i[51:32],
                   (pio_rd_data_i[9:8] == 2'd1) && (pio_rd_data_i[51:32] != pio_rd_data_i[31:12]),
                   1'b0, (pio_rd_data_i[9:8] == 2'd3) ? 2'd0 : pio_rd_data_i[9:8],
                   (pio_rd_data_i[9:8] == 2'd2) ? pio_rd_data_i[7:0] : 8'd0};
          op_d = OpNone;
        end
      end
      OpFlush: if (!fill_busy_i) begin tlb_flush_o = 1'b1; op_d = OpNone; end
      OpWinWr: if (pio_gnt_i) op_d = OpNone;
      OpWinRd: begin
        if (ph_c == 2'd0) begin
          if (pio_gnt_i) ph_d = 2'd1;
        end else if (pio_rd_v_i) begin
          ans_v = 1'b1; ans_d = pio_rd_data_i; ans_t = otag_c;
          op_d = OpNone;
        end
      end
      default: ;
    endcase
  end

  assign arr_slot_o = rslot_q;
  assign arr_k_o    = raddr_q[11:3];
  assign arr_data_o = rdata_q;
  assign arr_be_o   = rbe_q;
  assign miss_q_o   = raddr_q[24:12];
  assign ri_hit_o   = lkb_hit_i;
  assign ri_slot_o  = lkb_slot_i;
  assign ri_q_o     = rq_ctl;
  assign ri_val_o   = rdata_q;
  assign ri_st_o    = nst;
  assign ri_code_o  = ncode;
  assign cnt_wr_o   = acc && !iw_v_i && ht_write_i;
  assign cnt_rd_o   = acc && !iw_v_i && !ht_write_i;

  logic held_d;
  assign held_d = (op_d != OpNone) || (acc && acls != OpNone);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q  <= 1'b0;
      iwp_q   <= 1'b0;
      rv_q <= 1'b0; rwr_q <= 1'b0; rop_q <= OpNone; raddr_q <= '0; rdata_q <= '0;
      rbe_q <= '0; rtag_q <= '0; rslot_q <= '0; rflush_rd_q <= 1'b0;
      op_q <= OpNone; ph_q <= '0; val_q <= '0; oq_q <= '0; otag_q <= '0; d1w_q <= '0;
      ans_v_q <= 1'b0; ans_d_q <= '0; ans_t_q <= '0;
    end else begin
      held_q  <= held_d;
      iwp_q   <= iw_present_d_i;
      rv_q    <= acc;
      // kept while the operation is held (the miss sequence's write arrives later)
      if (acc) begin
        rwr_q   <= hwr;
        rop_q   <= acls;
        raddr_q <= haddr;
        rdata_q <= hdata;
        rbe_q   <= hbe;
        rtag_q  <= iwp_q ? 8'd0 : ht_tag_i;
        rslot_q <= lka_slot_i;
        rflush_rd_q <= !hwr && haddr == FlushAddr;
      end
      op_q <= op_d; ph_q <= ph_d; val_q <= val_d; oq_q <= oq_d; otag_q <= otag_d; d1w_q <= d1w_d;
      ans_v_q <= ans_v;
      ans_d_q <= ans_v ? ans_d : 64'd0;
      ans_t_q <= ans_v ? ans_t : 8'd0;
    end
  end

  assign ht_ready_o  = ready;

`ifndef SYNTHESIS
  // an internal queue write comes only while intake_ok and never in a cycle
  // a host request is accepted (§6.1: ht_ready_o is 0 when one is presented)
  always_ff @(posedge clk_i) begin
    hp_iw_alone: assert (!(iw_v_i && (!iok || (ht_valid_i && ready))));
  end
`endif
  assign ht_rvalid_o = ans_v_q;
  assign ht_rdata_o  = ans_d_q;
  assign ht_rtag_o   = ans_t_q;
endmodule
