//===- PTXAsm.cpp - reading and rewriting Triton's PTX inline asm ---------===//
#include "PTXAsm.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace llvm;

namespace mlir::tle::ptx {

static Error fail(const Twine &msg) {
  return createStringError(inconvertibleErrorCode(), msg);
}

SmallVector<OperandRef> findOperandRefs(StringRef text) {
  SmallVector<OperandRef> refs;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '$')
      continue;
    if (i + 1 < text.size() && text[i + 1] == '$') { // `$$`: a literal `$`
      ++i;
      continue;
    }
    size_t j = i + 1;
    bool braced = j < text.size() && text[j] == '{';
    if (braced)
      ++j;
    size_t digits = j;
    while (j < text.size() && isDigit(text[j]))
      ++j;
    if (j == digits)
      continue;
    unsigned n = 0;
    text.slice(digits, j).getAsInteger(10, n);
    if (braced) {
      size_t close = text.find('}', j);
      if (close == StringRef::npos)
        continue;
      j = close + 1;
    }
    refs.push_back({i, j, n});
    i = j - 1;
  }
  return refs;
}

StateSpaces Statement::spaces() const {
  StateSpaces s;
  SmallVector<StringRef> parts;
  StringRef(opcode).split(parts, '.');
  for (StringRef p : drop_begin(parts)) {
    if (p == "global")
      ++s.global;
    else if (p == "shared" || p.starts_with("shared::"))
      ++s.shared;
    else if (p == "local" || p == "param" || p == "const")
      ++s.other;
  }
  return s;
}

bool Statement::references(unsigned operand) const {
  return any_of(findOperandRefs(guard + operands),
                [&](const OperandRef &r) { return r.operand == operand; });
}

SmallVector<Statement> splitStatements(StringRef asmString) {
  SmallVector<Statement> out;
  StringRef rest = asmString;
  while (!rest.empty()) {
    size_t semi = rest.find(';');
    StringRef body = rest.substr(0, semi);
    Statement st;
    st.terminator = semi == StringRef::npos ? "" : ";";
    rest = semi == StringRef::npos ? StringRef() : rest.substr(semi + 1);
    size_t i = 0;
    while (i < body.size() &&
           (isSpace(body[i]) || body[i] == '{' || body[i] == '}'))
      ++i;
    st.prefix = body.substr(0, i).str();
    body = body.substr(i);
    if (body.starts_with("@")) {
      size_t end = body.find_first_of(" \t");
      if (end == StringRef::npos)
        end = body.size();
      while (end < body.size() && isSpace(body[end]))
        ++end;
      st.guard = body.substr(0, end).str();
      body = body.substr(end);
    }
    size_t end = body.find_first_of(" \t\n{[");
    if (end == StringRef::npos)
      end = body.size();
    st.opcode = body.substr(0, end).str();
    st.operands = body.substr(end).str();
    out.push_back(std::move(st));
  }
  return out;
}

/// [begin, end) of each top-level `[...]` in `text`.
static SmallVector<std::pair<size_t, size_t>> addressRanges(StringRef text) {
  SmallVector<std::pair<size_t, size_t>> ranges;
  for (size_t i = text.find('['); i != StringRef::npos; i = text.find('[', i)) {
    size_t close = text.find(']', i);
    if (close == StringRef::npos)
      break;
    ranges.push_back({i, close + 1});
    i = close + 1;
  }
  return ranges;
}

std::string Statement::addressSpaceOf(unsigned operand) const {
  SmallVector<StringRef> parts, qualifiers;
  StringRef(opcode).split(parts, '.');
  for (StringRef p : drop_begin(parts))
    if (p == "global" || p == "shared" || p.starts_with("shared::") ||
        p == "local" || p == "param" || p == "const")
      qualifiers.push_back(p);
  auto ranges = addressRanges(operands);
  if (qualifiers.empty() || qualifiers.size() != ranges.size())
    return "";
  for (const OperandRef &ref : findOperandRefs(operands))
    if (ref.operand == operand)
      for (auto [i, r] : llvm::enumerate(ranges))
        if (ref.begin >= r.first && ref.end <= r.second)
          return qualifiers[i].str();
  return "";
}

std::string quote(StringRef asmString) {
  std::string q = "\"";
  for (char c : asmString) {
    if (c == '\n')
      q += "\\n";
    else if (c == '\t')
      q += "\\t";
    else if (c == '"')
      q += "\\\"";
    else
      q += c;
  }
  return q + "\"";
}

/// Qualifiers that only exist for the global state space: cache operators,
/// non-coherent loads, L1/L2 eviction priorities, cache hints, prefetch sizes.
static bool isGlobalOnlyQualifier(StringRef q) {
  return q == "ca" || q == "cg" || q == "cs" || q == "lu" || q == "cv" ||
         q == "wb" || q == "wt" || q == "nc" || q.starts_with("L1::") ||
         q.starts_with("L2::");
}

/// The start of the last top-level operand of `operands` (after its last
/// comma outside `{}`/`[]`), or npos.
static size_t lastOperandComma(StringRef operands) {
  int depth = 0;
  size_t last = StringRef::npos;
  for (size_t i = 0; i < operands.size(); ++i) {
    char c = operands[i];
    if (c == '{' || c == '[')
      ++depth;
    else if (c == '}' || c == ']')
      --depth;
    else if (c == ',' && depth == 0)
      last = i;
  }
  return last;
}

