//===- ParserGuard.h - Text MLIR 22's parser aborts on ----------*- C++ -*-===//
//
// MLIR 22's parser aborts, instead of reporting an error, on two forms:
//
// * a dense array of `index` elements (`array<index>`, `array<index: 1>`):
//   the generic attribute parser asks `index` for a bit width. Any attribute
//   dictionary reaches it;
// * a generic operation whose name is a loaded dialect's prefix and a dot
//   only (`"tle."(...)`, `"arith."(...)`): the parser takes the dialect as
//   known, and creating the unregistered op is a fatal error ("tle. created
//   with unregistered dialect").
//
// So every place TLE parses text it did not write (tle-opt's input,
// runPipeline's, TLE-Raw region bodies, marker attributes) refuses such text
// first, with an error, rather than abort.
//
//===----------------------------------------------------------------------===//
#ifndef TLE_SUPPORT_PARSERGUARD_H
#define TLE_SUPPORT_PARSERGUARD_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"

#include <string>

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
    if (text.substr(i).starts_with("array") &&
        (i == 0 || !isWord(text[i - 1]))) {
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

/// Offset in `text` of the first generic operation name that is a dialect
/// prefix and a dot only (`"tle."` followed by `(`; not a location's name,
/// `loc("tle."(...))`), outside `//` comments, or StringRef::npos.
inline size_t findEmptyGenericOpName(llvm::StringRef text) {
  auto isIdent = [](char c) {
    return llvm::isAlnum(c) || c == '_' || c == '$';
  };
  for (size_t i = 0, e = text.size(); i < e;) {
    char c = text[i];
    if (c == '/' && text.substr(i).starts_with("//")) {
      i = text.find('\n', i);
      if (i == llvm::StringRef::npos)
        break;
      continue;
    }
    if (c != '"') {
      ++i;
      continue;
    }
    size_t start = i;
    bool escaped = false;
    for (++i; i < e && text[i] != '"'; ++i)
      if (text[i] == '\\') {
        escaped = true;
        ++i;
      }
    if (i >= e)
      break;
    llvm::StringRef name = text.slice(start + 1, i);
    ++i; // the closing quote
    if (escaped || name.size() < 2 || !name.ends_with(".") ||
        !llvm::all_of(name.drop_back(), isIdent))
      continue;
    size_t next = text.find_first_not_of(" \t\r\n", i);
    if (next == llvm::StringRef::npos || text[next] != '(')
      continue;
    // (find_last_not_of looks at the characters before `start`.)
    size_t prev = text.find_last_not_of(" \t\r\n", start);
    if (start && prev != llvm::StringRef::npos &&
        (text[prev] == '(' || text[prev] == '[' || text[prev] == ','))
      continue; // a location's name: loc("x."(...))
    return start;
  }
  return llvm::StringRef::npos;
}

/// What the refusal of `"<dialect>."` says.
inline std::string emptyGenericOpNameMessage(llvm::StringRef dialect) {
  return ("generic operation name '" + dialect +
          ".' names no operation after the dialect prefix (MLIR 22's parser "
          "aborts on it); write '" +
          dialect + ".<op>'")
      .str();
}

/// The first text in `text` that MLIR 22's parser would abort on: its
/// offset and the error to report instead. `at` is StringRef::npos when
/// there is none.
struct ParserHazard {
  size_t at = llvm::StringRef::npos;
  std::string message;
  explicit operator bool() const { return at != llvm::StringRef::npos; }
};

inline ParserHazard findParserHazard(llvm::StringRef text) {
  ParserHazard hazard;
  size_t array = findDenseIndexArray(text);
  size_t name = findEmptyGenericOpName(text);
  if (array != llvm::StringRef::npos && array < name) {
    hazard.at = array;
    hazard.message = denseIndexArrayMessage();
  } else if (name != llvm::StringRef::npos) {
    hazard.at = name;
    llvm::StringRef quoted = text.substr(name + 1);
    hazard.message = emptyGenericOpNameMessage(
        quoted.take_until([](char c) { return c == '.'; }));
  }
  return hazard;
}

} // namespace mlir::tle

#endif // TLE_SUPPORT_PARSERGUARD_H
