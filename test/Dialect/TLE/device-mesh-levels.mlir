// RUN: tle-opt %s | FileCheck %s
// RUN: tle-opt %s | tle-opt | FileCheck %s

// The optional `levels` of #tle.device_mesh: one level per axis; absent =
// unknown (printed without `levels`).

// CHECK-DAG: #[[CL:device_mesh[0-9]*]] = #tle.device_mesh<shape = [2], axes = ["cluster_x"], levels = ["block_cluster"]>
// CHECK-DAG: #[[ALL:device_mesh[0-9]*]] = #tle.device_mesh<shape = [2, 4, 2, 8], axes = ["n", "d", "c", "b"], levels = ["node", "device", "block_cluster", "block"]>
// CHECK-DAG: #[[NONE:device_mesh[0-9]*]] = #tle.device_mesh<shape = [4], axes = ["x"]>
#cl = #tle.device_mesh<shape = [2], axes = ["cluster_x"], levels = ["block_cluster"]>
#all = #tle.device_mesh<shape = [2, 4, 2, 8], axes = ["n", "d", "c", "b"], levels = ["node", "device", "block_cluster", "block"]>
#none = #tle.device_mesh<shape = [4], axes = ["x"]>

// CHECK-LABEL: func.func @ids
// CHECK-NEXT: tle.shard_id #[[CL]], "cluster_x"
// CHECK-NEXT: tle.shard_id #[[ALL]], "c"
// CHECK-NEXT: tle.shard_id #[[NONE]], "x"
func.func @ids() -> (i32, i32, i32) {
  %0 = tle.shard_id #cl, "cluster_x"
  %1 = tle.shard_id #all, "c"
  %2 = tle.shard_id #none, "x"
  return %0, %1, %2 : i32, i32, i32
}
