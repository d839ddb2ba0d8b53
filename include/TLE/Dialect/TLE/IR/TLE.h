//===- TLE.h - The TLE dialect ----------------------------------*- C++ -*-===//
#ifndef TLE_DIALECT_TLE_IR_TLE_H
#define TLE_DIALECT_TLE_IR_TLE_H

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/RegionKindInterface.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TLE/Dialect/TLE/IR/TLEDialect.h.inc"
#include "TLE/Dialect/TLE/IR/TLEEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "TLE/Dialect/TLE/IR/TLEAttrs.h.inc"
#define GET_TYPEDEF_CLASSES
#include "TLE/Dialect/TLE/IR/TLETypes.h.inc"
#define GET_OP_CLASSES
#include "TLE/Dialect/TLE/IR/TLEOps.h.inc"

#endif // TLE_DIALECT_TLE_IR_TLE_H
