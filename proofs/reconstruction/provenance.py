"""Text of ``strips/rules_page/PROVENANCE.md``, generated from a reconstruction.

Every number in the file is computed here from the build (exact arithmetic),
so the provenance can never disagree with the strips it describes.

Source: what a reconstruction's provenance file must show.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement, permutations
from math import prod

from proofs.reconstruction import derive
from proofs.reconstruction.rules_page import (
    BASE,
    BONUS,
    KEY_2PLUS,
    REELS,
    STRIP_LENGTH,
    TOTALS,
    TRIGGER_FREQUENCY,
    TRIGGER_PROBABILITY,
    rounds_to,
)
from exact.formatting import decimal_text


def _fs_section() -> list[str]:
    found, searched = derive.fs_count_solutions()
    out = ["### FS counts per base reel (section 10)", "",
           "A reel with f FS symbols shows FS on 4f of its 100 stops (section 3 spacing: one special per "
           "reel window), so p_r = 4 f_r / 100 = f_r / 25 and P(exactly n FS) is the elementary symmetric "
           "sum over n-reel subsets of prod p_r x prod (1 - p_r) of the other reels "
           "(`proofs.reconstruction.derive.count_distribution`, exact integers over 25^5 = 9,765,625).", "",
           f"Searched: every multiset 0 <= f_1 <= ... <= f_5 <= {derive.MAX_SPECIALS} "
           f"({searched:,} multisets; the probabilities do not depend on the order).  "
           f"Kept: those whose P(3), P(4), P(5) round (6 decimals, halves up) to the printed "
           f"{', '.join(p.text for p in TRIGGER_PROBABILITY.values())} and whose 1/P round to "
           f"{', '.join(p.text for p in TRIGGER_FREQUENCY.values())}.", "",
           f"Result: {len(found)} multiset(s).", "",
           "| FS counts (multiset) | n | P(n FS), exact | P, 6 decimals | printed | 1 in | printed |",
           "|---|---|---|---|---|---|---|"]
    for chk in found:
        for n in TRIGGER_PROBABILITY:
            p = chk.prob[n]
            out.append(f"| {chk.counts} | {n} | {p.numerator}/{p.denominator} | {decimal_text(p, 6)} | "
                       f"{TRIGGER_PROBABILITY[n].text} | {decimal_text(1 / p, 2)} -> {decimal_text(1 / p, 0)} | "
                       f"{TRIGGER_FREQUENCY[n].text} |")
    if found:
        c = found[0].counts
        num = derive.count_numerators(c)
        top = max(TRIGGER_PROBABILITY)
        same_top = [m for m in combinations_with_replacement(range(derive.MAX_SPECIALS + 1), len(c))
                    if derive.count_numerators(m)[top] == num[top]]
        out += ["", f"Arithmetic for {c}: with a_r = 4 f_r and b_r = 100 - 4 f_r, "
                f"P(5) = prod a_r / 100^5 = {num[5]:,} / 10^10; P(4) = sum_r b_r prod_(s != r) a_s / 100^5 = "
                f"{num[4]:,} / 10^10; P(3) = {num[3]:,} / 10^10.", "",
                f"P(5) = prod f_r / 25^5 rounds to 1 in {TRIGGER_FREQUENCY[top].text} only for prod f_r = "
                f"{prod(c)}.  The multisets with that product and which of them meet every figure:", "",
                "| multiset | P(3) | P(4) | passes |", "|---|---|---|---|"]
        for m in same_top:
            chk = derive.fs_check(m)
            out.append(f"| {m} | {decimal_text(chk.prob[3], 6)} | {decimal_text(chk.prob[4], 6)} | "
                       f"{'yes' if chk.passes else 'no'} |")
    return out


def _key_section() -> list[str]:
    out = ["### KEY counts per reel (sections 11 and 13)", "",
           "KEY is on reels 1-3 with the page's total (3 base, 5 bonus); P(2 or more KEY) is the sum of "
           "P(n) for n >= 2 with p_r = k_r / 25.  Every ordered vector with the right total:", ""]
    for s in (BASE, BONUS):
        total = TOTALS[s]["KEY"]
        printed = KEY_2PLUS[s]
        out += [f"{s} strips ({total} KEY, printed {printed.text}):", "",
                "| KEY on reels 1, 2, 3 | P(2+ KEY), exact | per cent, 2 decimals | rounds to the page |",
                "|---|---|---|---|"]
        for k1 in range(total + 1):
            for k2 in range(total + 1 - k1):
                v = (k1, k2, total - k1 - k2)
                p = derive.key_2plus(v)
                out.append(f"| {v} | {p.numerator}/{p.denominator} | {decimal_text(p * 100, 2)}% | "
                           f"{'yes' if rounds_to(p, printed) else 'no'} |")
        out.append("")
    return out


def _likelihood_table(name: str, candidates, seen, shown) -> list[str]:
    rows = ["| candidate (reels 1..) | likelihood of the published windows |", "|---|---|"]
    for c in sorted({tuple(x) for x in candidates}):
        if any(a < b for a, b in zip(c, seen)):
            rows.append(f"| {c} | excluded (fewer than the windows show) |")
            continue
        like = 1
        for a, b, n in zip(c, seen, shown):
            like *= derive.window_likelihood(a, b, n)
        rows.append(f"| {c} | {float(like):.6g} |")
    return [f"{name}: copies seen {tuple(seen)} in {tuple(shown)} published positions per reel.", ""] + rows + [""]


def provenance_text(b) -> str:
    """The whole PROVENANCE.md of a :class:`proofs.reconstruction.reconstruct.Build`, as text."""
    lines = ["# Provenance of the `rules_page` reel strips", "",
             "The rules page names its reel strips but does not print them.  These strips are a "
             "**reconstruction**: every position the page shows is kept exactly, every published fact holds "
             "(`rtp check` proves each one on these files), and every other position was chosen by the fixed "
             "rules below.  This file is generated by the rebuild; do not edit it by hand.", "",
             "Rebuild (byte-identical):", "",
             "```",
             f"python -m exact.cli.reconstruct --out DIR --seed {b.seed} --target-rtp "
             f"{'none' if b.target is None else decimal_text(b.target, 4)}",
             "```", "",
             "## What the page publishes (facts) and what was chosen", "",
             "| item | status | source |", "|---|---|---|",
             "| 5 reels x 100 stops, both strip sets | fact | section 3 |",
             "| the 9 example windows at their stops | fact (kept exactly) | examples 1-7 base, 8-9 bonus |",
             "| reels of each special symbol; no WILD, no FS on the bonus strips | fact | sections 4, 8, 11, 13 |",
             "| >= 3 pay symbols between specials; <= 3 AUS in sequence (cyclic) | fact | section 3 |",
             "| 24 FISH and 3 KEY (base), 70 FISH and 5 KEY (bonus) | fact | section 11 |",
             "| FS probabilities and frequencies | fact | section 10 |",
             "| P(2+ KEY) 0.47% base, 1.23% free spin | fact | section 13 |",
             "| FS and KEY counts per reel | derived exactly from the facts (R1), reel by rule R2 | below |",
             "| FISH and WILD counts per reel | chosen (R3-R6) | below |",
             "| positions of unseen specials | chosen (R7) | below |",
             "| pay symbols at unseen positions | chosen (R8, R9) | below |",
             "| theoretical RTP 96.00% +/- 0.005 pp | **assumption** (the page publishes no RTP) | the reconstruction's RTP target |",
             "| FISH values are credits (art values); the page contradicts itself: its section 7 table "
             "prints a tenth of them under 'credits', its examples collect the art values as credits | "
             "reading of the page (the examples win) | game.toml, examples 5, 6, 8, 9 |",
             "",
             "## Derivations (exact arithmetic)", ""]
    lines += _fs_section() + [""] + _key_section()
    lines += ["## Rules for the choices the facts leave open", "",
              "- **R1** FS and KEY counts are the ones the published probabilities force (above).",
              "- **R2** Where a forced count can sit on several reels, take the ordering that makes the "
              "published windows most likely: the product over reels of the hypergeometric probability of "
              "seeing the published copies in the published positions (spacing ignored); ties go to the "
              "lexicographically first ordering.",
              "- **R3** Each special symbol is on every reel the page lists for it (at least 1 copy), and on "
              "each reel at least as often as the published windows show it.",
              "- **R4** FISH3 and FISH4 take the fewest copies R3 allows.  Reason: one FISH4 on base reel 5 "
              "alone adds 3 KEY reels x P(KEY shown) 1/25 x P(FISH4 shown) 4/100 x E[value] 666.5 credits "
              f"/ bet 10 = {decimal_text(Fraction(3, 25) * Fraction(4, 100) * Fraction(1333, 2) / 10 * 100, 3)} "
              "percentage points of RTP; more high-value FISH would leave the ways pays no room in a "
              "market-typical RTP.",
              "- **R5** FISH1 and FISH2 share the rest of the FISH total over their (symbol, reel) cells in "
              "proportion to their Laplace densities (seen + 1) / (shown + 2) in the published windows, "
              "rounded by largest remainder above the R3 lower bounds.",
              "- **R6** WILD (base reels 2-5; no total published) takes 100 x (seen + 1) / (shown + 2) "
              "copies per reel, rounded half up (the same Laplace density).",
              "- **R7** Unseen specials are placed by a 0/1 program per reel (HiGHS, `scipy.optimize.milp`): "
              "exact counts, at most one special in any 4 consecutive positions (published ones included), "
              "seeded random costs (unique optimum).",
              "- **R8** Remaining unseen positions get pay symbols drawn (seeded) with weights (published "
              "count + 1) pooled over the strip set; an AUS symbol that would make a run of 4 is redrawn "
              "among the PIC symbols.",
              "- **R9** Tuning: a seeded local search puts another pay symbol at an unseen pay position "
              "(AUS runs <= 3 kept) and keeps the move only if the exact RTP gets closer to the target "
              "(objective in `proofs.reconstruction.rtp_fit`: exact ways means plus constants from the exact engine and the "
              "free-spin chain), until within a tenth of the tolerance.", "",
              "Caveat: the examples were chosen to illustrate rules (a WILD, a KEY, a trigger), so densities "
              "estimated from them (R5, R6) are not those of a random sample.", ""]
    for s in (BASE, BONUS):
        obs = b.observations[s]
        if s == BASE:
            found, _ = derive.fs_count_solutions()
            if found:
                lines += _likelihood_table("R2 for FS on the base strips", permutations(found[0].counts),
                                           obs.seen("FS"), obs.shown)
        kfound, _ = derive.key_count_solutions(s)
        lines += _likelihood_table(f"R2 for KEY on the {s} strips (reels 1-3)", [c for c, _ in kfound],
                                   obs.seen("KEY")[:3], obs.shown[:3])
    lines += ["## Special-symbol counts", ""]
    for s in (BASE, BONUS):
        cts = b.counts[s]
        obs = b.observations[s]
        lines += [f"{s} strips ({', '.join(f'{n} {sum(c)}' for n, c in cts.counts.items())}):", "",
                  "| symbol | " + " | ".join(f"reel {r + 1}" for r in range(REELS)) + " | total | seen in windows | rule |",
                  "|---|" + "---|" * REELS + "---|---|---|"]
        for n, c in cts.counts.items():
            lines.append(f"| {n} | " + " | ".join(str(x) for x in c) + f" | {sum(c)} | {obs.seen(n)} | {cts.rules[n]} |")
        lines += ["", f"Published positions per reel: {obs.shown}.", ""]
    lines += ["## RTP (assumption, not a fact)", ""]
    if b.rtp is None:
        lines += ["Not tuned (`--target-rtp none`).", ""]
    else:
        lines += [f"Target {decimal_text(b.target * 100, 4)}% +/- 0.005 pp (assumption).  Exact RTP of the whole "
                  f"game, engine + free-spin chain: before tuning {decimal_text(b.rtp_untuned * 100, 6)}%, after "
                  f"{decimal_text(b.rtp * 100, 6)}% ({b.tuning_moves} moves kept of {b.tuning_steps} tried).  "
                  "`rtp check` and `rtp report` give the exact fraction.", ""]
    lines += ["## Every position", "",
              "Cell: symbol; `[n]` marks a position the page shows in example n (published); "
              "unmarked positions are reconstructed.", ""]
    for s in (BASE, BONUS):
        obs = b.observations[s]
        lines += [f"### {s} strips", "",
                  "| position | " + " | ".join(f"reel {r + 1}" for r in range(REELS)) + " |",
                  "|---|" + "---|" * REELS]
        for p in range(STRIP_LENGTH):
            cells = []
            for r in range(REELS):
                name = b.strips[s][r][p]
                known = obs.known.get((r, p))
                cells.append(f"{name} [{','.join(map(str, known[1]))}]" if known else name)
            lines.append(f"| {p} | " + " | ".join(cells) + " |")
        lines.append("")
    return "\n".join(lines)
