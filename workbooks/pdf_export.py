"""Export chosen sheets of a workbook to one PDF through LibreOffice headless.

The organizer's printer path: bianpai writes each printable sheet with its A4 page setup (see
:mod:`bianpai.workbooks.print_setup`); LibreOffice (``soffice --headless --convert-to pdf``) lays
the pages out as its Calc would print them. A temporary copy holding only the chosen sheets is
converted, so the workbook itself is never touched.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

from bianpai.engines.errors import BianpaiError

#: the sheets `bianpai pdf` exports by default, in this order when present (Chinese or English
#: names): the final ranking, the standings, the brackets, the awards and the rank chart
FINAL_SHEETS = (("总排名", "Final ranking"), ("排名", "Standings"), ("签表图", "Bracket chart"),
                ("淘汰赛", "Knockout"), ("奖励", "Awards"), ("领奖签收表", "Prize receipts"),
                ("证书", "Certificates"), ("荣誉证书", "Certificate pages"),
                ("排名走势", "Rank progression"))

NO_SOFFICE = ("未找到 LibreOffice（soffice）：导出 PDF 需要安装 LibreOffice，"
              "例如 apt-get install libreoffice-calc-nogui，或在 Excel/WPS 中“另存为 PDF”",
              "LibreOffice (soffice) not found: install it (e.g. apt-get install "
              "libreoffice-calc-nogui) or save as PDF from Excel/WPS")


def soffice() -> str | None:
    """Path of the LibreOffice executable, or None."""
    return shutil.which("soffice") or shutil.which("libreoffice")


def default_sheets(names: list[str]) -> list[str]:
    """The sheets of :data:`FINAL_SHEETS` present among ``names`` (also ``排名-阶段`` per-stage
    standings of team events), in the workbook's order."""
    want = {n for pair in FINAL_SHEETS for n in pair}
    return [n for n in names if n in want or n.startswith(("排名-", "Standings-"))]


def export_pdf(workbook: Path, out: Path, sheets: list[str] | None = None,
               *, timeout: float = 180) -> list[str]:
    """Write ``sheets`` of ``workbook`` (default :func:`default_sheets`) as one PDF at ``out``;
    returns the sheet names exported. Raises ``BianpaiError`` (Chinese and English) when
    LibreOffice is missing, a sheet is unknown, nothing is exportable, or the conversion fails."""
    import openpyxl

    exe = soffice()
    if exe is None:
        raise BianpaiError(*NO_SOFFICE)
    workbook = Path(workbook)
    wb = openpyxl.load_workbook(workbook, keep_vba=False)
    names = wb.sheetnames
    chosen = default_sheets(names) if not sheets else list(sheets)
    unknown = [s for s in chosen if s not in names]
    if unknown:
        raise BianpaiError(f"工作簿中没有工作表：{'、'.join(unknown)}（现有：{'、'.join(names)}）",
                           f"no such sheet: {', '.join(unknown)}")
    if not chosen:
        raise BianpaiError("没有可导出的表：请先“计算排名”（和“奖励分配”）再导出 PDF",
                           "nothing to export yet: run rank (and awards) first")
    for n in names:
        if n not in chosen:
            wb.remove(wb[n])
        else:
            wb[n].sheet_state = "visible"
    wb._sheets.sort(key=lambda ws: chosen.index(ws.title))
    wb.active = 0
    with tempfile.TemporaryDirectory(prefix="bianpai-pdf-") as tmp:
        src = Path(tmp) / "export.xlsx"
        wb.save(src)
        profile = Path(tmp) / "profile"
        cmd = [exe, f"-env:UserInstallation=file://{profile}", "--headless", "--norestore",
               "--convert-to", "pdf", "--outdir", tmp, str(src)]
        try:
            proc = subprocess.run(cmd, capture_output=True, timeout=timeout, check=False)
        except subprocess.TimeoutExpired as exc:
            raise BianpaiError(f"LibreOffice 导出 PDF 超时（{timeout:.0f} 秒）",
                               f"LibreOffice timed out after {timeout:.0f} s") from exc
        pdf = Path(tmp) / "export.pdf"
        if proc.returncode != 0 or not pdf.exists():
            msg = (proc.stderr or proc.stdout or b"").decode("utf-8", "replace").strip()[:300]
            raise BianpaiError(f"LibreOffice 未能导出 PDF：{msg}",
                               f"LibreOffice could not export the PDF: {msg}")
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pdf, out)
    return chosen
