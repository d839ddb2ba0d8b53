//===- Precompiled.h - headers most of TLE's sources parse ------*- C++ -*-===//
//
// Precompiled once per build (CMake option TLE_PCH, lib/Support/Precompiled)
// and reused by every MLIR library of TLE: a translation unit spends about
// 70% of its compile time parsing these (measured on LowerLocalMemory-
// Cluster.cpp, 2 cores: 21 s, 15 s of it -fsyntax-only; 5 s with this
// header precompiled). Only headers with include guards and without
// configuration macros belong here; generated `.inc` files that sources
// include under GET_* / GEN_PASS_* macros must not.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_SUPPORT_PRECOMPILED_H
#define TLE_SUPPORT_PRECOMPILED_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Pass/Pass.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

#include "TLE/Dialect/TLE/IR/TLE.h"
#include "TLE/Interop/Triton/TT.h"
#include "TLE/Interop/Triton/TTG.h"
#include "TLE/Interop/Triton/TTNG.h"

#endif // TLE_SUPPORT_PRECOMPILED_H
