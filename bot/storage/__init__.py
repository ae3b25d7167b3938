"""Where games, stats and ratings are kept: the `Store` protocol, its errors, its backends."""
