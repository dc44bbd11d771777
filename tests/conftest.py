import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import os

# The report and the workbook's Summary give the round's hit frequency and max win when the win distribution
# takes under 2 s (exact.budget); every report of a set whose distribution is slow would then wait 2 s. The
# tests run with the budget off; tests/test_par_rows.py sets it where it tests it.
os.environ.setdefault("RTP_ROUND_BUDGET", "0")

# Hypothesis profiles of every test module, loaded before any is imported (a settings object made at import
# time inherits the profile loaded then): HYPOTHESIS_PROFILE=thorough for hundreds of sets.
from hypothesis import HealthCheck, settings

# the default run (CI) draws the same examples every time (derandomize): a test passes or fails on the
# code, never on the day's seed; HYPOTHESIS_PROFILE=thorough explores with fresh random examples
settings.register_profile("default", max_examples=25, deadline=None, derandomize=True, database=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("thorough", max_examples=400, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))
