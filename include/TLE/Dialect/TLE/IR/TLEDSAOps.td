//===- TLEDSAOps.td - TLE-Struct DSA buffers ------------------------------===//
#ifndef TLE_DIALECT_TLEDSAOPS_TD
#define TLE_DIALECT_TLEDSAOPS_TD

include "TLE/Dialect/TLE/IR/TLEDialect.td"
include "TLE/Dialect/TLE/IR/TLEDSATypes.td"

// One end of a `tle.dsa.copy`: a DSA buffer, or a tensor of global pointers.
def TLE_DSACopyEndpoint : AnyTypeOf<[TLE_DSABufferType, TT_PtrTensor],
    "DSA buffer or ranked tensor of Triton pointers">;

def TLE_DSAAllocOp : TLE_Op<"dsa.alloc"> {
  let summary = "Allocate a buffer in a DSA on-chip memory";
  let description = [{
    Reserves a buffer of the result type's shape and element type in its
    memory space (`tle.dsa.alloc(shape, dtype, mem_addr_space)` in Python).
    Its contents are undefined until written. The buffer type itself carries
    every rule (static positive shape, rank >= 1, signless integer or float
    elements),
    so the op adds none.

    ```mlir
    %a = tle.dsa.alloc : !tle.dsa.buffer<16x16xf32, UB>
    ```
  }];
  let results = (outs Res<TLE_DSABufferType, "the new buffer",
                          [MemAlloc]>:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def TLE_DSACopyOp : TLE_Op<"dsa.copy"> {
  let summary = "Move data between global memory and DSA buffers";
  let description = [{
    Copies `src` into `dst`. Either side is a `!tle.dsa.buffer` or a ranked
    tensor of global `!tt.ptr` (address space 1), one pointer per element; at
    least one side is a buffer. The optional `sizes` (i32, one per dimension)
    bound the copied region to the leading `sizes[d]` elements of every
    dimension `d` (tails); without them the whole shape is copied.

    Rules:
    - `src` and `dst` have the same shape, and the same element type (for a
      pointer tensor: the pointee type).
    - pointer tensors point to global memory (address space 1).
    - global-to-global copies are rejected (use `tt.load` / `tt.store`).
    - the move follows one of the data paths below (GM = a pointer tensor),
      modelled on Ascend-style DSA cores rather than one exact chip; any
      other pair (e.g. L0C -> L0A, UB -> L1, GM -> L0A) is rejected:

      | from | to            |
      |------|---------------|
      | GM   | UB, L1        |
      | UB   | GM, UB        |
      | L1   | GM, L0A, L0B  |
      | L0C  | UB, GM        |
    - `sizes`, when present, has one value per dimension; a constant size `s`
      satisfies `0 <= s <= dim`.

    ```mlir
    tle.dsa.copy %ptrs, %a_ub : tensor<16x16x!tt.ptr<f32>> -> !tle.dsa.buffer<16x16xf32, UB>
    tle.dsa.copy %a_ub, %out sizes [%m, %n] : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16x!tt.ptr<f32>>
    tle.dsa.copy %b_l1, %b_l0b : !tle.dsa.buffer<16x16xf16, L1> -> !tle.dsa.buffer<16x16xf16, L0B>
    ```
  }];
  let arguments = (ins Arg<TLE_DSACopyEndpoint, "source", [MemRead]>:$src,
                       Arg<TLE_DSACopyEndpoint, "destination", [MemWrite]>:$dst,
                       Variadic<I32>:$sizes);
  let assemblyFormat = [{
    $src `,` $dst (`sizes` ` ` `[` $sizes^ `]`)? attr-dict `:` type($src) `->` type($dst)
  }];
  let hasVerifier = 1;
}

def TLE_DSAToTensorOp : TLE_Op<"dsa.to_tensor"> {
  let summary = "Read a DSA buffer as a tensor value";
  let description = [{
    The tensor value of the buffer's current contents. The result has the
    buffer's shape and element type (any encoding). `writable` (Python's
    `to_tensor(buf, writable=True)`) lets the lowering update the buffer in
    place when the tensor is later materialized back into the same space;
    without it the buffer must not be written through the tensor.

    ```mlir
    %t = tle.dsa.to_tensor %c_ub writable : !tle.dsa.buffer<16x16xf32, UB> -> tensor<16x16xf32>
    ```
  }];
  let arguments = (ins Arg<TLE_DSABufferType, "buffer read", [MemRead]>:$buffer,
                       UnitAttr:$writable);
  let results = (outs TLE_NumericTensor:$result);
  let assemblyFormat = [{
    $buffer (`writable` $writable^)? attr-dict `:` qualified(type($buffer)) `->` type($result)
  }];
  let hasVerifier = 1;
}

def TLE_DSAToBufferOp : TLE_Op<"dsa.to_buffer"> {
  let summary = "Materialize a tensor value in a new DSA buffer";
  let description = [{
    Allocates a buffer in the result type's memory space and writes the
    tensor into it (`tle.dsa.to_buffer(t, tle.dsa.ascend.UB)` in Python). The
    result has the tensor's shape and element type.

    ```mlir
    %d = tle.dsa.to_buffer %t : tensor<16x16xf32> -> !tle.dsa.buffer<16x16xf32, UB>
    ```
  }];
  let arguments = (ins TLE_NumericTensor:$src);
  let results = (outs Res<TLE_DSABufferType, "the new buffer",
                          [MemAlloc, MemWrite]>:$result);
  let assemblyFormat = [{
    $src attr-dict `:` type($src) `->` qualified(type($result))
  }];
  let hasVerifier = 1;
}

// Elementwise `out = lhs <op> rhs` on UB buffers, destination-passing. When
// the three buffer types are equal the format prints one type, else three.
class TLE_DSABinaryOp<string mnemonic, string expr, bit allowInteger = 1>
    : TLE_Op<"dsa." # mnemonic> {
  let summary = "Elementwise `" # expr # "` on DSA UB buffers";
  let description = [{
    Destination-passing elementwise `out = }] # expr # [{` on the vector
    unit. `out` may alias an input.

    Rules: `lhs`, `rhs` and `out` have the same shape and element type, and
    all three are in `UB` (the vector unit reads and writes only UB). }]
    # !if(allowInteger,
          "Integers are signless" # !if(!or(!eq(mnemonic, "max"), !eq(mnemonic, "min")),
                                        " and compared as signed", "") # ".",
          [{Integer element types are rejected: the vector unit divides floats
    only, and this op does not define integer rounding.}])
    # [{

    ```mlir
    tle.dsa.}] # mnemonic # [{ %a, %b, %c : !tle.dsa.buffer<16x16xf32, UB>
    ```
  }];
  let arguments = (ins Arg<TLE_DSABufferType, "left operand", [MemRead]>:$lhs,
                       Arg<TLE_DSABufferType, "right operand", [MemRead]>:$rhs,
                       Arg<TLE_DSABufferType, "destination", [MemWrite]>:$out);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` $out attr-dict `:`
    custom<DSABinaryTypes>(type($lhs), type($rhs), type($out))
  }];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// Whether the op accepts integer element types.
    static constexpr bool kAllowsIntegers = }] # !if(allowInteger, "true", "false") # [{;
    static ::mlir::ParseResult parseDSABinaryTypes(::mlir::OpAsmParser &parser,
        ::mlir::Type &lhs, ::mlir::Type &rhs, ::mlir::Type &out);
    static void printDSABinaryTypes(::mlir::OpAsmPrinter &printer,
        ::mlir::Operation *op, ::mlir::Type lhs, ::mlir::Type rhs,
        ::mlir::Type out);
  }];
}

def TLE_DSAAddOp : TLE_DSABinaryOp<"add", "lhs + rhs">;
def TLE_DSASubOp : TLE_DSABinaryOp<"sub", "lhs - rhs">;
def TLE_DSAMulOp : TLE_DSABinaryOp<"mul", "lhs * rhs">;
def TLE_DSADivOp : TLE_DSABinaryOp<"div", "lhs / rhs", /*allowInteger=*/0>;
def TLE_DSAMaxOp : TLE_DSABinaryOp<"max", "max(lhs, rhs)">;
def TLE_DSAMinOp : TLE_DSABinaryOp<"min", "min(lhs, rhs)">;

#endif // TLE_DIALECT_TLEDSAOPS_TD
