//===- TLEDistributedAttrs.td - device meshes and shardings ---------------===//
#ifndef TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD
#define TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

def TLE_DeviceMeshAttr : TLE_Attr<"DeviceMesh", "device_mesh"> {
  let summary = "A logical N-d mesh of devices with named axes";
  let description = [{
    `tle.device_mesh(...)` in Python, flattened: one size and one name per
    mesh axis, outermost first. Printed under the alias `#device_mesh`.

    ```mlir
    #mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
    #cluster = #tle.device_mesh<shape = [2], axes = ["cluster_x"], levels = ["block_cluster"]>
    ```

    `levels` (optional) says what each axis spans, one entry per axis:
    `"node"` (machines), `"device"` (GPUs), `"block_cluster"` (the CTAs of
    one thread-block cluster) or `"block"` (programs of the launch grid).
    Without it the levels are unknown; lowerings that need a level (cluster
    shard ids, cluster barriers) reject such a mesh.

    Rules: at least one axis; as many names as sizes; sizes > 0; names
    non-empty and unique; `levels`, when present, has one known level name
    per axis.
  }];
  let parameters = (ins ArrayRefParameter<"int64_t", "axis sizes">:$shape,
                        ArrayRefParameter<"::mlir::StringAttr", "axis names">:$axes,
                        OptionalArrayRefParameter<"::mlir::StringAttr",
                            "axis levels (empty = unknown)">:$levels);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let genMnemonicAlias = 1;
  let extraClassDeclaration = [{
    /// Position of the axis named `name`, if any.
    std::optional<unsigned> getAxisIndex(::llvm::StringRef name) const;
    /// Size of the axis named `name`, if any.
    std::optional<int64_t> getAxisSize(::llvm::StringRef name) const;
    /// Level of axis `index` ("node", "device", "block_cluster", "block"),
    /// or empty when the mesh has no levels.
    ::llvm::StringRef getAxisLevel(unsigned index) const;
    /// Product of the sizes of the axes at level `level` (1 if none).
    int64_t getLevelSize(::llvm::StringRef level) const;
  }];
}

def TLE_ShardingAttr : TLE_Attr<"Sharding", "sharding"> {
  let summary = "How a tensor is laid out over a device mesh";
  let description = [{
    Describes a logical (global) tensor over `mesh`, as `tle.sharding(mesh,
    split=..., partial=...)` does in Python (S, B, P):
    - `split` has one entry per tensor dimension: `S<"a", ...>` splits the
      dimension into equal blocks over the listed mesh axes (outermost
      first; each device holds `dim / product(axis sizes)` elements), `B`
      leaves it whole (broadcast / replicated).
    - `partial` lists the mesh axes over which each device holds a partial
      value whose sum is pending (P). Omitted when empty.
    - Mesh axes used nowhere replicate the value.

    Printed under the alias `#sharding`.

    ```mlir
    #mesh = #tle.device_mesh<shape = [2, 4], axes = ["node", "gpu"]>
    #s = #tle.sharding<mesh = #mesh, split = [S<"gpu">, B], partial = ["node"]>
    #t = #tle.sharding<mesh = #mesh, split = [S<"node", "gpu">, B]>
    ```

    Rules: every axis in `split` and `partial` is an axis of the mesh; a mesh
    axis appears at most once across `split` and `partial`. Whether `split`
    fits a tensor (rank, divisibility) is checked by the ops that use it.
  }];
  let parameters = (ins
    "::mlir::tle::DeviceMeshAttr":$mesh,
    ArrayRefParameter<"::mlir::ArrayAttr",
        "per-dimension mesh axes (array of strings; empty = B)">:$split,
    OptionalArrayRefParameter<"::mlir::StringAttr", "partial mesh axes">:$partial
  );
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let genMnemonicAlias = 1;
  let extraClassDeclaration = [{
    /// Number of shards dimension `dim` is split into (1 for B).
    int64_t getNumShards(unsigned dim) const;
    /// Checks that `split` fits a tensor of this shape: one entry per
    /// dimension, and every split static dimension divisible by its shard
    /// count. Errors go to `emitError`.
    ::llvm::LogicalResult verifyShape(::llvm::ArrayRef<int64_t> shape,
        ::llvm::function_ref<::mlir::InFlightDiagnostic()> emitError) const;
    /// The block one shard holds of a tensor of (global) shape `shape`:
    /// `shape[d] / getNumShards(d)` (dynamic sizes stay dynamic).
    ::llvm::SmallVector<int64_t> getLocalShape(
        ::llvm::ArrayRef<int64_t> shape) const;
    /// The dimension mesh axis `axis` splits, if any.
    std::optional<unsigned> getSplitDim(::llvm::StringRef axis) const;
    /// Whether mesh axis `axis` is partial.
    bool isPartial(::llvm::StringRef axis) const;
  }];
}

// Which programs a `tle.distributed_barrier` synchronizes.
def TLE_DistributedGroupKind : I32EnumAttr<"DistributedGroupKind",
    "group of a distributed barrier", [
    I32EnumAttrCase<"cluster", 0>,  // the programs of one thread-block cluster
    I32EnumAttrCase<"grid", 1>,     // every program of the launch grid
    I32EnumAttrCase<"submesh", 2>   // the programs of one sub-mesh
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_DistributedGroupKindAttr
    : EnumAttr<TLE_Dialect, TLE_DistributedGroupKind, "distributed_group"> {
  // `#tle.distributed_group<grid>`; a bare `grid` in tle.distributed_barrier.
  let assemblyFormat = "`<` $value `>`";
}

#endif // TLE_DIALECT_TLEDISTRIBUTEDATTRS_TD
