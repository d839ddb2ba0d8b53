// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-pipes

// TMA slot fills (tle.gpu.copy from a tensor descriptor) that cannot be
// lowered: each is an error at the fill's tle.local_store.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @reader_slot(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%rs] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor writes a slot a reader waited for; TMA fills fill the writer's slots (from acquire())}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @not_a_gather(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %v = tt.load %ptrs : tensor<64x64x!tt.ptr<bf16>, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor: the value stored is not TritonGPU's TMA gather of the descriptor rows}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @value_reused(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %w = arith.addf %v, %v : tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor: the value stored is not TritonGPU's TMA gather}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @commit_elsewhere(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      scf.if %flag {
        %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
        %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
        ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
        %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
        %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
        // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor must be committed by a writer commit of its slot in the same block}}
        tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      }
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x32xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @narrow_rows(%desc: !tt.tensordesc<tensor<1x32xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x32x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x32xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x32xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x32xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x32xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x32xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x32xbf16, #shared, #smem, mutable> -> tensor<64x32xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x32xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor on cuda:90 copies each gathered row to its own 128-byte aligned address (Hopper has no TMA gather4): a row of the descriptor's box must be a multiple of 128 bytes, got 64}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x32xbf16, #blocked> -> !ttg.memdesc<64x32xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @other_layout(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): field 'k' is laid out as #ttg.nvmma_shared<{swizzlingByteWidth = 64, transposed = false, elementBitWidth = 16}>, but the tensor descriptor's TMA writes #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @argument_field(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %ptrs: tensor<64x64x!tt.ptr<bf16>, #blocked>, %flag: i1, %buf: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): field 'k' is a block argument; a TMA-filled field must be allocated where it can take the descriptor's}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#plain = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 4 : i32, ttg.target = "cuda:90"} {
  tt.func @no_pipe(%v: tensor<64x64xbf16, #blocked>) {
    %buf = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable>
    // expected-error @+1 {{'tle.local_store' op tle.gpu.copy from a tensor descriptor must fill a field of a pipe slot taken by the writer's acquire() (the TMA copy completes at the writer's commit)}}
    tle.local_store %v, %buf {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #plain, #smem, mutable>
    tt.return
  }
}

// -----

// TMA is sm_90's (docs/targets.md): a fill for sm_80 is refused.
#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:80"} {
  tt.func @tma_fill_on_sm80(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op tle.gpu.copy from a tensor descriptor (a TMA fill of a pipe slot) needs sm_90 or newer; this module's ttg.target is "cuda:80"}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A field that local pointers also take is a pointer buffer in TLE's region:
// a TMA fill cannot write it.

#blocked = #ttg.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #ttg.slice<{dim = 0, parent = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [32, 1], warpsPerCTA = [1, 4], order = [1, 0]}>}>
#shared = #ttg.nvmma_shared<{swizzlingByteWidth = 128, transposed = false, elementBitWidth = 16}>
#field = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [2, 1, 0]}>
#bar = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32, ttg.target = "cuda:90"} {
  tt.func @pointer_field(%desc: !tt.tensordesc<tensor<1x64xbf16, #shared>>, %rows: tensor<64xi32, #rows>, %idx: tensor<64x64xi32, #blocked>) {
    %c0 = arith.constant 0 : i32
    %true = arith.constant true
    %buf = ttg.local_alloc : () -> !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(k = %buf : !ttg.memdesc<1x64x64xbf16, #field, #smem, mutable>)
    tle.warp_specialize()
    default {
      %rs, %closed = tle.pipe.reader_wait %p reader "r" : !p
      %rview = tle.pipe.slot %p[%rs] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      %ptrs = tle.local_pointers %rview[%idx, %idx] : !ttg.memdesc<64x64xbf16, #field, #smem, mutable>, tensor<64x64xi32, #blocked>, tensor<64x64xi32, #blocked> -> tensor<64x64x!tt.ptr<bf16, 3>, #blocked>
      %x = tt.load %ptrs : tensor<64x64x!tt.ptr<bf16, 3>, #blocked>
      tle.pipe.reader_release %p[%rs] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(4) {
      %s = tle.pipe.writer_acquire %p : !p
      %scratch = ttg.local_alloc : () -> !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>
      %b = ttg.local_alloc : () -> !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.init_barrier %b, 1 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      ttng.async_tma_gather %desc[%rows, %c0] %scratch, %b, %true : !tt.tensordesc<tensor<1x64xbf16, #shared>>, tensor<64xi32, #rows>, i32, !ttg.memdesc<1xi64, #bar, #smem, mutable>, !ttg.memdesc<64x64xbf16, #shared, #smem, mutable>, i1
      ttng.wait_barrier %b, %c0 : !ttg.memdesc<1xi64, #bar, #smem, mutable>
      %v = ttg.local_load %scratch : !ttg.memdesc<64x64xbf16, #shared, #smem, mutable> -> tensor<64x64xbf16, #blocked>
      %view = tle.pipe.slot %p[%s] field "k" : !p -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy from a tensor descriptor fills field 'k', which tle.gpu.local_ptr also reads or writes}}
      tle.local_store %v, %view {tle.tma_fill} : tensor<64x64xbf16, #blocked> -> !ttg.memdesc<64x64xbf16, #field, #smem, mutable>
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
