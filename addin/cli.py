"""The ``bianpai`` command line: the same commands as the Excel buttons, on a closed workbook.

    bianpai new shenzhen-guandan-pairs-2023 -o event.xlsx
    bianpai check event.xlsx
    bianpai draw event.xlsx [--seed N]
    bianpai rank event.xlsx [--round N] [--json]
    bianpai advance event.xlsx [--seed N]      (a stage is over: start the next one)
    bianpai undo event.xlsx
    bianpai demo [PRESET]                      (any name `bianpai presets` lists)

Every writing command saves atomically and keeps the previous file in
``event.xlsx.bianpai-backups/``; ``--out`` writes elsewhere instead of in place.
"""

from __future__ import annotations

import os

# numpy's OpenBLAS starts a busy-waiting thread per core as numpy loads (0.05 s of CPU per
# command on this project's 2-core machines, half of numpy's import) for matrix code no command
# runs: one thread, unless the user set it. Before anything imports numpy (pandas, openpyxl).
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import json
import sys
from pathlib import Path
from typing import Optional

import typer
from rich.console import Console
from rich.markup import escape

from bianpai.engines.errors import BianpaiError, InputError, InputErrors

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="bianpai 编排记录：在 Excel 工作簿上抽签、编排、排名、奖励。")
console = Console()
err_console = Console(stderr=True)


_OPEN: list = []

#: the help of the arguments every workbook command shares
WORKBOOK_HELP = "赛事工作簿（.xlsx 或 .xlsm）/ the event workbook"
OUT_HELP = "写入另一个文件，原工作簿不变 / write the result to this file instead of in place"
FORCE_HELP = "--out 的文件已存在时覆盖（先备份） / overwrite an existing --out file (backed up)"


def _port(path: Path, out: Optional[Path], command: str):
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort
    port = OpenpyxlPort(path, out=out, command=command)
    _OPEN.append(port)
    return port


def _command(name: str, workbook: Path, out: Optional[Path], force: bool = False, **kwargs):
    """Run command ``name`` on the file the way every front does
    (:func:`bianpai.addin.fronts.run_command`: status on 操作, undo entry in macro workbooks).
    ``out``: write there instead; an existing other file is refused unless ``force`` (it is then
    backed up first, as every overwritten workbook)."""
    if out is not None and out.exists() and not force and not (
            workbook.exists() and out.resolve() == workbook.resolve()):
        raise BianpaiError(f"{out} 已存在；如要覆盖请加 --force（覆盖前会先备份）",
                           f"{out} exists; use --force to overwrite it (it is backed up first)")
    from bianpai.addin.fronts import run_command
    from bianpai.addin.terminal import progress_bar
    with progress_bar(err_console, COMMAND_LABELS.get(name, name)):
        return run_command(_port(workbook, out, name), name, **kwargs)


COMMAND_LABELS = {"check": "检查名单", "draw": "抽签编排", "rank": "计算排名", "awards": "奖励分配",
                  "advance": "进入下一阶段", "withdraw": "退赛", "new": "新建工作簿", "demo": "演示"}


def _print_status(res) -> None:
    state = getattr(res, "status", None)
    if state:
        console.print(f"  当前状态：{escape(state[0])}\n  下一步：{escape(state[1])}")


def _run(fn):
    try:
        return _call(fn)
    finally:
        while _OPEN:  # a refused command releases the workbook it opened
            _OPEN.pop().close()


def _call(fn):
    try:
        return fn()
    except InputErrors as exc:
        err_console.print(f"[bold red]未写入任何内容 / nothing written[/]：{len(exc.errors)} 处问题")
        for e in exc.errors:
            err_console.print(f"  [red]{escape(e.where or '-')}[/] {escape(e.zh)}\n"
                              f"      {escape(e.en)}")
        _print_hint(exc)
        raise typer.Exit(2)
    except InputError as exc:
        err_console.print(f"[bold red]未写入任何内容 / nothing written[/]：\n"
                          f"  [red]{escape(exc.where or '-')}[/] {escape(exc.zh)}\n"
                          f"      {escape(exc.en)}")
        _print_hint(exc)
        raise typer.Exit(2)
    except BianpaiError as exc:
        err_console.print(f"[bold red]错误 / error[/]：{escape(exc.zh)}\n  {escape(exc.en)}")
        raise typer.Exit(2)


