//===- Version.cpp - TLE's version and commit -----------------------------===//
#include "TLE/Version.h"

// ${build}/include/TLE/VersionInfo.inc, written at every build by
// cmake/TLEVersionInfo.cmake.
#include "TLE/VersionInfo.inc"

const char *mlir::tle::getVersion() { return TLE_VERSION_STRING; }
const char *mlir::tle::getGitCommit() { return TLE_GIT_COMMIT; }
