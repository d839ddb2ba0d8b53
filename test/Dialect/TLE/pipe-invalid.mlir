// RUN: tle-opt %s -split-input-file -verify-diagnostics

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @capacity_zero(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{pipe capacity must be positive, got 0}}
  %p = tle.pipe.create "p" capacity 0 readers ["r"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @scope_cluster(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{scope 'cluster' is not supported; only "cta" is}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {scope = "cluster"}
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [r]>
func.func @field_names_count(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+2 {{pipe needs one field name per field, got 2 names for 1 fields}}
  // expected-error @+1 {{'tle.pipe.create' op failed to infer returned types}}
  %p = "tle.pipe.create"(%k) <{capacity = 2 : i32, field_names = ["k", "v"], name = "p", readers = ["r"]}> : (!ttg.memdesc<2x64xf16, #shared, #smem, mutable>) -> !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @field_name_not_identifier(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{field name '1k' is not a valid identifier}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields("1k" = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @duplicate_field(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{duplicate field name 'k'}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>, k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

func.func @field_not_memdesc(%k: f32) {
  // expected-error @+1 {{pipe field 'k' must be a !ttg.memdesc, got 'f32'}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : f32)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
func.func @field_not_smem(%k: !ttg.memdesc<2x64xf16, #shared, #tle.memory_space<tmem>, mutable>) {
  // expected-error @+1 {{pipe field 'k' must be in #ttg.shared_memory, got #tle.memory_space<tmem>}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #tle.memory_space<tmem>, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @field_immutable(%k: !ttg.memdesc<2x64xf16, #shared, #smem>) {
  // expected-error @+1 {{pipe field 'k' must be mutable}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
func.func @field_rank1(%k: !ttg.memdesc<2xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{pipe field 'k' must have rank >= 2 (slot dim first), got rank 1}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<2xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @field_dim0(%k: !ttg.memdesc<3x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{pipe field 'k' has dim 0 = 3 but the capacity is 2}}
  %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(k = %k : !ttg.memdesc<3x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @no_readers(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{pipe needs at least one reader}}
  %p = tle.pipe.create "p" capacity 2 readers [] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @reader_not_identifier(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{reader name 'a-b' is not a valid identifier}}
  %p = tle.pipe.create "p" capacity 2 readers ["a-b"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @duplicate_reader(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{duplicate reader name 'mma'}}
  %p = tle.pipe.create "p" capacity 2 readers ["mma", "epi", "mma"] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @reader_not_string(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+1 {{'tle.pipe.create' field_names and readers must be strings}}
  %p = tle.pipe.create "p" capacity 2 readers [1] fields(k = %k : !ttg.memdesc<2x64xf16, #shared, #smem, mutable>)
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [other]>
func.func @create_result_type(%k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>) {
  // expected-error @+2 {{'tle.pipe.create' op failed to infer returned types}}
  // expected-error @+1 {{'tle.pipe.create' op inferred type(s) '!tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>], readers = [r]>' are incompatible with return type(s) of operation '!tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>], readers = [other]>'}}
  %p = "tle.pipe.create"(%k) <{capacity = 2 : i32, field_names = ["k"], name = "p", readers = ["r"]}> : (!ttg.memdesc<2x64xf16, #shared, #smem, mutable>) -> !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
// The type verifier also guards pipe types written by hand.
// expected-error @+1 {{pipe field 'k' has dim 0 = 4 but the capacity is 2}}
func.func @bad_type(%p: !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<4x64xf16, #shared, #smem, mutable>], readers = [r]>) {
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma, epi]>
func.func @wait_unknown_reader(%p: !pipe) {
  // expected-error @+1 {{'tle.pipe.reader_wait' op 'load' is not a reader of this pipe (readers: mma, epi)}}
  %s, %c = tle.pipe.reader_wait %p reader "load" : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @release_unknown_reader(%p: !pipe, %s: i32) {
  // expected-error @+1 {{'tle.pipe.reader_release' op 'epi' is not a reader of this pipe (readers: mma)}}
  tle.pipe.reader_release %p[%s] reader "epi" : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
func.func @close_one_shot(%k: !ttg.memdesc<1x64xf16, #shared, #smem, mutable>) {
  %p = tle.pipe.create "q" capacity 1 readers ["mma"] fields(k = %k : !ttg.memdesc<1x64xf16, #shared, #smem, mutable>) {one_shot = true}
  // expected-error @+1 {{'tle.pipe.writer_close' op cannot close a one-shot pipe; its stream ends after capacity slots}}
  tle.pipe.writer_close %p : !tle.pipe<capacity = 1, fields = [k: !ttg.memdesc<1x64xf16, #shared, #smem, mutable>], readers = [mma], one_shot>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @commit_slot_range(%p: !pipe) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{'tle.pipe.writer_commit' op slot 2 is out of range for a pipe of capacity 2}}
  tle.pipe.writer_commit %p[%c2] : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @release_slot_range(%p: !pipe) {
  %cm1 = arith.constant -1 : i32
  // expected-error @+1 {{'tle.pipe.reader_release' op slot -1 is out of range for a pipe of capacity 2}}
  tle.pipe.reader_release %p[%cm1] reader "mma" : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @slot_view_range(%p: !pipe) {
  %c5 = arith.constant 5 : i32
  // expected-error @+1 {{'tle.pipe.slot' op slot 5 is out of range for a pipe of capacity 2}}
  %v = tle.pipe.slot %p[%c5] field "k" : !pipe -> !ttg.memdesc<64xf16, #shared, #smem, mutable, 2x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @slot_unknown_field(%p: !pipe, %s: i32) {
  // expected-error @+1 {{'tle.pipe.slot' op pipe has no field 'v'}}
  %v = tle.pipe.slot %p[%s] field "v" : !pipe -> !ttg.memdesc<64xf16, #shared, #smem, mutable, 2x64>
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64x32xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @slot_result_type(%p: !pipe, %s: i32) {
  // expected-error @+1 {{'tle.pipe.slot' op result type '!ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable, 2x64x32>' must be !ttg.memdesc<64x32xf16, #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>, #ttg.shared_memory, mutable>, the slot view of field 'k'}}
  %v = tle.pipe.slot %p[%s] field "k" : !pipe -> !ttg.memdesc<64x32xf16, #shared, #smem, mutable, 2x64x32>
  return
}

// -----

func.func @not_a_pipe(%x: i32) {
  // expected-error @+1 {{'tle.pipe.writer_acquire' op operand #0 must be handle of a CTA-scoped producer/consumer pipe (`!tle.pipe`), but got 'i32'}}
  %s = tle.pipe.writer_acquire %x : i32
  return
}

// -----

// A cursor position names a slot of the ring.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @acquire_stage_out_of_range(%p: !pipe, %phase: i1) {
  %c2 = arith.constant 2 : i32
  // expected-error @+1 {{'tle.pipe.writer_acquire' op stage 2 is out of range for a pipe of capacity 2}}
  %s = tle.pipe.writer_acquire %p at [%c2, %phase] : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @wait_stage_negative(%p: !pipe, %phase: i1) {
  %c = arith.constant -1 : i32
  // expected-error @+1 {{'tle.pipe.reader_wait' op stage -1 is out of range for a pipe of capacity 2}}
  %s, %closed = tle.pipe.reader_wait %p at [%c, %phase] reader "mma" : !pipe
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @close_stage_out_of_range(%p: !pipe, %phase: i1) {
  %c = arith.constant 5 : i32
  // expected-error @+1 {{'tle.pipe.writer_close' op stage 5 is out of range for a pipe of capacity 2}}
  tle.pipe.writer_close %p at [%c, %phase] : !pipe
  return
}

// -----

// A position is a stage and a phase (the generic form can spell one alone).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @stage_without_phase(%p: !pipe, %s: i32) {
  // expected-error @+1 {{'tle.pipe.writer_acquire' op a position needs both a stage and a phase, got a stage only}}
  %slot = "tle.pipe.writer_acquire"(%p, %s) {operandSegmentSizes = array<i32: 1, 1, 0>} : (!pipe, i32) -> i32
  return
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0]}>
#smem = #ttg.shared_memory
!pipe = !tle.pipe<capacity = 2, fields = [k: !ttg.memdesc<2x64xf16, #shared, #smem, mutable>], readers = [mma]>
func.func @phase_not_i1(%p: !pipe, %s: i32) {
  // expected-error @+1 {{'tle.pipe.writer_acquire' op operand #2 must be 1-bit signless integer, but got 'i32'}}
  %slot = "tle.pipe.writer_acquire"(%p, %s, %s) {operandSegmentSizes = array<i32: 1, 1, 1>} : (!pipe, i32, i32) -> i32
  return
}
