// IEEE 802.3 CRC-32, up to 4 bytes per cycle. Spec: docs/common.md#common_crc32.
//
// Reflected form (LSB first, 0xEDB88320), init 0xFFFFFFFF, output inverted:
// the same CRC as Ethernet and zlib. Byte 0 (data_i[7:0]) is fed first.
module common_crc32 (
  input  logic        clk_i,
  input  logic        rst_ni,
  input  logic        init_i,      // this cycle starts a new message
  input  logic        valid_i,
  input  logic [31:0] data_i,
  input  logic [3:0]  keep_i,      // 0001, 0011, 0111 or 1111
  output logic [31:0] crc_o,
  output logic        keep_err_o   // registered pulse: illegal keep_i, word ignored
);

  localparam logic [31:0] Poly = 32'hEDB88320;
  localparam logic [31:0] Init = 32'hFFFFFFFF;

  logic [31:0] crc_q, crc_d;
  logic        keep_err_q, keep_err_d;
  logic        keep_legal;

  // yosys 0.23 reads neither `return` nor direction-less arguments.
  function automatic logic [31:0] feed_byte(input logic [31:0] crc_in, input logic [7:0] b);
    logic [31:0] c;
    c = crc_in ^ {24'h0, b};
    for (int i = 0; i < 8; i++) begin
      c = c[0] ? ((c >> 1) ^ Poly) : (c >> 1);
    end
    feed_byte = c;
  endfunction

  always_comb begin
    logic [31:0] c;
    keep_legal = (keep_i == 4'b0001) || (keep_i == 4'b0011) ||
                 (keep_i == 4'b0111) || (keep_i == 4'b1111);
    c = init_i ? Init : crc_q;
    if (valid_i && keep_legal) begin
      for (int k = 0; k < 4; k++) begin
        if (keep_i[k]) c = feed_byte(c, data_i[8*k +: 8]);
      end
    end
    crc_d      = c;
    keep_err_d = valid_i && !keep_legal;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      crc_q      <= Init;
      keep_err_q <= 1'b0;
    end else begin
      crc_q      <= crc_d;
      keep_err_q <= keep_err_d;
    end
  end

  assign crc_o      = ~crc_q;
  assign keep_err_o = keep_err_q;

  // Assertions (docs/common.md#assertions): on in every Verilated lockstep,
  // proved by `make formal` (docs/formal.md). Not synthesized.
`ifndef SYNTHESIS
  // No rst_ni guard: the invariants hold in the reset state too.
  always_ff @(posedge clk_i) begin
    // an illegal keep leaves the running CRC alone (only init_i may move it)
    crc_bad_keep_ignored: assert (!(valid_i && !keep_legal && !init_i) || crc_d == crc_q);
  end
`endif

endmodule
