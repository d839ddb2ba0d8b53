//===- MarkerText.cpp - Parsing attribute text inside a pass --------------===//
#include "MarkerText.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Dialect.h"
#include "llvm/ADT/StringExtras.h"

using namespace mlir;

/// Whether `text` (outside string literals) names `ns.` for a dialect the
/// registry has but `ctx` has not loaded. Cheap; may say yes for text that
/// would not load one (`ns.` inside an unparsable attribute).
static bool mayLoadDialect(StringRef text, MLIRContext *ctx) {
  for (size_t i = 0; i < text.size();) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      ++i;
      continue;
    }
    if (!llvm::isAlpha(c) && c != '_') {
      ++i;
      continue;
    }
    size_t start = i;
    while (i < text.size() &&
           (llvm::isAlnum(text[i]) || text[i] == '_' || text[i] == '$'))
      ++i;
    bool prefixed =
        start > 0 && (llvm::isAlnum(text[start - 1]) || text[start - 1] == '.');
    StringRef ns = text.slice(start, i);
    if (!prefixed && i < text.size() && text[i] == '.' &&
        !ctx->getLoadedDialect(ns) &&
        ctx->getDialectRegistry().getDialectAllocator(ns))
      return true;
  }
  return false;
}

Attribute mlir::tle::parseMarkerAttribute(StringRef text, MLIRContext *ctx,
                                          std::string &unloaded) {
  if (mayLoadDialect(text, ctx)) {
    // Parse in a scratch context with the same registry and see what it
    // loads: exact where the scan above is not.
    MLIRContext scratch(ctx->getDialectRegistry(),
                        MLIRContext::Threading::DISABLED);
    ScopedDiagnosticHandler quiet(&scratch,
                                  [](Diagnostic &) { return success(); });
    (void)parseAttribute(text, &scratch);
    for (Dialect *dialect : scratch.getLoadedDialects())
      if (!ctx->getLoadedDialect(dialect->getNamespace())) {
        unloaded = dialect->getNamespace().str();
        return {};
      }
  }
  return parseAttribute(text, ctx);
}
