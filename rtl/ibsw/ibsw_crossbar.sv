// ibsw_crossbar: each output lane (o, l) sees the front of its owner's input
// lane (owner, l) (docs/ibsw.md §5.4-§5.5); ready = BUSY, owner ACTIVE and
// its buffer not empty. Indices: (o, l) and (n, l) at x*LanW + l. ready reads
// each input lane's registered "ACTIVE and not empty" (ane) through the
// registered one-hot owner: an AND-OR, no index decode nor count compare in
// front of SA (docs/ibsw.md Status) *(ours)*; the front's fields go through
// the owner's index.
module ibsw_crossbar #(
  parameter int unsigned NumPorts   = 4,
  parameter int unsigned NumDataVls = 2,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned NIn  = NumPorts + 1,
  localparam int unsigned N    = NIn * LanW
) (
  input  logic [N-1:0]    busy_i,
  input  logic [5*N-1:0]  owner_i,
  input  logic [NIn*N-1:0] owner_oh_i,  // [(o*LanW + l)*NIn + n]
  input  logic [N-1:0]    ane_i,        // ACTIVE and not empty (registered)
  input  logic [N-1:0]    hsent_i,
  input  logic [N-1:0]    drop_i,
  input  logic [2*N-1:0]  kind_i,
  input  logic [64*N-1:0] data_i,
  output logic [N-1:0]    ready_o,
  output logic [N-1:0]    hsent_o,
  output logic [N-1:0]    drop_o,
  output logic [2*N-1:0]  kind_o,
  output logic [64*N-1:0] data_o
);
  // per lane l, the inputs' fronts indexed by input n (32 entries, the owner's
  // width; unused ones 0): the owner selects directly, no owner * LanW + l
  // index arithmetic in front of the multiplexer (docs/ibsw.md Status)
  logic [63:0] dat [LanW][32];
  logic [1:0]  knd [LanW][32];
  logic [NIn-1:0] ane [LanW];
  logic [31:0] hs [LanW];
  logic [31:0] dr [LanW];
  always_comb begin
    for (int unsigned l = 0; l < LanW; l++) begin
      ane[l] = '0;
      hs[l]  = '0;
      dr[l]  = '0;
      for (int unsigned n = 0; n < 32; n++) begin
        dat[l][n] = '0;
        knd[l][n] = '0;
      end
      for (int unsigned n = 0; n < NIn; n++) begin
        ane[l][n] = ane_i[n*LanW + l];
        hs[l][n]  = hsent_i[n*LanW + l];
        dr[l][n]  = drop_i[n*LanW + l];
        dat[l][n] = data_i[64*(n*LanW + l) +: 64];
        knd[l][n] = kind_i[2*(n*LanW + l) +: 2];
      end
    end
  end
  always_comb begin
    logic [4:0] w;
    for (int unsigned o = 0; o < NIn; o++) begin
      for (int unsigned l = 0; l < LanW; l++) begin
        w = owner_i[5*(o*LanW + l) +: 5];
        ready_o[o*LanW + l] = busy_i[o*LanW + l] && (owner_oh_i[(o*LanW + l)*NIn +: NIn] & ane[l]) != '0;
        hsent_o[o*LanW + l] = hs[l][w];
        drop_o[o*LanW + l]  = dr[l][w];
        kind_o[2*(o*LanW + l) +: 2]  = knd[l][w];
        data_o[64*(o*LanW + l) +: 64] = dat[l][w];
      end
    end
  end
endmodule
