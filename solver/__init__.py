"""A pure-Python Sudoku engine: no Django, no I/O; randomness comes in as a seed."""

from solver.grid import (
    MAX_SIZE,
    SYMBOLS,
    VALID_SIZES,
    BudgetExceeded,
    Grid,
    ParseError,
    Shape,
    Tables,
    cell_name,
    default_shape,
    format_line,
    format_pretty,
    parse,
    parse_many,
    tables,
    unit_name,
)

__all__ = [
    "MAX_SIZE",
    "SYMBOLS",
    "VALID_SIZES",
    "BudgetExceeded",
    "Grid",
    "ParseError",
    "Shape",
    "Tables",
    "cell_name",
    "default_shape",
    "format_line",
    "format_pretty",
    "parse",
    "parse_many",
    "tables",
    "unit_name",
]
