#!/usr/bin/env python3
"""Generate docs/reference/python.md (the Python API reference) from the docstrings of the ``tle`` package.

Every public name is documented: ``tle.__all__``, ``tle.device_context.from_group``
and the ``__all__`` of ``tle.gpu``, ``tle.raw``, ``tle.dsa`` and
``tle.distributed``, plus the objects some of them return (a pipe and its
endpoints). Each entry has the signature (``inspect.signature``; a kernel
primitive's private ``_semantic`` / ``_generator`` parameters dropped), whether
it is called inside ``@triton.jit`` code or from Python, and the docstring.

Docstrings are Google-style prose: ````x```` becomes ```x```; ``Args:``,
``Returns:``, ``Raises:`` sections become lists; a paragraph ending in ``::``
(``Example::``) introduces an indented Python block.

    python3 tools/gen_python_reference.py            # rewrite docs/reference/python.md
    python3 tools/gen_python_reference.py --check    # exit 1 if it is stale

``python/test/test_python_reference.py`` runs ``--check`` in CI.
"""

from __future__ import annotations

import argparse
import difflib
import enum
import inspect
import re
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT = REPO / "docs" / "reference" / "python.md"
REGENERATE = "python3 tools/gen_python_reference.py"
PRIVATE_PARAMETERS = ("_semantic", "_generator")
SECTIONS = ("Args", "Arguments", "Returns", "Raises", "Yields", "Fields")
# Submodules of tle documented as sections of their own, in this order.
SUBMODULES = ("gpu", "raw", "dsa", "distributed")
# Objects a public function returns, documented under it: (function, dotted path of the class, name shown).
RETURNED = {
    "tle.pipe": (("tle.language.pipe.pipe_value", "pipe"), ("tle.language.pipe.pipe_writer", "pipe writer"),
                 ("tle.language.pipe.pipe_reader", "pipe reader"), ("tle.language.pipe.pipe_slot", "pipe slot")),
}
# Methods of classes that are plumbing for Triton's frontend, not API.
HIDDEN_METHODS = {"mangle", "mangled_signature", "mlir", "to_ir", "handle_type"}


def _import_tle():
    import tle
    return tle


def _resolve(dotted: str):
    import importlib
    module, _, name = dotted.rpartition(".")
    return getattr(importlib.import_module(module), name)


def is_kernel_builtin(obj) -> bool:
    from triton.language import core as tlc
    return bool(getattr(obj, tlc.TRITON_BUILTIN, False))


def signature(obj, name: str) -> str:
    """``name(params)`` without the private parameters; ``name`` alone if it has none we can read."""
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return name
    params = [p for p in sig.parameters.values() if p.name not in PRIVATE_PARAMETERS and p.name not in ("self", "cls")]
    sig = sig.replace(parameters=params, return_annotation=inspect.Signature.empty)
    text = str(sig)
    text = re.sub(r"<(\S+)\.(\w+): [^>]*>", r"\1.\2", text)  # enum members: tle.gpu.smem, not <storage_kind...>
    return f"{name}{text}"


def parameters(obj) -> list[str]:
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values() if p.name not in PRIVATE_PARAMETERS and p.name not in ("self", "cls")
            and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def markdown(doc: str) -> str:
    """A docstring (already dedented by inspect.getdoc) as Markdown."""
    lines = re.sub(r"``(.+?)``", r"`\1`", doc, flags=re.S).splitlines()
    out: list[str] = []
    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        head = stripped[:-1] if stripped.endswith(":") else None
        if head in SECTIONS and not line.startswith(" "):
            out.append(f"**{head}:**")
            out.append("")
            i += 1
            item: list[str] = []
            base = None
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                cur = lines[i]
                if not cur.strip():
                    i += 1
                    continue
                indent = len(cur) - len(cur.lstrip())
                base = indent if base is None else base
                named = head not in ("Returns", "Yields") and _NAMED.match(cur.strip())
                if indent == base and (named or not item):
                    if item:
                        out.append(_item(item))
                    item = [cur.strip()]
                else:
                    item.append(cur.strip())
                i += 1
            if item:
                out.append(_item(item))
            out.append("")
            continue
        if stripped.endswith("::"):
            text = line.rstrip()[:-1]
            if text.strip():
                out.append(_inline(text))
            out.append("")
            i += 1
            block = []
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            while block and not block[-1].strip():
                block.pop()
            out += ["```python", textwrap.dedent("\n".join(block)).strip("\n"), "```", ""]
            continue
        out.append(_inline(line))
        i += 1
    while out and not out[-1].strip():
        out.pop()
    return "\n".join(out)


