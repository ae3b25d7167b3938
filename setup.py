"""The compiled core of ultimate's search (engine/ultimate/csearch.c, bound to Python by
_core.c); everything else is in pyproject.toml. Optional: without a C compiler the package
installs, and the same search runs in Python, many times slower (README, Ultimate)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.ultimate._core",
            ["engine/ultimate/_core.c", "engine/ultimate/csearch.c"],
            depends=["engine/ultimate/csearch.h", "engine/ultimate/csearch_types.h"],
            # The evaluation's arithmetic exactly as in Python: no fused multiply-adds.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
