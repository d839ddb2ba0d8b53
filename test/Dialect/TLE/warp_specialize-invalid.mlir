// RUN: tle-opt %s -split-input-file -verify-diagnostics

func.func @num_warps_not_pow2(%x: i32) {
  // expected-error @+1 {{'tle.warp_specialize' op partition 1 num_warps must be a power of two >= 1, got 3}}
  tle.warp_specialize(%x)
  default {
    tle.warp_yield
  }
  partition0(%a: i32) num_warps(4) {
    tle.warp_return
  }
  partition1(%a: i32) num_warps(3) {
    tle.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @num_warps_zero() {
  // expected-error @+1 {{'tle.warp_specialize' op partition 0 num_warps must be a power of two >= 1, got 0}}
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(0) {
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @num_warps_count() {
  // expected-error @+1 {{'tle.warp_specialize' op has 1 partition regions but partition_num_warps has 2 entries}}
  "tle.warp_specialize"() <{partition_num_warps = array<i32: 4, 4>}> ({
    "tle.warp_yield"() : () -> ()
  }, {
    "tle.warp_specialize.partitions"() ({
      "tle.warp_return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @num_regs_not_multiple_of_8() {
  // expected-error @+1 {{'tle.warp_specialize' op partition 0 num_regs must be a multiple of 8 in [24, 256], got 100}}
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(1) num_regs(100) {
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @num_regs_too_low() {
  // expected-error @+1 {{'tle.warp_specialize' op partition 1 num_regs must be a multiple of 8 in [24, 256], got 16}}
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(1) num_regs(24) {
    tle.warp_return
  }
  partition1() num_warps(1) num_regs(16) {
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @num_regs_too_high() {
  // expected-error @+1 {{'tle.warp_specialize' op partition 0 num_regs must be a multiple of 8 in [24, 256], got 264}}
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(1) num_regs(264) {
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @num_regs_count() {
  // expected-error @+1 {{'tle.warp_specialize' op has 2 partitions but partition_num_regs has 1 entries}}
  "tle.warp_specialize"() <{partition_num_warps = array<i32: 4, 4>, partition_num_regs = array<i32: 24>}> ({
    "tle.warp_yield"() : () -> ()
  }, {
    "tle.warp_specialize.partitions"() ({
      "tle.warp_return"() : () -> ()
    }, {
      "tle.warp_return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @num_regs_some_partitions() {
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(1) num_regs(24) {
    tle.warp_return
  }
  // expected-error @+1 {{num_regs must be given for every partition or for none}}
  partition1() num_warps(1) {
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @partition_arg_types(%x: i32, %y: f32) {
  // expected-error @+1 {{'tle.warp_specialize' op partition 0 block arguments (f32, i32) must match the capture types (i32, f32)}}
  tle.warp_specialize(%x, %y)
  default {
    tle.warp_yield
  }
  partition0(%a: f32, %b: i32) num_warps(1) {
    tle.warp_return
  } : (i32, f32) -> ()
  return
}

// -----

func.func @partition_arg_count(%x: i32, %y: f32) {
  // expected-error @+1 {{'tle.warp_specialize' op partition 1 block arguments (i32) must match the capture types (i32, f32)}}
  tle.warp_specialize(%x, %y)
  default {
    tle.warp_yield
  }
  partition0(%a: i32, %b: f32) num_warps(1) {
    tle.warp_return
  }
  partition1(%a: i32) num_warps(1) {
    tle.warp_return
  } : (i32, f32) -> ()
  return
}

// -----

func.func @yield_types(%x: i32) -> f32 {
  // expected-error @+1 {{'tle.warp_specialize' op default region yields (i32) but the op results are (f32)}}
  %r = tle.warp_specialize(%x)
  default {
    tle.warp_yield %x : i32
  }
  partition0(%a: i32) num_warps(1) {
    tle.warp_return
  } : (i32) -> f32
  return %r : f32
}

// -----

func.func @yield_count(%x: i32) -> i32 {
  // expected-error @+1 {{'tle.warp_specialize' op default region yields () but the op results are (i32)}}
  %r = tle.warp_specialize(%x)
  default {
  }
  partition0(%a: i32) num_warps(1) {
    tle.warp_return
  } : (i32) -> i32
  return %r : i32
}

// -----

func.func @default_region_args() {
  // expected-error @+1 {{'tle.warp_specialize' op default region must have no arguments}}
  "tle.warp_specialize"() <{partition_num_warps = array<i32>}> ({
  ^bb0(%a: i32):
    "tle.warp_yield"() : () -> ()
  }, {
    "tle.warp_specialize.partitions"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @default_region_terminator() {
  // expected-error @+1 {{'tle.warp_specialize' op default region must end with tle.warp_yield}}
  "tle.warp_specialize"() <{partition_num_warps = array<i32>}> ({
    "tle.warp_specialize.partitions"() : () -> ()
  }, {
    "tle.warp_specialize.partitions"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @holder_region() {
  // expected-error @+1 {{'tle.warp_specialize' op second region must hold exactly one tle.warp_specialize.partitions op}}
  "tle.warp_specialize"() <{partition_num_warps = array<i32>}> ({
    "tle.warp_yield"() : () -> ()
  }, {
    "tle.warp_yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @partition_terminator() {
  tle.warp_specialize()
  default {
    tle.warp_yield
  }
  partition0() num_warps(1) {
    // expected-error @+1 {{'tle.warp_yield' op expects parent op 'tle.warp_specialize'}}
    tle.warp_yield
  } : () -> ()
  return
}

// -----

func.func @default_terminator() {
  tle.warp_specialize()
  default {
    // expected-error @+1 {{'tle.warp_return' op expects parent op 'tle.warp_specialize.partitions'}}
    tle.warp_return
  } : () -> ()
  return
}

// -----

func.func @yield_outside() {
  // expected-error @+1 {{'tle.warp_yield' op expects parent op 'tle.warp_specialize'}}
  tle.warp_yield
}

// -----

// The default region uses a value the partition defines and the op then
// fails to parse: the partition was destroyed with its value still used
// ("LLVM ERROR: operation destroyed but still has uses", found by
// scripts/fuzz_tle_opt.py).
tt.func @failed_parse_with_cross_region_use() {
  tle.warp_specialize()
  default {
    %d = arith.addi %c, %c : i32
  }
  partition0() num_warps(2) {
    %c = arith.constant 7 : i32
  // expected-error @below {{invalid kind of type specified: expected builtin.function, but found 'i32'}}
  } : i32
  tt.return
}

// -----

// The same with the use before the op, in the enclosing block.
tt.func @failed_parse_with_use_outside() {
  %y = arith.addi %x, %x : i32
  tle.warp_specialize()
  default {
  }
  partition0() num_warps(1) {
    %x = arith.constant 1 : i32
  // expected-error @below {{invalid kind of type specified: expected builtin.function, but found 'i32'}}
  } : i32
  tt.return
}
