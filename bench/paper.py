"""Paper benchmark, run on demand: ``python bench/paper.py``.

The printed sheets a draw and a rank write (:mod:`bianpai.workbooks.paper`): 桌卡 and 记分单 of
a round of 16, 64 and 256 tables (the CBSA qualifier's first round), and 排名走势 of 48
entrants over 9 rounds, built and written through the openpyxl port, then saved. Prints one
table: sheet, tables, rows, best-of-3 CPU seconds to build+write and to save. Target: well under
1 s for the largest round, so a draw's paper never dominates the button.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from bianpai.workbooks import paper as P
from bianpai.workbooks.openpyxl_port import OpenpyxlPort


def _cards(n: int):
    cards = [dict(heading="公开组 资格赛 第1轮", table=i,
                  sides=[("甲方", 2 * i, f"选手{2 * i}", "某市"), ("乙方", 2 * i + 1, f"选手{2 * i + 1}", None)],
                  extra=[f"场次/用牌：R1-{i}"]) for i in range(1, n + 1)]
    slips = [dict(c, game_titles=["甲方局数", "乙方局数"], games=1,
                  match_titles=["甲方局数", "乙方局数", "连续清台"]) for c in cards]
    return cards, slips


def _time(build, tmp: Path) -> tuple[float, float, int]:
    best_w = best_s = float("inf")
    rows = 0
    for k in range(3):
        t0 = time.process_time()
        port = OpenpyxlPort(tmp / f"b{k}.xlsx", create=True, command="bench")
        for name, (grid, fmt) in build():
            port.write_sheet(name, grid, fmt)
            rows = len(grid)
        t1 = time.process_time()
        port.save()
        t2 = time.process_time()
        best_w, best_s = min(best_w, t1 - t0), min(best_s, t2 - t1)
    return best_w, best_s, rows


def main() -> None:
    table = Table(title="paper sheets (best of 3, CPU s)")
    for col in ("sheet", "tables / entrants", "rows", "build+write", "save"):
        table.add_column(col, justify="right")
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        for n in (16, 64, 256):
            cards, slips = _cards(n)
            for name, fn, arg in (("桌卡", P.table_cards, cards), ("记分单", P.score_slips, slips)):
                w, s, rows = _time(lambda fn=fn, arg=arg, name=name: [(name, fn(arg))], tmp)
                table.add_row(name, str(n), str(rows), f"{w:.3f}", f"{s:.3f}")
        block = dict(title="公开组 积分编排赛", rounds=list(range(1, 10)),
                     rows=[(f"{i} 选手{i}", [((i + r) % 48) + 1 for r in range(9)]) for i in range(48)])
        w, s, rows = _time(lambda: [("排名走势", P.rank_progression([block]))], tmp)
        table.add_row("排名走势", "48", str(rows), f"{w:.3f}", f"{s:.3f}")
    Console().print(table)


if __name__ == "__main__":
    main()
