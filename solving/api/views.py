"""Thin views over :mod:`solving.services`: open to guests, throttled per client."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from play.disclosure import solver_solution_check
from play.steps import guest_key_get
from puzzles.models import Puzzle
from sudokusite.schema import error_responses

from .. import services
from ..bench import setter_check
from .serializers import (
    SetterCheckInputSerializer,
    SetterCheckSerializer,
    SolverAnalyseInputSerializer,
    SolverAnalysisSerializer,
    SolverHintInputSerializer,
    SolverHintSerializer,
)
from .throttles import AnalyseThrottle, HintThrottle

_WITHHELD = (
    " A copy of a bank puzzle (recognised by its canonical key, so relabelled or rotated "
    "too) that is in play is a 403 `puzzle_in_play`: for a caller with an unfinished game "
    "of it or a given-up game whose solution is still held, and, while it is today's daily "
    "puzzle or a leaderboard puzzle in play this week, for anyone who has not completed it."
)


def _bank_check(request: Request) -> services.BankCheck:
    """Refuse the solution of a bank puzzle in play to this caller (play.disclosure)."""

    def check(puzzle: Puzzle | None) -> None:
        guest_key = "" if request.user.is_authenticated else guest_key_get(request=request)
        solver_solution_check(puzzle=puzzle, user=request.user, guest_key=guest_key)

    return check


_EXAMPLE_GRID = "53..7....6..195....98....6.8...6...34..8.3..17...2...6.6....28....419..5....8..79"


class AnalyseView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnalyseThrottle]

    @extend_schema(
        summary="Analyse a grid: conflicts, solution count, solution, grade and logical steps",
        description=(
            "Parses the grid (any text format the solver reads), lists clashing givens, "
            "counts solutions (0, 1, or 2 meaning two or more) and, when there is exactly "
            "one, gives the solution, the grade and the logic engine's steps (at most "
            "`step_limit`; `steps_truncated` says when there were more). The work is "
            "bounded: a grid that uses up the budget is a 422 `too_hard`. Open to guests; "
            "throttled per client." + _WITHHELD
        ),
        request=SolverAnalyseInputSerializer,
        responses={
            200: SolverAnalysisSerializer,
            # too_hard says more: the engine ("search" or "logic") and its budget.
            **error_responses({400: ["invalid_grid"], 403: ["puzzle_in_play"], 422: ["too_hard"]}),
        },
        examples=[OpenApiExample("A 9x9 puzzle", value={"grid": _EXAMPLE_GRID}, request_only=True)],
        tags=["solver"],
    )
    def post(self, request: Request) -> Response:
        data = SolverAnalyseInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if "fpuzzles" in data.validated_data:
            from ..variants import fpuzzles_analyse

            found = fpuzzles_analyse(
                data=data.validated_data["fpuzzles"], bank_check=_bank_check(request)
            )
            return Response(SolverAnalysisSerializer(found).data)
        analysis = services.puzzle_analyse(
            grid_text=data.validated_data["grid"],
            box_rows=data.validated_data.get("box_rows"),
            box_cols=data.validated_data.get("box_cols"),
            bank_check=_bank_check(request),
        )
        return Response(SolverAnalysisSerializer(analysis).data)


class HintView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [HintThrottle]

    @extend_schema(
        summary="The next logical step from a position",
        description=(
            "The same engine as the game's hints. A wrong entry or note comes first, as an "
            "`incorrect_entry` / `incorrect_note` step naming the cells. `step` is null and "
            "`solved` true when the board is complete. A puzzle with no solution or several "
            "is a 400 (`no_solution`, `multiple_solutions`); one that uses up the work "
            "budget is a 422 `too_hard`." + _WITHHELD
        ),
        request=SolverHintInputSerializer,
        responses={
            200: SolverHintSerializer,
            **error_responses(
                {
                    400: ["invalid_grid", "no_solution", "multiple_solutions"],
                    403: ["puzzle_in_play"],
                    422: ["too_hard"],
                }
            ),
        },
        tags=["solver"],
    )
    def post(self, request: Request) -> Response:
        data = SolverHintInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hint = services.position_hint(
            grid_text=data.validated_data["grid"],
            entries_text=data.validated_data.get("entries"),
            notes=data.validated_data.get("notes"),
            box_rows=data.validated_data.get("box_rows"),
            box_cols=data.validated_data.get("box_cols"),
            bank_check=_bank_check(request),
        )
        return Response(SolverHintSerializer(hint).data)


class SetterCheckView(APIView):
    permission_classes = [AllowAny]
    throttle_classes = [AnalyseThrottle]

    @extend_schema(
        summary="The setter's bench: count, grade and the logic's stall, without the solution",
        description=(
            "For a puzzle being set, from `grid`, `fpuzzles` (any constraints the solver "
            "reads), or both (the f-puzzles rules with the givens of `grid`): the solution "
            "count (0, 1, or 2 meaning two or more, and then `difference`, the cells where "
            "two solutions differ with each one's values there), and for a unique puzzle "
            "its `level` and `hardest` technique (`master` when the logic stalls) and "
            "`stall`, the board where the logic stops. The solution is in the answer only "
            "with `solve: true`. Bounded by the analysis's work budget (422 `too_hard`) and "
            "counted against its rate." + _WITHHELD
        ),
        request=SetterCheckInputSerializer,
        responses={
            200: SetterCheckSerializer,
            **error_responses({400: ["invalid_grid"], 403: ["puzzle_in_play"], 422: ["too_hard"]}),
        },
        tags=["solver"],
    )
    def post(self, request: Request) -> Response:
        data = SetterCheckInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        found = setter_check(
            grid_text=data.validated_data.get("grid"),
            fpuzzles=data.validated_data.get("fpuzzles"),
            box_rows=data.validated_data.get("box_rows"),
            box_cols=data.validated_data.get("box_cols"),
            solve=data.validated_data["solve"],
            bank_check=_bank_check(request),
        )
        return Response(SetterCheckSerializer(found).data)
