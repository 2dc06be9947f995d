"""The rating window of "a puzzle at my level" (pure: the bench's simulation uses it too).

Half-widths tried in turn around the player's rating; None is the whole size. A thin
bank (or a player far from the crowd) widens the window and still gets an answer.
"""

WINDOWS: tuple[int | None, ...] = (100, 200, 400, 800, None)
