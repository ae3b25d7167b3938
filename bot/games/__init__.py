"""The games themselves: the stored record, its rules, reviews, ratings and stats values.

Pure and synchronous: nothing here imports discord or asyncio or does I/O.
"""
