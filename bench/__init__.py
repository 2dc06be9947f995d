"""Benchmarks run by ``make bench`` (``python -m bench``); each section is a module with
``run(quick: bool = False) -> list[str]`` returning report lines in markdown."""
