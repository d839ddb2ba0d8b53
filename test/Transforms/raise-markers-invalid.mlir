// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers -verify-diagnostics
// verify-only reports exactly the same errors, at the same places:
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true -verify-diagnostics

// Every error is reported at the marker (the user's call).

tt.func @unknown_op(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{unknown TLE marker 'tle.exclusive_cumprod'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumprod {axis = 0 : i32}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

// A name directly followed by the dictionary is split at the '{'.
tt.func @unknown_op_no_space(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{unknown TLE marker 'tle.bogus'}}
  %0 = tt.elementwise_inline_asm "tle.bogus{axis = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>
  tt.return %0 : tensor<128xi32>
}

// -----

// A tt op is not a TLE op, even when registered.
tt.func @not_a_tle_op(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{unknown TLE marker 'tle.'}}
  %0 = tt.elementwise_inline_asm "tle. {axis = 0 : i32}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>
  tt.return %0 : tensor<128xi32>
}

// -----

tt.func @bad_dictionary(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{TLE marker 'tle.exclusive_cumsum': cannot parse '{axis = , reverse = false}' as an attribute dictionary: expected attribute value}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = , reverse = false}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @not_a_dictionary(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{TLE marker 'tle.exclusive_cumsum': cannot parse 'axis = 0 : i32' as an attribute dictionary}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum axis = 0 : i32" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @trailing_text(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{cannot parse '{axis = 0 : i32} junk' as an attribute dictionary}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32} junk" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

// The op's own verifier speaks, at the marker.
tt.func @bad_axis(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.exclusive_cumsum' op axis 1 is out of range for a rank-1 input}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

// An axis wider than 64 bits asserted in APInt::getSExtValue (marker raising
// and the op's result-type inference both read it before verification).
tt.func @huge_axis(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.exclusive_cumsum' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 100000000000000000000000 : i128, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @i0_axis(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.exclusive_cumsum' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i0, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

// Found by scripts/fuzz_tle_opt.py: result-type inference built a slice of
// a source encoding that is not a distributed layout (RankedTensorType::get
// asserted) before the op's verifier could object.
#tmem = #ttng.tensor_memory
tt.func @not_a_layout(%x: tensor<64x32xf32, #tmem>) -> tensor<64x32xf32, #tmem> {
  // expected-error @+1 {{'tle.exclusive_cumsum' op total must be a tensor of the input shape without axis 1 and element type 'f32', got 'tensor<64x32xf32, #ttng.tensor_memory>'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, reverse = false}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<64x32xf32, #tmem> -> tensor<64x32xf32, #tmem>, tensor<64x32xf32, #tmem>
  tt.return %0#0 : tensor<64x32xf32, #tmem>
}

// -----

// Found by scripts/fuzz_tle_opt.py: parsing a marker key `gpu.barrier`
// loaded the gpu dialect inside the pass (fatal: "LLVM ERROR: Loading a
// dialect (gpu) while in a multi-threaded execution context"). The pass now
// loads gpu itself (TLE-Raw bodies hold gpu.printf); cf is still foreign.
tt.func @foreign_dialect() {
  // expected-error @+1 {{TLE marker 'tle.pipeline_group_end': '{group = 0 : i32, cf.barrier = true}' names the dialect 'cf', which TLE markers do not use}}
  %0 = tt.elementwise_inline_asm "tle.pipeline_group_end {group = 0 : i32, cf.barrier = true}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

tt.func @missing_axis(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.exclusive_cumsum' op requires attribute 'axis'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

// Without tle.marker.narrowed the marker's broadcast total is replaced
// directly, and the inferred scalar total cannot stand in for it.
tt.func @total_not_narrowed(%x: tensor<128xi32>, %T: tensor<128x!tt.ptr<i32>>) {
  // expected-error @+1 {{marker result 1 has type 'tensor<128xi32>' but tle.exclusive_cumsum produces 'i32'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.store %T, %0#1 : tensor<128x!tt.ptr<i32>>
  tt.return
}

// -----

tt.func @element_type_mismatch(%x: tensor<128xi32>) -> tensor<128xf32> {
  // expected-error @+1 {{marker result 0 has type 'tensor<128xf32>' but tle.exclusive_cumsum produces 'tensor<128xi32>'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xf32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xf32>
}

// -----

tt.func @narrowed_used_by_store(%x: tensor<128xi32>, %T: tensor<128x!tt.ptr<i32>>) {
  // expected-error @+1 {{narrowed result 1 of TLE marker 'tle.exclusive_cumsum' must have no user or exactly one pick tt.reduce (through single-use ttg.convert_layouts), but is used by 'tt.store'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.store %T, %0#1 : tensor<128x!tt.ptr<i32>>
  tt.return
}

// -----

tt.func @narrowed_two_users(%x: tensor<128xi32>, %T: tensor<128x!tt.ptr<i32>>) -> i32 {
  // expected-error @+1 {{narrowed result 1 of TLE marker 'tle.exclusive_cumsum' must have no user or exactly one pick tt.reduce (through single-use ttg.convert_layouts), but has 2 uses}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    tt.reduce.return %a : i32
  }) : (tensor<128xi32>) -> i32
  tt.store %T, %0#1 : tensor<128x!tt.ptr<i32>>
  tt.return %1 : i32
}

// -----

#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked1 = #ttg.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  tt.func @convert_with_two_users(%x: tensor<128xi32, #blocked>) -> (i32, tensor<128xi32, #blocked1>) {
    // expected-error @+1 {{narrowed result 1 of TLE marker 'tle.exclusive_cumsum' must have no user or exactly one pick tt.reduce (through single-use ttg.convert_layouts), but the ttg.convert_layout on it has 2 uses}}
    %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked>, tensor<128xi32, #blocked>
    %c = ttg.convert_layout %0#1 : tensor<128xi32, #blocked> -> tensor<128xi32, #blocked1>
    %1 = "tt.reduce"(%c) <{axis = 0 : i32}> ({
    ^bb0(%a: i32, %b: i32):
      tt.reduce.return %a : i32
    }) : (tensor<128xi32, #blocked1>) -> i32
    tt.return %1, %c : i32, tensor<128xi32, #blocked1>
  }
}

// -----

// A real sum is not a pick.
tt.func @reduce_not_a_pick(%x: tensor<128xi32>) -> i32 {
  // expected-error @+1 {{narrowed result 1 of TLE marker 'tle.exclusive_cumsum' must have no user or exactly one pick tt.reduce (through single-use ttg.convert_layouts), but is used by a tt.reduce that does not return its first argument}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    %s = arith.addi %a, %b : i32
    tt.reduce.return %s : i32
  }) : (tensor<128xi32>) -> i32
  tt.return %1 : i32
}

