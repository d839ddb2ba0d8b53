// RUN: tle-opt %s -split-input-file --triton-tle-lower-dsl-region -verify-diagnostics

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @threads(%x: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{the TLE-Raw function 'f' runs on every thread of the program: hardware threads [256] (256 threads) must equal num_warps x threads per warp = 4 x 32 = 128}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 256>, sync_scope = "block"} : (tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>) {
    ^bb0(%a: tensor<128xf32>):
    }
    tt.return
  }
}

// -----

module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @ttir(%x: tensor<128xf32>) {
    // expected-error @+1 {{tle.dsl_region lowers on TTGIR, but operand 0 has no encoding}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32>) -> (tensor<128xf32>) {
    ^bb0(%a: tensor<128xf32>):
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module {
  tt.func @no_warps(%x: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{tle.dsl_region lowers on TTGIR, but the module has no ttg.num-warps}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>) {
    ^bb0(%a: tensor<128xf32>):
    }
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_llvm_lowering(%x: tensor<128xf32, #blocked>) {
    // expected-error @+1 {{op 'math.erf' in the TLE-Raw function 'f' has no lowering to LLVM}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf32, #blocked>) -> (tensor<128xf32, #blocked>) {
    ^bb0(%a: tensor<128xf32>):
      %c0 = arith.constant 0 : index
      %e = tensor.extract %a[%c0] : tensor<128xf32>
      // expected-note @+1 {{here}}
      %f = math.erf %e : f32
      %w = tensor.insert %f into %a[%c0] : tensor<128xf32>
    }
    tt.return
  }
}

// -----

// Found by scripts/fuzz_tle_opt.py: a zero-size operand made an invalid
// memdesc type (MemDescType::get asserted) when staged in shared memory.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @zero_size(%x: tensor<0x8xi32, #blocked>) {
    // expected-error @+1 {{cannot stage operand 0 of type 'tensor<0x8xi32, #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' in shared memory: its dimensions must be static and positive}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<0x8xi32, #blocked>) -> (tensor<0x8xi32, #blocked>) {
    ^bb0(%a: tensor<0x8xi32>):
    }
    tt.return
  }
}
