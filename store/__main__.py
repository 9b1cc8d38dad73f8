"""`python -m store backup|restore|prune`: see store/cli.py."""

import sys

from .cli import main

sys.exit(main())
