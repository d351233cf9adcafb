"""Bracket picture: the output of :func:`bianpai.engines.elimination.bracket_table` drawn as a
PNG or PDF for the notice board or WeChat (issue 11 "Pictures and print").

Laid out once (:func:`_layout`: one column per bracket round, one box per side — entrant name
or placeholder, frame score —, the winner highlighted, elbow lines from each match to the match
its winner goes to), then drawn: a PNG with Pillow (fast: no plotting library to load), a PDF
or SVG with matplotlib (vector; object API, no pyplot global state). Single-elimination and
winners'-bracket nodes are drawn; the third-place match sits under the final. Chinese text uses
the first CJK font found on the machine (Noto Sans CJK, Source Han Sans, Microsoft YaHei,
SimHei, PingFang, WenQuanYi …, else any family fontconfig lists for Chinese), falling back to
DejaVu Sans (glyphs may then be missing, the file is still written).
"""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass, field
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


@dataclass
class _Picture:
    """What to draw, in data units (x rightwards, y downwards; one first-round match = 1):
    ``xlim`` and ``ylim`` (top, bottom) the visible range, ``size`` the page in inches."""

    xlim: tuple[float, float]
    ylim: tuple[float, float]
    size: tuple[float, float]
    #: (x, top y, width, height, fill colour)
    boxes: list[tuple[float, float, float, float, str]] = field(default_factory=list)
    #: (x, y, text, size in pt, bold, colour, horizontal "left"/"right"/"center", vertical
    #: "center"/"bottom")
    texts: list[tuple[float, float, str, float, bool, str, str, str]] = field(default_factory=list)
    #: (xs, ys) of an elbow line
    lines: list[tuple[list[float], list[float]]] = field(default_factory=list)


def render_bracket(table: pd.DataFrame, path: str | Path, *, names: Mapping[int, str] | None = None,
                   title: str | None = None, pool=..., dpi: int = 110) -> Path:
    """Draw ``table`` (columns of :func:`~bianpai.engines.elimination.bracket_table`) to
    ``path``; the suffix picks the format (``.png`` with Pillow; ``.pdf``, ``.svg`` with
    matplotlib). ``names``: entrant number → name shown instead of the number. ``pool``: draw
    only that pool (default: the first pool in the table). ``dpi``: resolution of a PNG.
    Returns the path. Raises ``ValueError`` when there is nothing to draw.
    """
    path = Path(path)
    pic = _layout(table, dict(names or {}), title, pool)
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.suffix.lower() == ".png":
        _draw_png(pic, path, dpi)
    else:
        _draw_vector(pic, path, dpi)
    return path


def _layout(df: pd.DataFrame, names: dict, title: str | None, pool) -> _Picture:
    """The boxes, texts and lines of the bracket of ``pool`` (``...``: the table's first)."""
    if pool is ...:
        pool = df["pool"].iloc[0] if len(df) else None
    df = df[(df["pool"] == pool) | (df["pool"].isna() & (pool is None))]
    df = df[df["part"].isin(["SE", "WB", "3rd", "PO"])]
    if df.empty:
        raise ValueError("nothing to draw: the table has no single-elimination or WB slots")
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
    span = n_first
    pic = _Picture(xlim=(-0.3, len(rounds) * _COL_W + 0.3),
                   ylim=(-1.25, max(span + 0.9, bottom)), size=(width, height))
    centres: dict[str, tuple[float, float]] = {}
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
            yc = float(g["y"].iloc[0])
        x = col * _COL_W
        centres[label] = (x, yc)
        for _, row in g.iterrows():
            y = yc - _SLOT_H / 2 if row["slot"] == 0 else yc + _SLOT_H / 2
            won = bool(row["won"])
            pic.boxes.append((x, y - _SLOT_H / 2, _BOX_W, _SLOT_H, _WIN_FILL if won else _FILL))
            ent = row["entrant"]
            text = names.get(int(ent), str(int(ent))) if not pd.isna(ent) else row["text"]
            pic.texts.append((x + 0.06, y, str(text)[:14], 7, won,
                              "#000000" if not pd.isna(ent) else "#888888", "left", "center"))
            if row["score"]:
                pic.texts.append((x + _BOX_W - 0.06, y, str(row["score"]), 7, False, "#000000",
                                  "right", "center"))
        # the match's code (R64-1, QF1 …, as in 签表); a third-place match or a play-off for
        # places, which sits outside the round columns, also its name (三、四名决赛)
        code = str(label) if part not in ("3rd", "PO") else f"{g['round_zh'].iloc[0]} {label}"
        pic.texts.append((x, yc - _SLOT_H - 0.06, code, 6.5, False, "#555555", "left",
                          "bottom"))
    for label, g in df.groupby("label", sort=False):
        nxt = g["next"].iloc[0]
        if not nxt or nxt not in centres or label not in centres:
            continue
        (x0, y0), (x1, y1) = centres[label], centres[nxt]
        xm = x0 + _BOX_W + (_COL_W - _BOX_W) / 2
        pic.lines.append(([x0 + _BOX_W, xm, xm, x1], [y0, y0, y1, y1]))
    for i, br in enumerate(rounds):
        g = df[(df["bracket_round"] == br) & main]
        pic.texts.append((i * _COL_W + _BOX_W / 2, -0.45, str(g["round_zh"].iloc[0]), 8, True,
                          "#000000", "center", "center"))
    if title:
        pic.texts.append((0, -0.95, title, 11, True, "#000000", "left", "center"))
    return pic