def _print_hint(exc) -> None:
    """Where this workbook stands and what to do next, when a command attached it."""
    hint = getattr(exc, "hint", None)
    if hint:
        err_console.print(f"  本工作簿当前状态：{escape(hint[0])}\n  下一步：{escape(hint[1])}")


@app.command()
def new(preset: str = typer.Argument("shenzhen-guandan-pairs-2023", help="规程预设名称 / preset"),
        out: Path = typer.Option(..., "-o", "--out", help="新工作簿路径 / workbook to create"),
        lang: str = typer.Option("zh", "--lang", help="zh 或 en"),
        force: bool = typer.Option(False, "--force", help="覆盖已存在的文件（会先备份）"),
        macros: bool = typer.Option(False, "--macros",
                                    help="带按钮的宏工作簿（.xlsm，桌面 Excel + xlwings） / "
                                         "macro workbook with buttons")):
    """新建赛事工作簿 / create an event workbook from a preset."""
    from bianpai.addin import commands
    from bianpai.templates.presets_io import load_preset
    from bianpai.workbooks.openpyxl_port import OpenpyxlPort

    def go():
        if lang not in ("zh", "en"):
            raise BianpaiError(f"--lang 应为 zh（中文）或 en（英文），不是“{lang}”；未写入任何内容",
                               f"--lang must be zh or en, not {lang!r}; nothing written")
        want = ".xlsm" if macros else ".xlsx"
        if out.suffix.lower() not in (".xlsx", ".xlsm") or (macros and out.suffix.lower() != want):
            raise BianpaiError(f"新工作簿的文件名应以 {want} 结尾（现为“{out.name}”）；未写入任何内容",
                               f"the new workbook's name must end in {want} (not {out.name!r}); "
                               f"nothing written")
        if out.exists() and not force:
            raise BianpaiError(f"{out} 已存在；如要覆盖请加 --force", f"{out} exists; use --force")
        reg = load_preset(preset)
        if macros:
            from bianpai.addin.fronts import new_macro_workbook
            res = new_macro_workbook(reg, out, lang=lang)
            console.print(f"[green]✓[/] {escape(res.summary_zh)}（带按钮 / with buttons）→ {out}")
            console.print(f"  [dim]{escape(res.summary_en)}[/]")
            return
        port = OpenpyxlPort(out, create=True, command="new")
        res = commands.build_workbook(port, reg, lang=lang)
        console.print(f"[green]✓[/] {escape(res.summary_zh)} → {out}")
        console.print(f"  [dim]{escape(res.summary_en)}[/]")
    _run(go)


@app.command()
def presets():
    """列出内置规程预设 / list the shipped regulation presets."""
    from rich.table import Table

    from bianpai.templates.presets_io import load_preset, preset_names
    t = Table(title="规程预设 / presets")
    t.add_column("预设 / preset", no_wrap=True)
    t.add_column("规程 / regulation", overflow="fold")
    t.add_column("组别 / groups", overflow="fold")
    for name in preset_names():
        reg = load_preset(name)
        t.add_row(name, reg.title_zh, "、".join(g.name_zh for g in reg.groups[:6])
                  + ("…" if len(reg.groups) > 6 else ""))
    console.print(t)


