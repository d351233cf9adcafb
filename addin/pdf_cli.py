"""``bianpai pdf``: the final standings, brackets and awards of a workbook as one PDF, through
LibreOffice headless (:func:`bianpai.workbooks.pdf_export.export_pdf`)."""

from __future__ import annotations

from pathlib import Path
from typing import Optional

import typer


def pdf(workbook: Path,
        out: Optional[Path] = typer.Option(None, "-o", "--out", help="PDF 文件（默认与工作簿同名）"),
        sheets: Optional[str] = typer.Option(
            None, "--sheets", help="要导出的工作表，逗号分隔（默认：总排名、排名、签表图、奖励、"
                                   "领奖签收表、证书、排名走势）")):
    """导出 PDF：总排名、签表图、奖励等一次导出（需 LibreOffice）/ export the final pages as PDF."""
    from bianpai.addin.cli import _run, console
    from bianpai.workbooks.pdf_export import export_pdf

    def go():
        target = out or workbook.with_suffix(".pdf")
        chosen = [s.strip() for s in sheets.replace("，", ",").split(",") if s.strip()] \
            if sheets else None
        with console.status("正在用 LibreOffice 导出 PDF…"):
            done = export_pdf(workbook, target, chosen)
        console.print(f"[green]✓[/] 已导出 {len(done)} 张表（{'、'.join(done)}）→ {target}")
        console.print(f"  [dim]exported {len(done)} sheets → {target}[/]")
    _run(go)


def add_to(app: typer.Typer) -> None:
    """Register ``pdf`` on the ``bianpai`` command line."""
    app.command(name="pdf")(pdf)
