#!/usr/bin/env python3
"""Mutation fuzzer for tle-opt: hand-edited IR must never crash the compiler.

Every run of tle-opt must end with exit code 0, or exit code 1 with an
`error:` diagnostic. A signal (SIGSEGV, SIGABRT, ...), an LLVM assertion,
"UNREACHABLE", "LLVM ERROR", a stack dump, any other exit code, exit 1 without
a diagnostic, or a run longer than --timeout is a failure.

Seed inputs, each with its own pipeline(s):
  * every lit input: test/**/*.mlir and test/**/*.ll with the arguments of
    each `RUN: [not] tle-opt ...` line (%s, %S, %t/NAME of split-file
    substituted, the `| FileCheck ...` part, `-o` and redirections dropped;
    -split-input-file / -verify-diagnostics kept: a -verify-diagnostics
    mismatch is a legitimate exit 1), and the Inputs/ files the .test files
    run through tle-opt;
  * the interop corpus (test/Interop/corpus/*.ttir, *.ttgir, *.source),
    printed back with plain tle-opt (as corpus-roundtrip.test does) and run
    through TLE's stage pipeline (the registered tle-ttir for .ttir,
    tle-ttgir for .ttgir and .source: lib/InitAll/Pipelines.cpp).
`--mlir-very-unsafe-disable-verifier-on-parsing` is dropped from every
pipeline: it hands unverified IR to passes on purpose.

Each mutant applies 1-3 mutations to one seed: token deletion, duplication,
swap and replacement, line deletion/duplication/swap, integer widths and
element types, shapes (transpose, resize to 0/1/odd/huge, add/drop a dim),
encoding aliases (#blocked <-> #shared ...), whole-type swaps (shape/encoding
mismatches), numeric values (0, negative, huge), array elements, attribute
entries, SSA operands, op names, generic op names cut to their dialect
prefix (`"tle."(...)`, which MLIR 22 aborts on), random bytes in names,
truncation.
Mutant i of seed S depends only on (S, i): runs are deterministic for a seed
whatever --jobs is.

On a failure the mutant is delta-debugged (split-input-file chunks, then
lines, then tokens) to a minimal input with the same failure signature and
written to --out (default test/fuzz-regressions/) with a header naming the
pipeline. lit does not run that folder: a fixed crash gets a real negative
test next to the op's other tests.

    scripts/fuzz_tle_opt.py [--seed N] [--count N] [--jobs N] [--timeout S]
                            [--tle-opt PATH] [--out DIR]

Exit status: 0 when no failure was found, 1 otherwise.
"""
import argparse
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TEST_DIR = os.path.join(ROOT, "test")
CORPUS_DIR = os.path.join(TEST_DIR, "Interop", "corpus")
REGRESSIONS = os.path.join(TEST_DIR, "fuzz-regressions")

# Flags that make tle-opt skip its own checks; fuzzing them finds nothing real.
DROPPED_FLAGS = {"--mlir-very-unsafe-disable-verifier-on-parsing",
                 "-mlir-very-unsafe-disable-verifier-on-parsing"}

# Failure signatures known to come from upstream MLIR/LLVM code with no TLE
# code involved: (regex on the signature, reason). A matching run is counted
# as "skipped (upstream)", not as a failure.
UPSTREAM_SKIPS = [
    # None: the one found (MLIR 22's parser asserting on `array<index>`, from
    # any attribute dictionary) is now refused by TLE before parsing
    # (include/TLE/Support/ParserGuard.h), so a recurrence is a failure.
]


# --------------------------------------------------------------------------
# Seeds
# --------------------------------------------------------------------------

@dataclass(frozen=True)
class Seed:
    name: str     # where it comes from (path relative to the repo, + pipeline)
    text: str     # the input
    args: tuple   # tle-opt arguments; "{input}" stands for the input file
    suffix: str   # ".mlir" or ".ll" (the mutant file's suffix)

    @property
    def comment(self):
        return ";" if self.suffix == ".ll" else "//"


def _run_lines(text):
    """The commands of a lit file's RUN: lines, continuation lines joined."""
    commands, current = [], None
    for line in text.splitlines():
        m = re.match(r"\s*(?:(?://|;|#)\s*)?RUN:(.*)$", line)
        if not m:
            continue
        body = m.group(1).strip()
        if current is not None:
            body = current + " " + body
        if body.endswith("\\"):
            current = body[:-1].rstrip()
            continue
        current = None
        commands.append(body)
    return commands


def _first_stage(command):
    """The command up to the first `|` outside quotes."""
    quote = None
    for i, c in enumerate(command):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "|":
            return command[:i]
    return command


def _split_file_chunks(text):
    """split-file: `;--- NAME` / `//--- NAME` starts a file named NAME."""
    chunks, name, lines = {}, None, []
    for line in text.splitlines(keepends=True):
        m = re.match(r"\s*(?://|;|#)--- (\S+)", line)
        if m:
            if name:
                chunks[name] = "".join(lines)
            name, lines = m.group(1), []
        elif name:
            lines.append(line)
    if name:
        chunks[name] = "".join(lines)
    return chunks


