//===- TLEWarpSpecializeOps.td - Warp specialization ----------------------===//
#ifndef TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD
#define TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

def TLE_WarpSpecializeOp : TLE_Op<"warp_specialize", [
    RecursiveMemoryEffects]> {
  let summary = "Run regions concurrently on disjoint groups of warps";
  let description = [{
    The default region runs on the warps that execute the op; it may use any
    value from above and ends with `tle.warp_yield`, whose operands become the
    op's results. Each partition `i` runs concurrently on its own
    `partition_num_warps[i]` warps (a power of two), receives the `captures`
    as block arguments (every partition gets all of them, with the captures'
    types) and ends with `tle.warp_return`. Unlike `ttg.warp_specialize`,
    partitions may also use values from above directly: TLE's passes that run
    between raising and lowering (pipes, shared-memory buffers) see the same
    SSA values in every partition. `triton-tle-lower-warp-specialize` makes
    the captures Triton needs (scalars and shared-memory descriptors) and
    recomputes pure tensor values inside the partition. The op completes when every region has finished.
    `partition_num_regs[i]`, when given, is the per-thread register budget of
    partition `i` (Hopper `setmaxnreg`: a multiple of 8 in [24, 256]).

    Partition `i` prints as `partitionI(args) num_warps(W) [num_regs(R)]`;
    `partition_num_warps` / `partition_num_regs` are not repeated in the
    attribute dictionary. A missing `tle.warp_yield` without operands or
    `tle.warp_return` is inserted by the parser.

    The partition regions are held by a `tle.warp_specialize.partitions` op,
    the only op of the second region. `getPartitionRegions()` returns them.

    ```mlir
    %r = tle.warp_specialize(%pipe, %x) attributes {tag = 1 : i32}
    default {
      %s = arith.addf %y, %y : f32
      tle.warp_yield %s : f32
    }
    partition0(%p: !pipe, %a: f32) num_warps(4) num_regs(232) {
      tle.warp_return
    }
    partition1(%p: !pipe, %a: f32) num_warps(1) num_regs(24) {
      tle.warp_return
    } : (!pipe, f32) -> f32
    ```
  }];
  let arguments = (ins
    Variadic<AnyType>:$captures,
    DenseI32ArrayAttr:$partition_num_warps,
    OptionalAttr<DenseI32ArrayAttr>:$partition_num_regs);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$defaultRegion,
                        SizedRegion<1>:$partitionOpHolder);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  let extraClassDeclaration = [{
    /// The op holding the partition regions (null when malformed).
    WarpSpecializePartitionsOp getPartitionOp();
    /// The partition regions, in order.
    ::mlir::MutableArrayRef<::mlir::Region> getPartitionRegions();
    /// The default region's terminator (null when malformed).
    WarpYieldOp getDefaultYield();
  }];
}

def TLE_WarpSpecializePartitionsOp : TLE_Op<"warp_specialize.partitions", [
    RecursiveMemoryEffects, Terminator,
    HasParent<"WarpSpecializeOp">,
    SingleBlockImplicitTerminator<"WarpReturnOp">]> {
  let summary = "Holder of the partition regions of tle.warp_specialize";
  let description = [{
    Always the only op in the second region of `tle.warp_specialize`, whose
    custom syntax prints its regions as `partitionN(...)`. Each region's block
    arguments receive the parent's captures.
  }];
  let regions = (region VariadicRegion<SizedRegion<1>>:$partitionRegions);
}

def TLE_WarpYieldOp : TLE_Op<"warp_yield", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializeOp">]> {
  let summary = "Terminator of the default region of tle.warp_specialize";
  let description = [{
    Ends the default region of `tle.warp_specialize`. Its operands become
    the results of the enclosing `tle.warp_specialize` (same number and
    types). Without operands it may be left out: the parser inserts it.

    ```mlir
    tle.warp_yield %x, %y : f32, i32
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def TLE_WarpReturnOp : TLE_Op<"warp_return", [
    Pure, Terminator, ReturnLike, HasParent<"WarpSpecializePartitionsOp">]> {
  let summary = "Terminator of a partition region of tle.warp_specialize";
  let description = [{
    Ends each partition region of `tle.warp_specialize` (the regions held by
    `tle.warp_specialize.partitions`). It takes no operands: partitions
    return nothing, they hand data over through pipes and shared memory. The
    parser inserts it when a partition region is written without it.

    ```mlir
    tle.warp_return
    ```
  }];
  let assemblyFormat = "attr-dict";
}

#endif // TLE_DIALECT_TLEWARPSPECIALIZEOPS_TD
