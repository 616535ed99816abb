// ibsw_sampler: one port's PortSamplesControl / PortSamplesResult (docs/ibsw.md
// §8.2). A Set of cycle e (accepted only in DONE) with start s and interval I:
// STARTED in e+1 .. S-1, RUNNING in S .. S+I, DONE from S+I+1 (S = e+1+s); the
// results count the events of S .. S+I-1, QueueDepth is taken at S.
module ibsw_sampler #(
  parameter int unsigned CntW = 32
) (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         set_i,
  input  logic [127:0] set_data_i,    // words 0 and 1 of the Set
  output logic [15:0]  set_status_o,
  input  logic [4:0]   ev_i,          // this cycle: XmitData, RcvData, XmitPkts, RcvPkts, XmitWait flags
  input  logic [31:0]  qdepth_i,
  output logic [1:0]   status_o,      // 0 DONE, 1 STARTED, 2 RUNNING
  output logic [127:0] ctl_o,         // PortSamplesControl words 0, 1 (status included)
  output logic [191:0] res_o          // PortSamplesResult words 0, 1, 2
);
  localparam logic [1:0] SDone = 2'd0, SStarted = 2'd1, SRunning = 2'd2;
  logic unused_w1;
  assign unused_w1 = ^set_data_i[31:0];   // word 1's SampleStatus field: read-only, ignored in a Set
  logic [1:0]  st_q;
  logic [31:0] start_q, intv_q, cd_q, qd_q;
  logic [7:0]  cs_q [4];
  logic [31:0] res_q [4];
  logic        ok;
  logic [31:0] mx;
  logic [4:0]  ev_q;   // the events of the previous cycle: SA's choice -> results was 4.2 ns
  logic [31:0] sum [4];
  logic [3:0]  sum_co;
  for (genvar k = 0; k < 4; k++) begin : gen_add
    cp_ks_add #(.W(32), .Keep(1)) u_add (
      .a_i(res_q[k]), .b_i(32'(inc_of(cs_q[k], ev_q))), .ci_i(1'b0), .s_o(sum[k]), .co_o(sum_co[k])
    );
  end

  function automatic logic [2:0] inc_of(input logic [7:0] sel, input logic [4:0] ev);
    case (sel)
      8'd1: inc_of = ev[0] ? 3'd2 : 3'd0;
      8'd2: inc_of = ev[1] ? 3'd2 : 3'd0;
      8'd3: inc_of = 3'(ev[2]);
      8'd4: inc_of = 3'(ev[3]);
      8'd5: inc_of = 3'(ev[4]);
      default: inc_of = 3'd0;
    endcase
  endfunction

  always_comb begin
    mx = (CntW >= 32) ? 32'hFFFF_FFFF : ((32'd1 << CntW) - 32'd1);
    ok = 1'b0;
    if (st_q != SDone) set_status_o = 16'h0001;
    else if (set_data_i[95:64] == 32'd0 || set_data_i[63:56] > 8'd5 || set_data_i[55:48] > 8'd5 ||
             set_data_i[47:40] > 8'd5 || set_data_i[39:32] > 8'd5)
      set_status_o = 16'h001C;
    else begin
      set_status_o = 16'h0000;
      ok = 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ev_q <= '0;
      st_q <= SDone;
      start_q <= '0; intv_q <= '0; cd_q <= '0; qd_q <= '0;
      for (int unsigned k = 0; k < 4; k++) begin
        cs_q[k]  <= '0;
        res_q[k] <= '0;
      end
    end else if (set_i && ok) begin
      ev_q <= ev_i;
      start_q <= set_data_i[127:96];
      intv_q  <= set_data_i[95:64];
      cs_q[0] <= set_data_i[63:56];
      cs_q[1] <= set_data_i[55:48];
      cs_q[2] <= set_data_i[47:40];
      cs_q[3] <= set_data_i[39:32];
      for (int unsigned k = 0; k < 4; k++) res_q[k] <= '0;
      if (set_data_i[127:96] == 32'd0) begin
        st_q <= SRunning;
        cd_q <= set_data_i[95:64];
      end else begin
        st_q <= SStarted;
        cd_q <= set_data_i[127:96];
      end
    end else begin
      ev_q <= ev_i;
      case (st_q)
        SStarted: begin
          cd_q <= cd_q - 32'd1;
          if (cd_q == 32'd1) begin
            st_q <= SRunning;
            cd_q <= intv_q;
          end
        end
        SRunning: begin
          if (cd_q == intv_q) qd_q <= qdepth_i;   // the first RUNNING cycle is S
          // the events of S..S+I-1 arrive a cycle late: counted in S+1..S+I
          if (cd_q != intv_q) begin
            for (int unsigned k = 0; k < 4; k++) res_q[k] <= (sum_co[k] || sum[k] > mx) ? mx : sum[k];
          end
          if (cd_q == 32'd0) st_q <= SDone;
          else cd_q <= cd_q - 32'd1;
        end
        default: ;
      endcase
    end
  end

  assign status_o = st_q;
  assign ctl_o = {start_q, intv_q, cs_q[0], cs_q[1], cs_q[2], cs_q[3], 30'd0, st_q};
  assign res_o = {res_q[0], res_q[1], res_q[2], res_q[3], qd_q, 30'd0, st_q};
endmodule