// -----

// Returning the second argument is not a pick either.
tt.func @reduce_returns_second(%x: tensor<128xi32>) -> i32 {
  // expected-error @+1 {{is used by a tt.reduce that does not return its first argument}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    tt.reduce.return %b : i32
  }) : (tensor<128xi32>) -> i32
  tt.return %1 : i32
}

// -----

// A pick of two tensors at once is not the convention's pick reduce.
tt.func @reduce_of_two(%x: tensor<128xi32>, %y: tensor<128xi32>) -> i32 {
  // expected-error @+1 {{is used by a tt.reduce that does not return its first argument}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %1:2 = "tt.reduce"(%0#1, %y) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32, %c: i32, %d: i32):
    tt.reduce.return %a, %b : i32, i32
  }) : (tensor<128xi32>, tensor<128xi32>) -> (i32, i32)
  tt.return %1#0 : i32
}

// -----

// Picked along axis 0 of a 32x32 input, the shape would match an axis-1
// total; the axes must agree.
tt.func @pick_along_other_axis(%x: tensor<32x32xi32>) -> tensor<32xi32> {
  // expected-error @+1 {{narrowed result 1 of TLE marker 'tle.exclusive_cumsum' is picked along axis 0, but the op's axis is 1}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 1 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<32x32xi32> -> tensor<32x32xi32>, tensor<32x32xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    tt.reduce.return %a : i32
  }) : (tensor<32x32xi32>) -> tensor<32xi32>
  tt.return %1 : tensor<32xi32>
}

// -----

tt.func @narrowed_out_of_range(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.marker.narrowed' lists result 2, but the marker has 2}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = array<i32: 2>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @narrowed_not_an_array(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{'tle.marker.narrowed' must be an array<i32: ...>, got [1 : i32]}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narrowed = [1 : i32]}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @unknown_marker_key(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{unknown marker key 'tle.marker.narowed' in TLE marker 'tle.exclusive_cumsum'}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, tle.marker.narowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}

// -----

tt.func @scalar_operand_not_splat(%g: tensor<128x!tt.ptr<f32>>, %p: tensor<128xi32>, %delta: i64) -> tensor<128x!tt.ptr<f32>> {
  %d = tt.splat %delta : i64 -> tensor<128xi64>
  // expected-error @+1 {{scalar operand 1 of TLE marker 'tle.remote_pointers' is not defined by a tt.splat}}
  %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<device>, tle.marker.scalar_operands = array<i32: 1, 2>}" {constraints = "=l,l,r,l", packed_element = 1 : i32, pure = false} %g, %p, %d : tensor<128x!tt.ptr<f32>>, tensor<128xi32>, tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  tt.return %r : tensor<128x!tt.ptr<f32>>
}

