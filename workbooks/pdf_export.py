"""Export chosen sheets of a workbook to one PDF through LibreOffice headless.

The organizer's printer path: bianpai writes each printable sheet with its A4 page setup (see
:mod:`bianpai.workbooks.print_setup`); LibreOffice (``soffice --headless --convert-to pdf``) lays
the pages out as its Calc would print them. A temporary copy holding only the chosen sheets is
converted, so the workbook itself is never touched.
"""

from __future__ import annotations

import re
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


NO_CJK_FONT = ("未找到中文字体：LibreOffice 导出的 PDF 将无法显示表中的中文（姓名、组别、名次来源…），"
               "未导出；请先安装中文字体（如 apt-get install fonts-noto-cjk 或 fonts-wqy-zenhei），"
               "或在 Excel/WPS 中“另存为 PDF”",
               "no Chinese font found: the PDF LibreOffice writes would not show the Chinese text "
               "of the sheets (names, groups, rank reasons…); nothing exported. Install one (e.g. "
               "apt-get install fonts-noto-cjk or fonts-wqy-zenhei) or save as PDF from Excel/WPS")

_CJK = re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def cjk_families() -> list[str] | None:
    """The font families fontconfig (which LibreOffice and matplotlib's lookups use on Linux)
    says can show Chinese text (``fc-list :lang=zh family``: every name of every line), or None
    when it cannot tell (no ``fc-list``, as on Windows and macOS, whose systems ship Chinese
    fonts)."""
    fc = shutil.which("fc-list")
    if fc is None:
        return None
    try:
        out = subprocess.run([fc, ":lang=zh", "family"], capture_output=True, timeout=30,
                             check=False).stdout.decode("utf-8", "replace")
    except (OSError, subprocess.TimeoutExpired):
        return None
    return [name.strip() for line in out.splitlines() for name in line.split(",") if name.strip()]


def cjk_font_available() -> bool | None:
    """Whether fontconfig has a font for Chinese text: True or False, or None when it cannot
    tell (:func:`cjk_families`)."""
    fams = cjk_families()
    return None if fams is None else bool(fams)


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
    LibreOffice is missing, a sheet is unknown, nothing is exportable, the sheets hold Chinese
    text and no font for it is installed (:func:`cjk_font_available`: the PDF would show none
    of it), or the conversion fails."""
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
    chinese = any(_CJK.search(n) for n in chosen) or any(
        isinstance(v, str) and _CJK.search(v) for n in chosen
        for row in wb[n].iter_rows(values_only=True) for v in row)
    if chinese and cjk_font_available() is False:
        raise BianpaiError(*NO_CJK_FONT)
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
        except OSError as exc:  # removed or not executable since it was found
            raise BianpaiError(f"LibreOffice（{exe}）无法启动：{exc}",
                               f"LibreOffice ({exe}) could not be started: {exc}") from exc
        pdf = Path(tmp) / "export.pdf"
        if proc.returncode != 0 or not pdf.exists():
            msg = (proc.stderr or proc.stdout or b"").decode("utf-8", "replace").strip()[:300]
            raise BianpaiError(f"LibreOffice 未能导出 PDF：{msg}",
                               f"LibreOffice could not export the PDF: {msg}")
        out = Path(out)
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(pdf, out)
    return chosen
