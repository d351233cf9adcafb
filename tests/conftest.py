from pathlib import Path

import pytest

from tests.shared_state import copy_of, shared_file

DATA = Path(__file__).parent / "data"


@pytest.fixture
def data_dir() -> Path:
    return DATA


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


__all__ = ["copy_of"]
