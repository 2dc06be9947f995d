"""OpenAPI examples for the rating parts of /api/v1/me/stats/ and /api/v1/leaderboards/."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample

STATS_EXAMPLE = OpenApiExample(
    "A player with a classic 9x9 and a Killer 9x9 rating",
    response_only=True,
    value={
        "standing": {"provisional": False, "waiting_games": 0, "needed_games": 5},
        "played": 14,
        "completed": 12,
        "current_streak": 2,
        "longest_streak": 5,
        "groups": [],
        "ratings": [
            {
                "variant": "classic",
                "size": 9,
                "rating": 1612,
                "deviation": 96,
                "games": 12,
                "provisional": False,
                "start": 1561,
                "history": [
                    {"game": 40, "at": "2026-11-24T18:02:11Z", "rating": 1588, "deviation": 101},
                    {"game": 44, "at": "2026-11-25T07:40:52Z", "rating": 1612, "deviation": 96},
                ],
            },
            {
                "variant": "killer",
                "size": 9,
                "rating": 1466,
                "deviation": 284,
                "games": 1,
                "provisional": True,
                "start": 1500,
                "history": [
                    {"game": 47, "at": "2026-11-26T20:15:03Z", "rating": 1466, "deviation": 284},
                ],
            },
        ],
    },
)

LEADERBOARD_EXAMPLES = [
    OpenApiExample(
        "board=rating&size=9",
        response_only=True,
        value={
            "count": 2,
            "next": None,
            "previous": None,
            "results": [
                {"rank": 1, "username": "ada", "rating": 1904, "deviation": 71, "games": 83},
                {"rank": 2, "username": "grace", "rating": 1733, "deviation": 88, "games": 25},
            ],
        },
    ),
    OpenApiExample(
        "board=rating&variant=killer&size=9",
        response_only=True,
        value={
            "count": 1,
            "next": None,
            "previous": None,
            "results": [
                {"rank": 1, "username": "grace", "rating": 1688, "deviation": 93, "games": 14},
            ],
        },
    ),
    OpenApiExample(
        "board=score&difficulty=hard&size=9",
        response_only=True,
        value={
            "count": 1,
            "next": None,
            "previous": None,
            "results": [
                {
                    "rank": 1,
                    "username": "ada",
                    "best_score": 3400,
                    "best_time_ms": 912000,
                    "completed": 7,
                }
            ],
        },
    ),
]
