"""Game rules as plug-ins: one module per mechanic, one registry, one ``supports()``.

Each mechanic of a game (ways or payline pays, scatter triggers and pays, KEY/FISH collect, WILD
substitution and multipliers, the free-spin ladder and retrigger, bet modes and buys, respins,
prize wheels, the gamble, the win cap) is a :class:`Rule` subclass in its own module; the registry
(:data:`RULES`) lists them, :func:`rules_of` finds those a game uses, and :func:`supports` /
:func:`require` are the one place that says which analysis runs on which game.  See
README "Adding a mechanic".

>>> import exact.rules as rules
>>> from strips.loader import load_math_set
>>> rules.supports(load_math_set("wheel_game").mode("fortune_bet"), "export").reason
'respin'
"""
from __future__ import annotations

from exact.rules.base import ANALYSES, Cost, PaysWords, Refusal, Rule, ViewSection, one_spin_round, round_split, seconds_of
from exact.rules.registry import (at_place, component_rows, cost_refusal, costs, phase_reading, placed, report_json_keys,
                                  trigger_name)
from exact.rules.base import VIEW_PLACES, published_cells
from exact.rules.estimates import simulation_cost
from exact.rules.registry import (RULES, Support, beyond_count_tables, factorisation, literal_wins, pays_words, require,
                                  round_rules, round_total_steps, rules_of, spin_views, support_table, supports)
from exact.rules.scatter import (by_count, count_array, extra_counts, feature_multiplier, feature_multiplier_table,
                                 other_scatters, paying_scatters, scatter_codes, scatter_counts, scatter_pay,
                                 symbol_scatter_pay, trigger_count, trigger_moments, trigger_reel_shown,
                                 trigger_scatter_pay, scatter_view)
from exact.rules.free_spins import chain_count, initial_spins, retrigger_spins, retrigger_step, retrigger_table
from exact.rules.paylines import (LineAutomaton, LineStep, LineWin, line_automaton, line_pays, line_step, payline_cells,
                                  payline_count)
from exact.rules.wild import (cell_multipliers, combination_ways, combination_wilds, default_wild_values, drawn_wilds,
                              draws_multiplier, has_wild_multipliers, max_wild_multiplier, multiplier_text, paying_wilds,
                              wild_draws)
from exact.rules.ways import WayWin, ways_pays
# per-reel terms the factorised engine multiplies (exact.engine)
from exact.rules.collect import fish_moments_scaled, fish_scale
from exact.rules.terms import GROUP_LIMIT, INT64_SAFE, reel_groups, table_bytes
from exact.rules.wild import (drawn_tables, multiplier_scale, refuse_ways_rules, substitute_codes,
                              wild_multiplier_tables, wilds_with_pays)
from exact.rules.respin import starts_feature
from exact.rules.modes import mode_figures
from exact.rules.registry import (SHEET_RULES, award_odds_refusal, pre_feature_rules, published_rule_facts, reads_windows,
                                  reel_terms)
from exact.rules.base import ReelTerms
from exact.rules.respin import pre_feature_refusal
from exact.rules.wild import window_ways
from exact.rules.collect import window_fish
from exact.rules.gamble import GambleStep, gamble_step, gambled_second_bound
from exact.rules.respin import RespinStep
from exact.rules.wheels import WheelSteps
from exact.rules.base import SIMULATION_STAGES, SimulatedSection
from exact.rules.wheels import WheelStep
# literal readings the analyses share (they reach a rule module only through this package)
from exact.rules.anywhere import award_label, count_award, count_pay
from exact.rules.cascade import cascade_of, fall_multiplier, multiplier_of, play_falls
from exact.rules.multiplier_symbol import combined_value, value_law
from exact.rules.spin_chance import SpinChance, spin_chance_outcomes
from exact.rules.gamble_wheel import GambleWheel, GambleWheelSection, gamble_wheel_outcomes
from exact.rules.frames import WINDOW_STARTS as FRAME_WINDOW_STARTS
from exact.rules.frames import Frames, block_places, block_starts, bowls_win, frame_awards, frames_spin, start_levels
from exact.rules.hold_and_win import HoldAndWin, coin_cells, feature_win, play_feature, respin_step, value_moments
from exact.rules.line_reading import fill_jackpot, line_combinations, line_reading_of, line_scan_of, line_view, reading_step
from exact.rules.screen_fill import fill_terms
from exact.rules.drawn_multiplier import with_drawn_multiplier
from exact.rules.skip_wild_line import level_line_values, unmultiplied
from exact.rules.expanding_symbol import counted_pays, feature_draws, spin_draw
from exact.rules.line_awards import award_of, awarded, phase_awards, spins_tables
from exact.rules.grid import (MAX_EVALUATIONS, Cascade, GridConfig, drawer, evaluate, find_wins, grid_config,
                               grid_config_of, initial_drop, middle_cell, play_cascade, refilled, spiral)
