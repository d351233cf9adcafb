"""``bianpai trf …``: FIDE TRF-16 files for cross-checks with Swiss-Manager, JaVaFo, bbpPairings.

    bianpai trf pair --dutch IN.trf          next round in the pairing-engine exchange format
    bianpai trf standings IN.trf --tiebreaks BH,BH-C1,SB,PS,DE,WIN,BPG,ARO [--json]

``pair`` prints the number of pairs, then ``white black`` per line, a bye as ``n 0`` (JaVaFo /
bbpPairings ``-p`` format; FIDE Dutch C.04.3 through py4swiss, extra ``bianpai[chess]``).
``standings`` prints each player's points and FIDE C.07 tie-break values (Art. 16 rules for
unplayed rounds; ``--edition fide-2026`` for the March 2026 caps). ``DE`` is evaluated inside the
groups tied on points and the earlier tie-breaks.
"""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import typer

from bianpai.engines.errors import BianpaiError

trf_app = typer.Typer(add_completion=False, no_args_is_help=True,
                      help="TRF-16 文件：荷兰制编排与FIDE破同分 / TRF-16 files: Dutch pairing, "
                           "FIDE tie-breaks.")


def _read(path: Path):
    from bianpai.engines.trf import parse_trf
    try:
        return parse_trf(path.read_bytes().decode("utf-8-sig"))
    except UnicodeDecodeError:
        return parse_trf(path.read_bytes().decode("latin-1"))


def _fail(e: BianpaiError) -> None:
    typer.echo(e.text, err=True)
    raise typer.Exit(1)


@trf_app.command("pair")
def pair(trf_file: Path = typer.Argument(..., exists=True, dir_okay=False, help="IN.trf"),
         dutch: bool = typer.Option(True, "--dutch", help="FIDE 荷兰制 (C.04.3)")) -> None:
    """编排下一轮（荷兰制），按引擎交换格式输出 / pair the next round (Dutch)."""
    from bianpai.engines.trf import dutch_pairings, format_pairings
    try:
        pairs = dutch_pairings(_read(trf_file))
    except BianpaiError as e:
        _fail(e)
    typer.echo(format_pairings(pairs), nl=False)


def _plain(v):
    if isinstance(v, Decimal):
        return int(v) if v == v.to_integral_value() else float(v)
    return v


@trf_app.command("standings")
def standings(trf_file: Path = typer.Argument(..., exists=True, dir_okay=False, help="IN.trf"),
              tiebreaks: str = typer.Option("BH-C1,BH,SB,DE,WIN,BPG", "--tiebreaks",
                                            help="C.07 codes, comma-separated"),
              edition: str = typer.Option("fide-2024", "--edition",
                                          help="fide-2024 | fide-2026"),
              as_json: bool = typer.Option(False, "--json", help="JSON output")) -> None:
    """每名棋手的积分与破同分值 / each player's points and tie-break values."""
    import pandas as pd

    from bianpai.engines.standings import rank
    from bianpai.engines.tiebreaks import FIDE_CODES
    from bianpai.engines.trf import trf_records
    codes = [c.strip().upper() for c in tiebreaks.split(",") if c.strip()]
    bad = [c for c in codes if c not in FIDE_CODES]
    if bad:
        typer.echo(f"未知的破同分代码：{', '.join(bad)} / unknown tie-break codes "
                   f"(known: {', '.join(FIDE_CODES)})", err=True)
        raise typer.Exit(2)
    try:
        trf = _read(trf_file)
        recs = trf_records(trf)
        rows = []
        for p in trf.players:
            for g in recs[p.number]:
                out = {"played": None, "pairing_bye": "BYE", "full_bye": "BYE",
                       "requested_bye": "BYE", "forfeit_win": "FW",
                       "forfeit_loss": "FL"}[g.kind]
                if out is None:
                    out = "W" if g.score == 1 else "D" if g.score else "L"
                rows.append({"round": g.round, "entrant": p.number,
                             "opponent": pd.NA if g.opponent is None else g.opponent,
                             "side": 1 if g.colour == "B" else 0, "match_points": g.score,
                             "outcome": out, "complete": True,
                             "unplayed": "" if g.kind == "played" else g.kind,
                             "opp_rating": g.opp_rating})
        df = pd.DataFrame(rows, columns=["round", "entrant", "opponent", "side", "match_points",
                                         "outcome", "complete", "unplayed", "opp_rating"])
        df["opponent"] = df["opponent"].astype("Int64")
        total = trf.total_rounds or max((len(v) for v in recs.values()), default=0)
        st = rank([p.number for p in trf.players], df, ["match_points", *codes],
                  ctx={"win_points": 1, "total_rounds": total, "edition": edition})
    except BianpaiError as e:
        _fail(e)
    names = {p.number: p.name for p in trf.players}
    out_rows = []
    for rec in st.table.to_dict("records"):
        row = {"rank": int(rec["rank"]), "number": int(rec["entrant"]),
               "name": names[int(rec["entrant"])], "points": _plain(rec["match_points"])}
        for c in codes:
            row[c] = _plain(rec[c])
        row["explanation"] = rec["explanation_en"]
        out_rows.append(row)
    if as_json:
        typer.echo(json.dumps(out_rows, ensure_ascii=False, indent=1))
        return
    head = ["rank", "number", "name", "points", *codes]
    typer.echo("\t".join(head))
    for r in out_rows:
        typer.echo("\t".join("" if r[h] is None else str(r[h]) for h in head))
