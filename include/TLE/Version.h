//===- Version.h - TLE's version and commit ---------------------*- C++ -*-===//
//
// Compiled into tle-opt (`tle-opt --version`) and tle._tle (`tle.__version__`):
// the project version (pyproject.toml) and the git commit the binary was built
// from ("unknown" when the sources came without git;
// cmake/TLEVersionInfo.cmake).
//
//===----------------------------------------------------------------------===//
#ifndef TLE_VERSION_H
#define TLE_VERSION_H

namespace mlir::tle {

/// The project version, e.g. "0.1.0".
const char *getVersion();
/// The commit's short hash (12 hex digits), or "unknown".
const char *getGitCommit();

} // namespace mlir::tle

#endif // TLE_VERSION_H
