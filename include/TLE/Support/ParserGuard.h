//===- ParserGuard.h - Text MLIR 22's parser aborts on ----------*- C++ -*-===//
//
// MLIR 22's generic attribute parser asserts, instead of reporting an error,
// on a dense array of `index` elements (`array<index>`, `array<index: 1>`):
// Parser::parseDenseArrayAttr asks `index` for a bit width. Any attribute
// dictionary reaches it, so every place TLE parses text it did not write
// (tle-opt's input, runPipeline's, TLE-Raw region bodies, marker attributes)
// refuses such text first, with an error, rather than abort.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_SUPPORT_PARSERGUARD_H
#define TLE_SUPPORT_PARSERGUARD_H

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::tle {

/// Offset in `text` of the first `array<index` (blanks allowed around `<`,
/// `index` ending the word) outside string literals and `//` comments, or
/// StringRef::npos.
inline size_t findDenseIndexArray(llvm::StringRef text) {
  auto isWord = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.';
  };
  for (size_t i = 0, e = text.size(); i < e;) {
    char c = text[i];
    if (c == '"') {
      for (++i; i < e && text[i] != '"'; ++i)
        if (text[i] == '\\')
          ++i;
      ++i;
      continue;
    }
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
    if (text.substr(i).starts_with("array") && (i == 0 || !isWord(text[i - 1]))) {
      size_t j = i + 5;
      while (j < e && llvm::isSpace(text[j]))
        ++j;
      if (j < e && text[j] == '<') {
        ++j;
        while (j < e && llvm::isSpace(text[j]))
          ++j;
        if (text.substr(j).starts_with("index") &&
            (j + 5 == e || !isWord(text[j + 5])))
          return i;
      }
    }
    ++i;
  }
  return llvm::StringRef::npos;
}

/// What the refusal says.
inline const char *denseIndexArrayMessage() {
  return "a dense array of 'index' ('array<index...>') is not supported: "
         "MLIR 22's parser aborts on it; use an integer element type such as "
         "'array<i64...>'";
}

} // namespace mlir::tle

#endif // TLE_SUPPORT_PARSERGUARD_H
