// Verifier checks of the interop `tt` ops.
// RUN: tle-opt %s -split-input-file -verify-diagnostics

tt.func @expand_dims_axis(%x: tensor<128xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op axis 2 is out of range [0, 1]}}
  %0 = tt.expand_dims %x {axis = 2 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  tt.return
}

// -----

tt.func @expand_dims_shape(%x: tensor<128xi32>) {
  // expected-error @+1 {{'tt.expand_dims' op result shape must be the source shape with a 1 inserted at axis 0}}
  %0 = tt.expand_dims %x {axis = 0 : i32} : tensor<128xi32> -> tensor<128x1xi32>
  tt.return
}

// -----

tt.func @make_range_empty() {
  // expected-error @+1 {{'tt.make_range' op end (0) must be greater than start (0)}}
  %0 = tt.make_range {end = 0 : i32, start = 0 : i32} : tensor<1xi32>
  tt.return
}

// -----

tt.func @make_range_size() {
  // expected-error @+1 {{'tt.make_range' op result must be a 1-D tensor of 64 elements, got 'tensor<128xi32>'}}
  %0 = tt.make_range {end = 128 : i32, start = 64 : i32} : tensor<128xi32>
  tt.return
}

// -----

tt.func @addptr_shape(%p: tensor<128x!tt.ptr<f32>>, %o: tensor<64xi32>) {
  // expected-error @+1 {{'tt.addptr' op requires the same shape for all operands and results}}
  %0 = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>>, tensor<64xi32>
  tt.return
}

// -----

#b0 = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @addptr_encoding(%p: tensor<128x!tt.ptr<f32>, #b0>, %o: tensor<128xi32, #b1>) {
  // expected-error @+1 {{'tt.addptr' op requires the same encoding for all operands}}
  %0 = tt.addptr %p, %o : tensor<128x!tt.ptr<f32>, #b0>, tensor<128xi32, #b1>
  tt.return
}

// -----

tt.func @broadcast_shape(%x: tensor<2x64xf32>) {
  // expected-error @+1 {{'tt.broadcast' op source dimension 0 (2) must be 1 or equal the result's (128)}}
  %0 = tt.broadcast %x : tensor<2x64xf32> -> tensor<128x64xf32>
  tt.return
}

// -----

tt.func @trans_order(%x: tensor<128x64xf16>) {
  // expected-error @+1 {{'tt.trans' op order must be a permutation of [0, 2)}}
  %0 = tt.trans %x {order = array<i32: 1, 1>} : tensor<128x64xf16> -> tensor<64x128xf16>
  tt.return
}

// -----

tt.func @reshape_count(%x: tensor<128xf32>) {
  // expected-error @+1 {{'tt.reshape' op source and result must have the same number of elements}}
  %0 = tt.reshape %x : tensor<128xf32> -> tensor<2x32xf32>
  tt.return
}

// -----

tt.func @split_minor(%x: tensor<128x4xf32>) {
  // expected-error @+1 {{'tt.split' op source's minor dimension must be 2}}
  %0, %1 = tt.split %x : tensor<128x4xf32> -> tensor<128xf32>
  tt.return
}

// -----

tt.func @dot_k(%a: tensor<64x32xf16>, %b: tensor<16x64xf16>, %c: tensor<64x64xf32>) {
  // expected-error @+1 {{'tt.dot' op reduction dimensions of a (32) and b (16) differ}}
  %0 = tt.dot %a, %b, %c : tensor<64x32xf16> * tensor<16x64xf16> -> tensor<64x64xf32>
  tt.return
}

// -----

tt.func @reduce_axis(%x: tensor<8x256xi32>) {
  // expected-error @+1 {{'tt.reduce' op axis 2 is out of range [0, 2)}}
  %0 = "tt.reduce"(%x) <{axis = 2 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    tt.reduce.return %a : i32
  }) : (tensor<8x256xi32>) -> tensor<8xi32>
  tt.return
}

// -----

tt.func @reduce_region(%x: tensor<256xi32>) {
  // expected-error @+1 {{'tt.reduce' op combining region must take 2 arguments}}
  %0 = "tt.reduce"(%x) <{axis = 0 : i32}> ({
  ^bb0(%a: i32):
    tt.reduce.return %a : i32
  }) : (tensor<256xi32>) -> i32
  tt.return
}

