"""``python -m bench ratings --fit``: it prints the table ratings/prior.py holds."""

from __future__ import annotations

import ast

import pytest

from bench.__main__ import main
from ratings import prior


def test_fit_goes_with_the_ratings_section_alone(capsys):
    with pytest.raises(SystemExit) as stopped:
        main(["--fit", "solve"])
    assert stopped.value.code == 2
    assert "python -m bench ratings --fit" in capsys.readouterr().err


@pytest.mark.slow
def test_fit_prints_the_table_the_prior_holds(capsys):
    assert main(["ratings", "--fit"]) == 0
    printed = capsys.readouterr().out
    assert f"FITTED_FOR = {prior.FITTED_FOR}" in printed
    table = printed.split(" = {", 1)[1].split("\n}\n", 1)[0]
    assert ast.literal_eval("{" + table + "}") == prior.FITTED
    assert "| medium | 3,233 | 1,500 | 10.0 min | 0.50 |" in printed
