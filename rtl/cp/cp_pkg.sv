// Shared constants of the congestion point. Spec: docs/cp.md.
package cp_pkg;
  // MODE register (§3)
  localparam logic [1:0] ModeOff    = 2'd0;
  localparam logic [1:0] ModeEcm    = 2'd1;
  localparam logic [1:0] ModeE2cm   = 2'd2;
  localparam logic [1:0] ModeE2cmCp = 2'd3;  // E2CM with continuous probing
  // BCN message types (§4)
  localparam logic [1:0] BcnNeg = 2'd0;
  localparam logic [1:0] BcnPos = 2'd1;
  localparam logic [1:0] BcnMax = 2'd2;
  // configuration register addresses (§3)
  localparam logic [3:0] AddrMode        = 4'd0;
  localparam logic [3:0] AddrQeq         = 4'd1;
  localparam logic [3:0] AddrW           = 4'd2;
  localparam logic [3:0] AddrPsample     = 4'd3;
  localparam logic [3:0] AddrSampleBytes = 4'd4;
  localparam logic [3:0] AddrBcnMax      = 4'd5;
  localparam logic [3:0] AddrQeqFlow     = 4'd6;
  localparam logic [3:0] AddrBcnMaxFlow  = 4'd7;
  localparam logic [3:0] AddrCpid        = 4'd8;
  localparam logic [3:0] AddrSeed        = 4'd9;
  localparam logic [3:0] AddrApply       = 4'd15;
  // event error codes (§5)
  localparam logic [2:0] EvErrEnqLen   = 3'd1;
  localparam logic [2:0] EvErrDeqLen   = 3'd2;
  localparam logic [2:0] EvErrOverflow = 3'd3;
  localparam logic [2:0] EvErrUnderflow = 3'd4;
endpackage
