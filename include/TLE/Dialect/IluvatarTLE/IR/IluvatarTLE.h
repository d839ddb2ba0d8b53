//===- IluvatarTLE.h - The iluvatar_tle dialect -----------------*- C++ -*-===//
#ifndef TLE_DIALECT_ILUVATARTLE_IR_ILUVATARTLE_H
#define TLE_DIALECT_ILUVATARTLE_IR_ILUVATARTLE_H

#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEDialect.h.inc"

#define GET_OP_CLASSES
#include "TLE/Dialect/IluvatarTLE/IR/IluvatarTLEOps.h.inc"

#endif // TLE_DIALECT_ILUVATARTLE_IR_ILUVATARTLE_H
