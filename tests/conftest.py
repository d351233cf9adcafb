from pathlib import Path

import pytest

from tests.shared_state import copy_of, shared_file

DATA = Path(__file__).parent / "data"


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
