"""The state of a bridge team event as read from its workbook: detection, :class:`TeamEvent`
(teams, the 对阵 record, 带分 entries, results, fines) and its derived views (stage entrants,
standings, the knockout bracket).

The workbook is the state: 抽签 (team numbers), 对阵 (every round drawn, all stages), 带分 (who
entered a later stage, from which place, with what carry-over and the ranking seed used),
成绩/逐副成绩/罚分 (typed by the arbiter).

Sources: Fujian 2024 桥牌项目竞赛规程 五、六、八、九; Otog 2024 单项竞赛规则 四、桥牌.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal

import pandas as pd

from bianpai.engines.bridge import vp
from bianpai.engines.bridge_knockout import KO_LAST_ROUND, KO_ROUND, KO_TABLE
from bianpai.engines.errors import InputError
from bianpai.engines.knockout import knockout8
from bianpai.engines.round_robin import round_robin_schedule
from bianpai.engines.rounding import q2
from bianpai.engines.team_standings import team_standings
from bianpai.templates.schema import Group, KnockoutFormat, Regulation, Stage, SwissFormat
from bianpai.workbooks import team_layouts as T
from bianpai.workbooks.port import WorkbookPort
from bianpai.workbooks.settings import regulation_from_sheet
from bianpai.workbooks.tables import find_sheet

__all__ = ["is_team_regulation", "is_team_workbook", "TeamEvent", "field_size_errors", "KO_ROUND",
           "KO_TABLE", "KO_LAST_ROUND"]




def _cmd():
    # imported lazily: commands dispatches to this module
    from bianpai.addin import commands
    return commands


# ------------------------------------------------------------------------------ detection

def is_team_regulation(reg: Regulation) -> bool:
    """True when the regulation's (first) group is a team event run by this module."""
    return bool(reg.groups) and reg.groups[0].entrant == "team"


def is_team_workbook(port: WorkbookPort) -> bool:
    """True when the workbook's 规程 sheet names a team preset (False when it cannot be read:
    the generic command then reports the problem)."""
    try:
        return is_team_regulation(regulation_from_sheet(port))
    except Exception:
        return False


# ------------------------------------------------------------------------------ the event

