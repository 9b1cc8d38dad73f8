"""Each title's Discord side (`<title>/ui.py`), and what they share (contract.py)."""
