"""``python -m a2a_docgen``."""

import sys

from a2a_docgen.cli import main

sys.exit(main())
