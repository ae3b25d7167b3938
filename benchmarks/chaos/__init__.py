"""The chaos soak's parts (`soak.py` runs them): the players at people's pace (`players`) and
their tables and history (`tables`), the seeded fault schedule and the hands that inject each
fault (`faults`), the checker that reads the whole history back against the store, the boards
and the logs (`check`), and the figures and the report (`report`); and the Discord half of
`outage.py --discord`, Discord failing a share of its calls under people's play
(`discord_outage`)."""
