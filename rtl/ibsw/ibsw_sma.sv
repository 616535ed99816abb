// ibsw_sma: the Subnet Management Agent (docs/ibsw.md §7): one MAD at a time,
// IDLE -> RECV (VA granted output 0) -> EXEC (cycle after the TAIL's capture:
// checks, Sets applied at its end) -> SNAP (response words read) -> RESP
// (one word pushed per cycle into buf[0][V] while not full) -> IDLE.
module ibsw_sma #(
  parameter int unsigned NumPorts    = 4,
  parameter int unsigned NumDataVls  = 2,
  parameter int unsigned RouteCycles = 5,
  parameter int unsigned LftBlocks   = 1,
  localparam int unsigned BW = (LftBlocks > 1) ? $clog2(LftBlocks) : 1
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  output logic         idle_o,
  input  logic         grant_i,        // VA granted (0, V) this cycle
  input  logic [4:0]   grant_port_i,
  input  logic         cap_valid_i,    // the flit sent to the SMA in the previous cycle
  input  logic [1:0]   cap_kind_i,
  input  logic [63:0]  cap_data_i,
  input  logic         cap_syn_i,      // a synthetic TAIL
  // execute (cycle e)
  output logic         bad_o,          // error 9 at bad_port_o
  output logic [4:0]   bad_port_o,
  output logic [4:0]   sel_port_o,     // AttrMod as a port (1..P) for the reads and Sets below
  output logic [BW-1:0] lft_blk_o,
  output logic         lft_we_o,
  output logic [511:0] lft_wdata_o,
  input  logic [511:0] lft_rdata_i,
  output logic         top_we_o,
  output logic [15:0]  top_wdata_o,
  input  logic [15:0]  top_i,
  output logic         pi_set_o,       // SubnSet(PortInfo) of sel_port
  output logic [3:0]   pi_pstate_o,
  output logic [3:0]   pi_phys_o,
  input  logic [15:0]  pi_status_i,
  output logic         sc_set_o,       // PortSamplesControl Set of sel_port
  output logic [127:0] sc_data_o,
  input  logic [15:0]  sc_status_i,
  output logic [10:0]  clr_o,          // PortCounters clear of sel_port
  output logic [3:0]   clr_ext_o,
  // snapshot reads of sel_port (cycle e+1)
  input  logic [63:0]  pinfo_i,        // PortInfo w0 as read
  input  logic [127:0] sctl_i,
  input  logic [191:0] sres_i,
  input  logic [255:0] pcnt_i,
  input  logic [255:0] pext_i,
  input  logic [127:0] power_i,
  // response pushes
  input  logic         buf_full_i,     // buf[0][V] full at the start of the cycle
  output logic         push_o,
  output logic [1:0]   push_kind_o,
  output logic [63:0]  push_data_o
);
  localparam logic [2:0] SIdle = 3'd0, SRecv = 3'd1, SExec = 3'd2, SSnap = 3'd3, SResp = 3'd4;
  localparam int unsigned TopMax = 64 * LftBlocks - 1;

  logic [2:0]  st_q;
  logic [63:0] w_q [16];
  logic [63:0] r_q [16];
  logic [4:0]  nw_q, len_q, pi_q;
  logic        syn_q;
  logic [4:0]  port_q;
  logic [15:0] status_q;
  logic [1:0]  kindat_q;   // 0 known/valid, 1 unknown AttrID, 2 AttrMod out of range
  logic [3:0]  attr_q;     // attribute index below

  // attribute index: 1 SwitchInfo, 2 PortInfo, 3 LFT, 4 SamplesControl,
  // 5 SamplesResult, 6 PortCounters, 7 PortCountersExtended, 8 NcPowerMeter
  logic [3:0]  attr;
  logic [4:0]  nlen;
  logic        mod_ok, bad, is_set;
  logic [15:0] status;

  // The MAD's decode (class, method, attribute, AttrMod range, bad length) is
  // a function of w_q[2], nw_q and syn_q, which do not change in EXEC. It is
  // registered from their next values, so in EXEC the strobes below come from
  // registers: the decode feeding the Sets (sampler, port FSM) was 4.02 ns in
  // ibsw_p4 (docs/ibsw.md Status). Only EXEC reads dec_q, and EXEC always
  // follows a RECV cycle with a capture, whose next values the decode takes:
  // so the next values of IDLE's grant (nw_q, syn_q cleared) are left out,
  // which keeps VA's grant out of the decode (4.24 ns in ibsw_p8_w24). dec_q
  // equals the decode of the current state in every EXEC cycle (sma_dec_exact).
  // decode: {attr[3:0], nlen[4:0], mod_ok, bad, is_set}
  function automatic logic [11:0] decode(input logic [63:16] w2, input logic [4:0] nw, input logic syn);
    logic [7:0]  c, m;
    logic [15:0] a, am;
    logic [3:0]  at;
    logic [4:0]  nl;
    logic        mok, bd, st;
    c  = w2[63:56];
    m  = w2[55:48];
    a  = w2[47:32];
    am = w2[31:16];
    st = m == 8'h02;
    at = 4'd0;
    nl = 5'd0;
    if (c == 8'h81) begin
      case (a)
        16'h0012: begin at = 4'd1; nl = 5'd4; end
        16'h0015: begin at = 4'd2; nl = 5'd4; end
        16'h0019: begin at = 4'd3; nl = 5'd11; end
        default: ;
      endcase
    end else if (c == 8'h04) begin
      case (a)
        16'h0010: begin at = 4'd4; nl = 5'd5; end
        16'h0011: begin at = 4'd5; nl = 5'd6; end
        16'h0012: begin at = 4'd6; nl = 5'd7; end
        16'h001D: begin at = 4'd7; nl = 5'd7; end
        16'hFF01: begin at = 4'd8; nl = 5'd5; end
        default: ;
      endcase
    end
    case (at)
      4'd1, 4'd8: mok = am == 16'd0;
      4'd3:       mok = 32'(am) < LftBlocks;
      default:    mok = am != 16'd0 && 32'(am) <= NumPorts;
    endcase
    bd = nw < 5'd3 || nw > 5'd16 || syn || (c != 8'h81 && c != 8'h04) ||
            (m != 8'h01 && m != 8'h02) || (at != 4'd0 && nw != nl);
    decode = {at, nl, mok, bd, st};
  endfunction

  logic [11:0] dec_q, dec_n;
  logic [63:16] w2_n;
  logic [4:0]  nw_n;
  logic        syn_n;
  // next values of w_q[2], nw_q, syn_q (the always_ff below) in RECV
  always_comb begin
    w2_n  = w_q[2][63:16];
    nw_n  = nw_q;
    syn_n = syn_q;
    if (st_q == SRecv && cap_valid_i) begin
      if (nw_q == 5'd2) w2_n = cap_data_i[63:16];
      if (nw_q < 5'd17) nw_n = nw_q + 5'd1;
      if (cap_kind_i == 2'd2) syn_n = cap_syn_i;
    end
    dec_n = decode(w2_n, nw_n, syn_n);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) dec_q <= '0;
    else dec_q <= dec_n;
  end

  always_comb begin
    {attr, nlen, mod_ok, bad, is_set} = dec_q;
    sel_port_o  = w_q[2][20:16];   // AttrMod
    lft_blk_o   = BW'(w_q[2][31:16]);
    lft_wdata_o = {w_q[10], w_q[9], w_q[8], w_q[7], w_q[6], w_q[5], w_q[4], w_q[3]};
    top_wdata_o = w_q[3][47:32];
    pi_pstate_o = w_q[3][63:60];
    pi_phys_o   = w_q[3][59:56];
    sc_data_o   = {w_q[3], w_q[4]};
    // PortCounters Set data words 0..3 are request words 3..6 (§7.4); field
    // order of clr_o is ibsw_counters' (XmitData .. VL15Dropped, LinkDowned)
    clr_o[0]  = w_q[3][63:32] != '0;
    clr_o[1]  = w_q[3][31:0] != '0;
    clr_o[2]  = w_q[4][63:32] != '0;
    clr_o[3]  = w_q[4][31:0] != '0;
    clr_o[4]  = w_q[5][63:32] != '0;
    clr_o[5]  = w_q[5][31:16] != '0;
    clr_o[6]  = w_q[6][63:48] != '0;
    clr_o[7]  = w_q[6][47:32] != '0;
    clr_o[8]  = w_q[6][31:16] != '0;
    clr_o[9]  = w_q[6][15:0] != '0;
    clr_o[10] = w_q[5][15:8] != '0;
    clr_ext_o = {w_q[6] != '0, w_q[5] != '0, w_q[4] != '0, w_q[3] != '0};
    lft_we_o = 1'b0; top_we_o = 1'b0; pi_set_o = 1'b0; sc_set_o = 1'b0;
    bad_o = 1'b0;
    if (st_q == SExec && !bad && attr != 4'd0 && mod_ok && is_set) begin
      top_we_o = attr == 4'd1 && 32'(w_q[3][47:32]) <= TopMax;
      pi_set_o = attr == 4'd2;
      lft_we_o = attr == 4'd3;
      sc_set_o = attr == 4'd4;
    end
    if (!(st_q == SExec && !bad && is_set && mod_ok && attr == 4'd6)) clr_o = '0;
    if (!(st_q == SExec && !bad && is_set && mod_ok && attr == 4'd7)) clr_ext_o = '0;
    if (st_q == SExec && bad) bad_o = 1'b1;
    bad_port_o = port_q;
    idle_o = st_q == SIdle;
  end

  // Status of the MAD in EXEC (§7.2), apart from the strobes above.
  always_comb begin
    status = 16'h0000;
    if (attr == 4'd0) status = 16'h000C;
    else if (!mod_ok) status = 16'h001C;
    else if (is_set) begin
      case (attr)
        4'd1: if (32'(w_q[3][47:32]) > TopMax) status = 16'h001C;
        4'd2: status = pi_status_i;
        4'd4: status = sc_status_i;
        4'd3, 4'd6, 4'd7: ;
        default: status = 16'h000C;
      endcase
    end
  end

  // Snapshot words (e+1).
  logic [63:0] snap [8];
  always_comb begin
    for (int unsigned k = 0; k < 8; k++) snap[k] = '0;
    case (attr_q)
      4'd1: snap[0] = {16'(64 * LftBlocks), top_i, 8'(NumPorts), 8'(NumDataVls), 8'(RouteCycles), 8'd0};
      4'd2: snap[0] = pinfo_i;
      4'd3: for (int unsigned k = 0; k < 8; k++) snap[k] = lft_rdata_i[64*k +: 64];
      4'd4: begin snap[0] = sctl_i[127:64]; snap[1] = sctl_i[63:0]; end
      4'd5: begin snap[0] = sres_i[191:128]; snap[1] = sres_i[127:64]; snap[2] = sres_i[63:0]; end
      4'd6: for (int unsigned k = 0; k < 4; k++) snap[k] = pcnt_i[64*(3-k) +: 64];
      4'd7: for (int unsigned k = 0; k < 4; k++) snap[k] = pext_i[64*(3-k) +: 64];
      4'd8: begin snap[0] = power_i[127:64]; snap[1] = power_i[63:0]; end
      default: ;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SIdle;
      for (int unsigned k = 0; k < 16; k++) begin
        w_q[k] <= '0;
        r_q[k] <= '0;
      end
      nw_q <= '0; len_q <= '0; pi_q <= '0; syn_q <= 1'b0; port_q <= '0;
      status_q <= '0; kindat_q <= '0; attr_q <= '0;
    end else begin
      case (st_q)
        SIdle: if (grant_i) begin
          st_q   <= SRecv;
          port_q <= grant_port_i;
          nw_q   <= '0;
          syn_q  <= 1'b0;
        end
        SRecv: if (cap_valid_i) begin
          if (nw_q < 5'd16) w_q[nw_q[3:0]] <= cap_data_i;
          if (nw_q < 5'd17) nw_q <= nw_q + 5'd1;
          if (cap_kind_i == 2'd2) begin
            syn_q <= cap_syn_i;
            st_q  <= SExec;
          end
        end
        SExec: begin
          if (bad) st_q <= SIdle;
          else st_q <= SSnap;
          status_q <= status;
          attr_q   <= (mod_ok) ? attr : 4'd0;
          kindat_q <= (attr == 4'd0) ? 2'd1 : (!mod_ok) ? 2'd2 : 2'd0;
          len_q    <= (attr == 4'd0) ? nw_q : nlen;
        end
        SSnap: begin
          st_q <= SResp;
          pi_q <= '0;
          r_q[0] <= {16'hFFFF, w_q[1][47:0]};
          r_q[1] <= {w_q[1][63:48], 48'd0};
          r_q[2] <= {w_q[2][63:56], 8'h81, w_q[2][47:16], status_q};
          for (int unsigned k = 3; k < 16; k++) r_q[k] <= (kindat_q != 2'd0 || k >= 11) ? w_q[k] : snap[k-3];
        end
        SResp: if (!buf_full_i) begin
          pi_q <= pi_q + 5'd1;
          if (pi_q + 5'd1 == len_q) st_q <= SIdle;
        end
        default: st_q <= SIdle;
      endcase
    end
  end

  assign push_o      = st_q == SResp && !buf_full_i;
  assign push_kind_o = (pi_q == 5'd0) ? 2'd0 : (pi_q + 5'd1 == len_q) ? 2'd2 : 2'd1;
  assign push_data_o = r_q[pi_q[3:0]];

`ifndef SYNTHESIS
  always_ff @(posedge clk_i) begin
    sma_state_legal: assert (st_q <= SResp);
    sma_grant_when_idle: assert (!(grant_i && st_q != SIdle));
    sma_len_legal: assert (!(st_q == SResp && (len_q < 5'd3 || len_q > 5'd16)));
    sma_dec_exact: assert (!(st_q == SExec && dec_q != decode(w_q[2][63:16], nw_q, syn_q)));
  end
`endif
endmodule
