import os

import pytest


@pytest.fixture(autouse=True)
def _fresh_triton_cache(tmp_path, monkeypatch):
    """Every test compiles in its own Triton cache, so nothing is a cache hit by accident."""
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton-cache"))
    from triton import knobs
    monkeypatch.setattr(knobs.cache, "dir", str(tmp_path / "triton-cache"), raising=False)
    yield


def has_gpu() -> bool:
    if os.environ.get("TLE_FORCE_NO_GPU"):
        return False
    try:
        import torch
        return torch.cuda.is_available()
    except Exception:
        return False
