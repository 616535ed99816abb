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

  // Speed (docs/timing.md): the CRC is linear, so the k-byte update is
  //   crc' = Lc_k(crc) ^ Ld_k(data)   (Lc_k(Init) for a new message)
  // with Lc_k and Ld_k constant 32 x 32 bit matrices. They are computed at
  // elaboration from feed_byte on unit vectors, and each result bit is the
  // XOR of the bits its matrix row selects (a balanced tree in synthesis).
  // Chaining the four byte updates through keep_i muxes instead gave 5.6 ns.
  // A row is one constant mask per result bit, not a net per matrix entry:
  // the same logic for yosys, and 1/30 of the Verilated C++ (a link with
  // four CRCs was 118k lines of it).
  function automatic logic [31:0] feed_k(input logic [31:0] crc_in, input logic [31:0] d,
                                         input int nbytes);
    logic [31:0] c;
    c = crc_in;
    for (int b = 0; b < 4; b++) begin
      if (b < nbytes) c = feed_byte(c, d[8*b +: 8]);
    end
    feed_k = c;
  endfunction

  // the rows of Lc_k (of_data = 0) or Ld_k (1): bits [32*j +: 32] select the
  // input bits that result bit j XORs
  function automatic logic [1023:0] rows_of(input logic of_data, input int nbytes);
    logic [1023:0] m;
    logic [31:0]   col;
    m = '0;
    for (int n = 0; n < 32; n++) begin
      col = of_data ? feed_k(32'd0, 32'd1 << n, nbytes) : feed_k(32'd1 << n, 32'd0, nbytes);
      for (int j = 0; j < 32; j++) m[32*j+n] = col[j];
    end
    rows_of = m;
  endfunction

  logic [127:0] upd;  // crc_d for 1, 2, 3, 4 bytes, 32 bits each
  for (genvar k = 0; k < 4; k++) begin : g_len
    localparam logic [1023:0] RowsC = rows_of(1'b0, k + 1);
    localparam logic [1023:0] RowsD = rows_of(1'b1, k + 1);
    localparam logic [31:0] InitImage = feed_k(Init, 32'd0, k + 1);
    logic [31:0] lc, ld;
    for (genvar j = 0; j < 32; j++) begin : g_row
      assign lc[j] = ^(RowsC[32*j +: 32] & crc_q);
      assign ld[j] = ^(RowsD[32*j +: 32] & data_i);
    end
    assign upd[32*k +: 32] = (init_i ? InitImage : lc) ^ ld;
  end

  always_comb begin
    keep_legal = (keep_i == 4'b0001) || (keep_i == 4'b0011) ||
                 (keep_i == 4'b0111) || (keep_i == 4'b1111);
    crc_d = init_i ? Init : crc_q;
    if (valid_i) begin
      case (keep_i)
        4'b0001: crc_d = upd[32*0 +: 32];
        4'b0011: crc_d = upd[32*1 +: 32];
        4'b0111: crc_d = upd[32*2 +: 32];
        4'b1111: crc_d = upd[32*3 +: 32];
        default: ;
      endcase
    end
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
