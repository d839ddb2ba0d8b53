# Source on the GPU machine, in the repo root, with .devkit carried (scripts/devkit.sh):
#   . scripts/device-env.sh
# Installs TLE's wheel for this Python from .devkit into /tmp/site (pip install
# --no-index --no-deps --target), lays the libLLVM.so it links and, when
# carried, the MLIR Python bindings (TLE-Raw) beside it, as site-packages/llvm
# and site-packages/mlir, and puts /tmp/site first on PYTHONPATH: `import tle`
# is the installed wheel, and TLE's passes run in-process in tle._tle with the
# machine's own triton and torch. Sourcing again reinstalls only when .devkit
# changed.
#   TLE_DEVICE_DRIVER=tle-opt . scripts/device-env.sh   runs TLE's stages through
#     the wheel's tle-opt instead (TLE_OPT, a subprocess per stage)
#   TLE_DEVICE_SITE=/path                                installs there instead of /tmp/site
tle_site=${TLE_DEVICE_SITE:-/tmp/site}
if python3 - "$tle_site" <<'PY'
import hashlib, os, shutil, subprocess, sys, tarfile, tempfile, zipfile
from pathlib import Path

site, kit = Path(sys.argv[1]), Path(".devkit")
tag = "cp%d%d" % sys.version_info[:2]
archives = sorted(kit.glob("*.tar.xz"))
if not archives:
    sys.exit("device-env.sh: no .devkit/*.tar.xz in this folder: run scripts/devkit.sh and carry .devkit")
digest = hashlib.sha256()
for archive in archives:
    digest.update(archive.name.encode() + b"\0" + archive.read_bytes())
stamp = site / ".devkit-stamp"
if stamp.exists() and stamp.read_text() == digest.hexdigest():
    print(f"device-env.sh: {site} is up to date with .devkit")
    sys.exit(0)


def extract(tar, dest):
    if hasattr(tarfile, "data_filter"):
        tar.extractall(dest, filter="data")
    else:
        tar.extractall(dest)


def install_wheel(whl: Path) -> None:
    pip = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-index", "--no-deps",
                          "--target", str(site), str(whl)], capture_output=True, text=True)
    if pip.returncode == 0:
        return
    # No (working) pip: a wheel of package files only is a zip laid into site-packages.
    print(f"device-env.sh: pip failed ({pip.stderr.strip()[-300:]}); unzipping the wheel instead")
    shutil.rmtree(site, ignore_errors=True)
    site.mkdir(parents=True)
    with zipfile.ZipFile(whl) as z:
        for info in z.infolist():
            path = z.extract(info, site)
            if info.external_attr >> 16:
                os.chmod(path, (info.external_attr >> 16) & 0o777)


shutil.rmtree(site, ignore_errors=True)
site.mkdir(parents=True)
with tempfile.TemporaryDirectory() as tmp:
    tmp = Path(tmp)
    for archive in archives:
        with tarfile.open(archive, "r:xz") as tar:
            extract(tar, tmp)
    wheels = sorted((tmp / "wheels").glob(f"tle-*-{tag}-*.whl"))
    if not wheels:
        found = ", ".join(p.name for p in (tmp / "wheels").glob("*.whl")) or "none"
        sys.exit(f"device-env.sh: .devkit holds no TLE wheel for {tag} (found: {found}); "
                 f"run scripts/devkit.sh {sys.version_info[0]}.{sys.version_info[1]}")
    install_wheel(wheels[-1])
    for entry in sorted((tmp / "site").iterdir()) if (tmp / "site").is_dir() else []:
        shutil.move(str(entry), str(site / entry.name))
stamp.write_text(digest.hexdigest())
print(f"device-env.sh: installed {wheels[-1].name} and {', '.join(sorted(p.name for p in site.iterdir() if p.name in ('llvm', 'mlir')))} into {site}")
PY
then
  case ":${PYTHONPATH:-}:" in
    *":$tle_site:"*) ;;
    *) export PYTHONPATH="$tle_site${PYTHONPATH:+:$PYTHONPATH}" ;;
  esac
  export PYTHONUNBUFFERED=1
  # python/test/conftest.py: the tests must run the installed tle, extension loaded.
  export TLE_TEST_INSTALLED=1
  if [ "${TLE_DEVICE_DRIVER:-}" = tle-opt ]; then
    export TLE_OPT="$tle_site/tle/bin/tle-opt"
  else
    unset TLE_OPT
  fi
else
  echo "device-env.sh failed; the environment is unchanged" >&2
  false
fi
