// ibsw_lft: the linear forwarding table and LinearFDBTop (docs/ibsw.md §5.7).
// One read port per external port (the routing decision at arrival, §5.2),
// one block read for the SMA's snapshot (§7.3); writes at the end of the cycle:
// a SubnSet block (64 entries) and the configuration port (one entry or the
// top), the configuration port's value kept when both hit one entry.
// rd_ok_o[n-1]: LFT[DLID] names a port 1..P usable for data now (usable_i)
// other than port n itself (the U-turn), for ibsw_route's drop mark. In a small table (Entries * NumPorts <= 4096, every
// target but ibsw_p24 and ibsw_p2_max) it is kept for every entry in a
// register, written from the next values of the entry, its written bit and the
// ports' usable flags (usable_next_i), and read like the entry, so the
// arrival's path is the read alone *(ours, docs/ibsw.md Status)*; a large
// table works it out after the read.
module ibsw_lft #(
  parameter int unsigned NumPorts  = 4,
  parameter int unsigned LftBlocks = 1,
  localparam int unsigned Entries = 64 * LftBlocks,
  localparam int unsigned AW = (Entries > 1) ? $clog2(Entries) : 1,
  localparam int unsigned BW = (LftBlocks > 1) ? $clog2(LftBlocks) : 1
) (
  input  logic                  clk_i,
  input  logic                  rst_ni,
  input  logic [16*NumPorts-1:0] rd_dlid_i,   // port n-1's DLID
  output logic [8*NumPorts-1:0]  rd_entry_o,
  input  logic [NumPorts-1:0]    usable_i,    // port n-1 LinkUp, Active, not draining
  input  logic [NumPorts-1:0]    usable_next_i, // usable_i of the next cycle
  output logic [NumPorts-1:0]    rd_ok_o,     // port n-1's entry: usable data egress, not n
  output logic [15:0]            top_o,
  input  logic [BW-1:0]          blk_i,       // SMA block read and write
  output logic [511:0]           blk_rdata_o,
  input  logic                   blk_we_i,
  input  logic [511:0]           blk_wdata_i,
  input  logic                   top_we_i,    // SMA SubnSet(SwitchInfo)
  input  logic [15:0]            top_wdata_i,
  input  logic                   cfg_valid_i,
  input  logic [1:0]             cfg_sel_i,
  input  logic [15:0]            cfg_addr_i,
  input  logic [15:0]            cfg_data_i
);
  // Entries reset to 0xFF through a written bit per entry: the table itself
  // has no reset (a reset loop over an array is not in the Verilator subset).
  logic [7:0]  mem_q [Entries];
  logic [Entries-1:0] wr_q;
  logic [15:0] top_q;

  function automatic logic [7:0] rd(input logic [AW-1:0] a);
    rd = wr_q[a] ? mem_q[a] : 8'hFF;
  endfunction

  // an entry value names a usable data port
  function automatic logic ok_of(input logic [7:0] e, input logic [NumPorts-1:0] u);
    ok_of = 1'b0;
    for (int unsigned p = 1; p <= NumPorts; p++) if (32'(e) == p) ok_of = u[p-1];
  endfunction
  if (Entries * NumPorts <= 4096) begin : gen_ok_pre
    // the next value of every entry and written bit (the writes below)
    logic [7:0]         mem_d [Entries];
    logic [Entries-1:0] wr_d;
    always_comb begin
      for (int unsigned a = 0; a < Entries; a++) begin
        mem_d[a] = mem_q[a];
        wr_d[a]  = wr_q[a];
        if (blk_we_i && 32'(blk_i) == a / 64) begin
          mem_d[a] = blk_wdata_i[8*(a % 64) +: 8];
          wr_d[a]  = 1'b1;
        end
        if (cfg_valid_i && cfg_sel_i == 2'd0 && 32'(cfg_addr_i) == a) begin
          mem_d[a] = cfg_data_i[7:0];
          wr_d[a]  = 1'b1;
        end
      end
    end
    // ok_q[a]: entry a is written and names a usable data port (lft_ok_exact).
    // Registered from next values: the flags worked out from the port states in
    // the arrival's cycle, then read, were 4.32 ns in ibsw_p8_w24 (docs/ibsw.md
    // Status).
    logic [Entries-1:0] ok_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) ok_q <= '0;
      else begin
        for (int unsigned a = 0; a < Entries; a++) ok_q[a] <= wr_d[a] && ok_of(mem_d[a], usable_next_i);
      end
    end
    // per reading port n-1, the flags without the entries naming port n, from
    // registers (the U-turn compare after the entry read was the next path)
    logic [Entries-1:0] okx [NumPorts];
    always_comb begin
      for (int unsigned n = 0; n < NumPorts; n++) begin
        for (int unsigned a = 0; a < Entries; a++) okx[n][a] = ok_q[a] && 32'(mem_q[a]) != n + 1;
        rd_ok_o[n] = 1'b0;
        if (32'(rd_dlid_i[16*n +: 16]) < Entries) rd_ok_o[n] = okx[n][AW'(rd_dlid_i[16*n +: 16])];
      end
    end
`ifndef SYNTHESIS
    always_ff @(posedge clk_i) begin
      for (int unsigned a = 0; a < Entries; a++) begin
        lft_ok_exact: assert (ok_q[a] == (wr_q[a] && ok_of(mem_q[a], usable_i)));
      end
    end
`endif
  end else begin : gen_ok_post
    logic unused_next;
    assign unused_next = ^usable_next_i;
    always_comb begin
      for (int unsigned n = 0; n < NumPorts; n++)
        rd_ok_o[n] = ok_of(rd_entry_o[8*n +: 8], usable_i) && 32'(rd_entry_o[8*n +: 8]) != n + 1;
    end
  end

  always_comb begin
    for (int unsigned n = 0; n < NumPorts; n++) begin
      rd_entry_o[8*n +: 8] = 8'hFF;
      // A DLID above the table is never used (§5.2 drops it: > LinearFDBTop).
      if (32'(rd_dlid_i[16*n +: 16]) < Entries) rd_entry_o[8*n +: 8] = rd(AW'(rd_dlid_i[16*n +: 16]));
    end
    for (int unsigned k = 0; k < 64; k++) begin
      blk_rdata_o[8*k +: 8] = rd(AW'(32'(blk_i) * 64 + k));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      top_q <= '0;
    end else begin
      if (top_we_i) top_q <= top_wdata_i;
      if (cfg_valid_i && cfg_sel_i == 2'd1 && 32'(cfg_data_i) < Entries) top_q <= cfg_data_i;
    end
  end
  // written bits, one register per block (a 49,152-bit reset is one too wide a constant)
  for (genvar b = 0; b < LftBlocks; b++) begin : gen_wr
    logic [63:0] q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) q <= '0;
      else begin
        if (blk_we_i && 32'(blk_i) == b) q <= '1;
        if (cfg_valid_i && cfg_sel_i == 2'd0 && 32'(cfg_addr_i[15:6]) == b) q[cfg_addr_i[5:0]] <= 1'b1;
      end
    end
    assign wr_q[64*b +: 64] = q;
  end

  always_ff @(posedge clk_i) begin
    if (blk_we_i) begin
      for (int unsigned k = 0; k < 64; k++) mem_q[AW'(32'(blk_i) * 64 + k)] <= blk_wdata_i[8*k +: 8];
    end
    if (cfg_valid_i && cfg_sel_i == 2'd0 && 32'(cfg_addr_i) < Entries) mem_q[AW'(cfg_addr_i)] <= cfg_data_i[7:0];
  end
  assign top_o = top_q;
endmodule
