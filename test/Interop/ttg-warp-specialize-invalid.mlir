// RUN: tle-opt %s -split-input-file -verify-diagnostics

// Verifier and parser rules of ttg.warp_specialize and its terminators. Each
// rule is one Triton's own printed IR always satisfies (none of the corpus
// trips them).

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @requested_registers_count(%b: !ttg.memdesc<1xi64, #shared, #smem, mutable>) {
  // expected-error @below {{has 1 partitions but 2 requestedRegisters entries}}
  ttg.warp_specialize(%b) attributes {requestedRegisters = array<i32: 24, 24>}
  default {
    ttg.warp_yield
  }
  partition0(%arg0: !ttg.memdesc<1xi64, #shared, #smem, mutable>) num_warps(1) {
    ttg.warp_return
  } : (!ttg.memdesc<1xi64, #shared, #smem, mutable>) -> ()
  return
}

// -----

func.func @num_warps_count() {
  // The custom syntax cannot get this wrong; the generic form can.
  // expected-error @below {{has 1 partitions but 2 partitionNumWarps entries}}
  "ttg.warp_specialize"() <{partitionNumWarps = array<i32: 1, 1>}> ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() ({
      "ttg.warp_return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @num_warps_positive() {
  // expected-error @below {{partition warp counts must be positive}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(0) {
    ttg.warp_return
  } : () -> ()
  return
}

// -----

func.func @holder_without_partitions() {
  // expected-error @below {{partition holder region must contain exactly one ttg.warp_specialize.partitions op}}
  "ttg.warp_specialize"() <{partitionNumWarps = array<i32>}> ({
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_return"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @capture_types(%x: i32) {
  // expected-error @below {{partition0's block arguments must match the capture types}}
  ttg.warp_specialize(%x)
  default {
    ttg.warp_yield
  }
  partition0(%arg0: i64) num_warps(1) {
    ttg.warp_return
  } : (i32) -> ()
  return
}

// -----

func.func @partition_terminator() {
  // expected-error @below {{partition0 must end with ttg.warp_return}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    %c = arith.constant 0 : i32
  } : () -> ()
  return
}

// -----

func.func @default_terminator() {
  // expected-error @below {{default region must end with ttg.warp_yield}}
  ttg.warp_specialize()
  default {
    %c = arith.constant 0 : i32
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  return
}

// -----

func.func @default_arguments() {
  // expected-error @below {{default region takes no block arguments}}
  "ttg.warp_specialize"() <{partitionNumWarps = array<i32: 1>}> ({
  ^bb0(%a: i32):
    "ttg.warp_yield"() : () -> ()
  }, {
    "ttg.warp_specialize.partitions"() ({
      "ttg.warp_return"() : () -> ()
    }) : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @yield_types() -> i32 {
  %r = ttg.warp_specialize()
  default {
    %c = arith.constant 0 : i64
    // expected-error @below {{operand types must match the ttg.warp_specialize result types}}
    ttg.warp_yield %c : i64
  }
  partition0() num_warps(1) {
    ttg.warp_return
  } : () -> i32
  return %r : i32
}

// -----

func.func @partitions_isolated(%x: i32) {
  // The partitions op has the parent's location.
  // expected-note @below {{required by region isolation constraints}}
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    // expected-error @below {{using value defined outside the region}}
    %y = arith.addi %x, %x : i32
    ttg.warp_return
  } : () -> ()
  return
}

// -----

func.func @yield_outside() {
  // expected-error @below {{expects parent op 'ttg.warp_specialize'}}
  ttg.warp_yield
}

// -----

func.func @return_outside() {
  // expected-error @below {{expects parent op 'ttg.warp_specialize.partitions'}}
  ttg.warp_return
}

// -----

func.func @partition_order() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  // expected-error @below {{expected 'partition0', found 'partition1'}}
  partition1() num_warps(1) {
    ttg.warp_return
  } : () -> ()
  return
}

// -----

// The default region uses a value the partition defines and the op then
// fails to parse: the partition was destroyed with its value still used
// ("LLVM ERROR: operation destroyed but still has uses", found by
// scripts/fuzz_tle_opt.py).
func.func @failed_parse_with_cross_region_use() {
  ttg.warp_specialize()
  default {
    ttg.warp_yield %c : i32
  }
  partition0() num_warps(2) {
    %c = arith.constant 7 : i32
    ttg.warp_return
  // expected-error @below {{invalid kind of type specified: expected builtin.function, but found 'i32'}}
  } : i32
  return
}

// -----

// The same with the use before the op, in the enclosing block.
func.func @failed_parse_with_use_outside() {
  %y = arith.addi %x, %x : i32
  ttg.warp_specialize()
  default {
    ttg.warp_yield
  }
  partition0() num_warps(1) {
    %x = arith.constant 1 : i32
    ttg.warp_return
  // expected-error @below {{invalid kind of type specified: expected builtin.function, but found 'i32'}}
  } : i32
  return
}
