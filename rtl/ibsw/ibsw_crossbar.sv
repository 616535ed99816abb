// ibsw_crossbar: each output lane (o, l) sees the front of its owner's input
// lane (owner, l) (docs/ibsw.md §5.4-§5.5); ready = BUSY, owner ACTIVE and
// its buffer not empty. Indices: (o, l) and (n, l) at x*LanW + l.
module ibsw_crossbar #(
  parameter int unsigned NumPorts   = 4,
  parameter int unsigned NumDataVls = 2,
  localparam int unsigned LanW = NumDataVls + 1,
  localparam int unsigned NIn  = NumPorts + 1,
  localparam int unsigned N    = NIn * LanW,
  localparam int unsigned SW   = $clog2(N)
) (
  input  logic [N-1:0]    busy_i,
  input  logic [5*N-1:0]  owner_i,
  input  logic [N-1:0]    active_i,
  input  logic [N-1:0]    nonempty_i,
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
  // the owner's lane (n, l) at n*LanW + l, read by index (one mux per output lane)
  logic [63:0] dat [N];
  logic [1:0]  knd [N];
  for (genvar s = 0; s < N; s++) begin : gen_arr
    assign dat[s] = data_i[64*s +: 64];
    assign knd[s] = kind_i[2*s +: 2];
  end
  always_comb begin
    logic [SW-1:0] s;
    s = '0;
    for (int unsigned o = 0; o < NIn; o++) begin
      for (int unsigned l = 0; l < LanW; l++) begin
        s = SW'(32'(owner_i[5*(o*LanW + l) +: 5]) * LanW + l);
        ready_o[o*LanW + l] = busy_i[o*LanW + l] && active_i[s] && nonempty_i[s];
        hsent_o[o*LanW + l] = hsent_i[s];
        drop_o[o*LanW + l]  = drop_i[s];
        kind_o[2*(o*LanW + l) +: 2]  = knd[s];
        data_o[64*(o*LanW + l) +: 64] = dat[s];
      end
    end
  end
endmodule
