// RUN: tle-opt %s -split-input-file -verify-diagnostics

// Triton 3.6 encoding bodies that do not parse: each is an error at the
// attribute, never a crash (scripts/fuzz_tle_opt.py found the first one).

// A linear encoding without its `<{...}>` body.
// expected-error @below {{expected '<'}}
#linear = #ttg.linear

// -----

// expected-error @below {{expected 'lane' to be an array of arrays of non-negative integers}}
#linear = #ttg.linear<{register = [[0, 1]], lane = 4, warp = [], block = []}>

// -----

// Bases are read with getInt(): an unsigned-typed integer is not one.
// expected-error @below {{expected 'register' to be an array of arrays of non-negative integers}}
#linear = #ttg.linear<{register = [[0, 1 : ui32]], lane = [], warp = [], block = []}>

// -----

// expected-error @below {{expected 'sizePerThread' to be an array of non-negative integers}}
#blocked = #ttg.blocked<{sizePerThread = [1 : ui32], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @below {{expected 'warpsPerCTA' to be an array of non-negative integers}}
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4294967296], order = [0]}>

// -----

// expected-error @below {{expected 'vec' to be a non-negative integer}}
#shared = #ttg.swizzled_shared<{vec = 1 : si32, perPhase = 1, maxPhase = 1, order = [0]}>

// -----

// expected-error @below {{expected 'CGALayout' to be an array of arrays of non-negative integers}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], CGALayout = [[-1]]}>

// -----

// expected-error @below {{swizzled_shared layout order must be a permutation of [0, 2)}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [128, 0]}>

// -----

// expected-error @below {{swizzled_shared layout order must be a permutation of [0, 2)}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 1]}>

// -----

// expected-error @below {{expected 'maxPhase' to be a non-negative integer}}
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 0 : i0, order = [0]}>

// -----

// A distributed layout must have the rank of the tensor it is attached to
// (Triton's verifyTensorLayouts). scripts/fuzz_tle_opt.py found a rank-2
// #blocked on a rank-1 tensor crashing triton-tle-lower-local-memory.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
// expected-error @below {{blocked layout #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}> has rank 2, but the tensor it is attached to has rank 1}}
func.func @blocked_rank(%p: tensor<16x!tt.ptr<f32, 3>, #blocked>) {
  return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [], instrShape = []}>
// expected-error @below {{nvidia_mma layout #ttg.nvidia_mma<{versionMajor = 2, versionMinor = 0, warpsPerCTA = [], instrShape = []}> has rank 0, but the tensor it is attached to has rank 2}}
func.func @mma_rank(%v: tensor<32x32xf16, #mma>) {
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// expected-error @below {{blocked layout #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}> has rank 1, but the tensor it is attached to has rank 2}}
func.func @slice_parent_rank(%v: tensor<128xf32, #ttg.slice<{dim = 0, parent = #blocked}>>) {
  return
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [2, 2], order = [1, 0]}>
// expected-error @below {{removes dimension 2 of a rank-2 parent}}
func.func @slice_dim(%v: tensor<128xf32, #ttg.slice<{dim = 2, parent = #blocked}>>) {
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
// expected-error @below {{slice layout parent must be a distributed layout, got #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>}}
func.func @slice_of_shared(%v: tensor<128xf32, #ttg.slice<{dim = 0, parent = #shared}>>) {
  return
}

// -----

#mma = #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}>
// expected-error @below {{nvidia_mma layout #ttg.nvidia_mma<{versionMajor = 3, versionMinor = 0, warpsPerCTA = [4, 1], instrShape = [16, 64, 16]}> has rank 2, but the tensor it is attached to has rank 3}}
func.func @dot_op_rank(%v: tensor<2x64x64xf16, #ttg.dot_op<{opIdx = 0, parent = #mma, kWidth = 2}>>) {
  return
}

// -----

#linear = #ttg.linear<{register = [[0, 1]], lane = [[1, 0], [2]], warp = [], block = []}>
// expected-error @below {{has a basis [2] of length 1, but the tensor it is attached to has rank 2}}
func.func @linear_rank(%v: tensor<4x2xf32, #linear>) {
  return
}

// -----

// A zero count distributes nothing; triton-tle-lower-warp-specialize looped
// forever doubling a product of 0 warps (found by scripts/fuzz_tle_opt.py).
// expected-error @below {{blocked layout warpsPerCTA entries must be positive}}
#blocked = #ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [0, 0], order = [1, 0]}>

// -----

// expected-error @below {{blocked layout sizePerThread entries must be positive}}
#blocked = #ttg.blocked<{sizePerThread = [0], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
