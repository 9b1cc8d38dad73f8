"""How a click comes in: one entry for every component and form (router.py), who may click what
from where (access.py), and the house buttons' handlers that need the runtime (undo.py)."""
