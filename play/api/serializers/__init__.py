"""Game API serializers: input and output kept apart; the solution only once a game is over."""
