"""Packaging: the console script, the installed packages, no ``sys.path`` tricks."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_console_script_is_the_tableref_package():
    assert PYPROJECT["project"]["scripts"] == {"tableref": "tableref.cli:main"}


def test_every_top_level_package_is_installed():
    """A folder with an ``__init__.py`` at the top is in the package list, except
    ``benchmarks`` (run from the checkout, never installed)."""
    include = PYPROJECT["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = sorted(p.parent.name for p in ROOT.glob("*/__init__.py"))
    for name in packages:
        if name != "benchmarks":
            assert f"{name}*" in include, name
    assert {"tableref", "training"} <= set(packages)


SYS_PATH = re.compile(r"sys\.path\s*(\.insert|\.append|\.extend|\[|\+?=)")


def test_no_module_changes_sys_path():
    """Packages import from the editable install; benchmarks run as
    ``python -m benchmarks.NAME`` from the checkout."""
    files = subprocess.run(["git", "ls-files", "--cached", "--others",
                            "--exclude-standard", "*.py"], cwd=ROOT,
                           capture_output=True, text=True, check=True).stdout
    here = Path(__file__).resolve()
    offenders = [
        name for name in files.splitlines()
        if (ROOT / name).is_file() and (ROOT / name).resolve() != here
        and SYS_PATH.search((ROOT / name).read_text(encoding="utf-8"))
    ]
    assert offenders == []
