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

// The operation of a `tle.atomic_rmw`; the keywords are those Triton 3.6
// prints for `tt.atomic_rmw` (C++ names band/bor/bxor for and/or/xor,
// which are C++ keywords, and xchg for exch).
def TLE_AtomicRMWKind : I32EnumAttr<"AtomicRMWKind", "atomic read-modify-write operation", [
    I32EnumAttrCase<"add", 0>, I32EnumAttrCase<"fadd", 1>,
    I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
    I32EnumAttrCase<"umax", 4>, I32EnumAttrCase<"umin", 5>,
    I32EnumAttrCase<"band", 6, "and">, I32EnumAttrCase<"bor", 7, "or">,
    I32EnumAttrCase<"bxor", 8, "xor">, I32EnumAttrCase<"xchg", 9, "exch">
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_AtomicRMWKindAttr : EnumAttr<TLE_Dialect, TLE_AtomicRMWKind, "atomic_kind"> {
  let assemblyFormat = "`<` $value `>`";
}

// Memory ordering of a TLE atomic (Triton's MemSemantic keywords).
def TLE_MemSemantic : I32EnumAttr<"MemSemantic", "atomic memory semantic", [
    I32EnumAttrCase<"relaxed", 0>, I32EnumAttrCase<"acquire", 1>,
    I32EnumAttrCase<"release", 2>, I32EnumAttrCase<"acq_rel", 3>
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_MemSemanticAttr : EnumAttr<TLE_Dialect, TLE_MemSemantic, "mem_semantic"> {
  let assemblyFormat = "`<` $value `>`";
}

// Synchronization scope of a TLE atomic: Triton's plus `cluster`.
def TLE_MemSyncScope : I32EnumAttr<"MemSyncScope", "atomic synchronization scope", [
    I32EnumAttrCase<"cta", 0>, I32EnumAttrCase<"cluster", 1>,
    I32EnumAttrCase<"gpu", 2>, I32EnumAttrCase<"sys", 3>
  ]> {
  let cppNamespace = "::mlir::tle";
  let genSpecializedAttr = 0;
}
def TLE_MemSyncScopeAttr : EnumAttr<TLE_Dialect, TLE_MemSyncScope, "mem_scope"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // TLE_DIALECT_TLEMEMORYATTRS_TD
