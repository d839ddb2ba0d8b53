//===- TTG.h - Interop definition of Triton 3.6's `ttg` dialect -*- C++ -*-===//
//
// Written by TLE to match Triton 3.6.0's textual IR; see TTG.td.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_INTEROP_TRITON_TTG_H
#define TLE_INTEROP_TRITON_TTG_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypeInterfaces.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"

#include "TLE/Interop/Triton/TTGDialect.h.inc"
#include "TLE/Interop/Triton/TTGEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Interop/Triton/TTGAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Interop/Triton/TTGTypes.h.inc"
#define GET_OP_CLASSES
#include "TLE/Interop/Triton/TTGOps.h.inc"

#endif // TLE_INTEROP_TRITON_TTG_H
