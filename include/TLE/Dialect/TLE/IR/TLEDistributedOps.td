//===- TLEDistributedOps.td - distributed TLE ops -------------------------===//
#ifndef TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
#define TLE_DIALECT_TLEDISTRIBUTEDOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEDistributedAttrs.td"

def TLE_DistributedBarrierOp : TLE_Op<"distributed_barrier"> {
  let summary = "Barrier across the programs of a cluster, grid or sub-mesh";
  let description = [{
    Blocks until every program of the group has arrived
    (`tle.distributed_barrier(mesh)` in Python). `cluster` is every CTA of
    the calling program's thread-block cluster; with a `mesh`, that mesh's
    block_cluster axes give the kernel its cluster size. `grid` is every
    program of the launch. `submesh` synchronizes the sub-mesh that contains
    the calling program and spans the mesh axes `axes` (programs that differ
    from the caller only along those axes); it is given by its rank (number
    of axes), one size and one axis name per sub-mesh axis, and the `mesh`
    those axes belong to. With `at`, the sub-mesh is the one at those
    coordinates of other block_cluster axes (`mesh[0, :]` in Python: `at
    {cx = 0}`): a program elsewhere is not in it and goes on at once.

    ```mlir
    tle.distributed_barrier cluster
    tle.distributed_barrier cluster mesh #tle.device_mesh<shape = [2], axes = ["cx"], levels = ["block_cluster"]>
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #tle.device_mesh<shape = [2, 2], axes = ["cx", "cy"], levels = ["block_cluster", "block_cluster"]>
    tle.distributed_barrier submesh rank 1 shape [2] axes ["cy"] mesh #mesh at {cx = 0 : i64}
    ```

    Rules: `cluster` / `grid` have no `rank`, `shape` or `axes`, and `grid`
    no `mesh`; `submesh` has all four, with `rank` > 0, `rank` == number of
    sizes == number of axes, sizes > 0, axis names non-empty and unique, and
    each axis a `block_cluster` axis of `mesh` whose size is the matching
    entry of `shape`; `at` (submesh only) maps block_cluster axes of `mesh`
    that are not in `axes` to integer coordinates inside their sizes.
  }];
  let arguments = (ins TLE_DistributedGroupKindAttr:$group,
                       OptionalAttr<I32Attr>:$rank,
                       OptionalAttr<DenseI64ArrayAttr>:$shape,
                       OptionalAttr<StrArrayAttr>:$axes,
                       OptionalAttr<TLE_DeviceMeshAttr>:$mesh,
                       OptionalAttr<DictionaryAttr>:$at);
  let assemblyFormat = [{
    custom<GroupKind>($group) (`rank` $rank^)? (`shape` $shape^)?
    (`axes` $axes^)? (`mesh` $mesh^)? (`at` $at^)? attr-dict
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    // The group as a bare keyword: `cluster`, `grid` or `submesh`.
    static ::mlir::ParseResult parseGroupKind(::mlir::OpAsmParser &parser,
        ::mlir::tle::DistributedGroupKindAttr &group);
    static void printGroupKind(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::tle::DistributedGroupKindAttr group);
  }];
}

def TLE_ShardIdOp : TLE_Op<"shard_id", [Pure]> {
  let summary = "Coordinate of the calling program along one mesh axis";
  let description = [{
    `tle.shard_id(mesh, axis)`: the index, in `[0, size(axis))`, of the
    calling program along mesh axis `axis`.

    ```mlir
    %r = tle.shard_id #mesh, "gpu"
    ```

    Rule: `axis` is an axis of `mesh`.
  }];
  let arguments = (ins TLE_DeviceMeshAttr:$mesh, StrAttr:$axis);
  let results = (outs I32:$result);
  let assemblyFormat = "$mesh `,` $axis attr-dict";
  let hasVerifier = 1;
}

