import sys

from nextedit.cli import main

sys.exit(main())
