from pathlib import Path

import pytest

from tests.shared_state import copy_of, shared_file

DATA = Path(__file__).parent / "data"


def _one_click_command_per_app():
    """typer's CliRunner builds the app's click command afresh on every ``invoke``, and with it
    the per-parameter coercion (a pydantic TypeAdapter each, built lazily once per command
    object): ~12 ms of every CLI call in a test. A click command is static (each invocation
    gets its own context), so the tests reuse one per app."""
    import typer.testing
    build = typer.testing._get_command
    built: dict[int, tuple] = {}

    def get(app):
        hit = built.get(id(app))
        if hit is None or hit[0] is not app:
            hit = built[id(app)] = (app, build(app))
        return hit[1]
    typer.testing._get_command = get


_one_click_command_per_app()


@pytest.fixture
def data_dir() -> Path:
    return DATA


@pytest.fixture(scope="session", autouse=True)
def _new_workbooks_once(tmp_path_factory):
    """tests.helpers.new_event builds each preset's new workbook once per worker and copies
    it with its backups folder (the workbook each test built for itself, the 日志 time of
    ``new`` aside)."""
    from tests import helpers
    helpers.NEW_CACHE = tmp_path_factory.mktemp("new-workbooks")
    yield
    helpers.NEW_CACHE = None


@pytest.fixture(scope="session")
def shared_book(tmp_path_factory):
    """``shared_book(key, build, name="event.xlsx")``: the path of a workbook ``build(path)``
    writes once for the whole run (both xdist workers), read-only — tests that change it take
    :func:`tests.shared_state.copy_of` it first."""
    def get(key, build, name="event.xlsx"):
        return shared_file(tmp_path_factory, key, build, name)
    return get


@pytest.fixture(scope="session")
def golden_teams_book(shared_book):
    """``golden_teams_book(preset)``: the workbook of the bridge team golden flow
    (``tests/golden_teams_build.py``: every stage, rank, awards) run once by the current
    commands, shared by test_teams_golden and test_teams_port."""
    from tests import golden_teams_build as G

    def get(preset):
        return shared_book(f"golden-{preset}", lambda p: G.run_flow(preset, p), f"{preset}.xlsx")
    return get


@pytest.fixture(scope="session")
def golden_pairs_book(shared_book):
    """The workbook of the Shenzhen pairs golden flow (``tests.golden_build.build``) run once by
    the current commands, shared by test_pairs_golden and test_pairs_port."""
    from tests.golden_build import build
    return shared_book("golden-shenzhen", build, "golden.xlsx")


@pytest.fixture(scope="session")
def mid_event_book(shared_book):
    """``mid_event_book(short, draws)``: :func:`tests.bad_workbooks.mid_event` of preset
    ``short`` (default seed), built once per run; copy it (``copy_of``) before changing it."""
    from tests.bad_workbooks import mid_event

    def get(short, draws=2, name="e.xlsx"):
        return shared_book(f"mid-{short}-{draws}", lambda p: mid_event(short, p, draws=draws),
                           name)
    return get


@pytest.fixture(scope="session")
def pairs_drawn_book(shared_book):
    """A Shenzhen workbook (``tests.helpers.new_event``) with ``four_pairs`` typed and drawn by
    the CLI with seed 11, built once per run; copy it (``copy_of``) before changing it."""
    def build(path):
        from typer.testing import CliRunner

        from bianpai.addin.cli import app
        from tests.helpers import four_pairs, new_event
        new_event(path)
        four_pairs(path)
        res = CliRunner().invoke(app, ["draw", str(path), "--seed", "11"])
        assert res.exit_code == 0, res.output
    return shared_book("pairs-4-drawn-11", build, "e.xlsx")


__all__ = ["copy_of"]


#: The files that take longest (CPU seconds on one worker, measured), longest first. With
#: ``--dist loadfile`` each file runs whole on one worker, so the suite ends when the last file
#: a worker picked up ends: the long ones are sent out first and the many short ones fill the
#: gaps (addopts ``--no-loadscope-reorder`` keeps this order instead of xdist's
#: most-tests-first). A file not listed runs after these, in the usual order.
LONGEST_FIRST = [  # seconds in the run of 2026-12-03 12:48 (--durations=0, summed per file)
    "test_bridge_teams_awards.py",  # 37
    "test_cli_flow.py",             # 25: the whole demo through LibreOffice (16)
    "test_fronts_parity.py",        # 25
    "test_core_fujian.py", "test_bridge_teams_cli.py",  # 15 each
    "test_fronts_status.py", "test_core_gouji.py",      # 13 each
    "test_package_save.py", "test_issue12_core.py",     # 11 each
    "test_teams_golden.py",         # 7: builds the bridge team golden flows test_teams_port reads
    "test_pairs_golden.py",         # 3: builds the pairs golden flow test_pairs_port reads
    "test_pairs_port.py", "test_paper.py", "test_core_otog.py",  # 9–10
    "test_bad_input.py", "test_test_helpers.py", "test_draw_record.py",  # 7–8
    "test_fronts_xlsm.py", "test_teams_core.py", "test_cbsa_replacement.py",  # 5–7
    "test_core_row_checks.py", "test_core_cbsa.py", "test_core_bad_workbooks.py",  # 4–5
    "test_bracket_playoffs.py", "test_user_walkthrough.py", "test_cards_playoff.py",  # 3–4
    "test_settings_read.py", "test_startup.py", "test_late_entries.py",  # ~3
    "test_pairs_core_flow.py",
]


def pytest_collection_modifyitems(session, config, items):
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def key(item):
        name = item.nodeid.split("::", 1)[0].rsplit("/", 1)[-1]
        return rank.get(name, len(rank))
    items.sort(key=key)  # stable: the tests of a file keep their order
