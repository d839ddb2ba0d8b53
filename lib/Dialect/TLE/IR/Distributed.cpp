//===- Distributed.cpp ------------------------------------------------------------===//
#include "TLE/Dialect/TLE/IR/TLE.h"

using namespace mlir;
using namespace mlir::tle;
