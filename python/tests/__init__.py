"""Tests of the PyTorch front end (unittest; run from the repository root with
/usr/bin/python3 -m unittest discover -s python/tests -t python)."""
