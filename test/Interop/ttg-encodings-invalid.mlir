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
