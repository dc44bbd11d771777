import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os

# The report and the workbook's Summary give the round's hit frequency and max win when the win distribution
# takes under 2 s (exact.budget); every report of a set whose distribution is slow would then wait 2 s. The
# tests run with the budget off; tests/test_par_rows.py sets it where it tests it.
os.environ.setdefault("RTP_ROUND_BUDGET", "0")
