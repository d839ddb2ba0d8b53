//===- MarkerText.h - Parsing attribute text inside a pass -----*- C++ -*-===//
//
// Markers carry their attributes as text (docs/markers.md); the raising passes
// parse it. Parsing names dialects: a key `gpu.x` or an attribute `#gpu.x`
// loads dialect `gpu` into the context, and loading a dialect while a pass
// runs is fatal ("LLVM ERROR: Loading a dialect ... while in a multi-threaded
// execution context") and never right. parseMarkerAttribute refuses such text
// instead.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_TRANSFORMS_MARKERTEXT_H
#define TLE_TRANSFORMS_MARKERTEXT_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/MLIRContext.h"

#include <string>

namespace mlir::tle {
/// Parses `text` as an attribute in `ctx` (diagnostics go to `ctx`), unless
/// parsing would load a dialect `ctx` has not loaded: then returns null
/// without parsing and sets `unloaded` to that dialect's namespace.
Attribute parseMarkerAttribute(StringRef text, MLIRContext *ctx,
                               std::string &unloaded);
} // namespace mlir::tle

#endif // TLE_TRANSFORMS_MARKERTEXT_H