def TLE_MakeShardedTensorOp : TLE_Op<"make_sharded_tensor",
    [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Declare that a tensor is this shard's block of a sharded tensor";
  let description = [{
    SPMD form: `src` is the *local block* the calling shard holds of a
    logical tensor of shape `shape` laid out over the mesh as `sharding`
    (`tle.make_sharded_tensor` in Python). The op returns `src` unchanged; it
    only records the layout (triton-tle-lower-distributed erases it).

    ```mlir
    %y = tle.make_sharded_tensor %x sharding(#sharding) shape [8, 16] : tensor<4x16xf32>
    ```

    Rules: the result type is the operand type; `split` has one entry per
    dimension of `shape`; every split dimension of `shape` is divisible by
    its shard count (the product of the sizes of its mesh axes); the
    operand's shape is the local block: `shape[d] / shards(d)` per dimension
    (dynamic operand dimensions are not checked).
  }];
  let arguments = (ins AnyRankedTensor:$src, TLE_ShardingAttr:$sharding,
                       DenseI64ArrayAttr:$shape);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `sharding` `(` $sharding `)` `shape` $shape attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def TLE_ReshardOp : TLE_Op<"reshard", [Pure, AttrSizedOperandSegments]> {
  let summary = "Change the distribution of a sharded tensor";
  let description = [{
    SPMD form: `src` is the calling shard's block of a logical tensor of
    shape `shape` laid out as `source`; the result is its block of the same
    logical tensor laid out as `target` (`tle.reshard` in Python). The
    lowering (`triton-tle-lower-distributed`) derives the collective from the
    two layouts, per mesh axis: split -> broadcast is an all-gather,
    partial -> broadcast an all-reduce (sum), partial -> split a
    reduce-scatter, broadcast -> split a scatter (a local slice), split ->
    split along another dimension an all-to-all. With `root = r`, only the
    shard whose rank in the thread-block cluster is `r` receives the result
    (gather / reduce); the others get zeros.

    ```mlir
    %z = tle.reshard %y sharding(#row -> #full) shape [8, 16] : tensor<4x16xf32> -> tensor<8x16xf32>
    ```

    Across devices (mesh axes at level `device`), the op takes the runtime
    context of docs/distributed.md: a symmetric workspace pointer, a
    symmetric flag array, the per-peer byte offsets of the symmetric heap,
    this device's rank and the call's epoch:

    ```mlir
    %z = tle.reshard %y sharding(#s -> #b) shape [256] device(%ws, %flags, %offsets, %rank, %epoch
         : !tt.ptr<f32>, !tt.ptr<i32>, !tt.ptr<i64>) : tensor<64xf32> -> tensor<256xf32>
    ```

    Rules: `source` and `target` use the same mesh and fit `shape` as in
    `tle.make_sharded_tensor`; the operand and result shapes are the
    source's and target's local blocks; element types match; every partial
    axis of `target` is partial in `source` (a reshard cannot create partial
    sums); `root`, when set, is in `[0, cluster size)` and `target` has no
    partial axes; the device operands come all together, with a workspace
    of the element type, i32 flags and i64 offsets.
  }];
  let arguments = (ins AnyRankedTensor:$src, TLE_ShardingAttr:$source,
                       TLE_ShardingAttr:$target, DenseI64ArrayAttr:$shape,
                       OptionalAttr<I64Attr>:$root,
                       Optional<TT_Ptr>:$workspace, Optional<TT_Ptr>:$flags,
                       Optional<TT_Ptr>:$peer_offsets, Optional<I32>:$device_rank,
                       Optional<I32>:$epoch);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `sharding` `(` $source `->` $target `)` `shape` $shape
    (`root` $root^)?
    (`device` `(` $workspace^ `,` $flags `,` $peer_offsets `,` $device_rank `,`
       $epoch `:` type($workspace) `,` type($flags) `,` type($peer_offsets) `)`)?
    attr-dict `:` type($src) `->` type($result)
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the op carries the device-level runtime operands.
    bool hasDeviceContext() { return static_cast<bool>(getWorkspace()); }
  }];
}

#endif // TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