def _font_files() -> tuple[str, str]:
    """The font files (regular, bold) of the first of :func:`_fonts` (matplotlib's font
    lookup: fontconfig, the Windows and macOS font folders); the bold is the regular when the
    family has none."""
    from matplotlib import font_manager
    quiet = logging.getLogger("matplotlib.font_manager")
    level = quiet.level
    quiet.setLevel(logging.ERROR)  # "failed to find font weight bold"
    try:
        fam = _fonts()
        regular = font_manager.findfont(font_manager.FontProperties(family=fam))
        bold = font_manager.findfont(font_manager.FontProperties(family=fam, weight="bold"))
    finally:
        quiet.setLevel(level)
    return regular, bold


def _draw_png(pic: _Picture, path: Path, dpi: int) -> None:
    """``pic`` as a PNG through Pillow, ``dpi`` pixels per inch."""
    from PIL import Image, ImageDraw, ImageFont

    w, h = (max(1, round(v * dpi)) for v in pic.size)
    (x0, x1), (y0, y1) = pic.xlim, pic.ylim

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - x0) / (x1 - x0) * w, (y - y0) / (y1 - y0) * h

    img = Image.new("RGB", (w, h), "white")
    draw = ImageDraw.Draw(img)
    line = max(1, round(0.6 * dpi / 72))
    for x, y, bw, bh, fill in pic.boxes:
        (a, b), (c, d) = px(x, y), px(x + bw, y + bh)
        draw.rectangle((round(a), round(b), round(c), round(d)), fill=fill, outline=_EDGE,
                       width=line)
    for xs, ys in pic.lines:
        draw.line([px(x, y) for x, y in zip(xs, ys)], fill=_EDGE, width=line)
    files = _font_files()
    fonts: dict[tuple[float, bool], ImageFont.FreeTypeFont] = {}
    anchor = {"left": "l", "right": "r", "center": "m"}
    for x, y, text, size, bold, colour, ha, va in pic.texts:
        key = (size, bold)
        if key not in fonts:
            fonts[key] = ImageFont.truetype(files[bold], max(1, round(size * dpi / 72)))
        draw.text(px(x, y), text, font=fonts[key], fill=colour,
                  anchor=anchor[ha] + ("m" if va == "center" else "d"))
    # zlib's fastest level: half the encoding time of the default (6) on a 128-player bracket
    # (0.18 → 0.10 s), the file about a quarter larger (222 → 281 KB), the picture the same
    img.save(path, dpi=(dpi, dpi), compress_level=1)


def _draw_vector(pic: _Picture, path: Path, dpi: int) -> None:
    """``pic`` through matplotlib (the format by ``path``'s suffix: PDF, SVG …)."""
    from matplotlib.figure import Figure
    from matplotlib.patches import Rectangle

    fig = Figure(figsize=pic.size)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(*pic.xlim)
    ax.set_ylim(pic.ylim[1], pic.ylim[0])  # y downwards
    ax.axis("off")
    fam = _fonts()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # missing CJK glyphs on a bare machine
        for x, y, bw, bh, fill in pic.boxes:
            ax.add_patch(Rectangle((x, y), bw, bh, facecolor=fill, edgecolor=_EDGE,
                                   linewidth=0.6))
        for xs, ys in pic.lines:
            ax.plot(xs, ys, color=_EDGE, linewidth=0.6)
        for x, y, text, size, bold, colour, ha, va in pic.texts:
            ax.text(x, y, text, fontsize=size, fontweight="bold" if bold else "normal",
                    color=colour, ha=ha, va=va, fontfamily=fam)
        # fonts are looked up as the text is drawn: a CJK family without a bold face logs
        # "failed to find font weight bold" once per text, the medium face is used
        quiet = logging.getLogger("matplotlib.font_manager")
        level = quiet.level
        quiet.setLevel(logging.ERROR)
        try:
            fig.savefig(path, dpi=dpi)
        finally:
            quiet.setLevel(level)
