"""Bracket picture: the output of :func:`bianpai.engines.elimination.bracket_table` drawn as a
PNG or PDF for the notice board or WeChat (issue 11 "Pictures and print").

Drawn with matplotlib (object API, no pyplot global state, Agg canvas): one column per bracket
round, one box per side (entrant name or placeholder, frame score), the winner highlighted, elbow
lines from each match to the match its winner goes to. Single-elimination and winners'-bracket
nodes are drawn; the third-place match sits under the final. Chinese text uses the first CJK font
found on the machine (Noto Sans CJK, Source Han Sans, Microsoft YaHei, SimHei, PingFang, WenQuanYi…, else
any family fontconfig lists for Chinese), falling back to DejaVu Sans (glyphs may then be missing,
the file is still written).
"""

from __future__ import annotations

import logging
import warnings
from pathlib import Path
from typing import Mapping

import pandas as pd

__all__ = ["render_bracket", "CJK_FONTS"]

#: font families tried in order for Chinese text
CJK_FONTS = ["Noto Sans CJK SC", "Source Han Sans SC", "Source Han Sans CN", "Noto Sans SC",
             "Microsoft YaHei", "SimHei", "DengXian", "PingFang SC", "Hiragino Sans GB",
             "Heiti SC", "STHeiti", "WenQuanYi Zen Hei", "WenQuanYi Micro Hei",
             "Noto Sans CJK JP", "Droid Sans Fallback", "Arial Unicode MS"]

_BOX_W, _COL_W, _SLOT_H = 1.7, 2.3, 0.36
_WIN_FILL, _FILL, _EDGE = "#ffe08a", "#ffffff", "#555555"


def _fonts() -> list[str]:
    """Font families for the picture's text, Chinese-capable first: those of
    :data:`CJK_FONTS` matplotlib knows, else those fontconfig lists for Chinese
    (:func:`bianpai.workbooks.pdf_export.cjk_families`), then DejaVu Sans (Latin, digits)."""
    from matplotlib import font_manager

    from bianpai.workbooks.pdf_export import cjk_families
    have = {f.name for f in font_manager.fontManager.ttflist}
    found = [f for f in CJK_FONTS if f in have]
    if not found:
        found = [f for f in dict.fromkeys(cjk_families() or []) if f in have]
    return found + ["DejaVu Sans"]


def render_bracket(table: pd.DataFrame, path: str | Path, *, names: Mapping[int, str] | None = None,
                   title: str | None = None, pool=..., dpi: int = 110) -> Path:
    """Draw ``table`` (columns of :func:`~bianpai.engines.elimination.bracket_table`) to
    ``path``; the suffix picks the format (``.png``, ``.pdf``, ``.svg``). ``names``: entrant
    number → name shown instead of the number. ``pool``: draw only that pool (default: the first
    pool in the table). ``dpi``: resolution of a PNG. Returns the path. Raises ``ValueError``
    when there is nothing to draw.
    """
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    path = Path(path)
    df = table
    if pool is ...:
        pool = df["pool"].iloc[0] if len(df) else None
    df = df[(df["pool"] == pool) | (df["pool"].isna() & (pool is None))]
    df = df[df["part"].isin(["SE", "WB", "3rd", "PO"])]
    if df.empty:
        raise ValueError("nothing to draw: the table has no single-elimination or WB slots")
    names = dict(names or {})
    main = df["part"].isin(["SE", "WB"])
    rounds = sorted(df.loc[main, "bracket_round"].unique())
    first = df[(df["bracket_round"] == rounds[0]) & main]
    n_first = first["label"].nunique()
    # play-offs for places (part PO) in a strip below the bracket, in their round's column
    po_y: dict[str, float] = {}
    for label, g in df[df["part"] == "PO"].groupby("label", sort=False):
        col = int(g["bracket_round"].iloc[0])
        po_y[label] = n_first + 0.7 + 1.1 * sum(1 for k in po_y
                                                if int(df.loc[df["label"] == k, "bracket_round"]
                                                       .iloc[0]) == col)
    bottom = max(po_y.values(), default=n_first) + 0.9
    height = max(bottom * 2 * _SLOT_H * 1.35 + 1.5, 3.0)
    width = max(len(rounds) * _COL_W + 0.8, 4.0)
    fig = Figure(figsize=(width, height))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(-0.3, len(rounds) * _COL_W + 0.3)
    span = n_first
    ax.set_ylim(max(span + 0.9, bottom), -1.6)
    ax.axis("off")
    fam = _fonts()
    text_kw = {"fontfamily": fam, "va": "center"}
    unit = 1.0  # one first-round match = one unit of y
    centres: dict[str, tuple[float, float]] = {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # missing CJK glyphs on a bare machine
        for label, g in df.groupby("label", sort=False):
            g = g.sort_values("slot")
            part = g["part"].iloc[0]
            br = int(g["bracket_round"].iloc[0])
            if part == "3rd":
                col = len(rounds) - 1
                yc = span / 2 + 1.3
            elif part == "PO":
                col = rounds.index(br) if br in rounds else len(rounds) - 1
                yc = po_y[label]
            else:
                col = rounds.index(br)
                yc = float(g["y"].iloc[0]) * unit
            x = col * _COL_W
            centres[label] = (x, yc)
            for _, row in g.iterrows():
                y = yc - _SLOT_H / 2 if row["slot"] == 0 else yc + _SLOT_H / 2
                fill = _WIN_FILL if bool(row["won"]) else _FILL
                ax.add_patch(Rectangle((x, y - _SLOT_H / 2), _BOX_W, _SLOT_H, facecolor=fill,
                                       edgecolor=_EDGE, linewidth=0.6))
                ent = row["entrant"]
                text = names.get(int(ent), str(int(ent))) if not pd.isna(ent) else row["text"]
                ax.text(x + 0.06, y, str(text)[:14], fontsize=7,
                        fontweight="bold" if bool(row["won"]) else "normal",
                        color="#000000" if not pd.isna(ent) else "#888888", **text_kw)
                if row["score"]:
                    ax.text(x + _BOX_W - 0.06, y, str(row["score"]), fontsize=7, ha="right",
                            fontfamily=fam, va="center")
            ax.text(x, yc - _SLOT_H - 0.06, str(label), fontsize=5.5, color="#666666",
                    fontfamily=fam, va="bottom")
        for label, g in df.groupby("label", sort=False):
            nxt = g["next"].iloc[0]
            if not nxt or nxt not in centres or label not in centres:
                continue
            (x0, y0), (x1, y1) = centres[label], centres[nxt]
            xm = x0 + _BOX_W + (_COL_W - _BOX_W) / 2
            ax.plot([x0 + _BOX_W, xm, xm, x1], [y0, y0, y1, y1], color=_EDGE, linewidth=0.6)
        for i, br in enumerate(rounds):
            g = df[(df["bracket_round"] == br) & main]
            ax.text(i * _COL_W + _BOX_W / 2, -0.9, str(g["round_zh"].iloc[0]), fontsize=8,
                    ha="center", fontfamily=fam, va="center", fontweight="bold")
        if title:
            ax.text(0, -1.35, title, fontsize=11, fontfamily=fam, va="center",
                    fontweight="bold")
        path.parent.mkdir(parents=True, exist_ok=True)
        # fonts are looked up as the text is drawn: a CJK family without a bold face logs
        # "failed to find font weight bold" once per text, the medium face is used
        quiet = logging.getLogger("matplotlib.font_manager")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            fig.savefig(path, dpi=dpi)
        finally:
            quiet.setLevel(level)
    return path
