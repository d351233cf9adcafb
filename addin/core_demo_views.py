"""Pieces of the core demo (:mod:`bianpai.addin.core_demo`) printed as terminal tables: a ranking
when the workbook style's 排名 is the final ranking (no 总排名), and the awards."""

from __future__ import annotations

from rich.table import Table

__all__ = ["awards_table", "standings_table"]


def standings_table(title: str, rows: list[dict]) -> Table:
    """A ranking as ``rank --json`` gives it (``rank``, ``number``, ``name``, the criteria by
    name, ``explanation``), as a terminal table: 名次, 序号, 名称, the first two criteria (by
    their labels) and 说明. 说明 folds: rich would cut Chinese text (no spaces) with "…" and
    lose which tie-break decided."""
    from bianpai.engines.standings import CRITERIA  # noqa: PLC0415
    crits = [k for k in (rows[0] if rows else {}) if k in CRITERIA][:2]
    t = Table(title=f"{title} 最终排名")
    heads = ["名次", "序号", "名称", *[CRITERIA[k].label_zh for k in crits], "说明"]
    for col in heads:
        t.add_column(col, overflow="fold", no_wrap=col != "说明", ratio=1 if col == "说明" else None)
    for r in rows:
        vals = []
        for k in crits:
            v = r.get(k)
            places = CRITERIA[k].places if CRITERIA[k].places is not None else 2
            vals.append("" if v is None else f"{v:.{places}f}" if isinstance(v, float) else str(v))
        t.add_row("—" if r.get("rank") is None else str(r["rank"]), str(r.get("number", "")),
                  str(r.get("name", "")), *vals, str(r.get("explanation") or ""))
    return t


def awards_table(title: str, rows: list[dict]) -> Table:
    """The awards as ``awards --json`` gives them (``place_label``, ``name``, ``unit``, ``award``,
    ``net``, ``trophy``/``medal``/``certificate``): 组别, 名次, 姓名/队名, 单位, 奖项, 实发 (¥ with
    two decimals) and 证书/奖杯. A long list shows its first 32 rows and names the sheet."""
    from decimal import Decimal  # noqa: PLC0415
    t = Table(title=title)
    for col in ("组别", "名次", "姓名/队名", "单位", "奖项", "实发", "证书/奖杯"):
        t.add_column(col)
    shown = rows if len(rows) <= 40 else rows[:32]
    for r in shown:
        things = "、".join(x for x, k in (("奖杯", "trophy"), ("奖牌", "medal"),
                                          ("证书", "certificate")) if r.get(k))
        net = r.get("net")
        t.add_row(str(r.get("group") or ""), str(r.get("place_label") or ""), str(r["name"]),
                  str(r.get("unit") or ""), str(r.get("award") or ""),
                  "" if net is None else f"¥{Decimal(str(net)):,.2f}", things)
    if len(shown) < len(rows):
        t.add_row("…", "", f"（共 {len(rows)} 行，见“奖励”表）", "", "", "", "")
    return t
