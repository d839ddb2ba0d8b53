"""TLE's part of Triton's cache key (``_bridge.fingerprint``): kernels compiled
under different TLE frontends, compilers or debug settings are cached apart."""

from tle import _bridge


def _key(monkeypatch, package_file):
    monkeypatch.setattr(_bridge, "__file__", str(package_file))
    _bridge.fingerprint.cache_clear()
    try:
        return _bridge.fingerprint()
    finally:
        _bridge.fingerprint.cache_clear()


def test_frontend_sources_are_part_of_the_key(tmp_path, monkeypatch):
    """A change to any .py file of the package (a primitive's code decides
    the IR a kernel gets) changes the key; other files do not."""
    pkg = tmp_path / "tle"
    (pkg / "language").mkdir(parents=True)
    (pkg / "_bridge.py").write_text("# bridge\n")
    prim = pkg / "language" / "gpu.py"
    prim.write_text("def remote(): return 1\n")
    first = _key(monkeypatch, pkg / "_bridge.py")
    assert _key(monkeypatch, pkg / "_bridge.py") == first
    (pkg / "notes.txt").write_text("not code")
    assert _key(monkeypatch, pkg / "_bridge.py") == first
    prim.write_text("def remote(): return 2\n")
    assert _key(monkeypatch, pkg / "_bridge.py") != first


def test_device_wait_limit_is_part_of_the_key(monkeypatch):
    monkeypatch.delenv("TLE_DEVICE_WAIT_LIMIT", raising=False)
    _bridge.fingerprint.cache_clear()
    plain = _bridge.fingerprint()
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "1000")
    assert _bridge.fingerprint() != plain
    monkeypatch.setenv("TLE_DEVICE_WAIT_LIMIT", "0")
    assert _bridge.fingerprint() == plain
    _bridge.fingerprint.cache_clear()
