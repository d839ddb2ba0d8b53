// RUN: tle-opt %s -split-input-file -verify-diagnostics --triton-tle-lower-pipes

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @release_before_acquire(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // expected-error @+1 {{'tle.pipe.reader_release' op (pipe 'p'): the slot must come from a tle.pipe.reader_wait of reader 'r' on this pipe (release before acquire?)}}
      tle.pipe.reader_release %p[%c0] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p : !p
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @release_of_writer_slot(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %w = tle.pipe.writer_acquire %p : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p : !p
      // expected-error @+1 {{the slot must come from a tle.pipe.reader_wait of reader 'r' on this pipe (release before acquire?)}}
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @commit_before_acquire(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %i: i32) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %c = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{the slot must come from a tle.pipe.writer_acquire of this pipe (commit before acquire?)}}
      tle.pipe.writer_commit %p[%i] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @writer_in_reader_partition(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %w = tle.pipe.writer_acquire %p : !p
      tle.pipe.writer_commit %p[%w] : !p
      // expected-error @+1 {{the writer is used by a reader partition: partition 0 both writes the pipe and reads it as reader 'r'; only a one_shot pipe, whose writer never waits, may be read where it is written}}
      %s, %c = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @writer_in_two_partitions(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %w = tle.pipe.writer_acquire %p : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{the writer is used in partition 0 and in the default partition; each endpoint belongs to one partition}}
      tle.pipe.writer_close %p : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @outside(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    // expected-error @+1 {{'tle.pipe.writer_acquire' op must be inside a tle.gpu.warp_specialize partition (pipe endpoints synchronize concurrent partitions), or before one (a writer filling the slots its partitions read)}}
    %w = tle.pipe.writer_acquire %p : !p
    tt.return
  }
}

// -----

// A writer before the warp_specialize cannot wait for a released slot: its
// readers have not started.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @before_not_one_shot(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    // expected-error @+1 {{the writer fills slots before the tle.gpu.warp_specialize its readers run in, so it cannot wait for a released slot: make the pipe one_shot (at most `capacity` items)}}
    %w = tle.pipe.writer_acquire %p : !p
    tle.pipe.writer_commit %p[%w] : !p
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s, %c = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A reader cannot be before the warp_specialize (nothing has written yet).
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 1, fields = [x: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>], readers = [r], one_shot>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @reader_before(%buf: !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "p" capacity 1 readers ["r"] fields(x = %buf : !ttg.memdesc<1x128xf32, #shared, #smem, mutable>) {one_shot = true}
    // expected-error @+1 {{'tle.pipe.reader_wait' op must be inside a tle.gpu.warp_specialize partition (pipe endpoints synchronize concurrent partitions)}}
    %s, %c = tle.pipe.reader_wait %p reader "r" : !p
    tle.warp_specialize()
    default {
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %w = tle.pipe.writer_acquire %p : !p
      tle.pipe.writer_commit %p[%w] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 4 : i32} {
  tt.func @while_loop(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %go: i1) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %c = tle.pipe.reader_wait %p reader "r" : !p
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{'scf.while' op contains uses of the writer of pipe 'p'; pipe slots can only be tracked through scf.for and scf.if}}
      scf.while : () -> () {
        scf.condition(%go)
      } do {
        %w = tle.pipe.writer_acquire %p : !p
        tle.pipe.writer_commit %p[%w] : !p
        scf.yield
      }
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// tle.gpu.copy(is_async=True) into a slot the reader waited for.
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!p = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [r]>
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @async_copy_into_reader_slot(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
    %p = tle.pipe.create "p" capacity 2 readers ["r"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %c = tle.pipe.reader_wait %p reader "r" : !p
      %v = tt.load %ptrs {tle.async_copy} : tensor<128x!tt.ptr<f32>, #blocked>
      %view = tle.pipe.slot %p[%s] field "x" : !p -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      // expected-error @+1 {{'tle.local_store' op (pipe 'p'): tle.gpu.copy(is_async=True) writes a slot a reader waited for; asynchronous copies fill the writer's slots (from acquire())}}
      tle.local_store %v, %view : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
      tle.pipe.reader_release %p[%s] reader "r" : !p
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p : !p
      tle.pipe.writer_commit %p[%s] : !p
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// tle.gpu.copy(is_async=True) into a buffer that is no pipe slot: the tagged
// load must feed only the store into the buffer (the copy's value).
#blocked = #ttg.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
module attributes {"ttg.num-warps" = 1 : i32} {
  tt.func @async_copy_load_used_twice(%buf: !ttg.memdesc<128xf32, #shared, #smem, mutable>, %ptrs: tensor<128x!tt.ptr<f32>, #blocked>) {
    // expected-error @+1 {{'tt.load' op tle.gpu.copy(is_async=True): the load must only be stored into the copy's buffer}}
    %v = tt.load %ptrs {tle.async_copy} : tensor<128x!tt.ptr<f32>, #blocked>
    tle.local_store %v, %buf : tensor<128xf32, #blocked> -> !ttg.memdesc<128xf32, #shared, #smem, mutable>
    tt.store %ptrs, %v : tensor<128x!tt.ptr<f32>, #blocked>
    tt.return
  }
}

// -----

// A reader that waits but never releases: the writer would wait forever for a
// free slot once the ring is full (a hang on the GPU), so it is an error.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @never_released(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      // expected-error @+1 {{reader 'c' waits for slots but never releases one: the writer would wait forever for a free slot once the ring is full; release every slot it waits for (reader.release(slot)), or make the pipe one_shot}}
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p : !ring
      tle.pipe.writer_commit %p[%s] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// A writer that acquires but never commits: the readers would wait forever.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c], one_shot>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @never_committed(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {one_shot = true}
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      // expected-error @+1 {{the writer acquires slots but never commits one: its readers would wait forever; commit every slot it acquires (writer.commit(slot))}}
      %s = tle.pipe.writer_acquire %p : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// An endpoint takes slots at cursor positions or in ring order, not both: a
// threaded counter and the kernel's own cursor would name different slots.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @mixed_positions(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %false = arith.constant false
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.pipe.reader_release %p[%s] reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p at [%c0, %false] : !ring
      tle.pipe.writer_commit %p[%c0] : !ring
      // expected-error @+1 {{the writer takes slots both at cursor positions and in ring order: give every acquire / wait / close of an endpoint a cursor, or none}}
      %t = tle.pipe.writer_acquire %p : !ring
      tle.pipe.writer_commit %p[%t] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}

// -----

// Without cursors a commit still takes only a slot its acquire handed out.
#shared = #ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>
#smem = #ttg.shared_memory
!ring = !tle.pipe<capacity = 2, fields = [x: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>], readers = [c]>
module attributes {"ttg.num-warps" = 4 : i32, "ttg.threads-per-warp" = 32 : i32} {
  tt.func @implicit_commit_of_a_constant(%buf: !ttg.memdesc<2x128xf32, #shared, #smem, mutable>) {
    %c0 = arith.constant 0 : i32
    %p = tle.pipe.create "ring" capacity 2 readers ["c"] fields(x = %buf : !ttg.memdesc<2x128xf32, #shared, #smem, mutable>)
    tle.warp_specialize()
    default {
      %s, %closed = tle.pipe.reader_wait %p reader "c" : !ring
      tle.pipe.reader_release %p[%s] reader "c" : !ring
      tle.warp_yield
    }
    partition0() num_warps(1) {
      %s = tle.pipe.writer_acquire %p : !ring
      // expected-error @+1 {{the slot must come from a tle.pipe.writer_acquire of this pipe}}
      tle.pipe.writer_commit %p[%c0] : !ring
      tle.warp_return
    } : () -> ()
    tt.return
  }
}
