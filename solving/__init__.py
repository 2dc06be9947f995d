"""The solver over the web: the Django side of the pure :mod:`solver` engine.

``solver`` is the engine and imports nothing of Django or of the site; this app holds what
the web needs around it: work budgets from settings, storing a typed-in grid in the bank
(:mod:`solving.services`), and the ``/api/v1/solver/`` endpoints (:mod:`solving.api`).
"""