// -----

// Without tle.marker.scalar_operands the op gets the splatted tensor and its
// verifier rejects it (a tensor of shard ids is fine, a tensor offset is not).
tt.func @scalar_operand_not_listed(%g: tensor<128x!tt.ptr<f32>>, %peer: i32, %delta: i64) -> tensor<128x!tt.ptr<f32>> {
  %p = tt.splat %peer : i32 -> tensor<128xi32>
  %d = tt.splat %delta : i64 -> tensor<128xi64>
  // expected-error @+1 {{'tle.remote_pointers' op operand #2 must be 64-bit signless integer, but got 'tensor<128xi64>'}}
  %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<device>}" {constraints = "=l,l,r,l", packed_element = 1 : i32, pure = false} %g, %p, %d : tensor<128x!tt.ptr<f32>>, tensor<128xi32>, tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  tt.return %r : tensor<128x!tt.ptr<f32>>
}

// -----

// An op without type inference cannot have an unused narrowed result.
tt.func @narrowed_unused_without_inference(%g: tensor<128x!tt.ptr<f32>>, %peer: i32, %delta: i64) {
  %p = tt.splat %peer : i32 -> tensor<128xi32>
  %d = tt.splat %delta : i64 -> tensor<128xi64>
  // expected-error @+1 {{narrowed result 0 of TLE marker 'tle.remote_pointers' has no user, and 'tle.remote_pointers' does not infer its result types}}
  %r = tt.elementwise_inline_asm "tle.remote_pointers {space = #tle.remote_space<device>, tle.marker.scalar_operands = array<i32: 1, 2>, tle.marker.narrowed = array<i32: 0>}" {constraints = "=l,l,r,l", packed_element = 1 : i32, pure = false} %g, %p, %d : tensor<128x!tt.ptr<f32>>, tensor<128xi32>, tensor<128xi64> -> tensor<128x!tt.ptr<f32>>
  tt.return
}

// -----

// Every bad marker of a module is reported, not only the first.
tt.func @two_bad_markers(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{unknown TLE marker 'tle.foo'}}
  %0 = tt.elementwise_inline_asm "tle.foo" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>
  // expected-error @+1 {{'tle.exclusive_cumsum' op axis 3 is out of range for a rank-1 input}}
  %1:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 3 : i32, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %0 : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %1#0 : tensor<128xi32>
}

// -----

// tle.load(is_async=True) through shared-memory pointers: the op's verifier
// speaks at the marker.
tt.func public @async_load_shared(%p: tensor<128x!tt.ptr<f32, 3>>) {
  // expected-error @+1 {{'tle.async_load' op expects pointers into global memory (address space 1), got address space 3}}
  %a = tt.elementwise_inline_asm "tle.async_load {operandSegmentSizes = array<i32: 1, 0, 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %p : tensor<128x!tt.ptr<f32, 3>> -> tensor<128xf32>
  tt.store %p, %a : tensor<128x!tt.ptr<f32, 3>>
  tt.return
}

// -----

// An axis that does not fit in 64 bits reaches the op's verifier.
tt.func @axis_too_wide(%x: tensor<128xi32>) -> i32 {
  // expected-error @+1 {{'tle.exclusive_cumsum' op attribute 'axis' failed to satisfy constraint: 32-bit signless integer attribute}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 99999999999999999999 : i128, reverse = false, tle.marker.narrowed = array<i32: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  %1 = "tt.reduce"(%0#1) <{axis = 0 : i32}> ({
  ^bb0(%a: i32, %b: i32):
    tt.reduce.return %a : i32
  }) : (tensor<128xi32>) -> i32
  tt.return %1 : i32
}

// -----

// A dense array of index in marker text is refused before MLIR's parser sees
// it (MLIR 22's parser aborts on it: TLE/Support/ParserGuard.h).
tt.func @dense_index_array(%x: tensor<128xi32>) -> tensor<128xi32> {
  // expected-error @+1 {{TLE marker 'tle.exclusive_cumsum': a dense array of 'index' ('array<index...>') is not supported}}
  %0:2 = tt.elementwise_inline_asm "tle.exclusive_cumsum {axis = 0 : i32, a = array<index: 1>}" {constraints = "=r,=r,r", packed_element = 1 : i32, pure = false} %x : tensor<128xi32> -> tensor<128xi32>, tensor<128xi32>
  tt.return %0#0 : tensor<128xi32>
}
