// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers -verify-diagnostics
// RUN: tle-opt %s -split-input-file --triton-tle-raise-markers=verify-only=true -verify-diagnostics

// Buffer handles (tle.marker.result_types) and tle.marker.no_results: every
// misuse is reported at the marker, in both modes.

// A handle used by something other than a marker (here tt.addptr).
tt.func @handle_arithmetic(%o: i32) -> !tt.ptr<f32, 3> {
  // expected-error @+1 {{buffer handle (result 0 of TLE marker 'tle.alloc') is used by 'tt.addptr'; a buffer handle may only be passed to TLE markers, directly or through tt.splat, tt.broadcast and ttg.convert_layout}}
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  // expected-note @+1 {{used here}}
  %p = tt.addptr %buf, %o : !tt.ptr<f32, 3>, i32
  tt.return %p : !tt.ptr<f32, 3>
}

// -----

// Through a splat into a tt.load: still not a marker.
tt.func @handle_loaded() -> tensor<128xf32> {
  // expected-error @+1 {{is used by 'tt.load'}}
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %buf : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
  // expected-note @+1 {{used here}}
  %v = tt.load %s : tensor<128x!tt.ptr<f32, 3>>
  tt.return %v : tensor<128xf32>
}

// -----

// A marker with no results whose dummy result is used.
tt.func @dummy_used(%x: tensor<128xf32>) -> tensor<128xi32> {
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %buf : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
  // expected-error @+1 {{TLE marker 'tle.local_store' has no results ('tle.marker.no_results'), but its dummy result 0 is used by 'tt.return'}}
  %d = tt.elementwise_inline_asm "tle.local_store {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %s : tensor<128xf32>, tensor<128x!tt.ptr<f32, 3>> -> tensor<128xi32>
  // expected-note @+1 {{used here}}
  tt.return %d : tensor<128xi32>
}

// -----

// Without no_results, a result-less op does not match the marker.
tt.func @missing_no_results() {
  // expected-error @+1 {{'tle.distributed_barrier' op requires zero results}}
  %d = tt.elementwise_inline_asm "tle.distributed_barrier {group = #tle.distributed_group<cluster>}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

tt.func @bad_no_results() {
  // expected-error @+1 {{'tle.marker.no_results' must be true or false, got 1 : i64}}
  %d = tt.elementwise_inline_asm "tle.distributed_barrier {group = #tle.distributed_group<cluster>, tle.marker.no_results = 1}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

tt.func @result_types_count() {
  // expected-error @+1 {{'tle.marker.result_types' lists 2 types, but the marker has 1 results}}
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [i32, i32]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  tt.return
}

// -----

tt.func @result_types_not_types() {
  // expected-error @+1 {{'tle.marker.result_types' entry 0 is not a type: 3 : i64}}
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [3]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  tt.return
}

// -----

tt.func @result_types_and_no_results() {
  // expected-error @+1 {{'tle.marker.result_types' and 'tle.marker.no_results' cannot be combined}}
  %d = tt.elementwise_inline_asm "tle.distributed_barrier {group = #tle.distributed_group<cluster>, tle.marker.no_results = true, tle.marker.result_types = [i32]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> i32
  tt.return
}

// -----

// The declared buffer type fails tle.alloc's verifier: reported once, and
// the marker that takes the handle stays quiet.
tt.func @bad_buffer() -> tensor<128x!tt.ptr<f32, 3>> {
  // expected-error @+1 {{'tle.alloc' op result buffer must be mutable}}
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %buf : !tt.ptr<f32, 3> -> tensor<128x!tt.ptr<f32, 3>>
  %p = tt.elementwise_inline_asm "tle.local_pointers {tle.marker.scalar_operands = array<i32: 0>}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %s : tensor<128x!tt.ptr<f32, 3>> -> tensor<128x!tt.ptr<f32, 3>>
  tt.return %p : tensor<128x!tt.ptr<f32, 3>>
}

// -----

// A buffer op verifier error on a marker that takes the handle.
tt.func @store_shape(%x: tensor<64xf32>) {
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<128xf32, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f32, 3>
  %s = tt.splat %buf : !tt.ptr<f32, 3> -> tensor<64x!tt.ptr<f32, 3>>
  // expected-error @+1 {{'tle.local_store' op value shape [64] must equal the buffer shape [128]}}
  %d = tt.elementwise_inline_asm "tle.local_store {tle.marker.scalar_operands = array<i32: 1>, tle.marker.no_results = true}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %x, %s : tensor<64xf32>, tensor<64x!tt.ptr<f32, 3>> -> tensor<64xi32>
  tt.return
}

// -----

// An atomic marker on global pointers: tle.atomic_rmw's verifier says to
// use tt.atomic_rmw.
tt.func @atomic_global(%p: tensor<64x!tt.ptr<f32>>, %v: tensor<64xf32>) -> tensor<64xf32> {
  // expected-error @+1 {{'tle.atomic_rmw' op pointers in address space 1 (global memory) must use Triton's tt.atomic_rmw}}
  %0 = tt.elementwise_inline_asm "tle.atomic_rmw {kind = #tle.atomic_kind<fadd>, sem = #tle.mem_semantic<relaxed>, scope = #tle.mem_scope<gpu>}" {constraints = "=r,r,r", packed_element = 1 : i32, pure = false} %p, %v : tensor<64x!tt.ptr<f32>>, tensor<64xf32> -> tensor<64xf32>
  tt.return %0 : tensor<64xf32>
}

// -----

// tle.pipe.create infers its type before it is verified; a capacity that is
// not an i32 is left to the verifier.
tt.func @pipe_capacity_not_i32() {
  %buf = tt.elementwise_inline_asm "tle.alloc {scope = #tle.memory_space<smem>, tle.marker.result_types = [!ttg.memdesc<2x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>]}" {constraints = "=r", packed_element = 1 : i32, pure = false} -> !tt.ptr<f16, 3>
  // expected-error @+1 {{'tle.pipe.create' op attribute 'capacity' failed to satisfy constraint: 32-bit signless integer attribute}}
  %pipe = tt.elementwise_inline_asm "tle.pipe.create {name = \22kv\22, capacity = 2 : ui32, scope = \22cta\22, field_names = [\22k\22], readers = [\22mma\22], one_shot = false, tle.marker.scalar_operands = array<i32: 0>, tle.marker.result_types = [!tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>], readers = [\22mma\22]>]}" {constraints = "=r,r", packed_element = 1 : i32, pure = false} %buf : !tt.ptr<f16, 3> -> !tt.ptr<i8, 3>
  tt.return
}