_NAMED = re.compile(r"^(\*{0,2}\w+(?:\s*\([^)]*\))?):\s*(.*)$")


def _item(parts: list[str]) -> str:
    first = parts[0]
    m = _NAMED.match(first)
    text = " ".join([m.group(2)] + parts[1:]) if m else " ".join(parts)
    if m:
        name = m.group(1)
        return f"* `{name}`: {_inline(text)}".rstrip()
    return f"* {_inline(text)}"


def _inline(text: str) -> str:
    return re.sub(r"``(.+?)``", r"`\1`", text)


def _anchor(title: str) -> str:
    """GitHub's anchor for a heading."""
    a = title.strip().lower()
    a = re.sub(r"[^\w\- ]", "", a)
    return a.replace(" ", "-")


class Doc:

    def __init__(self):
        self.lines: list[str] = []
        self.toc: list[tuple[int, str]] = []

    def heading(self, level: int, title: str):
        self.lines += [f"{'#' * level} {title}", ""]
        self.toc.append((level, title))

    def para(self, text: str):
        if text:
            self.lines += [text, ""]


def kind_of(obj) -> str:
    if inspect.isclass(obj):
        if issubclass(obj, BaseException):
            return "exception"
        if issubclass(obj, enum.Enum):
            return "enum"
        return "class"
    if inspect.ismodule(obj):
        return "module"
    if inspect.isroutine(obj):
        return "kernel primitive" if is_kernel_builtin(obj) else "function"
    return "constant"


def entry(doc: Doc, qualname: str, obj, level: int = 3):
    kind = kind_of(obj)
    title = f"`{qualname}`"
    doc.heading(level, title)
    if kind in ("function", "kernel primitive", "class", "exception"):
        doc.lines += ["```python", signature(obj, qualname), "```", ""]
    where = {"kernel primitive": "Inside `@triton.jit` code only.",
             "function": "Host (plain Python).",
             "exception": "Exception."}.get(kind, "")
    if kind == "class":
        where = "Class; used inside `@triton.jit` code." if _is_frontend_class(obj) else "Class."
    if kind == "enum":
        where = "Enum: " + ", ".join(f"`{qualname.rsplit('.', 1)[0]}.{m.name}`" for m in obj) + "."
    settings = kind == "constant" and type(obj).__repr__ is object.__repr__  # an object, e.g. tle.knobs
    if kind == "constant":
        # An object without a repr of its own prints its address, which
        # changes every run: name its type and document it instead.
        where = (f"An instance of `{type(obj).__module__}.{type(obj).__qualname__}`." if settings
                 else f"Constant: `{obj!r}`.")
    doc.para(f"*{where}*" if where else "")
    text = inspect.getdoc(type(obj) if settings else obj) if kind != "constant" or settings else None
    if kind == "exception" and obj.__doc__ is None:
        text = None
    if text and not (kind == "enum" and text.startswith("An enumeration")):
        doc.para(markdown(text))
    if kind in ("class",):
        for mname, member in _methods(obj):
            _method(doc, member, mname, " (in `@triton.jit` code)" if is_kernel_builtin(member) else "")
        if doc.lines[-1] != "":
            doc.lines.append("")


def _method(doc: Doc, member, mname: str, note: str = ""):
    """A method as a list item: its signature, then its docstring."""
    line = f"* **`{signature(member, '.' + mname)}`**{note}"
    mdoc = inspect.getdoc(member)
    if not mdoc:
        doc.lines.append(line)
        return
    first, _, rest = markdown(mdoc).partition("\n")
    doc.lines.append(f"{line}: {first}")
    if rest.strip():
        doc.lines.append(textwrap.indent(rest, "  "))


def _is_frontend_class(cls) -> bool:
    from triton.language import core as tlc
    return issubclass(cls, (tlc.base_value, tlc.base_type)) or any(
        is_kernel_builtin(v) for v in vars(cls).values())


def _methods(cls):
    for name, member in vars(cls).items():
        if name.startswith("_") and name != "__getitem__" or name in HIDDEN_METHODS:
            continue
        if isinstance(member, (staticmethod, classmethod)):
            member = member.__func__
        if isinstance(member, property):
            member = member.fget
        if not callable(member) or name == "__getitem__" and not inspect.getdoc(member):
            continue
        if not inspect.getdoc(member) and not is_kernel_builtin(member):
            continue
        yield name, member