def _pipelines_of(path, text):
    """(input text, args, suffix, label) for each `tle-opt` RUN line."""
    directory = os.path.dirname(path)
    chunks = None
    found = []
    for command in _run_lines(text):
        try:
            words = shlex.split(_first_stage(command))
        except ValueError:
            continue
        if words[:1] == ["not"]:
            words = words[1:]
        if words[:1] != ["tle-opt"]:
            continue
        args, source, label, i = [], None, None, 1
        while i < len(words):
            w = words[i]
            if w in ("-o", ">", "2>"):
                i += 2
                continue
            if w == "<":
                w = words[i + 1]
                i += 1
            if w.startswith(("2>", ">")):
                i += 1
                continue
            if w in DROPPED_FLAGS:
                i += 1
                continue
            if w == "%s":
                source, label, w = text, os.path.relpath(path, ROOT), "{input}"
            elif w.startswith("%S/"):
                p = os.path.join(directory, w[3:])
                with open(p, encoding="utf-8") as f:
                    source, label, w = f.read(), os.path.relpath(p, ROOT), "{input}"
            elif w.startswith("%t/"):
                if chunks is None:
                    chunks = _split_file_chunks(text)
                if w[3:] not in chunks:
                    break
                source = chunks[w[3:]]
                label, w = os.path.relpath(path, ROOT) + ":" + w[3:], "{input}"
            args.append(w)
            i += 1
        else:
            if source is not None:
                suffix = ".ll" if "--tle-finish-llir" in args else ".mlir"
                found.append((source, tuple(args), suffix, label))
    return found


def _bridge_pipelines():
    """The stage pipelines the hook runs, by their registered names
    (lib/InitAll/Pipelines.cpp; python/tle/_bridge.py names the same)."""
    return {"TTIR_PIPELINE": "builtin.module(tle-ttir{num-stages=3})",
            "TTGIR_PIPELINE": "builtin.module(tle-ttgir)"}


