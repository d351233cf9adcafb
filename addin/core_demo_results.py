"""The demo's simulated arbiter (:mod:`bianpai.addin.core_demo`): results typed into the
entry sheets after each draw, as the stage scoring's ``simulate`` gives them, and the places of
groups without stages typed in 名次录入. Only the rows filled are written."""

from __future__ import annotations

import random
from pathlib import Path

from bianpai.workbooks.openpyxl_port import OpenpyxlPort
from bianpai.workbooks.tables import find_sheet


def _port(out, command: str) -> OpenpyxlPort:
    """``out`` itself when it is an open port (the demo's), else the workbook at that path."""
    return out if isinstance(out, OpenpyxlPort) else OpenpyxlPort(out, command=command)


def _fill_match_results(out: Path | OpenpyxlPort, rng: random.Random, strength: dict,
                        ev=None) -> int:
    """Simulated values in every 成绩 row not typed yet, for scorings typed per match
    (``games_per_match`` 0): the scoring's ``simulate_match(rng, strengths, prefilled)`` (else
    its first ``simulate`` row). ``ev``: the event as read after the draw (else read here)."""
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415
    port = _port(out, "demo-results")
    ev = ev or load_core_event(port)
    name = find_sheet(port, ev.lay.results)
    if name is None:
        return 0
    grid = port.read_values(name)
    keys = [c.key for c in ev.lay.results.columns]
    sched = {(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"]): r
             for r in ev.schedule_records()}
    filled = 0
    changed: dict[int, list] = {}  # sheet row → the row as simulated
    columns: dict[tuple, dict] = {}
    for i, row in enumerate(grid[1:], start=1):
        row = list(row) + [None] * (len(keys) - len(row))
        grid[i] = row
        g = ev.group_of(row[0])
        s = ev.stage_of(g, row[1]) if g else None
        if s is None or s.scoring.games_per_match:
            continue
        if (g.id, s.id) not in columns:  # the stage's entry columns, asked once
            columns[(g.id, s.id)] = {c.key: c for c in s.scoring.entry_match_columns()}
        cols = columns[(g.id, s.id)]
        typed = [k for k, c in cols.items() if not c.prefill]
        if any(row[keys.index(k)] not in (None, "") for k in typed if k in keys) \
                or row[keys.index("decision")] not in (None, ""):
            continue
        m = sched.get((g.id, s.id, row[2], row[3], row[4]))
        if m is None or any(x is not None and (w := ev.withdrawn_after(g, s, int(x))) is not None
                            and int(row[3]) > w for x in (m["side0"], m["side1"])):
            continue  # a withdrawn player's match is a forfeit: nothing to type
        st = tuple(strength.setdefault((g.id, x), rng.gauss(0, 1)) for x in (m["side0"], m["side1"]))
        pre = {k: row[keys.index(k)] for k, c in cols.items() if c.prefill and k in keys}
        sim = getattr(s.scoring, "simulate_match", None)
        vals = sim(rng, st, pre) if sim else s.scoring.simulate(rng, st, 1)[0]
        for k, v in vals.items():
            if k in keys:
                row[keys.index(k)] = v
        changed[i + 1] = row
        filled += 1
    if filled:
        _write_rows(port, name, changed)
        port.save()
    return filled


def _write_rows(port: OpenpyxlPort, name: str, rows: dict[int, list]) -> None:
    """Write ``rows`` (sheet row number → values) into sheet ``name``, a block of consecutive
    rows at a time: only the rows the simulation typed, as an arbiter types them (the rows
    already typed are not written again)."""
    block: list[list] = []
    start = None
    for r in sorted(rows):
        if block and r != start + len(block):
            port.append_rows(name, block, start_row=start)
            block = []
        if not block:
            start = r
        block.append(rows[r])
    if block:
        port.append_rows(name, block, start_row=start)


def _type_places(out: Path | OpenpyxlPort, rng: random.Random) -> list[str]:
    """Groups without stages (no engine for their format): a random order of their entrants
    typed in 名次录入, as the arbiter would. Returns the groups typed."""
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415
    from bianpai.workbooks import layouts as L  # noqa: PLC0415
    port = _port(out, "demo-places")
    ev = load_core_event(port)
    rows, done = [], []
    for g in ev.reg.groups:
        if g.stages:
            continue
        names = [(rec["name"], rec["unit"]) for _, rec in ev.roster.iterrows()
                 if rec["group_id"] == g.id]
        rng.shuffle(names)
        rows += [[g.name_zh, i, name, unit, None, None]
                 for i, (name, unit) in enumerate(names, start=1)]
        if names:
            done.append(g.name_zh)
    if rows:
        port.append_rows(find_sheet(port, L.PLACINGS), rows, start_row=2)
        port.save()
    return done


def _fill_results(out: Path | OpenpyxlPort, rng: random.Random, strength: dict,
                  ev=None) -> int:
    """Simulated values in every empty 逐局成绩 row (by the stage scoring's ``simulate``).
    ``ev``: the event as read after the draw (else read here)."""
    from bianpai.addin.competition import load_core_event  # noqa: PLC0415
    port = _port(out, "demo-results")
    ev = ev or load_core_event(port)
    from bianpai.addin.core_views import read_core_sheet, shown_layout, style_of  # noqa: PLC0415
    view = style_of(ev.reg).view(ev.reg, ev.lay.games.key)
    name = find_sheet(port, shown_layout(ev.reg, ev.lay.games))
    keys = [c.key for c in ev.lay.games.columns]
    if view is None:
        grid = port.read_values(name)
        at = list(range(1, len(grid) + 1))  # grid row i is sheet row i + 1
    else:  # the style shows 逐局成绩 in its own columns: filled in the core's, written back
        df = read_core_sheet(port, ev.reg, ev.lay.games, errors=[])
        grid = [keys] + [[rec.get(k) for k in keys] for rec in df.to_dict("records")]
        at = [1] + [int(r) for r in df.index]  # the sheet row each was read from
    header = grid[0]
    filled = 0
    typed: set[int] = set()  # grid rows given values
    by_match: dict[tuple, list[int]] = {}
    # columns a scoring prefills when a match's rows are prepared (台次, 牌号) do not count
    prefilled = {k for g in ev.reg.groups for s in g.stages
                 for k in getattr(s.scoring, "prefilled", ())}
    # a line-up the draw carried over from the last round (出场名单) is no result
    prefilled |= {c.key for g in ev.reg.groups for s in g.stages
                  if getattr(s.scoring, "lineup_default", "none") == "last_round"
                  for c in s.scoring.entry_game_columns() if c.member}
    for i, row in enumerate(grid[1:], start=1):
        row = list(row) + [None] * (len(header) - len(row))
        grid[i] = row
        if all(v in (None, "") for k, v in zip(keys[6:], row[6:]) if k not in prefilled):
            by_match.setdefault(tuple(row[:5]), []).append(i)
    sched = {(r["group_id"], r["stage_id"], r["pool"], r["round"], r["table"]): r
             for r in ev.schedule_records()}
    for key, idxs in by_match.items():
        g = ev.group_of(key[0])
        s = ev.stage_of(g, key[1])
        m = sched[(g.id, s.id, key[2], key[3], key[4])]
        sides = (m["side0"], m["side1"])
        st = tuple(strength.setdefault((g.id, x), rng.gauss(0, 1)) for x in sides)
        games = s.scoring.simulate(rng, st, len(idxs))
        for i, vals in zip(idxs, games):
            for k, v in vals.items():
                grid[i][keys.index(k)] = v
            typed.add(i)
        filled += 1
    # a knockout match tied after the regular games gets its extra game (加赛) row
    extra = []
    for key, idxs in by_match.items():
        g = ev.group_of(key[0])
        s = ev.stage_of(g, key[1])
        if getattr(s.scoring, "extra_games_needed", None) is None:
            continue  # a scoring without 加赛
        rows = [dict(zip(keys, grid[i])) for i in idxs]
        from bianpai.engines.core import TypedMatch  # noqa: PLC0415
        import pandas as pd  # noqa: PLC0415
        games = pd.DataFrame(rows)[[k for k in keys[5:]]]
        need = s.scoring.extra_games_needed(TypedMatch(games=games))
        while need:
            st = tuple(strength[(g.id, x)] for x in (sched[(g.id, s.id, key[2], key[3], key[4])][k]
                                                      for k in ("side0", "side1")))
            extra_rows = getattr(s.scoring, "simulate_extra", s.scoring.simulate)
            for vals in extra_rows(rng, st, need):
                row = list(key) + [len(rows) + 1] + [None] * (len(keys) - 6)
                for k, v in vals.items():
                    row[keys.index(k)] = v
                extra.append(row)
                rows.append(dict(zip(keys, row)))
            games = pd.DataFrame(rows)[[k for k in keys[5:]]]
            need = s.scoring.extra_games_needed(TypedMatch(games=games))
    # the typed rows where they were read, the 加赛 rows below the last
    rows = {at[i]: grid[i] for i in sorted(typed)}
    rows.update({at[-1] + 1 + j: r for j, r in enumerate(extra)})
    if view is not None:
        sides = []
        for r in rows.values():
            g = ev.group_of(r[0])
            m = sched.get((g.id, ev.stage_of(g, r[1]).id, r[2], r[3], r[4]), {})
            sides.append({k: m.get(k) for k in ("side0", "side1", "label")})
        rows = dict(zip(rows, view.rows(ev.lay.games, list(rows.values()), ev.lang, sides)))
    _write_rows(port, name, rows)
    port.save()
    return filled
