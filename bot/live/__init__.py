"""This process's live state: the live games and their owners (``owners.Live``)."""
