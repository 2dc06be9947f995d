"""The solver over HTTP: ``/api/v1/solver/analyse/`` and ``/api/v1/solver/hint/``.

This sub-package is the Django-facing adapter of the pure :mod:`solver` package. The engine
modules never import it, and ``import solver`` does not load it (nor Django). The
orchestration (parse, check, count, grade, explain, within a work budget) lives in
:mod:`solver.api.services`; the views only validate the JSON and call it.
"""
