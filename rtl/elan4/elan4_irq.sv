// elan4_irq: the interrupt record FIFO (docs/elan4.md §6.9).
//
// NumPush push ports in the spec's order (IP, EP, CQ, CP, ST, token handling
// per VC, RP, DMA); port 0 is pushed first. A push finding start-of-cycle
// count + pushed so far >= IrqDepth is lost (the pop of the same cycle makes
// no room). The oldest record of the start-of-cycle FIFO is shown for
// exactly the next cycle.
module elan4_irq #(
  parameter int unsigned IrqDepth = 16,
  parameter int unsigned NumPush  = 9
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [NumPush-1:0]    push_i,
  input  logic [NumPush*84-1:0] rec_i,     // {cause[3:0], info[15:0], data[63:0]}
  output logic [3:0]            lost_o,    // records lost this cycle
  output logic                  irq_valid_o,
  output logic [3:0]            irq_cause_o,
  output logic [15:0]           irq_info_o,
  output logic [63:0]           irq_data_o
);
  localparam int unsigned PW = $clog2(IrqDepth);
  localparam int unsigned CW = $clog2(IrqDepth + 1);

  logic [IrqDepth*84-1:0] mem_q, mem_d;
  logic [PW-1:0] rd_q, rd_d, wr_q, wr_d;
  logic [CW-1:0] cnt_q, cnt_d;
  logic [3:0]    lost;
  logic          pop;
  logic [84:0]   show_q;

  logic [CW-1:0] pushed;
  always_comb begin
    mem_d  = mem_q;
    wr_d   = wr_q;
    lost   = '0;
    pushed = '0;
    pop    = cnt_q != '0;
    rd_d   = pop ? ((32'(rd_q) == IrqDepth - 1) ? '0 : rd_q + 1'b1) : rd_q;
    for (int unsigned i = 0; i < NumPush; i++) begin
      if (push_i[i]) begin
        if (32'(cnt_q) + 32'(pushed) >= IrqDepth) begin
          lost = lost + 1'b1;
        end else begin
          mem_d[32'(wr_d)*84 +: 84] = rec_i[i*84 +: 84];
          wr_d   = (32'(wr_d) == IrqDepth - 1) ? '0 : wr_d + 1'b1;
          pushed = pushed + 1'b1;
        end
      end
    end
    cnt_d = cnt_q - CW'(pop) + pushed;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mem_q <= '0; rd_q <= '0; wr_q <= '0; cnt_q <= '0; show_q <= '0;
    end else begin
      mem_q  <= mem_d; rd_q <= rd_d; wr_q <= wr_d; cnt_q <= cnt_d;
      show_q <= pop ? {1'b1, mem_q[32'(rd_q)*84 +: 84]} : 85'd0;
    end
  end

  assign lost_o      = lost;
  assign irq_valid_o = show_q[84];
  assign irq_cause_o = show_q[83:80];
  assign irq_info_o  = show_q[79:64];
  assign irq_data_o  = show_q[63:0];
endmodule
