// RUN: tle-opt %s -split-input-file --triton-tle-lower-to-iluvatar -verify-diagnostics
// The Iluvatar rules (FlagTree's Iluvatar TLE): smem only, swizzled shared
// layouts only, #ttg.blocked tiles only.

#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @nv_mma_layout() -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable> {
    // expected-error @+1 {{iluvatar TLE alloc does not support nv_mma_shared_layout=True}}
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    tt.return %buf : !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @tmem() {
    // The tle.alloc verifier already applies the Iluvatar rule.
    // expected-error @+1 {{iluvatar TLE alloc does not support tmem storage}}
    %buf = tle.alloc tmem : () -> !ttg.memdesc<128x128xf32, #shared, #ttng.tensor_memory, mutable>
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @extract_mma_source(%x: tensor<64x64xf32, #mma>) -> tensor<16x32xf32, #blocked> {
    // expected-error @+1 {{iluvatar TLE extract_tile only supports BlockedEncodingAttr (#ttg.blocked); source encoding is #ttg.nvidia_mma}}
    %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32, #mma> -> tensor<16x32xf32, #blocked>
    tt.return %t : tensor<16x32xf32, #blocked>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @extract_mma_result(%x: tensor<64x64xf32, #blocked>) -> tensor<16x32xf32, #mma> {
    // expected-error @+1 {{iluvatar TLE extract_tile only supports BlockedEncodingAttr (#ttg.blocked); result encoding is #ttg.nvidia_mma}}
    %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32, #blocked> -> tensor<16x32xf32, #mma>
    tt.return %t : tensor<16x32xf32, #mma>
  }
}

// -----

module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @extract_no_encoding(%x: tensor<64x64xf32>) -> tensor<16x32xf32> {
    // expected-error @+1 {{iluvatar TLE extract_tile only supports BlockedEncodingAttr (#ttg.blocked); source encoding is none}}
    %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32> -> tensor<16x32xf32>
    tt.return %t : tensor<16x32xf32>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @insert_mma_source(%x: tensor<64x64xf32, #mma>, %t: tensor<16x32xf32, #blocked>) -> tensor<64x64xf32, #mma> {
    // expected-error @+1 {{iluvatar TLE insert_tile only supports BlockedEncodingAttr (#ttg.blocked); source encoding is #ttg.nvidia_mma}}
    %y = tle.insert_tile %t into %x[0] : tensor<16x32xf32, #blocked> into tensor<64x64xf32, #mma>
    tt.return %y : tensor<64x64xf32, #mma>
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @insert_slice_tile(%x: tensor<64x64xf32, #blocked>, %t: tensor<16x32xf32, #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>>) -> tensor<64x64xf32, #blocked> {
    // expected-error @+1 {{iluvatar TLE insert_tile only supports BlockedEncodingAttr (#ttg.blocked); tile encoding is #ttg.slice}}
    %y = tle.insert_tile %t into %x[0] : tensor<16x32xf32, #ttg.slice<{dim = 2, parent = #ttg.blocked<{sizePerThread = [1, 1, 1], threadsPerWarp = [1, 1, 32], warpsPerCTA = [4, 1, 1], order = [2, 1, 0]}>}>> into tensor<64x64xf32, #blocked>
    tt.return %y : tensor<64x64xf32, #blocked>
  }
}

// -----

// Every violation is reported, not only the first.
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 8]}>
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @several(%x: tensor<64x64xf32, #mma>) -> tensor<16x32xf32, #blocked> {
    // expected-error @+1 {{iluvatar TLE alloc does not support nv_mma_shared_layout=True}}
    %a = tle.alloc smem : () -> !ttg.memdesc<64x64xf16, #shared, #smem, mutable>
    // expected-error @+1 {{iluvatar TLE extract_tile only supports BlockedEncodingAttr}}
    %t = tle.extract_tile %x[0] tile [16, 32] : tensor<64x64xf32, #mma> -> tensor<16x32xf32, #blocked>
    tt.return %t : tensor<16x32xf32, #blocked>
  }
}

// -----

// A shared layout other than swizzled_shared (the memdesc takes any encoding).
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {ttg.target = "iluvatar:ivcore11"} {
  tt.func @blocked_layout() {
    // expected-error @+1 {{iluvatar TLE alloc only supports a #ttg.swizzled_shared layout, got #ttg.blocked}}
    %buf = tle.alloc smem : () -> !ttg.memdesc<64x64xf32, #blocked, #smem, mutable>
    tt.return
  }
}
