//===- TLEMemoryAttrs.td - GPU memory spaces ------------------------------===//
#ifndef TLE_DIALECT_TLEMEMORYATTRS_TD
#define TLE_DIALECT_TLEMEMORYATTRS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"

// `tle.gpu.storage_kind` / `tle.gpu.memory_space` in the Python API.
def TLE_MemorySpace : I32EnumAttr<"MemorySpace", "GPU on-chip memory space", [
    I32EnumAttrCase<"smem", 0>,   // CTA shared memory
    I32EnumAttrCase<"tmem", 1>    // Blackwell tensor memory (sm_100+ only)
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_MemorySpaceAttr : EnumAttr<TLE_Dialect, TLE_MemorySpace, "memory_space"> {
  let assemblyFormat = "`<` $value `>`";
}

// Where `tle.remote_pointers` points: another CTA's shared memory in the same
// thread-block cluster, or another device's global memory.
def TLE_RemoteSpace : I32EnumAttr<"RemoteSpace", "remote pointer space", [
    I32EnumAttrCase<"cluster", 0>,  // shared::cluster (address space 7)
    I32EnumAttrCase<"device", 1>    // a peer device's global memory
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_RemoteSpaceAttr : EnumAttr<TLE_Dialect, TLE_RemoteSpace, "remote_space"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // TLE_DIALECT_TLEMEMORYATTRS_TD