@app.command()
def check(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
          out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
          force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """检查名单（资格、重复、组别）并写入“校验”表 / check the roster."""

    def go():
        res = _command("check", workbook, out, force)
        bad = any(f["severity"] == "error" for f in res.findings)
        mark = "[red]✗[/]" if bad else ("[yellow]![/]" if res.findings else "[green]✓[/]")
        console.print(f"{mark} {escape(res.summary_zh)}（详见“校验”表 / see the Checks sheet）")
        for f in res.findings[:30]:
            colour = "red" if f["severity"] == "error" else "yellow"
            console.print(f"  [{colour}]{escape(str(f['where']))}[/] {escape(str(f['zh']))}")
        if len(res.findings) > 30:
            console.print(f"  … 另有 {len(res.findings) - 30} 条")
        _print_status(res)
        if bad:
            raise typer.Exit(1)
    _run(go)


@app.command()
def draw(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
         seed: Optional[int] = typer.Option(None, "--seed", help="随机种子"),
         redraw: bool = typer.Option(False, "--redraw", help="重新抽签（已有成绩时拒绝）"),
         accept_warnings: Optional[str] = typer.Option(
             None, "--accept-warnings", help="接受名单警告并说明理由（写入日志）"),
         out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
         force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """抽签编排：首次抽签定序号；之后每录完一轮按一次，编排下一轮（单循环双人赛一次排出全部轮次）
    / draw numbers, then the next round each time (a pairs round robin: the whole schedule)."""

    def go():
        res = _command("draw", workbook, out, force, seed=seed, redraw=redraw,
                       accept_warnings=accept_warnings)
        seed_text = f"（随机种子 {res.seed}）" if res.seed is not None else \
            ("" if "未重新抽签" in res.summary_zh else "（未重新抽签，沿用原种子）")
        console.print(f"[green]✓[/] {escape(res.summary_zh)}{seed_text}")
        console.print(f"  [dim]{escape(res.summary_en)}[/]")
        _print_status(res)
    _run(go)


@app.command()
def rank(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
         round: Optional[int] = typer.Option(None, "--round", help="截至第几轮"),
         seed: Optional[int] = typer.Option(None, "--seed", help="抽签定名次的随机种子"),
         as_json: bool = typer.Option(False, "--json", help="以 JSON 输出排名"),
         out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
         force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """计算排名并写入“排名”“成绩汇总” / compute standings."""

    def go():
        res = _command("rank", workbook, out, force, upto_round=round, seed=seed)
        if as_json:
            sys.stdout.write(json.dumps(res.data, ensure_ascii=False, indent=1) + "\n")
        else:
            console.print(f"[green]✓[/] {escape(res.summary_zh)}")
            console.print(f"  [dim]{escape(res.summary_en)}[/]")
            _print_standings(res.data)
            _print_status(res)
    _run(go)


@app.command()
def awards(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
           as_json: bool = typer.Option(False, "--json", help="以 JSON 输出奖励 / print the awards as JSON"),
           out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
          force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """奖励分配：奖励、领奖签收表、证书 / allocate places, prizes, tax and certificates."""

    def go():
        try:
            res = _command("awards", workbook, out, force)
        except (InputError, InputErrors) as exc:  # e.g. awards before rank: say what to do
            from bianpai.addin.terminal import next_step_of
            errs = exc.errors if isinstance(exc, InputErrors) else [exc]
            if not all(e.cell for e in errs):  # (a cell to correct says it better than a state)
                exc.hint = next_step_of(workbook)
            raise
        if as_json:
            sys.stdout.write(json.dumps(res.data, ensure_ascii=False, indent=1, default=str) + "\n")
        else:
            console.print(f"[green]✓[/] {escape(res.summary_zh)}")
            console.print(f"  [dim]{escape(res.summary_en)}[/]")
            _print_status(res)
    _run(go)


@app.command()
def advance(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
            seed: Optional[int] = typer.Option(None, "--seed", help="本阶段同分抽签的随机种子"),
            out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
          force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """进入下一阶段：本阶段排名，按规程写出下一阶段（四强、决赛、淘汰赛、附加赛）的晋级与对阵
    / rank the finished stage and start the next one."""

    def go():
        res = _command("advance", workbook, out, force, seed=seed)
        console.print(f"[green]✓[/] {escape(res.summary_zh)}")
        console.print(f"  [dim]{escape(res.summary_en)}[/]")
        _print_status(res)
    _run(go)


@app.command()
def withdraw(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
             group: Optional[str] = typer.Option(None, "--group", help="组别 / group"),
             team: Optional[int] = typer.Option(None, "--team", help="队号 / team number"),
             after_round: Optional[int] = typer.Option(None, "--after-round",
                                                       help="最后参赛轮次（默认：已编排的最后一轮）"),
             annul: Optional[bool] = typer.Option(None, "--annul/--keep",
                                                  help="取消全部成绩 / 保留已赛成绩（默认按规程）"),
             reason: str = typer.Option("", "--reason", help="原因（写入日志）"),
             out: Optional[Path] = typer.Option(None, "--out", help=OUT_HELP),
          force: bool = typer.Option(False, "--force", help=FORCE_HELP)):
    """退赛：某队在第 k 轮后退出（不带 --group/--team 时只检查并登记“退赛”表）/ an entrant leaves
    after round k (without --group/--team: check and log the 退赛 sheet)."""

    def go():
        res = _command("withdraw", workbook, out, force, group=group, team=team, after_round=after_round,
                       annul=annul, reason=reason)
        console.print(f"[green]✓[/] {escape(res.summary_zh)}")
        console.print(f"  [dim]{escape(res.summary_en)}[/]")
        _print_status(res)
    _run(go)


@app.command()
def undo(workbook: Path = typer.Argument(..., help=WORKBOOK_HELP),
         force: bool = typer.Option(False, "--force",
                                    help="即使上次操作后有新录入也撤销（当前文件另存于 undone/）")):
    """撤销上一次操作：恢复上一个备份 / restore the previous version of the workbook."""
    from bianpai.workbooks.backups import undo as undo_file

    def go():
        restored = undo_file(workbook, force=force)
        undone = restored.stem.split("-", 1)[-1]
        from bianpai.addin.undo_log import note_undo
        note_undo(workbook, restored, force)  # into 日志 with the next command's row
        label = COMMAND_LABELS.get(undone)
        shown = f"{label}（{undone}）" if label else undone
        console.print(f"[green]✓[/] 已撤销“{escape(shown)}”：工作簿恢复到该操作之前 / undid {escape(undone)}")
    _run(go)


@app.command()
def demo(preset: str = typer.Argument("shenzhen-guandan-pairs-2023",
                                     help="规程预设名称（bianpai presets 列出全部）/ preset"),
         out: Path = typer.Option(Path("bianpai-demo.xlsx"), "-o", "--out",
                                  help="演示工作簿 / the demo workbook to write"),
         seed: int = typer.Option(2023, "--seed", help="随机种子 / random seed"),
         force: bool = typer.Option(False, "--force",
                                    help="覆盖已存在的 --out 文件（先备份）/ overwrite (backed up)")):
    """演示：用内置规程模拟整个赛事（报名、抽签、成绩、排名、奖励）/ run a preset's event end to end."""
    from bianpai.addin.demo import run_demo

    def go():
        if out.suffix.lower() != ".xlsx":
            raise BianpaiError(f"演示工作簿的文件名应以 .xlsx 结尾（现为“{out.name}”）；未写入任何内容",
                               f"the demo workbook's name must end in .xlsx (not {out.name!r}); "
                               f"nothing written")
        # the default file is the demo's own (run again, it is replaced after a backup); any
        # other existing file may be someone's event
        if out.exists() and not force and out != Path("bianpai-demo.xlsx"):
            raise BianpaiError(f"{out} 已存在；如要覆盖请加 --force（覆盖前会先备份）",
                               f"{out} exists; use --force to overwrite it (it is backed up first)")
        run_demo(preset, out, seed=seed, console=console)
    _run(go)


def _print_standings(data: dict) -> None:
    """Each group's standings (and knockout matches) in the terminal
    (:func:`bianpai.addin.terminal.print_standings`)."""
    from bianpai.addin.terminal import print_standings
    print_standings(console, data)


def _add_trf() -> None:
    """``bianpai trf pair|standings``: the TRF-16 exchange with Swiss-Manager and pairing
    engines (:mod:`bianpai.addin.trf_cli`)."""
    from bianpai.addin.trf_cli import trf_app
    app.add_typer(trf_app, name="trf", help="TRF-16 文件：下一轮编排与排名依据 / TRF pairing and tie-breaks")


_add_trf()
__import__("bianpai.addin.pdf_cli", fromlist=["add_to"]).add_to(app)  # bianpai pdf


def main() -> None:
    _fewer_collections()
    app()


def _fewer_collections() -> None:
    """A command is a short process that makes many objects and frees few before it ends (the
    workbook's cells, rows, the event read): Python's cyclic garbage collector, tuned for
    long-running programs, walked every live object a dozen times over the CBSA demo (0.65 s
    of its 5.7 s CPU). The youngest generation is collected after 10,000 new objects instead of
    700, the older ones as before (peak memory measured the same: bench/RESULTS.md, session
    16). Only the command-line process: a front or a test run keeps Python's setting."""
    import gc
    gc.set_threshold(10_000, 10, 10)


if __name__ == "__main__":
    main()
