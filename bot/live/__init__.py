"""This process's memory of live games: by id and channel, reservations, locks, the clock."""
