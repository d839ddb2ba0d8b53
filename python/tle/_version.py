"""``tle.__version__`` and ``tle.__commit__``.

The version is the installed package's (its metadata: pyproject.toml's
``version``), else the one compiled into the extension ``tle._tle``. The
commit is the git commit the extension (and ``tle-opt``) was built from,
compiled in by CMake (cmake/TLEVersionInfo.cmake); it joins the version as a
PEP 440 local label, ``0.1.0+g7d3a87981f0c``. Without the extension (e.g.
``TLE_OPT`` on a Python it was not built for) or without git at build time
the commit is None and the version the bare one. ``tle-opt --version`` prints
the same version and commit.
"""

from __future__ import annotations


def _built() -> tuple[str | None, str | None]:
    try:
        from . import _tle
    except ImportError:
        return None, None
    version, commit = _tle.version()
    return version or None, (commit if commit and commit != "unknown" else None)


def _metadata_version() -> str | None:
    try:
        from importlib.metadata import PackageNotFoundError, version
    except ImportError:  # pragma: no cover
        return None
    try:
        return version("tle")
    except PackageNotFoundError:
        return None


def _versions() -> tuple[str, str | None]:
    built_version, commit = _built()
    base = _metadata_version() or built_version or "0+unknown"
    if commit and f"g{commit}" not in base:
        base += ("." if "+" in base else "+") + f"g{commit}"
    return base, commit


__version__, __commit__ = _versions()
