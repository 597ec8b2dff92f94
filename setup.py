"""Package list: setuptools' discovery cannot see earmark.resources, which lives in resources/ (see
pyproject's package-dir). Everything else is declared in pyproject.toml."""

from setuptools import find_packages, setup

setup(packages=[*find_packages("app"), "earmark.resources"])
