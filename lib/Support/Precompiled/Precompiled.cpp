//===- Precompiled.cpp - the donor of TLE's precompiled header ------------===//
//
// Empty: the library exists so that CMake builds include/TLE/Support/
// Precompiled.h once, with the flags every TLE MLIR library uses, and the
// others reuse it (CMakeLists.txt, TLE_PCH).
//
//===----------------------------------------------------------------------===//
