// elan4_cmd_proc: the command processor (docs/elan4.md §4.3, §6.3).
//
// Every cycle: per cached OK queue, dword rp's dword-0 checks, the length,
// the body checks once the whole command is in the head buffer, and the
// dispatch condition; then one runnable queue is served round robin.
// Event FIFO and DMA queue room are inputs (ep_ok_i from the event
// processor, dma_ok_i from the DMA engine, each start-of-cycle).
module elan4_cmd_proc #(
  parameter int unsigned NumCq    = 8,
  parameter int unsigned NumNodes = 64,
  localparam int unsigned SW      = (NumCq > 1) ? $clog2(NumCq) : 1
) (
  input  logic                   clk_i,
  input  logic                   rst_ni,
  input  logic [NumCq*13-1:0]    s_qid_i,
  input  logic [NumCq*2-1:0]     s_st_i,
  input  logic [NumCq*7-1:0]     s_en_i,
  input  logic [NumCq*20-1:0]    s_rp_i,
  input  logic [NumCq*7-1:0]     s_avail_i,
  input  logic [NumCq*20-1:0]    s_wprp_i,
  input  logic [NumCq*2-1:0]     s_out_i,
  input  logic [NumCq*11*64-1:0] s_head_i,
  output logic [NumCq-1:0]       partial_o,
  input  logic                   sten_ok_i,  // STEN idle, no eligible resend
  input  logic                   ep_ok_i,    // the event FIFO takes a CP push this cycle
  input  logic                   dma_ok_i,   // the DMA queue has room
  // the served queue
  output logic                   acc_v_o,
  output logic [SW-1:0]          slot_o,
  output logic [3:0]             len_o,
  output logic                   sten_o,     // accepted a STEN command
  output logic                   ep_o,       // accepted SETEVENT local / WAITEVENT
  output logic                   dma_o,      // accepted RUN_DMA
  output logic [11*64-1:0]       cmd_o,      // the command's dwords
  output logic                   err_v_o,
  output logic [7:0]             err_code_o,
  output logic                   irq_v_o,    // INTERRUPT accepted: cause 1
  output logic [83:0]            irq_rec_o
);
  localparam logic [3:0] OpNop = 4'd0, OpWrite = 4'd1, OpRead = 4'd2, OpSetev = 4'd3,
                         OpWaitev = 4'd4, OpDma = 4'd5, OpGuard = 4'd6, OpIntr = 4'd7,
                         OpAtomic = 4'd8;

  // dword-0 checks in §4.3's order; returns {code, len}
  function automatic logic [11:0] check0(input logic [63:0] d, input logic [6:0] en);
    logic [3:0] op, n, len;
    logic e, r, a, fmt, usesdest;
    logic [7:0] code;
    op = d[3:0]; n = d[7:4]; e = d[8]; r = d[9]; a = d[10];
    code = 8'd0; fmt = 1'b0; len = 4'd1; usesdest = 1'b0;
    if (d[15:11] != '0 || d[31:28] != '0) fmt = 1'b1;
    if ((op == OpWrite || op == OpRead) ? (n == 4'd0 || n > 4'd8) : (n != 4'd0)) fmt = 1'b1;
    if (e && !(op == OpWrite || op == OpRead || op == OpAtomic || op == OpDma)) fmt = 1'b1;
    if (r && !(op == OpSetev || op == OpDma)) fmt = 1'b1;
    if (a && op != OpAtomic) fmt = 1'b1;
    usesdest = op == OpWrite || op == OpRead || (op == OpSetev && r) || op == OpDma || op == OpAtomic;
    if (!usesdest && d[27:16] != '0) fmt = 1'b1;
    if ((op == OpWrite || op == OpRead || op == OpWaitev || op == OpAtomic) && d[63:32] != '0) fmt = 1'b1;
    if (op == OpDma && (d[63:32] == '0 || d[34:32] != '0)) fmt = 1'b1;
    if (op == OpNop && d != 64'd0) fmt = 1'b1;
    if (op == OpGuard && d != 64'd6) fmt = 1'b1;
    case (op)
      OpWrite:  len = 4'd2 + n + 4'(e);
      OpRead:   len = 4'd3 + 4'(e);
      OpSetev:  len = 4'd2;
      OpWaitev: len = 4'd5;
      OpDma:    len = 4'd8;
      OpAtomic: len = 4'd5 + 4'(e);
      default:  len = 4'd1;
    endcase
    if (op > OpAtomic) code = 8'd6;
    else if ((op == OpWrite && !en[0]) || (op == OpRead && !en[1]) || (op == OpSetev && !en[2]) ||
             (op == OpWaitev && !en[3]) || (op == OpDma && !en[4]) || (op == OpIntr && !en[5]) ||
             (op == OpAtomic && !en[6])) code = 8'd7;
    else if (fmt) code = 8'd8;
    else if (usesdest && 32'(d[27:16]) >= NumNodes) code = 8'd9;
    check0 = {code, len};
  endfunction

  // the 8m bytes from va lie in one 8 KB page
  function automatic logic in_page(input logic [12:0] va, input logic [3:0] m);
    in_page = 14'(va) + 14'({m, 3'b000}) <= 14'd8192;
  endfunction
  function automatic logic legal_e0(input logic [31:0] e0h);   // e0[63:32]
    legal_e0 = e0h[8:0] <= 9'd256 && e0h[10:9] != 2'd3 && e0h[31:11] == '0;
  endfunction

  // body checks (E_FORMAT): 1 = a rule broken
  function automatic logic check_body(input logic [11*64-1:0] c);
    logic [10:0] d0;
    logic [12:0] d1, d2;
    logic [31:0] d2h;
    logic [63:0] d3, d4, d5;
    logic [3:0] op, n;
    logic e, r, a, bad;
    d0 = c[10:0]; d1 = c[64 +: 13]; d2 = c[128 +: 13]; d2h = c[160 +: 32]; d3 = c[192 +: 64];
    d4 = c[256 +: 64]; d5 = c[320 +: 64];
    op = d0[3:0]; n = d0[7:4]; e = d0[8]; r = d0[9]; a = d0[10];
    bad = 1'b0;
    case (op)
      OpWrite: begin
        if (d1[2:0] != '0 || !in_page(d1, n)) bad = 1'b1;
        if (e && c[(32'(n) + 2)*64 +: 5] != '0) bad = 1'b1;
      end
      OpRead: begin
        if (d1[2:0] != '0 || !in_page(d1, n)) bad = 1'b1;
        if (d2[2:0] != '0 || !in_page(d2, n)) bad = 1'b1;
        if (e && d3[4:0] != '0) bad = 1'b1;
      end
      OpSetev: if (d1[4:0] != '0) bad = 1'b1;
      OpWaitev: if (d1[4:0] != '0 || !legal_e0(d2h)) bad = 1'b1;
      OpDma: begin
        if (d1[2:0] != '0 || d2[2:0] != '0) bad = 1'b1;
        if (e ? d3[4:0] != '0 : d3 != '0) bad = 1'b1;
        if (r ? d4[4:0] != '0 : d4 != '0) bad = 1'b1;
        if (d5 != '0 || c[384 +: 64] != '0 || c[448 +: 64] != '0) bad = 1'b1;
      end
      OpAtomic: begin
        if (d1[2:0] != '0) bad = 1'b1;
        if (!a && d3 != '0) bad = 1'b1;
        if (d4[2:0] != '0) bad = 1'b1;
        if (e && d5[4:0] != '0) bad = 1'b1;
      end
      default: ;
    endcase
    check_body = bad;
  endfunction

  logic [NumCq-1:0]   run, rdy, f0, fb;
  logic [NumCq*8-1:0] rcode;
  logic [NumCq*4-1:0] rlen;
  always_comb begin
    for (int unsigned s = 0; s < NumCq; s++) begin
      logic [11:0] c0;
      logic [63:0] d0;
      logic        have0, whole, disp;
      logic [3:0]  op;
      d0    = s_head_i[s*11*64 +: 64];
      op    = d0[3:0];
      c0    = check0(d0, s_en_i[s*7 +: 7]);
      have0 = s_st_i[s*2 +: 2] == 2'd1 && s_avail_i[s*7 +: 7] != '0;
      whole = 32'(s_avail_i[s*7 +: 7]) >= 32'(c0[3:0]);
      f0[s] = have0 && c0[11:4] != '0;
      fb[s] = have0 && !f0[s] && whole && check_body(s_head_i[s*11*64 +: 11*64]);
      case (op)
        OpWrite, OpRead, OpAtomic: disp = s_out_i[s*2 +: 2] < 2'd2 && sten_ok_i;
        OpSetev:  disp = d0[9] ? (s_out_i[s*2 +: 2] < 2'd2 && sten_ok_i) : ep_ok_i;
        OpWaitev: disp = ep_ok_i;
        OpDma:    disp = dma_ok_i;
        OpGuard:  disp = s_out_i[s*2 +: 2] == 2'd0;
        default:  disp = 1'b1;
      endcase
      rdy[s] = have0 && !f0[s] && whole && !fb[s] && disp;
      run[s] = f0[s] || fb[s] || rdy[s];
      rcode[s*8 +: 8] = f0[s] ? c0[11:4] : 8'd8;
      rlen[s*4 +: 4]  = c0[3:0];
      // §6.2: the queue holds only a partly written command
      partial_o[s] = have0 && !f0[s] && 32'(s_wprp_i[s*20 +: 20]) < 32'(c0[3:0]);
    end
  end

  logic [SW-1:0] rr_q, rr_d, pick;
  logic          found;
  always_comb begin
    found = 1'b0; pick = '0;
    for (int unsigned i = 0; i < NumCq; i++) begin
      logic [SW-1:0] s;
      s = SW'((32'(rr_q) + i) % NumCq);
      if (!found && run[s]) begin found = 1'b1; pick = s; end
    end
    rr_d = found ? SW'((32'(pick) + 1) % NumCq) : rr_q;
  end

  logic [63:0] pd0;
  logic [3:0]  pop;
  assign pd0        = s_head_i[32'(pick)*11*64 +: 64];
  assign pop        = pd0[3:0];
  assign acc_v_o    = found && rdy[pick];
  assign slot_o     = pick;
  assign len_o      = rlen[32'(pick)*4 +: 4];
  assign sten_o     = acc_v_o && (pop == OpWrite || pop == OpRead || pop == OpAtomic ||
                                  (pop == OpSetev && pd0[9]));
  assign ep_o       = acc_v_o && ((pop == OpSetev && !pd0[9]) || pop == OpWaitev);
  assign dma_o      = acc_v_o && pop == OpDma;
  assign cmd_o      = s_head_i[32'(pick)*11*64 +: 11*64];
  assign err_v_o    = found && !rdy[pick];
  assign err_code_o = rcode[32'(pick)*8 +: 8];
  assign irq_v_o    = acc_v_o && pop == OpIntr;
  assign irq_rec_o  = {4'd1, 3'd0, s_qid_i[32'(pick)*13 +: 13], 32'd0, pd0[63:32]};

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) rr_q <= '0;
    else         rr_q <= rr_d;
  end

  logic unused;
  assign unused = ^{s_rp_i, pd0[31:10], pd0[8:4]};
endmodule
