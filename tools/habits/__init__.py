"""Slow games played by people with habits (issue 24): the measuring tool. See __main__.py."""
