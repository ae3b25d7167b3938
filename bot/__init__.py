"""The Discord layer of the tic-tac-toe bot."""
