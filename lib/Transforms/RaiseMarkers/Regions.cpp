//===- Regions.cpp - tle.marker.region ------------------------------------===//
//
// Part of triton-tle-raise-markers (MarkerRaiser.h lists the parts). The
// body of an op with a region (tle.dsl_region, TLE-Raw: docs/raw.md) crosses
// the marker as the text of a func.func (docs/markers.md, "Regions").
//
//===----------------------------------------------------------------------===//
#include "MarkerRaiser.h"
#include "TLE/Support/ParserGuard.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Parser/Parser.h"

namespace mlir::tle::raise_markers {
namespace {
constexpr llvm::StringLiteral kRegion = "tle.marker.region";
} // namespace

LogicalResult MarkerRaiser::readRegion() {
  Attribute value = attrs.erase(kRegion);
  if (!value)
    return success();
  regionSource = dyn_cast<StringAttr>(value);
  if (!regionSource)
    return emitError() << "'" << kRegion << "' must be a string, got " << value;
  return success();
}

/// `tle.marker.region` (docs/markers.md, "Regions"): parses the module text,
/// which must hold exactly one func.func of one block ending in a
/// `func.return` without operands, and moves that body (arguments included,
/// the return dropped) into `region`.
LogicalResult MarkerRaiser::parseRegion(Region &region) {
  MLIRContext *ctx = marker.getContext();
  std::string message;
  auto fail = [&]() {
    return emitError() << "TLE marker '" << name << "': '" << kRegion << "' ";
  };
  if (ParserHazard hazard = findParserHazard(regionSource.getValue()))
    return fail() << "cannot be parsed: " << hazard.message;
  // Parsing loads the dialects the text names, which a pass may not do
  // (several may run at once); the pass loads the ones bodies may hold. So
  // the text is parsed in a private context first, and a text that needs any
  // other dialect is refused, naming the op.
  {
    MLIRContext scratch(ctx->getDialectRegistry(),
                        MLIRContext::Threading::DISABLED);
    ScopedDiagnosticHandler capture(&scratch, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    OwningOpRef<ModuleOp> probe = parseSourceString<ModuleOp>(
        regionSource.getValue(), ParserConfig(&scratch), kRegion);
    if (!probe)
      return fail() << "cannot be parsed: " << message;
    std::string foreign;
    probe->walk([&](Operation *op) {
      StringRef ns = op->getName().getDialectNamespace();
      if (!ctx->getLoadedDialect(ns)) {
        foreign = op->getName().getStringRef().str();
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (!foreign.empty())
      return fail() << "uses op '" << foreign
                    << "', whose dialect a TLE-Raw body cannot hold";
    for (Dialect *dialect : scratch.getLoadedDialects())
      if (!ctx->getLoadedDialect(dialect->getNamespace()))
        return fail() << "uses the dialect '" << dialect->getNamespace()
                      << "', which a TLE-Raw body cannot hold";
  }
  OwningOpRef<ModuleOp> module;
  {
    ScopedDiagnosticHandler capture(ctx, [&](Diagnostic &diag) {
      if (message.empty()) {
        llvm::raw_string_ostream os(message);
        os << diag.getLocation() << ": " << diag.str();
      }
      return success();
    });
    module = parseSourceString<ModuleOp>(regionSource.getValue(),
                                         ParserConfig(ctx), kRegion);
  }
  if (!module)
    return fail() << "cannot be parsed: " << message;
  Block *top = module->getBody();
  auto func = top->empty() ? nullptr : dyn_cast<func::FuncOp>(top->front());
  if (!func || !llvm::hasSingleElement(*top) || func.isExternal())
    return fail() << "must hold exactly one func.func with a body";
  if (!func.getBody().hasOneBlock())
    return fail() << "function '" << func.getSymName()
                  << "' must have one block";
  auto ret = dyn_cast<func::ReturnOp>(func.front().getTerminator());
  if (!ret || ret.getNumOperands() != 0)
    return fail() << "function '" << func.getSymName()
                  << "' must end in a func.return without operands";
  ret.erase();
  region.takeBody(func.getBody());
  // Ops the text gives no location of their own point at the marker (the
  // user's call); the frontend's own locations are kept.
  Location here = marker.getLoc();
  auto unlocated = [&](Location loc) {
    auto file = dyn_cast<FileLineColLoc>(loc);
    return isa<UnknownLoc>(loc) || (file && file.getFilename() == kRegion);
  };
  region.walk([&](Operation *op) {
    if (unlocated(op->getLoc()))
      op->setLoc(here);
    for (Region &nested : op->getRegions())
      for (Block &block : nested)
        for (BlockArgument arg : block.getArguments())
          if (unlocated(arg.getLoc()))
            arg.setLoc(here);
  });
  for (BlockArgument arg : region.getArguments())
    if (unlocated(arg.getLoc()))
      arg.setLoc(here);
  return success();
}

} // namespace mlir::tle::raise_markers
