"""Deprecated alias of :mod:`exact.bet_modes` (bet modes, buys, respins and prize wheels), kept because
earlier READMEs showed ``exact.bonus.pre_feature_split``; import from :mod:`exact.bet_modes`.

>>> import warnings
>>> with warnings.catch_warnings(record=True):
...     from exact.bonus import pre_feature_split
>>> pre_feature_split.__module__
'exact.bet_modes'
"""
from __future__ import annotations

import warnings

from exact.bet_modes import (BUY_RTP_TOLERANCE, BuyResult, ModeResult, analyse_buys, analyse_mode, analyse_modes,
                             pre_feature_split, starts_feature)

__all__ = ["BUY_RTP_TOLERANCE", "BuyResult", "ModeResult", "analyse_buys", "analyse_mode", "analyse_modes",
           "pre_feature_split", "starts_feature"]

warnings.warn("exact.bonus is deprecated: import from exact.bet_modes", DeprecationWarning, stacklevel=2)
