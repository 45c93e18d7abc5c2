"""`[tool.xlate.check]` in pyproject.toml: the pairs a project checks in CI.

    [tool.xlate.check]
    seed = 0
    device = "auto"

    [[tool.xlate.check.pair]]
    mx = "models/net_mx.py:Net"       # paths are relative to pyproject.toml; or package.module:NAME
    pt = "models/net_pt.py:Net"
    inputs = ["x:float32[4,7,3]"]
    mx_args = { units = 8 }
    pt_args = { units = 8 }
    # against = "golden/net"          # replay a recorded reference instead of running MXNet
"""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


class ConfigError(ValueError):
    pass


@dataclass(frozen=True)
class PairConfig:
    mx: Optional[str]
    pt: str
    inputs: tuple[str, ...] = ()
    mx_args: dict = field(default_factory=dict)
    pt_args: dict = field(default_factory=dict)
    against: Optional[str] = None


@dataclass(frozen=True)
class CheckConfig:
    root: Path
    pairs: tuple[PairConfig, ...]
    seed: int = 0
    device: str = "auto"


def find(start: Path) -> Path:
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    raise ConfigError(f"no pyproject.toml in {start} or above: give --mx/--pt/--input or --against")


def load(path: Path) -> CheckConfig:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from e
    section = data.get("tool", {}).get("xlate", {}).get("check")
    if not section or not section.get("pair"):
        raise ConfigError(f"{path}: no [[tool.xlate.check.pair]] entries")
    root = path.parent
    pairs = []
    for i, entry in enumerate(section["pair"]):
        where = f"{path}: [[tool.xlate.check.pair]] #{i + 1}"
        unknown = set(entry) - {"mx", "pt", "inputs", "mx_args", "pt_args", "against"}
        if unknown:
            raise ConfigError(f"{where}: unknown keys {', '.join(sorted(unknown))}")
        if "pt" not in entry or not (entry.get("against") or (entry.get("mx") and entry.get("inputs"))):
            raise ConfigError(f"{where}: needs pt, and either mx with inputs or against")
        pairs.append(PairConfig(
            mx=_rooted(root, entry.get("mx")), pt=_rooted(root, entry["pt"]),
            inputs=tuple(entry.get("inputs", ())), mx_args=dict(entry.get("mx_args", {})),
            pt_args=dict(entry.get("pt_args", {})),
            against=str(root / entry["against"]) if entry.get("against") else None))
    return CheckConfig(root, tuple(pairs), int(section.get("seed", 0)), str(section.get("device", "auto")))


def _rooted(root: Path, ref: Optional[str]) -> Optional[str]:
    """A file reference relative to pyproject.toml's folder; a `package.module:NAME` found
    there becomes its file, one that is not is looked up where the check runs."""
    if ref is None:
        return None
    path, sep, name = ref.rpartition(":")
    if not sep:
        return ref
    if not (root / path).exists() and not path.endswith(".py") and "/" not in path:
        from xlate.check.loading import module_file

        found = module_file(path, [str(root)])
        return f"{found}{sep}{name}" if found is not None else ref
    return f"{root / path}{sep}{name}"