def collect_seeds():
    seeds, seen = [], set()

    def add(text, args, suffix, label, shown=None):
        key = (label, args)
        if key in seen:
            return
        seen.add(key)
        shown = shown or " ".join(a for a in args if a != "{input}")
        seeds.append(Seed(f"{label} [{shown or 'parse/print'}]", text, args, suffix))

    for dirpath, dirnames, filenames in os.walk(TEST_DIR):
        dirnames[:] = sorted(d for d in dirnames if d not in ("fuzz-regressions", "corpus"))
        for name in sorted(filenames):
            if not name.endswith((".mlir", ".ll", ".test")):
                continue
            path = os.path.join(dirpath, name)
            with open(path, encoding="utf-8") as f:
                text = f.read()
            for source, args, suffix, label in _pipelines_of(path, text):
                add(source, args, suffix, label)

    pipelines = _bridge_pipelines()
    for name in sorted(os.listdir(CORPUS_DIR)):
        if not name.endswith((".ttir", ".ttgir", ".source")):
            continue
        path = os.path.join(CORPUS_DIR, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        label = os.path.relpath(path, ROOT)
        stage = "TTIR_PIPELINE" if name.endswith(".ttir") else "TTGIR_PIPELINE"
        add(text, ("--mlir-print-debuginfo", "--mlir-use-nameloc-as-prefix", "{input}"),
            ".mlir", label)
        add(text, ("--pass-pipeline=" + pipelines[stage], "{input}"), ".mlir", label,
            "--pass-pipeline=$" + stage)
    return seeds


# --------------------------------------------------------------------------
# Mutations
# --------------------------------------------------------------------------

TOKEN = re.compile(r"""
    //[^\n]*                                  # comment (MLIR)
  | "(?:[^"\\\n]|\\.)*"                       # string
  | [%#^@!]?[A-Za-z_$][\w$.\-]*               # identifiers, op names, SSA, aliases
  | [%#^@!][\w$.\-]+                          # %0, #loc12, ...
  | 0x[0-9a-fA-F]+
  | -?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?
  | ->|::
  | \S
""", re.X)
INT_TYPE = re.compile(r"(?<![\w.#!%@$])i(?:1|8|16|32|64)(?![\w.])")
FLOAT_TYPE = re.compile(r"(?<![\w.#!%@$])(?:f16|bf16|f32|f64|tf32|f8E4M3FN|f8E5M2|f8E4M3FNUZ|f8E5M2FNUZ)(?![\w.])")
SHAPE = re.compile(r"(?<=<)(?:\d+x)+(?=[a-zA-Z!])")
NUMBER = re.compile(r"(?<![\w.#%@^$!\-])-?\d+(?![\w.])")
ALIAS_USE = re.compile(r"#[A-Za-z_][\w$.]*(?![\w$.<])")
ALIAS_DEF = re.compile(r"^(#[A-Za-z_][\w$.]*)\s*=", re.M)
ALIAS_DEF_LINE = re.compile(r"^(#[A-Za-z_][\w$.]*)\s*=\s*(.+)$", re.M)
SSA = re.compile(r"%[\w$.\-]+(?:#\d+)?")
OP_NAME = re.compile(r"(?<![\w.#!%@$^])(?:tle|tt|ttg|ttng|iluvatar_tle|arith|scf|math|gpu|cf|func|memref|linalg|bufferization)\.[a-z_][\w.]*(?![\w.<])")
NAME = re.compile(r"[%@#^][A-Za-z_$][\w$.\-]*|\b(?:tle|tt|ttg|ttng)\.[a-z_]\w*")
# A generic op's quoted name, followed by its operand list.
GENERIC_OP_NAME = re.compile(r'"([A-Za-z_][\w$]*)\.[\w$.]+"(?=\s*\()')
EMPTY_NAME_DIALECTS = ["tle", "tt", "ttg", "ttng", "arith", "scf", "builtin", "func", "iluvatar_tle"]
ARRAY = re.compile(r"\[[^\[\]\n]*\]")
ATTR_ENTRY = re.compile(r"(?<=[{,])\s*[\w.\-\"]+\s*=\s*")
TYPE_START = re.compile(r"(?:tensor|memref|vector|!ttg\.memdesc|!tt\.ptr|!tt\.tensordesc|!ttg\.async\.token|!tle\.[\w.]+)<")

INT_ATTR = re.compile(r"(?<![\w.])-?\d+ : (?:i\d+|index)\b")
INT_ATTR_TYPES = ["i1", "i8", "i16", "i32", "i64", "i128", "ui32", "si32", "ui64", "index"]
INT_TYPES = ["i1", "i8", "i16", "i32", "i64", "i128", "i0", "i3", "index", "f32"]
FLOAT_TYPES = ["f16", "bf16", "f32", "f64", "tf32", "f8E4M3FN", "f8E5M2", "i32", "i1"]
NUMBERS = [0, -1, 1, 2, 3, 4, 5, 7, 8, 16, 31, 32, 33, 64, 127, 128, 255, 256, 1024,
           65535, 65536, 2**31 - 1, 2**31, -2**31, 2**32, 2**63 - 1, 2**63, -2**63,
           2**64, 10**30]
DIMS = [0, 1, 2, 3, 7, 16, 31, 64, 256, 4096, 65536, 2**31, 2**40]
ENCODINGS = ["#ttg.shared_memory", "#smem", "#blocked", "#shared", "#mma", "#ttng.tensor_memory",
             "#ttg.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>",
             "#ttg.swizzled_shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0]}>"]
NOISE = ["\x00", "\x7f", "\udcff", "\udc80", "\u00e9", "\u4e2d", '"', "\\", "{", "}", "<", ">",
         "(", ")", "[", "]", "%", "#", "@", "!", "^", ":", ",", "=", " ", "\n", ".", "$", "-", "0"]


def _balanced_end(text, start, open_char="<", close_char=">"):
    """Index past the bracket closing the one at text[start] (or -1)."""
    depth = 0
    i = start
    while i < len(text):
        c = text[i]
        if c == open_char:
            depth += 1
        elif c == close_char and text[i - 1] != "-":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c == "\n":
            return -1
        i += 1
    return -1


def _types(text):
    spans = []
    for m in TYPE_START.finditer(text):
        end = _balanced_end(text, m.end() - 1)
        if end > 0:
            spans.append((m.start(), end))
    return spans


class Mutator:
    """Applies one random mutation to a text (returns None if it cannot)."""

    def __init__(self, rng, op_names):
        self.rng = rng
        self.op_names = op_names

    def _pick(self, pattern, text):
        matches = list(pattern.finditer(text))
        return self.rng.choice(matches) if matches else None

    @staticmethod
    def _splice(text, start, end, new):
        return text[:start] + new + text[end:]

    # token level
    def delete_token(self, text):
        m = self._pick(TOKEN, text)
        return m and self._splice(text, m.start(), m.end(), "")

    def duplicate_token(self, text):
        m = self._pick(TOKEN, text)
        return m and self._splice(text, m.end(), m.end(), " " + m.group())

    def swap_tokens(self, text):
        tokens = list(TOKEN.finditer(text))
        if len(tokens) < 2:
            return None
        i = self.rng.randrange(len(tokens))
        j = min(len(tokens) - 1, i + self.rng.randint(1, 8)) if self.rng.random() < 0.7 \
            else self.rng.randrange(len(tokens))
        if i == j:
            return None
        a, b = sorted((tokens[i], tokens[j]), key=lambda t: t.start())
        return text[:a.start()] + b.group() + text[a.end():b.start()] + a.group() + text[b.end():]

    def replace_token(self, text):
        tokens = list(TOKEN.finditer(text))
        if len(tokens) < 2:
            return None
        a, b = self.rng.choice(tokens), self.rng.choice(tokens)
        return self._splice(text, a.start(), a.end(), b.group())

    # line level
    def _lines(self, text):
        return text.splitlines(keepends=True)

    def delete_line(self, text):
        lines = self._lines(text)
        if not lines:
            return None
        del lines[self.rng.randrange(len(lines))]
        return "".join(lines)

    def duplicate_line(self, text):
        lines = self._lines(text)
        if not lines:
            return None
        i = self.rng.randrange(len(lines))
        lines.insert(self.rng.randrange(len(lines) + 1), lines[i])
        return "".join(lines)

    def swap_lines(self, text):
        lines = self._lines(text)
        if len(lines) < 2:
            return None
        i = self.rng.randrange(len(lines))
        j = min(len(lines) - 1, i + self.rng.randint(1, 4))
        lines[i], lines[j] = lines[j], lines[i]
        return "".join(lines)

    def truncate(self, text):
        if not text:
            return None
        return text[:self.rng.randrange(len(text))]

    # types and attributes
    def int_width(self, text):
        m = self._pick(INT_TYPE, text)
        return m and self._splice(text, m.start(), m.end(), self.rng.choice(INT_TYPES))

    def element_type(self, text):
        m = self._pick(FLOAT_TYPE, text)
        return m and self._splice(text, m.start(), m.end(), self.rng.choice(FLOAT_TYPES))

    def int_attr_type(self, text):
        m = self._pick(INT_ATTR, text)
        if not m:
            return None
        value = m.group().split(" : ")[0]
        if self.rng.random() < 0.3:
            value = str(self.rng.choice(NUMBERS))
        return self._splice(text, m.start(), m.end(), value + " : " + self.rng.choice(INT_ATTR_TYPES))

    def shape(self, text):
        m = self._pick(SHAPE, text)
        if not m:
            return None
        dims = m.group().split("x")[:-1]
        how = self.rng.randrange(5)
        if how == 0 and len(dims) > 1:
            dims = dims[::-1] if self.rng.random() < 0.5 else self.rng.sample(dims, len(dims))
        elif how == 1:
            dims[self.rng.randrange(len(dims))] = str(self.rng.choice(DIMS))
        elif how == 2:
            dims.insert(self.rng.randrange(len(dims) + 1), str(self.rng.choice(DIMS[:6])))
        elif how == 3:
            del dims[self.rng.randrange(len(dims))]
        else:
            dims[self.rng.randrange(len(dims))] = "?"
        return self._splice(text, m.start(), m.end(), "".join(d + "x" for d in dims))

    def encoding(self, text):
        m = self._pick(ALIAS_USE, text)
        if not m:
            return None
        defined = [d for d in ALIAS_DEF.findall(text) if not d.startswith("#loc")]
        choices = defined + ENCODINGS
        return self._splice(text, m.start(), m.end(), self.rng.choice(choices))

    def drop_encoding(self, text):
        spans = _types(text)
        if not spans:
            return None
        start, end = self.rng.choice(spans)
        inner = text[start:end]
        m = re.search(r",\s*#[^,>]*(?:<[^>]*>)?>?$", inner)
        if not m:
            return None
        return text[:start] + inner[:m.start()] + ">" + text[end:]

    def swap_type(self, text):
        spans = _types(text)
        if len(spans) < 2:
            return None
        a, b = self.rng.choice(spans), self.rng.choice(spans)
        return self._splice(text, a[0], a[1], text[b[0]:b[1]])

    def number(self, text):
        m = self._pick(NUMBER, text)
        if not m:
            return None
        value = int(m.group())
        new = self.rng.choice(NUMBERS + [value + 1, value - 1, value * 2, -value])
        return self._splice(text, m.start(), m.end(), str(new))

    def array(self, text):
        m = self._pick(ARRAY, text)
        if not m:
            return None
        items = [s.strip() for s in m.group()[1:-1].split(",") if s.strip()]
        how = self.rng.randrange(4)
        if how == 0 or not items:
            items = []
        elif how == 1:
            del items[self.rng.randrange(len(items))]
        elif how == 2:
            items.insert(self.rng.randrange(len(items) + 1), self.rng.choice(items))
        else:
            items = items[::-1]
        return self._splice(text, m.start(), m.end(), "[" + ", ".join(items) + "]")

    def attribute_entry(self, text):
        m = self._pick(ATTR_ENTRY, text)
        if not m:
            return None
        # Drop `name = value` up to the next ',' or closing bracket at depth 0.
        depth, i = 0, m.end()
        while i < len(text):
            c = text[i]
            if c in "[{(<":
                depth += 1
            elif c in "]})>":
                if depth == 0:
                    break
                depth -= 1
            elif c == "," and depth == 0:
                i += 1
                break
            elif c == "\n":
                return None
            i += 1
        return self._splice(text, m.start(), i, "")

    def ssa_operand(self, text):
        names = list(SSA.finditer(text))
        if len(names) < 2:
            return None
        a = self.rng.choice(names)
        return self._splice(text, a.start(), a.end(), self.rng.choice(names).group())

    def op_name(self, text):
        m = self._pick(OP_NAME, text)
        if not m or not self.op_names:
            return None
        dialect = m.group().split(".")[0]
        same = [n for n in self.op_names if n.startswith(dialect + ".")]
        pool = same if same and self.rng.random() < 0.8 else self.op_names
        return self._splice(text, m.start(), m.end(), self.rng.choice(pool))

    def noise_in_name(self, text):
        m = self._pick(NAME, text)
        if not m:
            return None
        at = self.rng.randint(m.start() + 1, m.end())
        return self._splice(text, at, at, self.rng.choice(NOISE))

    def empty_op_name(self, text):
        """A generic op's name cut to its dialect prefix (`"tle."(...)`), or
        such an op put on a line of its own, which MLIR 22's parser aborts on
        (TLE/Support/ParserGuard.h refuses it first)."""
        m = self._pick(GENERIC_OP_NAME, text)
        if m:
            return self._splice(text, m.start(), m.end(), f'"{m.group(1)}."')
        lines = text.split("\n")
        ops = [i for i, line in enumerate(lines) if OP_NAME.search(line)]
        if not ops:
            return None
        i = self.rng.choice(ops)
        dialect = self.rng.choice(EMPTY_NAME_DIALECTS)
        indent = re.match(r"\s*", lines[i]).group()
        operands = self.rng.choice(["", "%0", "%arg0, %arg1"])
        lines.insert(i, f'{indent}%fuzz_empty = "{dialect}."({operands}) : () -> i32')
        return "\n".join(lines)

    # Consistent edits: every occurrence changes alike, so types still match
    # between defs and uses and the mutant gets past the parser to verifiers
    # and passes.
    def _replace_all(self, text, pattern, choices):
        found = sorted({m.group() for m in pattern.finditer(text)})
        if not found:
            return None
        old = self.rng.choice(found)
        new = self.rng.choice([c for c in choices if c != old] or choices)
        return pattern.sub(lambda m: new if m.group() == old else m.group(), text)

    def global_shape(self, text):
        shapes = sorted({m.group() for m in SHAPE.finditer(text)})
        if not shapes:
            return None
        old = self.rng.choice(shapes)
        dims = old.split("x")[:-1]
        how = self.rng.randrange(3)
        if how == 0 and len(dims) > 1:
            dims = dims[::-1]
        elif how == 1:
            dims[self.rng.randrange(len(dims))] = str(self.rng.choice(DIMS))
        else:
            i = self.rng.randrange(len(dims))
            dims[i] = str(max(1, int(dims[i]) // 2) if self.rng.random() < 0.5 else int(dims[i]) * 2)
        new = "".join(d + "x" for d in dims)
        return SHAPE.sub(lambda m: new if m.group() == old else m.group(), text)

    def global_element_type(self, text):
        return self._replace_all(text, FLOAT_TYPE, FLOAT_TYPES) if self.rng.random() < 0.5 \
            else self._replace_all(text, INT_TYPE, INT_TYPES)

    def global_number(self, text):
        found = sorted({m.group() for m in NUMBER.finditer(text)})
        if not found:
            return None
        old = self.rng.choice(found)
        new = str(self.rng.choice(NUMBERS[:20] + [int(old) * 2, int(old) // 2, int(old) + 1]))
        return NUMBER.sub(lambda m: new if m.group() == old else m.group(), text)

    def alias_definition(self, text):
        defs = [m for m in ALIAS_DEF_LINE.finditer(text) if not m.group(1).startswith("#loc")]
        if not defs:
            return None
        target = self.rng.choice(defs)
        bodies = [m.group(2) for m in defs] + ENCODINGS[5:]
        return self._splice(text, target.start(2), target.end(2), self.rng.choice(bodies))

    MUTATIONS = [  # (name, weight)
        ("delete_token", 6), ("duplicate_token", 4), ("swap_tokens", 4), ("replace_token", 4),
        ("delete_line", 5), ("duplicate_line", 3), ("swap_lines", 3), ("truncate", 2),
        ("int_width", 5), ("int_attr_type", 3), ("element_type", 5), ("shape", 8), ("encoding", 8),
        ("drop_encoding", 3), ("swap_type", 8), ("number", 10), ("array", 4),
        ("attribute_entry", 4), ("ssa_operand", 6), ("op_name", 6), ("noise_in_name", 3),
        ("global_shape", 6), ("global_element_type", 4), ("global_number", 6),
        ("alias_definition", 6), ("empty_op_name", 2),
    ]

    def mutate(self, text):
        names = [n for n, _ in self.MUTATIONS]
        weights = [w for _, w in self.MUTATIONS]
        for _ in range(20):
            name = self.rng.choices(names, weights)[0]
            out = getattr(self, name)(text)
            if out is not None and out != text:
                return name, out
        return None, text


def make_mutant(seed_value, index, seeds, op_names):
    """Mutant `index` of run `seed_value`: (seed, mutations, text)."""
    rng = random.Random(f"tle-fuzz/{seed_value}/{index}")
    seed = rng.choice(seeds)
    mutator = Mutator(rng, op_names)
    text, applied = seed.text, []
    for _ in range(rng.choices([1, 2, 3], [60, 25, 15])[0]):
        name, text = mutator.mutate(text)
        if name:
            applied.append(name)
    return seed, applied, text


SWEEP_DIMS = ("0", "1", "3", "4294967296")
SWEEP_NUMBERS = ("0", "-1", "2147483648", "4294967297")


def sweep_mutants(seeds):
    """The --sweep mutants, in order: in every seed (the corpus: only its
    alias definitions and module attributes), each distinct shape with one
    dimension set to an edge value everywhere it occurs, and each distinct
    number set to an edge value everywhere (0, -1, 2^31, 2^32 + 1): the
    consistent edits that reach verifiers and passes, exhaustively."""
    for seed in seeds:
        corpus = "corpus" in seed.name
        for shape in sorted({m.group() for m in SHAPE.finditer(seed.text)}):
            dims = shape.split("x")[:-1]
            for i in ([len(dims) - 1] if corpus else range(len(dims))):
                for value in SWEEP_DIMS:
                    new = "".join(d + "x" for d in dims[:i] + [value] + dims[i + 1:])
                    yield seed, [f"shape {shape} -> {new}"], SHAPE.sub(
                        lambda m, old=shape, new=new: new if m.group() == old else m.group(),
                        seed.text)
        if corpus:
            lines = seed.text.splitlines(keepends=True)
            for i, line in enumerate(lines):
                if not re.match(r"#(?!loc)|module attributes", line):
                    continue
                for m in NUMBER.finditer(line):
                    for value in SWEEP_NUMBERS:
                        edited = line[:m.start()] + value + line[m.end():]
                        yield seed, [f"line {i + 1}: {m.group()} -> {value}"], \
                            "".join(lines[:i] + [edited] + lines[i + 1:])
            continue
        for number in sorted({m.group() for m in NUMBER.finditer(seed.text)}):
            for value in SWEEP_NUMBERS:
                if value != number:
                    yield seed, [f"number {number} -> {value}"], NUMBER.sub(
                        lambda m, old=number, new=value: new if m.group() == old else m.group(),
                        seed.text)


# --------------------------------------------------------------------------
# Running and classifying
# --------------------------------------------------------------------------

CRASH_MARKERS = ("Assertion", "UNREACHABLE", "Stack dump:", "LLVM ERROR:",
                 "PLEASE submit a bug report", "Segmentation fault", "Aborted")
# A tle-opt built with TLE_SANITIZE (scripts/sanitize.sh) reports through
# these, and exits 1: without them its report would pass for a diagnostic
# ("runtime error:" contains "error:").
SANITIZER_REPORT = re.compile(r"^(?:==\d+==)?ERROR: (\w+Sanitizer): ([\w-]+)|^(\S+):\d+:\d+: runtime error: ([^\n]*)",
                              re.M)
RUNTIME_FRAMES = re.compile(
    r"llvm::sys::|SignalHandler|__restore_rt|raise|abort|__assert_fail|__libc_start|_start\b|"
    r"llvm_unreachable_internal|report_fatal_error|reportFatal|llvm::cast|llvm::dyn_cast|"
    r"llvm::isa|CastInfo|__pthread_kill|pthread_kill|std::__|__gnu_cxx|gsignal|0x[0-9a-f]+ \(")
LIBC_FRAME = re.compile(r"libc\.so|\s\./\S+:\d+")   # glibc's frames name ./dir/file.c
FRAME = re.compile(r"^\s*#\d+ 0x[0-9a-f]+ (.*)$", re.M)


TLE_NAMESPACES = re.compile(r"\b(?:tle|ttg|tt|ttng|triton|iluvatar_tle)::")


def _tle_sources():
    """Basenames of TLE's C++ sources (frames of anonymous functions name only their file)."""
    names = set()
    for top in ("lib", "tools", "python/src"):
        for dirpath, _, filenames in os.walk(os.path.join(ROOT, top)):
            names.update(f for f in filenames if f.endswith((".cpp", ".h", ".inc")))
    return names


TLE_SOURCES = _tle_sources()


def _is_tle_frame(line):
    m = re.search(r"[\s/]([\w.+\-]+\.(?:cpp|h|inc)):\d+", line)   # file:line, or a sanitizer's path:line
    return bool(TLE_NAMESPACES.search(_frame_name(line)) or (m and m.group(1) in TLE_SOURCES))


def _frame_name(line):
    """A stack frame's function name, without arguments, templates or addresses."""
    name = re.sub(r"\s+\S+:\d+(:\d+)?$", "", line).strip()    # file:line
    name = re.sub(r"^in ", "", name)                          # a sanitizer's frames: "#0 0x.. in F file:line"
    name = re.sub(r"\s*\(/[^)]*\)$", "", name)                # (binary+0x..)
    name = name.replace("(anonymous namespace)", "{anonymous}")
    depth, out = 0, []
    for c in name:                                            # drop <...> and (...)
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth = max(0, depth - 1)
        elif depth == 0:
            out.append(c)
    return "".join(out).strip()


def _location(stderr, asserting=""):
    """Where a crash happened: ' at F' (the innermost frame that is not LLVM's
    runtime, casting, the C library or the asserting function itself) and,
    when F is not TLE's, ' via T' (the innermost TLE frame) or ' (no TLE frame)'."""
    lines = FRAME.findall(stderr)
    innermost = next((line for line in lines
                      if _frame_name(line) and not RUNTIME_FRAMES.search(_frame_name(line))
                      and not LIBC_FRAME.search(line)
                      and not (asserting and _frame_name(line).startswith(asserting))), None)
    if innermost is None:
        return ""
    where = " at " + _frame_name(innermost)
    if _is_tle_frame(innermost):
        return where
    tle = next((line for line in lines if _is_tle_frame(line)), None)
    return where + (" via " + _frame_name(tle) if tle else " (no TLE frame)")


def _normalize(message):
    message = re.sub(r"0x[0-9a-f]+", "0x?", message)
    return re.sub(r"\s+", " ", message).strip()[:200]


def classify(rc, stderr, timed_out):
    """('ok' | 'error' | 'failure', signature or '')."""
    if timed_out:
        return "failure", "timeout"
    sanitizer = SANITIZER_REPORT.search(stderr)
    if sanitizer:
        if sanitizer.group(1):
            what = f"{sanitizer.group(1)}: {sanitizer.group(2)}"
        else:
            what = (f"UndefinedBehaviorSanitizer: {_normalize(re.sub(r'[0-9]+', 'N', sanitizer.group(4)))} "
                    f"({os.path.basename(sanitizer.group(3))})")
        return "failure", what + _location(stderr)
    crashed = rc < 0 or any(marker in stderr for marker in CRASH_MARKERS)
    if not crashed:
        if rc == 0:
            return "ok", ""
        if rc == 1 and "error:" in stderr:
            return "error", ""
        return "failure", f"exit {rc} without an error: diagnostic"
    asserting = ""
    m = re.search(r"([\w.+\-]+):\d+: ([^\n]*): Assertion `(.*)' failed", stderr)
    u = re.search(r"^(?:(.*)\n)?UNREACHABLE executed(?: at (\S+?):\d+)?!", stderr, re.M)
    if m:
        what = f"assertion `{_normalize(m.group(3))}' ({m.group(1)})"
        f = re.search(r"([\w:~]+)\s*(?:<[^()]*>)?\s*\(", m.group(2))
        asserting = f.group(1) if f else ""
    elif u:
        what = f"UNREACHABLE `{_normalize(u.group(1) or '')}' ({os.path.basename(u.group(2) or '?')})"
    elif "LLVM ERROR:" in stderr:
        what = "LLVM ERROR: " + _normalize(re.search(r"LLVM ERROR: ([^\n]*)", stderr).group(1))
    elif rc < 0:
        try:
            what = signal.Signals(-rc).name
        except ValueError:
            what = f"signal {-rc}"
    else:
        what = f"crash report with exit {rc}"
    return "failure", what + _location(stderr, asserting)


def upstream_reason(signature):
    for pattern, reason in UPSTREAM_SKIPS:
        if re.search(pattern, signature):
            return reason
    return None


class Runner:
    def __init__(self, tle_opt, timeout, workdir):
        self.tle_opt = tle_opt
        self.timeout = timeout
        self.workdir = workdir
        self.env = dict(os.environ)
        # Symbolized stack dumps give the failing function, the crash's signature.
        symbolizer = shutil.which("llvm-symbolizer", path=os.path.dirname(tle_opt) + os.pathsep +
                                  os.environ.get("PATH", ""))
        if symbolizer and "LLVM_SYMBOLIZER_PATH" not in self.env:
            self.env["LLVM_SYMBOLIZER_PATH"] = symbolizer
        self._local = threading.local()
        self._counter = 0
        self._lock = threading.Lock()

    def _path(self, suffix):
        if not hasattr(self._local, "dir"):
            with self._lock:
                self._counter += 1
                n = self._counter
            self._local.dir = os.path.join(self.workdir, f"w{n}")
            os.makedirs(self._local.dir, exist_ok=True)
        return os.path.join(self._local.dir, "input" + suffix)

    def command(self, args, path):
        return [self.tle_opt] + [path if a == "{input}" else a for a in args]

    def run(self, text, args, suffix):
        """(kind, signature, stderr) of tle-opt ARGS on TEXT."""
        path = self._path(suffix)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)
        proc = subprocess.Popen(self.command(args, path), stdin=subprocess.DEVNULL,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                cwd=os.path.dirname(path), env=self.env, start_new_session=True)
        timed_out = False
        try:
            _, err = proc.communicate(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            _, err = proc.communicate()
            timed_out = True
        stderr = err.decode("utf-8", "replace")
        kind, signature = classify(proc.returncode, stderr, timed_out)
        return kind, signature, stderr


# --------------------------------------------------------------------------
# Minimization
# --------------------------------------------------------------------------

class Minimizer:
    def __init__(self, runner, args, suffix, signature, budget_runs, budget_s):
        self.runner, self.args, self.suffix, self.signature = runner, args, suffix, signature
        self.runs_left = budget_runs
        self.deadline = time.monotonic() + budget_s
        self.cache = {}

    def reproduces(self, text):
        if text in self.cache:
            return self.cache[text]
        if self.runs_left <= 0 or time.monotonic() > self.deadline:
            return False
        self.runs_left -= 1
        _, signature, _ = self.runner.run(text, self.args, self.suffix)
        self.cache[text] = signature == self.signature
        return self.cache[text]

    def ddmin(self, parts):
        """Zeller's delta debugging on a list of strings concatenated."""
        n = 2
        while len(parts) >= 2:
            size = max(1, len(parts) // n)
            chunks = [parts[i:i + size] for i in range(0, len(parts), size)]
            reduced = False
            for i in range(len(chunks)):
                complement = [p for j, c in enumerate(chunks) if j != i for p in c]
                if self.reproduces("".join(complement)):
                    parts, n, reduced = complement, max(n - 1, 2), True
                    break
            if not reduced:
                for chunk in chunks:
                    if len(chunk) < len(parts) and self.reproduces("".join(chunk)):
                        parts, n, reduced = chunk, 2, True
                        break
            if not reduced:
                if n >= len(parts):
                    break
                n = min(len(parts), n * 2)
        return parts

    def drop_blocks(self, text):
        """Removes whole `{ ... }` blocks (a function, an op with its regions),
        which line-wise ddmin cannot: no single line of one can go alone."""
        lines = text.splitlines(keepends=True)
        i = 0
        while i < len(lines):
            depth, j = 0, i
            while j < len(lines):
                code = lines[j].split("//")[0]
                depth += code.count("{") - code.count("}")
                if depth <= 0:
                    break
                j += 1
            if j > i and j < len(lines):
                candidate = lines[:i] + lines[j + 1:]
                if self.reproduces("".join(candidate)):
                    lines = candidate
                    continue
            i += 1
        return "".join(lines)

    def minimize(self, text):
        if "-split-input-file" in self.args or "--split-input-file" in self.args:
            for chunk in re.split(r"^// -----.*\n?", text, flags=re.M):
                if self.reproduces(chunk):
                    text = chunk
                    break
        text = "".join(self.ddmin(text.splitlines(keepends=True)))
        text = self.drop_blocks(text)
        pieces = [m.group() for m in re.finditer(r"\s*(?:" + TOKEN.pattern + r")|\s+$", text,
                                                  re.X | re.S)]
        if "".join(pieces) == text:
            text = "".join(self.ddmin(pieces))
        lines = [line for line in text.splitlines(keepends=True) if line.strip()]
        if self.reproduces("".join(lines)):
            text = "".join(lines)
        return text


def write_reproducer(out_dir, seed, signature, text, runner, header_extra):
    os.makedirs(out_dir, exist_ok=True)
    digest = hashlib.sha1(signature.encode()).hexdigest()[:10]
    slug = re.sub(r"[^A-Za-z0-9]+", "-", signature.split(" at ")[-1].split(" via ")[0])[:40].strip("-").lower()
    path = os.path.join(out_dir, f"{slug or 'crash'}-{digest}{seed.suffix}")
    c = seed.comment
    args = " ".join(shlex.quote(a) if a != "{input}" else "%s" for a in seed.args)
    header = (f"{c} Minimized by scripts/fuzz_tle_opt.py {header_extra}\n"
              f"{c} Failure: {signature}\n"
              f"{c} Pipeline: tle-opt {args}\n")
    body = header + text
    # Keep the header only if the crash survives it (line-sensitive inputs).
    if runner.run(body, seed.args, seed.suffix)[1] != signature:
        body = text
    if os.path.exists(path) and os.path.getsize(path) <= len(body.encode("utf-8", "surrogateescape")):
        return path
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(body)
    return path


# --------------------------------------------------------------------------
# Main
# --------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--count", type=int, default=1000, help="mutants to run")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per run")
    parser.add_argument("--tle-opt", default=None,
                        help="tle-opt binary (default: build/bin/tle-opt, else PATH)")
    parser.add_argument("--out", default=REGRESSIONS, help="where reproducers go")
    parser.add_argument("--start", type=int, default=0, help="index of the first mutant")
    parser.add_argument("--filter", default=None, help="only seeds whose name matches this regex")
    parser.add_argument("--no-minimize", action="store_true", help="write failing mutants as they are")
    parser.add_argument("--minimize-runs", type=int, default=3000, help="runs per minimization")
    parser.add_argument("--minimize-seconds", type=float, default=300, help="time per minimization")
    parser.add_argument("--sweep", action="store_true",
                        help="instead of random mutants, every seed with each shape and number "
                             "set to edge values (0, -1, 2^31, ...) everywhere it occurs")
    parser.add_argument("--list-seeds", action="store_true",
                        help="print the seed inputs and their pipelines, then exit")
    parser.add_argument("--check-seeds", action="store_true",
                        help="run every seed unmutated, print how each ends, then exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="print every failing mutant")
    parser.add_argument("--print-reproducers", action="store_true",
                        help="also print each reproducer's text (for CI logs, where --out is lost)")
    args = parser.parse_args()

    tle_opt = args.tle_opt or os.path.join(ROOT, "build", "bin", "tle-opt")
    if not os.path.exists(tle_opt):
        tle_opt = shutil.which(args.tle_opt or "tle-opt") or tle_opt
    if not (os.path.isfile(tle_opt) and os.access(tle_opt, os.X_OK)):
        sys.exit(f"error: no tle-opt binary at {tle_opt!r} (use --tle-opt)")
    tle_opt = os.path.abspath(tle_opt)

    seeds = collect_seeds()
    if args.filter:
        seeds = [s for s in seeds if re.search(args.filter, s.name)]
    if not seeds:
        sys.exit("error: no seed inputs")
    if args.list_seeds:
        for s in seeds:
            print(s.name)
        return 0
    if args.check_seeds:
        workdir = tempfile.mkdtemp(prefix="tle-fuzz-")
        try:
            runner = Runner(tle_opt, args.timeout, workdir)
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                results = list(pool.map(lambda s: runner.run(s.text, s.args, s.suffix), seeds))
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        for s, (kind, signature, _) in zip(seeds, results):
            print(f"{kind:8s} {s.name} {signature}")
        return 1 if any(kind == "failure" for kind, _, _ in results) else 0
    op_names = sorted({m.group() for s in seeds for m in OP_NAME.finditer(s.text)})

    start = time.monotonic()
    sweep = list(sweep_mutants(seeds)) if args.sweep else None
    if args.sweep:
        args.start, args.count = 0, len(sweep)
    print(f"fuzz_tle_opt: {'sweep' if args.sweep else f'seed {args.seed}'}, {args.count} "
          f"mutants of {len(seeds)} seed inputs "
          f"(mutants {args.start}..{args.start + args.count - 1}), jobs {args.jobs}, "
          f"timeout {args.timeout:g} s, {tle_opt}", flush=True)

    workdir = tempfile.mkdtemp(prefix="tle-fuzz-")
    runner = Runner(tle_opt, args.timeout, workdir)
    counts = {"ok": 0, "error": 0, "failure": 0, "skipped": 0}
    failures = {}          # signature -> [(index, seed, mutations, text)]
    skipped = {}           # signature -> reason
    lock = threading.Lock()
    done = [0]

    def one(index):
        seed, mutations, text = sweep[index] if args.sweep else \
            make_mutant(args.seed, index, seeds, op_names)
        kind, signature, stderr = runner.run(text, seed.args, seed.suffix)
        with lock:
            done[0] += 1
            if kind == "failure" and upstream_reason(signature):
                skipped[signature] = upstream_reason(signature)
                kind = "skipped"
            counts[kind] += 1
            if kind == "failure":
                first = signature not in failures
                failures.setdefault(signature, []).append((index, seed, mutations, text))
                if first or args.verbose:
                    print(f"  FAIL mutant {index} ({seed.name}; {', '.join(mutations)}): "
                          f"{signature}", flush=True)
            if done[0] % 500 == 0:
                print(f"  ... {done[0]}/{args.count} ({time.monotonic() - start:.0f} s)", flush=True)

    try:
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            list(pool.map(one, range(args.start, args.start + args.count)))

        reproducers = {}
        for signature, hits in sorted(failures.items()):
            index, seed, mutations, text = min(hits, key=lambda h: len(h[3]))
            if not args.no_minimize:
                text = Minimizer(runner, seed.args, seed.suffix, signature,
                                 args.minimize_runs, args.minimize_seconds).minimize(text)
            reproducers[signature] = write_reproducer(
                args.out, seed, signature, text, runner,
                f"{'--sweep' if args.sweep else f'--seed {args.seed}'}: mutant {index} "
                f"({', '.join(mutations)}) of {seed.name.split(' [')[0]}")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    wall = time.monotonic() - start
    print(f"mutants:            {args.count}")
    print(f"exit 0:             {counts['ok']}")
    print(f"exit 1 with error:  {counts['error']}")
    if counts["skipped"]:
        print(f"skipped (upstream): {counts['skipped']}")
        for signature, reason in sorted(skipped.items()):
            print(f"  {signature}: {reason}")
    print(f"failures:           {counts['failure']} ({len(failures)} distinct)")
    for signature, hits in sorted(failures.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(hits):5d}  {signature}")
        print(f"         first: mutant {hits[0][0]} of {hits[0][1].name}")
        print(f"         reproducer: {os.path.relpath(reproducers[signature])}")
        if args.print_reproducers:
            with open(reproducers[signature]) as f:
                print(textwrap.indent(f.read(), "         | "))
    print(f"wall time:          {wall:.1f} s")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
