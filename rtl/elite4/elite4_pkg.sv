// Shared constants of elite4. Spec: docs/elite4.md §3, §6.
package elite4_pkg;
  // flit kinds
  localparam logic [1:0] KindHead  = 2'd0;
  localparam logic [1:0] KindBody  = 2'd1;
  localparam logic [1:0] KindTail  = 2'd2;
  localparam logic [1:0] KindToken = 2'd3;
  // special route tags (TagW = 4)
  localparam logic [3:0] TagUpN   = 4'd12;  // counted up (ours): the next tag is the count
  localparam logic [3:0] TagUp    = 4'd13;
  localparam logic [3:0] TagBcast = 4'd14;
  // the TAIL that closes a packet whose own tail was lost upstream
  localparam logic [31:0] PoisonTail = 32'hBAD0BAD0;
  // input VC states
  localparam logic [1:0] InIdle      = 2'd0;
  localparam logic [1:0] InActive    = 2'd1;
  localparam logic [1:0] InDrop      = 2'd2;
  localparam logic [1:0] InWaitToken = 2'd3;
  // output VC states
  localparam logic [1:0] OutFree    = 2'd0;
  localparam logic [1:0] OutBusy    = 2'd1;
  localparam logic [1:0] OutTokWait = 2'd2;
  // error codes
  localparam logic [2:0] ErrRoute     = 3'd1;
  localparam logic [2:0] ErrNoPacket  = 3'd2;
  localparam logic [2:0] ErrCreditOvf = 3'd3;
  localparam logic [2:0] ErrTruncated = 3'd4;
  localparam logic [2:0] ErrStrayTok  = 3'd5;
  localparam logic [2:0] ErrOverflow  = 3'd6;
  localparam logic [2:0] ErrCrc       = 3'd7;
endpackage
