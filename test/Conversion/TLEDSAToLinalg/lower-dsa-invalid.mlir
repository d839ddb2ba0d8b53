// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsa -verify-diagnostics

// Gathered pointers (offsets loaded from memory) have no memref view.
tt.func @gather(%x: !tt.ptr<f32>, %idx: !tt.ptr<i32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  %is = tt.splat %idx : !tt.ptr<i32> -> tensor<16x!tt.ptr<i32>>
  %ip = tt.addptr %is, %r : tensor<16x!tt.ptr<i32>>, tensor<16xi32>
  // expected-note @below {{see here}}
  %o = tt.load %ip : tensor<16x!tt.ptr<i32>>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %p = tt.addptr %s, %o : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @below {{tle.dsa.copy needs structured global pointers (a scalar base pointer plus offsets affine in the element indices): an offset computed by 'tt.load' is not affine in the element indices}}
  tle.dsa.copy %p, %b : tensor<16x!tt.ptr<f32>> -> !tle.dsa.buffer<16xf32, UB>
  tt.return
}

// -----

// Offsets quadratic in the index.
tt.func @quadratic(%x: !tt.ptr<f32>) {
  %r = tt.make_range {end = 16 : i32, start = 0 : i32} : tensor<16xi32>
  // expected-note @below {{see here}}
  %sq = arith.muli %r, %r : tensor<16xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<16x!tt.ptr<f32>>
  %p = tt.addptr %s, %sq : tensor<16x!tt.ptr<f32>>, tensor<16xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @below {{a product of two offsets that both vary with the element index is not affine}}
  tle.dsa.copy %p, %b : tensor<16x!tt.ptr<f32>> -> !tle.dsa.buffer<16xf32, UB>
  tt.return
}

// -----

// A pointer tensor passed in as an argument.
// expected-note @below {{see here}}
tt.func @ptr_arg(%p: tensor<16x!tt.ptr<f32>>) {
  %b = tle.dsa.alloc : !tle.dsa.buffer<16xf32, UB>
  // expected-error @below {{the pointer tensor is a block argument}}
  tle.dsa.copy %b, %p : !tle.dsa.buffer<16xf32, UB> -> tensor<16x!tt.ptr<f32>>
  tt.return
}

// -----

// A non-splat constant offset.
tt.func @dense_offsets(%x: !tt.ptr<f32>) {
  // expected-note @below {{see here}}
  %o = arith.constant dense<[0, 5, 1, 7]> : tensor<4xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %p = tt.addptr %s, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<4xf32, UB>
  // expected-error @below {{a non-splat constant offset tensor is not affine}}
  tle.dsa.copy %p, %b : tensor<4x!tt.ptr<f32>> -> !tle.dsa.buffer<4xf32, UB>
  tt.return
}

// -----

// Broadcast pointers as a store target: several elements, one address.
tt.func @store_broadcast(%x: !tt.ptr<f32>) {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %e = tt.expand_dims %r {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %o = tt.broadcast %e : tensor<1x4xi32> -> tensor<4x4xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<4x4x!tt.ptr<f32>>
  %p = tt.addptr %s, %o : tensor<4x4x!tt.ptr<f32>>, tensor<4x4xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<4x4xf32, UB>
  // expected-error @below {{tle.dsa.copy to global memory through pointers with stride 0 in dimension 0 writes several elements to one address}}
  tle.dsa.copy %b, %p : !tle.dsa.buffer<4x4xf32, UB> -> tensor<4x4x!tt.ptr<f32>>
  tt.return
}

// -----

// A buffer that is a block argument has no memref.
tt.func @buffer_arg() {
  %b = tle.dsa.alloc : !tle.dsa.buffer<4xf32, UB>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  // expected-note @below {{buffer defined here}}
  scf.for %i = %c0 to %c2 step %c1 iter_args(%buf = %b) -> (!tle.dsa.buffer<4xf32, UB>) {
    // expected-error @below {{DSA buffer operand is not the result of tle.dsa.alloc or tle.dsa.to_buffer}}
    tle.dsa.add %buf, %buf, %buf : !tle.dsa.buffer<4xf32, UB>
    scf.yield %buf : !tle.dsa.buffer<4xf32, UB>
  }
  tt.return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
tt.func @encoded() -> tensor<128xf32, #blocked> {
  %b = tle.dsa.alloc : !tle.dsa.buffer<128xf32, UB>
  // expected-error @below {{the DSA lowering runs on TTIR; the result tensor has an encoding}}
  %t = tle.dsa.to_tensor %b : !tle.dsa.buffer<128xf32, UB> -> tensor<128xf32, #blocked>
  tt.return %t : tensor<128xf32, #blocked>
}

// -----

// A constant negative offset: the view would start before the base pointer,
// which a memref cannot express.
tt.func @negative_offset(%x: !tt.ptr<f32>) {
  %r = tt.make_range {end = 4 : i32, start = 0 : i32} : tensor<4xi32>
  %m = arith.constant dense<-2> : tensor<4xi32>
  %o = arith.addi %r, %m : tensor<4xi32>
  %s = tt.splat %x : !tt.ptr<f32> -> tensor<4x!tt.ptr<f32>>
  %p = tt.addptr %s, %o : tensor<4x!tt.ptr<f32>>, tensor<4xi32>
  %b = tle.dsa.alloc : !tle.dsa.buffer<4xf32, UB>
  // expected-error @below {{tle.dsa.copy: the pointers start 2 elements before their base pointer; a memref view cannot (advance the base pointer instead)}}
  tle.dsa.copy %p, %b : tensor<4x!tt.ptr<f32>> -> !tle.dsa.buffer<4xf32, UB>
  tt.return
}
