"""The project's development kit: what the tests, the benchmarks and the scripts share.

Neither tests/ nor benchmarks/ imports the other; both, and scripts/, import this package. It is
not part of the installed bot (``[tool.setuptools.packages.find]`` lists ``engine`` and ``bot``
only) and is imported from the checkout's root. What it holds is listed in ``devkit/README.md``.
"""