@dataclass
class TeamEvent:
    """Everything a team command reads, validated. Keys of ``results``: ``(stage_id, round,
    table)`` → ``(home_imps, away_imps)`` of complete matches only; ``incomplete`` names the
    scheduled matches still lacking results (same keys)."""

    port: WorkbookPort
    reg: Regulation
    group: Group
    lang: str
    roster: pd.DataFrame
    teams: dict[int, dict] = field(default_factory=dict)  # number -> name, unit, roster_row
    drawn: bool = False
    schedule: pd.DataFrame | None = None
    entries: pd.DataFrame | None = None
    results: dict[tuple, tuple[int, int]] = field(default_factory=dict)
    incomplete: dict[tuple, str] = field(default_factory=dict)
    extra: dict[tuple, tuple[int, int]] = field(default_factory=dict)  # knockout play-off IMPs
    fines: dict[str, list[tuple[int | None, int, Decimal]]] = field(default_factory=dict)
    errors: list[InputError] = field(default_factory=list)

    # -- names
    def stage_name(self, stage: Stage) -> str:
        return stage.name_zh if self.lang == "zh" else (stage.name_en or stage.name_zh)

    def stage_of(self, value, *, sheet: str, cell: str) -> Stage | None:
        v = str(value).strip()
        for s in self.group.stages:
            if v in (s.id, s.name_zh, s.name_en):
                return s
        names = "、".join(s.name_zh for s in self.group.stages)
        self.errors.append(InputError(f"未知阶段“{value}”，应为：{names}",
                                      f"unknown stage {value!r}; expected one of "
                                      f"{', '.join(s.name_en or s.id for s in self.group.stages)}",
                                      sheet=sheet, cell=cell))
        return None

    def name_of(self, team) -> str:
        if team is None or team is pd.NA or (isinstance(team, float) and team != team):
            return "轮空" if self.lang == "zh" else "bye"
        t = self.teams.get(int(team))
        return t["name"] if t else f"{team}号"

    def unit_of(self, team) -> str | None:
        t = self.teams.get(int(team))
        return t["unit"] if t else None

    def sheet(self, layout) -> str:
        return find_sheet(self.port, layout) or layout.name(self.lang)

    # -- stage state
    def stage_rows(self, stage: Stage) -> pd.DataFrame:
        s = self.schedule
        if s is None or s.empty:
            return pd.DataFrame(columns=["stage_id", "round", "match", "table", "home", "away"])
        return s[s["stage_id"] == stage.id]

    def started(self, stage: Stage) -> bool:
        return not self.stage_rows(stage).empty

    def rounds_drawn(self, stage: Stage) -> int:
        rows = self.stage_rows(stage)
        return int(rows["round"].max()) if len(rows) else 0

    def total_rounds(self, stage: Stage) -> int:
        f = stage.format
        if isinstance(f, SwissFormat):
            return f.rounds
        if isinstance(f, KnockoutFormat):
            return KO_LAST_ROUND
        n = len(self.stage_entrants(stage))
        return len(round_robin_schedule(max(n, 2), cycles=f.cycles)["round"].unique())

    def boards(self, stage: Stage) -> int:
        f = stage.format
        if isinstance(f, KnockoutFormat):
            return f.boards
        sc = stage.scoring
        return getattr(sc, "boards", None) or f.boards_per_round

    def missing(self, stage: Stage, rnd: int) -> list[str]:
        """Descriptions of the matches of ``rnd`` without a complete result."""
        out = []
        rows = self.stage_rows(stage)
        for rec in rows[rows["round"] == rnd].itertuples():
            if rec.away is None or pd.isna(rec.away):
                continue
            key = (stage.id, int(rec.round), int(rec.table))
            if key not in self.results:
                label = f"{rec.match} " if rec.match else ""
                what = self.incomplete.get(key, "未录入")
                out.append(f"{self.stage_name(stage)}第{rnd}轮{label}第{rec.table}桌 "
                           f"{rec.home}号{self.name_of(rec.home)} 对 {int(rec.away)}号"
                           f"{self.name_of(rec.away)}（{what}）")
        return out

    def finished(self, stage: Stage) -> bool:
        """All rounds drawn and every match of the stage has its result."""
        if isinstance(stage.format, KnockoutFormat):
            if not self.started(stage):
                return False
            ko = self.knockout(stage)
            return bool(ko["winner"].notna().all())
        r = self.rounds_drawn(stage)
        return r >= self.total_rounds(stage) and r > 0 and not any(
            self.missing(stage, k) for k in range(1, r + 1))

    # -- entrants
    def stage_entrants(self, stage: Stage, upto_round: int | None = None) -> list[dict]:
        """Entrants of ``stage``: ``team, carry (VP), join_round, prev_rank``; for the first
        stage every drawn team; later ones from 带分, joined by ``upto_round`` when given."""
        if stage.entrants == "all" or stage is self.group.stages[0]:
            return [dict(team=t, carry=Decimal("0.00"), join_round=1, prev_rank=None)
                    for t in sorted(self.teams)]
        e = self.entries
        if e is None or e.empty:
            return []
        sub = e[e["stage_id"] == stage.id]
        out = []
        for rec in sub.to_dict("records"):
            jr = int(rec["join_round"] or 1)
            if upto_round is not None and jr > upto_round:
                continue
            out.append(dict(team=int(rec["team"]), carry=q2(rec["carry"] or 0), join_round=jr,
                            prev_rank=rec["from_place"]))
        return out

    def ranking_seed(self, stage: Stage) -> int | None:
        """The seed used when ``stage``'s ranking was taken into a later stage (from 带分)."""
        e = self.entries
        if e is None or e.empty:
            return None
        sub = e[(e["from_stage_id"] == stage.id) & e["seed"].notna()]
        for v in sub["seed"]:
            try:
                return int(str(v).strip())
            except ValueError:
                continue
        return None

    # -- computing
    def matches_frame(self, stage: Stage, upto_round: int | None = None) -> pd.DataFrame:
        """Complete matches of a VP stage: ``round, home, away, home_imps, away_imps, home_vp,
        away_vp`` (byes: the format's bye VP)."""
        rows = self.stage_rows(stage)
        if upto_round is not None:
            rows = rows[rows["round"] <= upto_round]
        b = self.boards(stage)
        bye_vp = getattr(stage.format, "bye_vp", Decimal("12"))
        out = []
        for rec in rows.itertuples():
            if rec.away is None or pd.isna(rec.away):
                out.append(dict(round=int(rec.round), home=int(rec.home), away=pd.NA,
                                home_imps=0, away_imps=0, home_vp=q2(bye_vp), away_vp=None))
                continue
            key = (stage.id, int(rec.round), int(rec.table))
            if key not in self.results:
                continue
            hi, ai = self.results[key]
            hv, av = vp(hi - ai, b)
            out.append(dict(round=int(rec.round), home=int(rec.home), away=int(rec.away),
                            home_imps=hi, away_imps=ai, home_vp=hv, away_vp=av))
        df = pd.DataFrame(out, columns=["round", "home", "away", "home_imps", "away_imps",
                                        "home_vp", "away_vp"])
        df["away"] = df["away"].astype("Int64")
        return df

    def standings(self, stage: Stage, *, seed: int | None, upto_round: int | None = None,
                  chain: list[str] | None = None) -> pd.DataFrame:
        """VP standings of a swiss/round-robin stage (engine: ``team_standings``)."""
        ents = self.stage_entrants(stage, upto_round)
        fines: dict[int, Decimal] = {}
        for rnd, team, amount in self.fines.get(stage.id, []):
            if upto_round is None or rnd is None or rnd <= upto_round:
                fines[team] = fines.get(team, Decimal(0)) + amount
        return team_standings(self.matches_frame(stage, upto_round),
                              teams=[e["team"] for e in ents],
                              carry_over={e["team"]: e["carry"] for e in ents}, fines=fines,
                              tie_chain=chain or stage.tie_breaks.criteria, seed=seed)

    def ko_places(self, stage: Stage) -> list[int]:
        ents = sorted(self.stage_entrants(stage), key=lambda e: e["prev_rank"] or 0)
        return [e["team"] for e in ents]

    def knockout(self, stage: Stage) -> pd.DataFrame:
        """The bracket (engine ``knockout8``) filled with the entered results."""
        res, extra = {}, {}
        for rec in self.stage_rows(stage).itertuples():
            key = (stage.id, int(rec.round), int(rec.table))
            if key in self.results:
                res[rec.match] = self.results[key]
            if key in self.extra:
                extra[rec.match] = self.extra[key]
        return knockout8(self.ko_places(stage), res, tie_chain=stage.format.tie_breaks,
                         extra_imps=extra)

def field_size_errors(ev: TeamEvent) -> list[InputError]:
    """A field too small for the stage structure (e.g. an 8-team knockout plus a consolation
    Swiss) is refused before the first draw, not discovered at 进入下一阶段."""
    need = ev.group.min_entries
    n = len(ev.roster)
    if not need or n == 0 or n >= need:
        return []
    why = f"（{ev.group.min_entries_note}）" if ev.group.min_entries_note else ""
    return [InputError(f"本规程的赛制至少需要 {need} 队{why}，现报名 {n} 队；请在“规程”表修改赛制"
                       f"或 groups[0].min_entries 后再编排",
                       f"this format needs at least {need} teams; {n} entered",
                       sheet=T.TEAM_ROSTER.zh)]
