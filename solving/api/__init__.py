"""The solver over HTTP: ``/api/v1/solver/analyse/`` and ``/api/v1/solver/hint/``.

The orchestration (parse, check, count, grade, explain, within a work budget) lives in
:mod:`solving.services`; the views only validate the JSON and call it.
"""
