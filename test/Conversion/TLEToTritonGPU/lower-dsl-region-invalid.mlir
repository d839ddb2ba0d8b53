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

// math.erf of an f64 (f32 is approximated with arithmetic) has no lowering.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @no_llvm_lowering(%x: tensor<128xf64, #blocked>) {
    // expected-error @+1 {{op 'math.erf' in the TLE-Raw function 'f' has no lowering to LLVM}}
    %r = tle.dsl_region(%x) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block"} : (tensor<128xf64, #blocked>) -> (tensor<128xf64, #blocked>) {
    ^bb0(%a: tensor<128xf64>):
      %c0 = arith.constant 0 : index
      %e = tensor.extract %a[%c0] : tensor<128xf64>
      // expected-note @+1 {{here}}
      %f = math.erf %e : f64
      %w = tensor.insert %f into %a[%c0] : tensor<128xf64>
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

// -----

// A body whose lowering needs a function it cannot reach (memref.alloc's malloc).
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @malloc(%n: i32, %p: !tt.ptr<i32>) {
    // expected-error @+1 {{lowering the TLE-Raw function 'f' needs the external symbol 'malloc', which a TLE-Raw body cannot reach}}
    tle.dsl_region(%n, %p) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (i32, !tt.ptr<i32>) -> () {
    ^bb0(%k: i32, %q: !llvm.ptr<1>):
      %c0 = arith.constant 0 : index
      %m = memref.alloc() : memref<4xi32>
      memref.store %k, %m[%c0] : memref<4xi32>
      %v = memref.load %m[%c0] : memref<4xi32>
      llvm.store %v, %q : i32, !llvm.ptr<1>
    }
    tt.return
  }
}

// -----

// FlagTree's form also runs on every thread of the program.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @threads(%b: !ttg.memdesc<128xf32, #shared, #smem, mutable>) {
    // expected-error @+1 {{hardware threads [64] (64 threads) must equal num_warps x threads per warp = 4 x 32 = 128}}
    tle.dsl_region(%b) {language = "mlir", name = "f", threads = array<i64: 64>, sync_scope = "block", hardware_ids} : (!ttg.memdesc<128xf32, #shared, #smem, mutable>) -> () {
    ^bb0(%m: memref<?xf32, 3>):
    }
    tt.return
  }
}

// -----

// An f64 math function would need libm, which NVPTX lacks (f32 ones are
// expanded into arithmetic): an error naming the op, not an LLVM abort.
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @exp_f64(%x: f64, %p: !tt.ptr<f64>) {
    // expected-error @+1 {{op 'llvm.intr.exp' in the TLE-Raw function 'f' has no lowering to LLVM for NVPTX (it needs a libm function; only f32, f16 and bf16 math functions are expanded into arithmetic)}}
    tle.dsl_region(%x, %p) {language = "mlir", name = "f", threads = array<i64: 128>, sync_scope = "block", hardware_ids} : (f64, !tt.ptr<f64>) -> () {
    ^bb0(%a: f64, %q: !llvm.ptr<1>):
      // expected-note @+1 {{here}}
      %e = math.exp %a : f64
      llvm.store %e, %q : f64, !llvm.ptr<1>
    }
    tt.return
  }
}
