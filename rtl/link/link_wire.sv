// Delay line of Cycles stages: the cable, and the receiver's alignment line.
// Spec: docs/link.md §5. Cycles = 0 passes the word through in the same cycle.
module link_wire #(
  parameter int Width  = 37,
  parameter int Cycles = 1
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic [Width-1:0] in_i,
  output logic [Width-1:0] out_o
);

  if (Width < 1 || Width > 64) begin : gen_width_check
    $error("link_wire: Width must be 1..64");
  end
  if (Cycles < 0 || Cycles > 256) begin : gen_cycles_check
    $error("link_wire: Cycles must be 0..256");
  end

  if (Cycles == 0) begin : gen_through
    logic unused_clk_rst; // no stage, no clock
    assign unused_clk_rst = clk_i ^ rst_ni;
    assign out_o = in_i;
  end else begin : gen_line
    // one flat shift register: bits [k*Width +: Width] hold the word that
    // entered k+1 cycles ago; reset empty (all zeros), one stage at a time
    logic [Cycles*Width-1:0] line_q;
    for (genvar k = 0; k < Cycles; k++) begin : gen_stage
      logic [Width-1:0] d;
      if (k == 0) begin : gen_first
        assign d = in_i;
      end else begin : gen_next
        assign d = line_q[(k-1)*Width +: Width];
      end
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) line_q[k*Width +: Width] <= '0;
        else         line_q[k*Width +: Width] <= d;
      end
    end
    assign out_o = line_q[(Cycles-1)*Width +: Width];
  end

endmodule
