"""Operators' drills, run by hand or by ``make``: not part of the site, not benchmarks.

``python -m ops.chaos`` (``make chaos``): faults while players play and a pack is made, then
the invariants (docs/operations.md). ``ops.stack`` starts the site's stack on this machine
(a scratch database, the site's settings, child processes), for the drill and for the
service benchmarks."""
