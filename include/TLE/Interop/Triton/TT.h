//===- TT.h - Interop definition of Triton 3.6's `tt` dialect -*- C++ -*-===//
//
// Written by TLE to match Triton 3.6.0's textual IR; see TT.td.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_TT_H
#define TLE_INTEROP_TRITON_TT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "TLE/Interop/Triton/TTDialect.h.inc"
#include "TLE/Interop/Triton/TTEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTTypes.h.inc"
#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTOps.h.inc"

#endif // TLE_INTEROP_TRITON_TT_H