// -----

tt.func @scan_axis(%x: tensor<8x256xi32>) {
  // expected-error @+1 {{'tt.scan' op axis -1 is out of range [0, 2)}}
  %0 = "tt.scan"(%x) <{axis = -1 : i32, reverse = false}> ({
  ^bb0(%a: i32, %b: i32):
    tt.scan.return %a : i32
  }) : (tensor<8x256xi32>) -> tensor<8x256xi32>
  tt.return
}

// -----

tt.func @return_type(%x: i32) -> f32 {
  // expected-error @+1 {{'tt.return' op type of return operand 0 ('i32') doesn't match function result type ('f32') in function @return_type}}
  tt.return %x : i32
}

// -----

tt.func @call_missing(%x: i32) {
  // expected-error @+1 {{'tt.call' op 'nowhere' does not reference a valid tt.func}}
  tt.call @nowhere(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func private @two(i32, i32)
tt.func @call_arity(%x: i32) {
  // expected-error @+1 {{'tt.call' op incorrect number of operands for callee}}
  tt.call @two(%x) : (i32) -> ()
  tt.return
}

// -----

tt.func @dot_scaled_rank(%a: tensor<128xf8E4M3FN>, %b: tensor<128x128xf8E4M3FN>, %c: tensor<128x128xf32>) {
  // expected-error @+1 {{'tt.dot_scaled' op operands must all have the same rank, at least 2}}
  %0 = tt.dot_scaled %a, %b, %c lhs = e4m3 rhs = e4m3 {fastMath = false} : tensor<128xf8E4M3FN> * tensor<128x128xf8E4M3FN> -> tensor<128x128xf32>
  tt.return
}

// -----

tt.func @gather_shape(%d: !tt.tensordesc<tensor<1x128xbf16>>, %rows: tensor<16xi32>, %col: i32) {
  // expected-error @+1 {{'tt.descriptor_gather' op tensor shape must be [number of rows, block columns]}}
  %0 = tt.descriptor_gather %d[%rows, %col] : (!tt.tensordesc<tensor<1x128xbf16>>, tensor<16xi32>, i32) -> tensor<16x64xbf16>
  tt.return
}

// -----

tt.func @scatter_rank(%d: !tt.tensordesc<tensor<128xbf16>>, %rows: tensor<16xi32>, %col: i32, %x: tensor<16x128xbf16>) {
  // expected-error @+1 {{'tt.descriptor_scatter' op needs a 2-D descriptor, 1-D row offsets and a 2-D tensor}}
  tt.descriptor_scatter %d[%rows, %col], %x : !tt.tensordesc<tensor<128xbf16>>, tensor<16xi32>, i32, tensor<16x128xbf16>
  tt.return
}

// -----

tt.func @map_pack(%x: tensor<256xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op pack must be at least 1}}
  %0 = "tt.map_elementwise"(%x) <{pack = 0 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<256xf32>) -> tensor<256xf32>
  tt.return
}

// -----

// A pack of 2^31 is a count mismatch, not 2^31 expanded types (the verifier
// ran out of memory building them: found by scripts/fuzz_tle_opt.py --sweep).
tt.func @map_huge_pack(%x: tensor<256xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region must take 2147483648 scalar(s) of each operand's element type}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2147483648 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a : f32
  }) : (tensor<256xf32>) -> tensor<256xf32>
  tt.return
}

// -----

tt.func @map_arguments(%x: tensor<256xf32>) {
  // expected-error @+1 {{'tt.map_elementwise' op region must take 2 scalar(s) of each operand's element type}}
  %0 = "tt.map_elementwise"(%x) <{pack = 2 : i32}> ({
  ^bb0(%a: f32):
    tt.map_elementwise.return %a, %a : f32, f32
  }) : (tensor<256xf32>) -> tensor<256xf32>
  tt.return
}

// -----

tt.func @map_returns(%x: tensor<256xf32>) {
  %0 = "tt.map_elementwise"(%x) <{pack = 1 : i32}> ({
  ^bb0(%a: f32):
    %c = arith.constant 1 : i32
    // expected-error @+1 {{'tt.map_elementwise.return' op must return 1 scalar(s) of each result's element type}}
    tt.map_elementwise.return %c : i32
  }) : (tensor<256xf32>) -> tensor<256xf32>
  tt.return
}
