"""Load and validate regulation presets (YAML, read with ``yaml.safe_load``)."""

from __future__ import annotations

import copy
from functools import lru_cache
from importlib import resources
from pathlib import Path

import yaml
from pydantic import ValidationError

from bianpai.engines.errors import RuleError
from bianpai.templates.schema import Regulation

PRESET_PACKAGE = "bianpai.templates.presets"
DEFAULT_PRESET = "shenzhen-guandan-pairs-2023"


@lru_cache(maxsize=64)
def _parsed(text: str):
    """``yaml.safe_load(text)``, cached by text (every command reloads its preset); with
    libyaml's C loader when PyYAML has it (the same safe schema, several times faster)."""
    return yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def _safe_load(text: str):
    """A private copy of the parsed YAML (callers mutate it)."""
    return copy.deepcopy(_parsed(text))


def preset_names() -> list[str]:
    """Names of the shipped presets (file stems), sorted."""
    files = resources.files(PRESET_PACKAGE)
    return sorted(p.name[:-5] for p in files.iterdir()
                  if p.name.endswith(".yaml") and not p.name.startswith("_"))


def preset_text(name: str) -> str:
    """The YAML text of preset ``name``. Raises ``RuleError`` when there is none."""
    path = resources.files(PRESET_PACKAGE) / f"{name}.yaml"
    if not path.is_file():
        raise RuleError(f"没有名为 {name} 的规程预设；可用：{', '.join(preset_names())}",
                        f"no preset named {name}; available: {', '.join(preset_names())}")
    return path.read_text(encoding="utf-8")


def parse_regulation(data: dict, *, source: str = "preset") -> Regulation:
    """Validate a regulation mapping. Raises ``RuleError`` naming each failing field path."""
    try:
        return Regulation.model_validate(data)
    except ValidationError as exc:
        from bianpai.engines.pydantic_zh import zh_message
        locs = [".".join(str(x) for x in err["loc"]) for err in exc.errors()]
        zh = [f"{loc}：{zh_message(err)}" for loc, err in zip(locs, exc.errors())]
        en = [f"{loc}: {err['msg']}" for loc, err in zip(locs, exc.errors())]
        raise RuleError(f"规程 {source} 无效：\n" + "\n".join(zh),
                        f"regulation {source} is invalid:\n" + "\n".join(en)) from exc


def load_preset(name_or_path: str | Path = DEFAULT_PRESET) -> Regulation:
    """Load a shipped preset by name, or a YAML file by path, and validate it."""
    p = Path(name_or_path)
    if p.suffix in (".yaml", ".yml") and p.exists():
        text, source = p.read_text(encoding="utf-8"), str(p)
    else:
        text, source = preset_text(str(name_or_path)), str(name_or_path)
    try:
        data = _safe_load(text)
    except yaml.YAMLError as exc:
        raise RuleError(f"规程 {source} 不是有效的 YAML：{exc}",
                        f"regulation {source} is not valid YAML: {exc}") from exc
    if not isinstance(data, dict):
        raise RuleError(f"规程 {source} 应为映射", f"regulation {source} must be a mapping")
    return parse_regulation(with_blocks(data), source=source)


def with_blocks(data: dict) -> dict:
    """Merge the shared ``awards``/``eligibility`` blocks named by ``blocks: <regulation stem>``
    (``presets/_blocks/<stem>.awards.yaml``) into a preset mapping; keys the preset sets itself
    win. Several presets of one 规程 (e.g. its bridge and its 80分 events) share one block file.
    A preset block marked ``extends_block: true`` keeps the shared block and replaces only the
    top-level keys it sets (e.g. the bridge teams' ``team_sizes``)."""
    stem = data.pop("blocks", None)
    if not stem:
        return data
    path = resources.files(PRESET_PACKAGE) / "_blocks" / f"{stem}.awards.yaml"
    if not path.is_file():
        raise RuleError(f"找不到奖励/资格设置块 {stem}", f"no award/eligibility block {stem}")
    block = _safe_load(path.read_text(encoding="utf-8")) or {}
    for key in ("awards", "eligibility"):
        if key not in block:
            continue
        own = data.get(key)
        if own is None:
            data[key] = block[key]
        elif isinstance(own, dict) and own.pop("extends_block", False):
            # a preset refines the shared block: its own top-level keys replace the block's
            data[key] = {**block[key], **own}
    return data
