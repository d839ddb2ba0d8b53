// RUN: tle-opt %s -split-input-file --triton-tle-lower-distributed | FileCheck %s --implicit-check-not=tle.reshard --implicit-check-not=tle.make_sharded_tensor

// A cluster of 4 CTAs along "cx"; 256-element tensors in 64-element blocks.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mesh = #tle.device_mesh<shape = [4], axes = ["cx"], levels = ["block_cluster"]>
#split = #tle.sharding<mesh = #mesh, split = [S<"cx">]>
#full = #tle.sharding<mesh = #mesh, split = [B]>
#part = #tle.sharding<mesh = #mesh, split = [B], partial = ["cx"]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // S -> B, all-gather: the block goes into a fresh buffer, cluster barrier,
  // then element i comes from CTA i / 64 at index i % 64: one load per CTA
  // (a uniform shard id, so one mapa of the buffer's base when lowered),
  // masked to the elements that CTA holds.
  // CHECK-LABEL: tt.func @all_gather
  // CHECK-NEXT: %[[BUF:.*]] = tle.alloc smem : () -> !ttg.memdesc<64xf32, #shared, #smem, mutable>
  // CHECK-NEXT: %{{.*}} = tle.shard_id #{{.*}}, "cx"
  // CHECK-NEXT: tle.local_store %arg0, %[[BUF]]
  // CHECK-NEXT: tle.distributed_barrier cluster
  // CHECK-NEXT: %[[I:.*]] = tt.make_range {end = 256 : i32, start = 0 : i32} : tensor<256xi32, #blocked>
  // CHECK-NEXT: %[[C64:.*]] = arith.constant dense<64> : tensor<256xi32, #blocked>
  // CHECK-NEXT: %[[CTA:.*]] = arith.divui %[[I]], %[[C64]]
  // CHECK-NEXT: %[[OFF:.*]] = arith.remui %[[I]], %[[C64]]
  // CHECK-NEXT: %[[P:.*]] = tle.local_pointers %[[BUF]][%[[OFF]]] : {{.*}} -> tensor<256x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
  // CHECK-NEXT: %[[K0:.*]] = arith.constant dense<0> : tensor<256xi32, #blocked>
  // CHECK-NEXT: %[[H0:.*]] = arith.cmpi eq, %[[CTA]], %[[K0]]
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[R0:.*]] = tle.remote_pointers cluster %[[P]], %[[C0]] : tensor<256x!tt.ptr<f32, 3>, #blocked> -> tensor<256x!tt.ptr<f32, 7>, #blocked>
  // CHECK-NEXT: %[[V0:.*]] = tt.load %[[R0]], %[[H0]], %[[Z]]
  // CHECK-NEXT: %[[K1:.*]] = arith.constant dense<1> : tensor<256xi32, #blocked>
  // CHECK-NEXT: %[[H1:.*]] = arith.cmpi eq, %[[CTA]], %[[K1]]
  // CHECK-NEXT: %[[C1:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[R1:.*]] = tle.remote_pointers cluster %[[P]], %[[C1]]
  // CHECK-NEXT: %[[V1:.*]] = tt.load %[[R1]], %[[H1]], %[[Z]]
  // CHECK-NEXT: %[[S1:.*]] = arith.select %[[H1]], %[[V1]], %[[V0]]
  // CHECK-COUNT-2: arith.select
  // CHECK-NEXT: tt.return
  tt.func @all_gather(%x: tensor<64xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %a = tle.make_sharded_tensor %x sharding(#split) shape [256] : tensor<64xf32, #blocked>
    %y = tle.reshard %a sharding(#split -> #full) shape [256] : tensor<64xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }

  // P -> B, all-reduce: the whole block from CTA 0, 1, 2, 3, added in that order.
  // CHECK-LABEL: tt.func @all_reduce
  // CHECK: tle.distributed_barrier cluster
  // CHECK: %[[P:.*]] = tle.local_pointers
  // The peer is the same for every element: a scalar shard id.
  // CHECK: %[[R0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[Q0:.*]] = tle.remote_pointers cluster %[[P]], %[[R0]] : tensor<256x!tt.ptr<f32, 3>, #blocked> -> tensor<256x!tt.ptr<f32, 7>, #blocked>{{$}}
  // CHECK-NEXT: %[[V0:.*]] = tt.load %[[Q0]]
  // CHECK-NEXT: %[[R1:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: %[[Q1:.*]] = tle.remote_pointers cluster %[[P]], %[[R1]]
  // CHECK-NEXT: %[[V1:.*]] = tt.load %[[Q1]]
  // CHECK-NEXT: %[[S1:.*]] = arith.addf %[[V0]], %[[V1]] : tensor<256xf32, #blocked>
  // CHECK: %[[S2:.*]] = arith.addf %[[S1]], %{{.*}} : tensor<256xf32, #blocked>
  // CHECK: %[[S3:.*]] = arith.addf %[[S2]], %{{.*}} : tensor<256xf32, #blocked>
  // CHECK-NEXT: tt.return %[[S3]]
  tt.func @all_reduce(%x: tensor<256xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %y = tle.reshard %x sharding(#part -> #full) shape [256] : tensor<256xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }

  // P -> S, reduce-scatter: CTA c reads elements [64 c, 64 c + 64) of every
  // CTA's block (integers: arith.addi).
  // CHECK-LABEL: tt.func @reduce_scatter
  // CHECK: %[[ME:.*]] = tle.shard_id #{{.*}}, "cx"
  // CHECK: tle.distributed_barrier cluster
  // CHECK-NEXT: %[[I:.*]] = tt.make_range {end = 64 : i32, start = 0 : i32}
  // CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
  // CHECK-NEXT: %[[START:.*]] = arith.muli %[[ME]], %[[C64]] : i32
  // CHECK-NEXT: %[[SPLAT:.*]] = tt.splat %[[START]]
  // CHECK-NEXT: %[[G:.*]] = arith.addi %[[I]], %[[SPLAT]]
  // CHECK-NEXT: %[[P:.*]] = tle.local_pointers %{{.*}}[%[[G]]] {{.*}} -> tensor<64x!tt.ptr<i32, 3>, #blocked>
  // CHECK-COUNT-3: arith.addi %{{.*}}, %{{.*}} : tensor<64xi32, #blocked>
  // CHECK-NEXT: tt.return
  tt.func @reduce_scatter(%x: tensor<256xi32, #blocked>) -> tensor<64xi32, #blocked> {
    %y = tle.reshard %x sharding(#part -> #split) shape [256] : tensor<256xi32, #blocked> -> tensor<64xi32, #blocked>
    tt.return %y : tensor<64xi32, #blocked>
  }

  // B -> S, scatter: a slice of the own buffer; no barrier, no remote pointer
  // (the CTA barrier between the store and the load comes from
  // triton-tle-insert-local-pointer-barriers).
  // CHECK-LABEL: tt.func @scatter
  // CHECK-NOT: tle.distributed_barrier
  // CHECK-NOT: tle.remote_pointers
  // CHECK: %[[P:.*]] = tle.local_pointers {{.*}} -> tensor<64x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: %[[V:.*]] = tt.load %[[P]] : tensor<64x!tt.ptr<f32, 3>, #blocked>
  // CHECK-NEXT: tt.return %[[V]]
  tt.func @scatter(%x: tensor<256xf32, #blocked>) -> tensor<64xf32, #blocked> {
    %y = tle.reshard %x sharding(#full -> #split) shape [256] : tensor<256xf32, #blocked> -> tensor<64xf32, #blocked>
    tt.return %y : tensor<64xf32, #blocked>
  }

  // Gather to CTA 2: the pulls are masked by rank == 2 (and by the CTA
  // holding the element), the others get zeros.
  // CHECK-LABEL: tt.func @gather_root
  // CHECK: %[[ME:.*]] = tle.shard_id #{{.*}}, "cx"
  // CHECK: %[[C2:.*]] = arith.constant 2 : i32
  // CHECK-NEXT: %[[IS:.*]] = arith.cmpi eq, %[[ME]], %[[C2]] : i32
  // CHECK-NEXT: %[[M:.*]] = tt.splat %[[IS]] : i1 -> tensor<256xi1, #blocked>
  // CHECK-NEXT: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<256xf32, #blocked>
  // CHECK: %[[H0:.*]] = arith.cmpi eq
  // CHECK-NEXT: %[[M0:.*]] = arith.andi %[[M]], %[[H0]]
  // CHECK-NEXT: %[[C0:.*]] = arith.constant 0 : i32
  // CHECK-NEXT: %[[R:.*]] = tle.remote_pointers cluster %{{.*}}, %[[C0]]
  // CHECK-NEXT: %{{.*}} = tt.load %[[R]], %[[M0]], %[[Z]]
  tt.func @gather_root(%x: tensor<64xf32, #blocked>) -> tensor<256xf32, #blocked> {
    %y = tle.reshard %x sharding(#split -> #full) shape [256] root 2 : tensor<64xf32, #blocked> -> tensor<256xf32, #blocked>
    tt.return %y : tensor<256xf32, #blocked>
  }

  // Same layouts: nothing to do.
  // CHECK-LABEL: tt.func @identity
  // CHECK-NEXT: tt.return %arg0
  tt.func @identity(%x: tensor<64xf32, #blocked>) -> tensor<64xf32, #blocked> {
    %y = tle.reshard %x sharding(#split -> #split) shape [256] : tensor<64xf32, #blocked> -> tensor<64xf32, #blocked>
    tt.return %y : tensor<64xf32, #blocked>
  }
}

// -----

// A 2 x 2 cluster: rows over cx, columns over cy, all-gathered at once. The
// peer's rank is row-major over (cx, cy): (i / 8) * 2 + j / 16.
#blocked = #ttg.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mesh = #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
#s = #tle.sharding<mesh = #mesh, split = [S<"cx">, S<"cy">]>
#b = #tle.sharding<mesh = #mesh, split = [B, B]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @all_gather_2d
  // CHECK: tle.alloc smem : () -> !ttg.memdesc<8x16xf32
  // CHECK: tle.shard_id #{{.*}}, "cx"
  // CHECK: tle.shard_id #{{.*}}, "cy"
  // CHECK: tle.distributed_barrier cluster
  // CHECK: %[[C8:.*]] = arith.constant dense<8> : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[ROW:.*]] = arith.divui %{{.*}}, %[[C8]]
  // CHECK: %[[C16:.*]] = arith.constant dense<16> : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[COL:.*]] = arith.divui %{{.*}}, %[[C16]]
  // CHECK: %[[C2:.*]] = arith.constant dense<2> : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[RX:.*]] = arith.muli %[[ROW]], %[[C2]]
  // CHECK-NEXT: %[[RANK:.*]] = arith.addi %[[RX]], %[[COL]]
  // CHECK: %[[K3:.*]] = arith.constant dense<3> : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[H3:.*]] = arith.cmpi eq, %[[RANK]], %[[K3]] : tensor<16x32xi32, #blocked>
  // CHECK-NEXT: %[[C3:.*]] = arith.constant 3 : i32
  // CHECK-NEXT: %[[R3:.*]] = tle.remote_pointers cluster %{{.*}}, %[[C3]]
  // CHECK-NEXT: tt.load %[[R3]], %[[H3]]
  tt.func @all_gather_2d(%x: tensor<8x16xf32, #blocked>) -> tensor<16x32xf32, #blocked> {
    %y = tle.reshard %x sharding(#s -> #b) shape [16, 32] : tensor<8x16xf32, #blocked> -> tensor<16x32xf32, #blocked>
    tt.return %y : tensor<16x32xf32, #blocked>
  }
}

// -----

// Two GPUs: the block goes to the program's workspace slot, an arrive flag
// barrier, one masked load per peer through its offset, a depart barrier.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#dmesh = #tle.device_mesh<shape = [2], axes = ["gpu"], levels = ["device"]>
#dsplit = #tle.sharding<mesh = #dmesh, split = [S<"gpu">]>
#dfull = #tle.sharding<mesh = #dmesh, split = [B]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @device_all_gather
  // CHECK: tt.get_program_id x : i32
  // CHECK-NEXT: %[[PID:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
  // CHECK-NEXT: %[[C64:.*]] = arith.constant 64 : i32
  // CHECK-NEXT: %[[SLOT:.*]] = arith.muli %[[PID]], %[[C64]] : i32
  // CHECK-NEXT: %[[WS:.*]] = tt.addptr %arg1, %[[SLOT]] : !tt.ptr<f32>, i32
  // CHECK: tt.store %{{.*}}, %arg0 : tensor<64x!tt.ptr<f32>, #blocked>
  // CHECK: %[[O0:.*]] = tt.load %{{.*}} : !tt.ptr<i64>
  // CHECK: %[[O1:.*]] = tt.load %{{.*}} : !tt.ptr<i64>
  // CHECK: %[[FLAGS:.*]] = tt.ptr_to_int %arg2 : !tt.ptr<i32> -> i64
  // Arrive: thread 0 writes the epoch into this program's flag on both GPUs.
  // CHECK-NEXT: gpu.barrier
  // CHECK: %[[TID:.*]] = tt.elementwise_inline_asm "mov.u32 $0, %tid.x;"
  // CHECK-NEXT: %[[MINE:.*]] = arith.addi %{{.*}}, %arg4 : i32
  // CHECK: %[[ADDR:.*]] = arith.addi %[[FLAGS]], %{{.*}} : i64
  // CHECK-NEXT: %[[PEER0:.*]] = arith.addi %[[ADDR]], %[[O0]] : i64
  // CHECK-NEXT: tt.elementwise_inline_asm "{ .reg .pred %tle_p; setp.eq.u32 %tle_p, $1, 0; @%tle_p fence.acq_rel.sys; @%tle_p st.relaxed.sys.global.b32 [$2], $3; mov.u32 $0, 0; }" {constraints = "=r,r,l,r", packed_element = 1 : i32, pure = false} %[[TID]], %[[PEER0]], %arg5
  // CHECK-NEXT: %[[PEER1:.*]] = arith.addi %[[ADDR]], %[[O1]] : i64
  // CHECK-NEXT: tt.elementwise_inline_asm {{.*}}st.relaxed.sys.global.b32{{.*}} %[[TID]], %[[PEER1]], %arg5
  // Every thread waits for both GPUs' flags.
  // CHECK-COUNT-2: scf.while
  // CHECK: tt.elementwise_inline_asm "ld.acquire.sys.global.b32 $0, [$1];"
  // CHECK-NEXT: arith.cmpi slt, %{{.*}}, %arg5 : i32
  // The pull: GPU q's copy of the slot through tle.remote_pointers device.
  // CHECK: %[[Q:.*]] = arith.divui
  // CHECK: %[[LOCAL:.*]] = tt.addptr %{{.*}}, %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>, tensor<128xi32, #blocked>
  // CHECK: %[[R0:.*]] = tle.remote_pointers device %[[LOCAL]], %{{.*}} offset %[[O0]] : tensor<128x!tt.ptr<f32>, #blocked> -> tensor<128x!tt.ptr<f32>, #blocked>
  // CHECK: %[[H0:.*]] = arith.cmpi eq, %[[Q]], %{{.*}} : tensor<128xi32, #blocked>
  // CHECK-NEXT: %[[V0:.*]] = tt.load %[[R0]], %[[H0]], %{{.*}} : tensor<128x!tt.ptr<f32>, #blocked>
  // CHECK: %[[R1:.*]] = tle.remote_pointers device %[[LOCAL]], %{{.*}} offset %[[O1]]
  // CHECK: %[[H1:.*]] = arith.cmpi eq, %[[Q]], %{{.*}} : tensor<128xi32, #blocked>
  // CHECK-NEXT: %[[V1:.*]] = tt.load %[[R1]], %[[H1]], %{{.*}}
  // CHECK-NEXT: %[[V:.*]] = arith.select %[[H1]], %[[V1]], %[[V0]]
  // Depart.
  // CHECK-NEXT: gpu.barrier
  // CHECK-COUNT-2: st.relaxed.sys.global.b32
  // CHECK-COUNT-2: scf.while
  // CHECK: tt.return %[[V]]
  tt.func @device_all_gather(%x: tensor<64xf32, #blocked>, %ws: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %offs: !tt.ptr<i64>, %rank: i32, %epoch: i32) -> tensor<128xf32, #blocked> {
    %y = tle.reshard %x sharding(#dsplit -> #dfull) shape [128] device(%ws, %flags, %offs, %rank, %epoch : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<64xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.return %y : tensor<128xf32, #blocked>
  }
}