def public_names(module) -> list[str]:
    names = getattr(module, "__all__", None)
    if names is None:
        raise RuntimeError(f"{module.__name__} has no __all__: its public names cannot be told from its imports")
    return sorted(names, key=str.lower)


def generate() -> str:
    tle = _import_tle()
    doc = Doc()
    intro = [
        "<!-- Generated by tools/gen_python_reference.py from the docstrings of the tle package; do not edit.",
        f"     Regenerate: {REGENERATE}. -->",
        "",
        "# TLE Python API reference",
        "",
        "Every public function and class of the `tle` package: `tle.*` and the",
        "submodules `tle.gpu`, `tle.raw`, `tle.dsa` and `tle.distributed`. Generated",
        "from the docstrings (edit those, then regenerate); CI fails while this file is",
        "stale. The MLIR ops and passes the primitives become are in this folder's",
        "other files ([README.md](README.md)).",
        "",
        "*Inside `@triton.jit` code only* marks a kernel primitive: it is traced by",
        "Triton's frontend, its constant arguments must be compile-time values",
        "(`tl.constexpr`), and a wrong argument is a `triton.compiler.CompilationError`",
        "at the user's line wrapping a `tle.TLEUsageError`. TLE must be enabled",
        "(`tle.enable()`, `with tle.enabled():`) or the kernel compiled with",
        "`tle.compile`. *Host* functions are called from plain Python.",
        "",
    ]
    sections = [("tle", tle, [n for n in public_names(tle) if n not in SUBMODULES])]
    for sub in SUBMODULES:
        module = getattr(tle, sub)
        sections.append((f"tle.{sub}", module, public_names(module)))
    for title, module, names in sections:
        doc.heading(2, f"`{title}`")
        mdoc = inspect.getdoc(module)
        if mdoc:
            doc.para(markdown(mdoc))
        for name in names:
            obj = getattr(module, name)
            qual = f"{title}.{name}"
            if inspect.ismodule(obj):
                continue
            if title == "tle" and name == "jit":
                doc.heading(3, "`tle.jit`")
                doc.para("*Alias:* `tle.jit` is `triton.jit` (FlagTree's decorator name for TLE kernels); "
                         "compile its kernels with TLE enabled or with `tle.compile`.")
                continue
            entry(doc, qual, obj)
            if title == "tle" and name == "device_context":
                entry(doc, "tle.device_context.from_group", obj.from_group)
            for path, shown in RETURNED.get(qual, ()):
                cls = _resolve(path)
                doc.heading(4, f"{shown} (`{qual}`'s {'result' if shown == 'pipe' else 'endpoint' if 'pipe ' in shown and shown != 'pipe slot' else 'slot'})")
                text = inspect.getdoc(cls)
                if text:
                    doc.para(markdown(text))
                for mname, member in _methods(cls):
                    _method(doc, member, mname)
                doc.lines.append("")
    toc = ["## Contents", ""]
    for level, title in doc.toc:
        if level <= 3:
            toc.append(f"{'  ' * (level - 2)}* [{title}](#{_anchor(title)})")
    toc.append("")
    text = "\n".join(intro + toc + doc.lines)
    text = re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"
    return text


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", type=Path, default=OUT, help="output file (default: docs/reference/python.md)")
    p.add_argument("--check", action="store_true", help="compare with --out instead of writing; exit 1 if stale")
    args = p.parse_args(argv)
    text = generate()
    if args.check:
        old = args.out.read_text() if args.out.exists() else None
        if old == text:
            print(f"{args.out} is current")
            return 0
        if old is None:
            print(f"{args.out}: missing", file=sys.stderr)
        else:
            diff = difflib.unified_diff(old.splitlines(), text.splitlines(), f"{args.out.name} (checked in)",
                                        f"{args.out.name} (from the docstrings)", lineterm="", n=1)
            print(f"{args.out}: stale\n" + "\n".join(list(diff)[:60]), file=sys.stderr)
        print(f"\nThe Python API reference is out of date with the docstrings. Regenerate it: {REGENERATE}",
              file=sys.stderr)
        return 1
    if not args.out.exists() or args.out.read_text() != text:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text)
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
