"""The workbook as a store: one small protocol that every front implements.

Commands in ``bianpai.addin`` read everything they need through a :class:`WorkbookPort`, compute,
and then write once. The protocol is deliberately low level (grids of cell values plus a format
description) so that each adapter stays thin:

* :class:`bianpai.workbooks.openpyxl_port.OpenpyxlPort` — a closed .xlsx/.xlsm file (CLI, WPS users);
  writes atomically and keeps a backup.
* ``bianpai.workbooks.xlwings_port.XlwingsPort`` — an ``xw.Book`` (desktop COM, remote/Server, Lite).
  The remote engine does not see its own writes, hence "read all, compute, write once".

Cell values crossing the port are plain Python: ``None`` for empty, ``str``, ``int``, ``float``,
``bool``, ``datetime.datetime`` / ``datetime.date``. ``Decimal`` is allowed on writes (adapters
convert it to float for storage; the number format shows 2 places).
"""

from __future__ import annotations

from typing import Any, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, Field

Grid = list[list[Any]]


class ColumnFormat(BaseModel):
    """Format of one column of a written sheet (0-based ``index`` from the sheet's first column)."""

    index: int
    width: float | None = None
    number_format: str | None = None
    # A dropdown list for the data rows below the header (None: no validation).
    choices: list[str] | None = None
    # Rows below the header that the validation covers (typed sheets leave room to add rows):
    # more than any preset's roster (CBSA 规程 十三（一） 512 players + 十二（三） 16 seeds = 528);
    # the written rows are always covered
    validation_rows: int = 2000
    wrap: bool = False


class PrintSetup(BaseModel):
    """Print setup of a sheet (A4 unless ``paper`` says A3, e.g. a large bracket chart)."""

    landscape: bool = False
    paper: Literal["A4", "A3"] = "A4"
    fit_width: bool = True
    repeat_header: bool = True
    title: str | None = None  # page header (the event's title); the sheet name and page numbers
    # are printed in any case
    gridlines: bool = True  # print the cell grid (off for cards and notices drawn with borders)


class RowFormat(BaseModel):
    """Look of one printed row of a sheet laid out as paper (table cards, slips, notices):
    ``height`` in points, ``font_size`` in points, ``merge`` the row's cells across the used
    width into one, ``border`` a thin box around every cell of the row (a field to write in)."""

    height: float | None = None
    font_size: float | None = None
    bold: bool = False
    merge: bool = False
    align: str | None = None  # "left" | "center" | "right"
    border: bool = False


class ChartSpec(BaseModel):
    """A native Excel line chart drawn from a block of the written values: one series per row
    ``first_row … last_row`` (its name in column ``first_col``, its values in the columns after
    it up to ``last_col``), the categories from the same columns of ``header_row`` (1-based rows
    and columns). ``anchor``: the chart's top-left cell; ``y_reversed`` puts 1 at the top (ranks);
    ``width``/``height`` in cm."""

    title: str
    header_row: int
    first_row: int
    last_row: int
    first_col: int = 1
    last_col: int
    anchor: str
    x_title: str | None = None
    y_title: str | None = None
    y_reversed: bool = False
    y_min: float | None = None
    y_max: float | None = None
    width: float = 24
    height: float = 12


class SheetFormat(BaseModel):
    """How a written sheet looks. ``header_row`` is the 1-based row of the column headers."""

    header_row: int = 1
    title_rows: int = 0
    columns: list[ColumnFormat] = Field(default_factory=list)
    freeze: str | None = "A2"  # top-left cell left unfrozen, e.g. "A2" freezes row 1
    bold_header: bool = True
    header_fill: str | None = "#DDEBF7"
    print_setup: PrintSetup | None = None
    table_name: str | None = None  # make the data an Excel table (ListObject) of that name
    hidden: bool = False
    text_columns: list[int] = Field(default_factory=list)  # columns stored as text ("@")
    page_breaks: list[int] = Field(default_factory=list)  # print a new page after these rows
    # a new printed page whenever the value of one of these columns (0-based) changes from one
    # data row to the next (a page per group / round …), computed by the adapter from the values
    break_columns: list[int] = Field(default_factory=list)
    rows: dict[int, RowFormat] = Field(default_factory=dict)  # 1-based row → its look
    data_row_height: float | None = None  # height (points) of every row below the header
    charts: list[ChartSpec] = Field(default_factory=list)  # native charts over the values


@runtime_checkable
class WorkbookPort(Protocol):
    """What a command needs of a workbook.

    Errors: adapters raise ``bianpai.engines.errors.BianpaiError`` subclasses with a Chinese and
    English message (e.g. a missing sheet is ``InputError`` naming the sheet).

    Optional, beyond the protocol: ``read_property(name) -> str | None`` and
    ``write_property(name, text | None)``, a text the workbook carries outside its sheets (a
    custom document property; the openpyxl adapter has them). Callers ask with ``getattr``: a
    port without them keeps no such text and checks nothing against one.
    """

    @property
    def name(self) -> str:
        """The workbook's file or book name (for messages and the log)."""

    def sheet_names(self) -> list[str]:
        """Names of all sheets, in order (hidden ones included)."""

    def read_values(self, sheet: str) -> Grid:
        """The used range of ``sheet`` from A1 as rows of values (``None`` for empty cells).

        Trailing empty rows and columns may be trimmed. Raises ``InputError`` when ``sheet`` is
        missing.
        """

    def write_sheet(self, sheet: str, values: Grid, fmt: SheetFormat | None = None,
                    *, position: int | None = None) -> None:
        """Replace the whole content of ``sheet`` (created when missing) with ``values`` from A1.

        Strings beginning with ``=``, ``+``, ``-`` or ``@`` are written as text, never as formulas.
        ``position`` is the 0-based sheet index for a newly created sheet (end when None).
        """

    def append_rows(self, sheet: str, rows: Grid, *, start_row: int) -> None:
        """Write ``rows`` into ``sheet`` starting at 1-based ``start_row``, column A, touching no
        other cell (used to add blank entry rows to a typed sheet without rewriting it)."""

    def delete_sheet(self, sheet: str) -> None:
        """Remove ``sheet`` if it exists."""

    def notify(self, message: str) -> None:
        """Show ``message`` to the user (a dialog in Excel, stderr on the command line)."""

    def save(self) -> None:
        """Commit every write made through this port (atomic for files; actions for remote)."""
