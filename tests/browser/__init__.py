"""Tests of the built site in a real browser (see conftest.py)."""
