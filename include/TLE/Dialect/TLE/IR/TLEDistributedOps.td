//===- TLEDistributedOps.td - distributed TLE ops -------------------------===//
#ifndef TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
#define TLE_DIALECT_TLEDISTRIBUTEDOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEDistributedAttrs.td"

def TLE_DistributedBarrierOp : TLE_Op<"distributed_barrier"> {
  let summary = "Barrier across the programs of a cluster, grid or sub-mesh";
  let description = [{
    Blocks until every program of the group has arrived
    (`tle.distributed_barrier(mesh)` in Python). `cluster` and `grid` take no
    other attributes. `submesh` synchronizes the sub-mesh that contains the
    calling program and spans the mesh axes `axes` (programs that differ from
    the caller only along those axes); it is given by its rank (number of
    axes) and one size and one axis name per sub-mesh axis.

    ```mlir
    tle.distributed_barrier cluster
    tle.distributed_barrier submesh rank 2 shape [2, 2] axes ["cluster_x", "cluster_y"]
    ```

    Rules: `cluster` / `grid` have no `rank`, `shape` or `axes`; `submesh`
    has all three, with `rank` > 0, `rank` == number of sizes == number of
    axes, sizes > 0, axis names non-empty and unique.
  }];
  let arguments = (ins TLE_DistributedGroupKindAttr:$group,
                       OptionalAttr<I32Attr>:$rank,
                       OptionalAttr<DenseI64ArrayAttr>:$shape,
                       OptionalAttr<StrArrayAttr>:$axes);
  let assemblyFormat = [{
    custom<GroupKind>($group) (`rank` $rank^)? (`shape` $shape^)?
    (`axes` $axes^)? attr-dict
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
  let summary = "Declare how a tensor is distributed over a device mesh";
  let description = [{
    Returns `src` unchanged, annotated with `sharding`
    (`tle.make_sharded_tensor` in Python). The tensor type is the logical
    (global) shape; each device holds the block that `sharding` assigns it.

    ```mlir
    %y = tle.make_sharded_tensor %x sharding(#sharding) : tensor<8x16xf32>
    ```

    Rules: the result type is the operand type; `split` has one entry per
    tensor dimension; every split static dimension is divisible by its shard
    count (the product of the sizes of its mesh axes).
  }];
  let arguments = (ins AnyRankedTensor:$src, TLE_ShardingAttr:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `sharding` `(` $sharding `)` attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

def TLE_ReshardOp : TLE_Op<"reshard",
    [Pure, AllTypesMatch<["src", "result"]>]> {
  let summary = "Change the distribution of a sharded tensor";
  let description = [{
    Redistributes `src`, laid out as `source`, to the layout `target`
    (`tle.reshard` in Python). Lowering picks the collectives: scatter,
    gather, reduce, all-gather, all-reduce, all-to-all. The logical value and
    type do not change.

    ```mlir
    %z = tle.reshard %y sharding(#sharding -> #sharding1) : tensor<8x16xf32>
    ```

    Rules: the result type is the operand type; `source` and `target` use
    the same mesh; each fits the tensor as in `tle.make_sharded_tensor`.
  }];
  let arguments = (ins AnyRankedTensor:$src, TLE_ShardingAttr:$source,
                       TLE_ShardingAttr:$target);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = [{
    $src `sharding` `(` $source `->` $target `)` attr-dict `:` type($src)
  }];
  let hasVerifier = 1;
}

#endif // TLE_DIALECT_TLEDISTRIBUTEDOPS_TD