static Error rewriteStatement(Statement &st, const SharedOperand &op,
                              ArrayRef<int> pointerSpaces,
                              SmallVectorImpl<unsigned> &dropped) {
  SmallVector<StringRef> parts;
  StringRef(st.opcode).split(parts, '.');
  StringRef name = parts.front();
  if (name != "ld" && name != "st" && name != "atom" && name != "red")
    return fail(formatv("operand ${0} is used by `{1}`, not a memory access "
                        "with the .global state space",
                        op.operand, st.opcode));
  StateSpaces spaces = st.spaces();
  if (spaces.global != 1 || spaces.shared || spaces.other)
    return fail(formatv("operand ${0} is the address of `{1}`, which does not "
                        "name the .global state space (alone)",
                        op.operand, st.opcode));
  // The operand may only be an address, and every pointer addressed by the
  // statement must live in the same space.
  auto ranges = addressRanges(st.operands);
  for (const OperandRef &ref : findOperandRefs(st.operands)) {
    bool inAddress = any_of(ranges, [&](auto r) {
      return ref.begin >= r.first && ref.end <= r.second;
    });
    if (ref.operand == op.operand && !inAddress)
      return fail(formatv("operand ${0} is used by `{1}` as a value, not only "
                          "as an address",
                          op.operand, st.opcode));
    if (inAddress && ref.operand != op.operand &&
        ref.operand < pointerSpaces.size() && pointerSpaces[ref.operand] >= 0 &&
        pointerSpaces[ref.operand] != (int)op.addrSpace)
      return fail(formatv(
          "`{0}` mixes address spaces {1} (${2}) and {3} (${4})", st.opcode,
          op.addrSpace, op.operand, pointerSpaces[ref.operand], ref.operand));
  }
  if (st.guard.find('$') != std::string::npos &&
      any_of(findOperandRefs(st.guard),
             [&](const OperandRef &r) { return r.operand == op.operand; }))
    return fail(formatv("operand ${0} is used as a predicate", op.operand));

  std::string original = st.opcode;
  std::string opcode = name.str();
  bool cacheHint = false;
  for (StringRef p : drop_begin(parts)) {
    if (p == "global") {
      opcode += op.addrSpace == 7 ? ".shared::cluster" : ".shared";
      continue;
    }
    if (p == "L2::cache_hint")
      cacheHint = true;
    if (isGlobalOnlyQualifier(p))
      continue;
    opcode += "." + p.str();
  }
  st.opcode = opcode;
  if (cacheHint) {
    // The policy is the last operand: `..., $M`.
    StringRef operands = st.operands;
    size_t comma = lastOperandComma(operands);
    StringRef policy = comma == StringRef::npos
                           ? StringRef()
                           : operands.substr(comma + 1).trim();
    auto refs = findOperandRefs(policy);
    if (refs.size() != 1 || refs[0].begin != 0 || refs[0].end != policy.size())
      return fail(formatv("cannot find the .L2::cache_hint policy operand of "
                          "`{0}`",
                          original));
    dropped.push_back(refs[0].operand);
    // Keep any trailing whitespace the policy had.
    StringRef tail = operands.substr(comma + 1);
    size_t trailing = tail.size() - tail.rtrim().size();
    st.operands = operands.substr(0, comma).str() +
                  tail.substr(tail.size() - trailing).str();
  }
  return Error::success();
}

Expected<Rewritten> rewriteSharedAccesses(StringRef asmString,
                                          ArrayRef<SharedOperand> shared,
                                          ArrayRef<int> pointerSpaces) {
  SmallVector<Statement> statements = splitStatements(asmString);
  SmallVector<unsigned> dropped;
  for (const SharedOperand &op : shared) {
    bool used = false;
    for (Statement &st : statements) {
      if (!st.references(op.operand))
        continue;
      used = true;
      if (Error e = rewriteStatement(st, op, pointerSpaces, dropped))
        return std::move(e);
    }
    if (!used)
      return fail(formatv("operand ${0} (a pointer to address space {1}) is "
                          "not referenced",
                          op.operand, op.addrSpace));
  }
  std::string text;
  for (const Statement &st : statements)
    text += st.str();
  // Dropped policy operands must have no other reference; renumber the rest.
  llvm::sort(dropped);
  dropped.erase(std::unique(dropped.begin(), dropped.end()), dropped.end());
  for (unsigned d : dropped)
    for (const OperandRef &r : findOperandRefs(text))
      if (r.operand == d)
        return fail(formatv("the .L2::cache_hint policy ${0} is used elsewhere "
                            "in the asm",
                            d));
  std::string renumbered;
  size_t pos = 0;
  for (const OperandRef &r : findOperandRefs(text)) {
    unsigned below =
        llvm::count_if(dropped, [&](unsigned d) { return d < r.operand; });
    renumbered += text.substr(pos, r.begin - pos);
    if (below == 0) {
      renumbered += text.substr(r.begin, r.end - r.begin);
    } else {
      StringRef ref = StringRef(text).slice(r.begin, r.end);
      std::string digits = std::to_string(r.operand);
      size_t at = ref.find(digits);
      renumbered += ref.substr(0, at).str() +
                    std::to_string(r.operand - below) +
                    ref.substr(at + digits.size()).str();
    }
    pos = r.end;
  }
  renumbered += text.substr(pos);
  return Rewritten{std::move(renumbered), std::move(dropped)};
}

} // namespace mlir::tle::ptx
