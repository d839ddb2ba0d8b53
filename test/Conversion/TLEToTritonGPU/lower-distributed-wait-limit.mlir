// RUN: tle-opt %s --triton-tle-lower-distributed="wait-limit=1000" | FileCheck %s
// RUN: tle-opt %s --triton-tle-lower-distributed | FileCheck %s --check-prefix=FOREVER

// Debug mode of the device reshard (docs/distributed.md, "Debug mode"): with
// wait-limit, every flag wait counts its polls, stops after the limit and
// fails a tt.assert naming the phase and the device; without it, the waits
// have no counter and no assertion.
#blocked = #ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#dmesh = #tle.device_mesh<shape = [2], axes = ["gpu"], levels = ["device"]>
#dsplit = #tle.sharding<mesh = #dmesh, split = [S<"gpu">]>
#dfull = #tle.sharding<mesh = #dmesh, split = [B]>
module attributes {"ttg.num-ctas" = 1 : i32, "ttg.num-warps" = 4 : i32, ttg.target = "cuda:90", "ttg.threads-per-warp" = 32 : i32} {
  // CHECK-LABEL: tt.func @device_all_gather
  // Arrive: device 0's flag, then device 1's; each loop carries (polls, waiting).
  // CHECK: %[[W0:.*]]:2 = scf.while (%[[N:.*]] = %{{.*}}, %{{.*}} = %{{.*}}) : (i32, i1) -> (i32, i1)
  // CHECK: tt.elementwise_inline_asm "ld.acquire.sys.global.b32 $0, [$1];"
  // CHECK-NEXT: %[[WAIT:.*]] = arith.cmpi slt, %{{.*}}, %arg5 : i32
  // CHECK-NEXT: %[[LIMIT:.*]] = arith.constant 1000 : i32
  // CHECK-NEXT: %[[LEFT:.*]] = arith.cmpi slt, %[[N]], %[[LIMIT]] : i32
  // CHECK-NEXT: %[[GO:.*]] = arith.andi %[[WAIT]], %[[LEFT]] : i1
  // CHECK-NEXT: scf.condition(%[[GO]]) %[[N]], %[[WAIT]] : i32, i1
  // CHECK: arith.addi %{{.*}}, %{{.*}} : i32
  // CHECK: %[[ARRIVED:.*]] = arith.xori %[[W0]]#1, %{{.*}} : i1
  // CHECK-NEXT: tt.assert %[[ARRIVED]], "TLE device wait timed out: tle.reshard's arrive flag of device 0 did not reach this launch's epoch after 1000 polls {{.*}}" : i1
  // CHECK: tt.assert %{{.*}}, "TLE device wait timed out: tle.reshard's arrive flag of device 1 {{.*}}" : i1
  // CHECK: tt.assert %{{.*}}, "TLE device wait timed out: tle.reshard's depart flag of device 0 {{.*}}" : i1
  // CHECK: tt.assert %{{.*}}, "TLE device wait timed out: tle.reshard's depart flag of device 1 {{.*}}" : i1
  // CHECK-NOT: tt.assert
  // FOREVER-LABEL: tt.func @device_all_gather
  // FOREVER-COUNT-4: scf.while : () -> () {
  // FOREVER-NOT: tt.assert
  tt.func @device_all_gather(%x: tensor<64xf32, #blocked>, %ws: !tt.ptr<f32>, %flags: !tt.ptr<i32>, %offs: !tt.ptr<i64>, %rank: i32, %epoch: i32) -> tensor<128xf32, #blocked> {
    %y = tle.reshard %x sharding(#dsplit -> #dfull) shape [128] device(%ws, %flags, %offs, %rank, %epoch : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<64xf32, #blocked> -> tensor<128xf32, #blocked>
    tt.return %y : tensor<128xf32, #blocked>
  }
}