from exact.rules.grid_features import (GridFeatures, RandomChooser, apply_feature, feature_drop, features_of,
                                        start_distribution)
from exact.rules.grid_free_games import GAMES as FREE_SPIN_GAMES
from exact.rules.grid_free_games import FreeSpinGames, free_game_drop, free_games_of, free_start, lava_drop, lava_step
from exact.rules.grid_features import IntegerChooser, integer_weights, outcomes
from exact.rules.grid_free_games import FeaturedRound, play_featured_round
from exact.rules.win_cap import WinCap

__all__ = ["ANALYSES", "round_split", "component_rows", "at_place", "placed", "report_json_keys", "VIEW_PLACES", "published_cells", "PaysWords", "Refusal", "Rule", "RULES", "Support", "one_spin_round", "require", "Cost",
           "costs", "cost_refusal", "seconds_of", "simulation_cost", "GROUP_LIMIT", "reel_groups", "table_bytes",
           "round_total_steps", "rules_of",
           "support_table",
           "multiplier_text", "starts_feature", "spin_views", "pays_words",
           "literal_wins", "scatter_counts", "cell_multipliers", "combination_ways", "default_wild_values",
           "wild_draws", "WayWin", "ways_pays", "LineWin", "line_pays", "payline_cells", "fish_moments_scaled",
           "fish_scale", "INT64_SAFE", "drawn_tables", "multiplier_scale", "wild_multiplier_tables",
           "substitute_codes", "wilds_with_pays", "count_array", "extra_counts", "paying_scatters",
           "trigger_reel_shown", "factorisation", "trigger_count", "trigger_moments", "refuse_ways_rules",
           "retrigger_step", "mode_figures",
           "supports", "by_count", "scatter_pay", "count_pay", "count_award", "award_label", "cascade_of", "fall_multiplier", "multiplier_of",
           "play_falls", "combined_value", "value_law", "MAX_EVALUATIONS", "Cascade", "GridConfig", "drawer", "evaluate",
           "find_wins", "grid_config", "grid_config_of", "initial_drop", "middle_cell", "play_cascade", "refilled", "spiral",
           "beyond_count_tables", "pre_feature_rules", "pre_feature_refusal", "round_rules", "feature_multiplier",
           "other_scatters", "scatter_codes", "symbol_scatter_pay", "trigger_scatter_pay", "initial_spins",
           "retrigger_spins", "combination_wilds", "has_wild_multipliers", "chain_count", "retrigger_table",
           "payline_count", "feature_multiplier_table", "drawn_wilds", "draws_multiplier", "max_wild_multiplier",
           "paying_wilds", "LineAutomaton", "LineStep", "line_automaton", "line_step", "HoldAndWin", "coin_cells",
           "feature_win", "play_feature", "respin_step", "value_moments", "SpinChance", "spin_chance_outcomes",
           "GambleWheel", "GambleWheelSection", "gamble_wheel_outcomes", "GridFeatures", "RandomChooser",
           "apply_feature", "feature_drop", "features_of", "start_distribution", "FreeSpinGames", "free_game_drop",
           "free_games_of", "free_start", "lava_drop", "lava_step", "outcomes", "IntegerChooser", "integer_weights", "FeaturedRound",
           "play_featured_round", "WinCap", "FREE_SPIN_GAMES", "window_ways",
           "window_fish", "line_reading_of", "line_scan_of", "line_view", "line_combinations", "reading_step", "fill_terms", "fill_jackpot", "with_drawn_multiplier",
           "level_line_values", "unmultiplied", "GambleStep", "gamble_step", "WheelStep",
           "gambled_second_bound", "reads_windows", "award_odds_refusal", "SHEET_RULES", "RespinStep", "WheelSteps", "SIMULATION_STAGES", "SimulatedSection", "scatter_view", "counted_pays", "feature_draws", "spin_draw", "award_of", "awarded", "spins_tables", "trigger_name", "phase_reading", "phase_awards", "published_rule_facts", "reel_terms", "ReelTerms"]
