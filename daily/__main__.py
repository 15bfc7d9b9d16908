"""``python -m daily`` runs the CLI."""

import sys

from daily.cli import main

sys.exit(main())
