"""Operators' drills, run by hand or by ``make``: not part of the site, not benchmarks.

``python -m ops.chaos`` (``make chaos``): faults while players play and a pack is made, then
the invariants (docs/operations.md). It borrows the benchmarks' scratch-site helpers
(``bench.stack``)."""
