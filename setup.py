"""The compiled core of ultimate's search (engine/ultimate/_core.c); everything else is in
pyproject.toml. Optional: without a C compiler the package installs, and the same search runs
in Python, about fifty times slower (README, Ultimate)."""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.ultimate._core",
            ["engine/ultimate/_core.c"],
            # The evaluation's arithmetic exactly as in Python: no fused multiply-adds.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
