"""filthyrich: its Discord side (the panel, the table lines, narration)."""
