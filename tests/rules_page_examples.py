"""The worked examples of the rules page, as printed (windows row by row).

Shared by the evaluator tests and the strip tests.  Each entry: phase, stops,
the window as printed (rows top to bottom), the FISH values printed in
reel-major order, and the figures the page states.  Source: rules page
sections 6, 8, 10 and 11, examples 1-9.
"""

EXAMPLES = {
    1: dict(phase="base", stops=(10, 11, 81, 14, 32), rows=[
        "PIC2 PIC4 AUS2 PIC5 FISH4", "AUS1 AUS5 AUS2 AUS2 AUS3",
        "AUS1 AUS5 AUS2 PIC5 AUS4", "PIC4 AUS5 PIC4 AUS3 PIC5"],
        fish=None, ways={"PIC4": (3, 1, 3)}, ways_pays=3, collect=0, fs=0, keys=0, win=3),
    2: dict(phase="base", stops=(33, 97, 5, 53, 55), rows=[
        "AUS5 PIC2 AUS4 WILD PIC5", "PIC1 AUS2 PIC1 AUS5 AUS2",
        "AUS2 AUS2 AUS2 AUS5 PIC3", "FS AUS2 WILD PIC5 AUS4"],
        fish=None, ways={"AUS2": (5, 6, 30)}, ways_pays=30, collect=0, fs=1, keys=0, win=30),
    3: dict(phase="base", stops=(55, 71, 37, 1, 26), rows=[
        "AUS3 AUS3 AUS3 FS AUS2", "AUS3 PIC4 PIC4 AUS2 AUS2",
        "PIC4 AUS4 PIC2 AUS2 PIC1", "AUS4 AUS4 PIC2 AUS2 AUS4"],
        fish=None, ways={"PIC4": (3, 1, 3), "AUS3": (3, 2, 2)}, ways_pays=5, collect=0, fs=1, keys=0, win=5),
    4: dict(phase="base", stops=(88, 22, 49, 5, 26), rows=[
        "AUS4 PIC5 PIC4 PIC3 AUS2", "PIC3 AUS4 AUS5 PIC3 AUS2",
        "PIC3 AUS4 AUS5 AUS1 PIC1", "AUS3 PIC3 FISH1 AUS1 AUS4"],
        fish=None, ways={}, ways_pays=0, collect=0, fs=0, keys=0, win=0),
    5: dict(phase="base", stops=(91, 77, 51, 72, 58), rows=[
        "AUS3 AUS4 AUS5 WILD AUS4", "AUS3 PIC4 FISH1 AUS5 AUS4",
        "KEY AUS4 AUS4 AUS5 FISH1", "AUS4 FISH1 AUS4 PIC3 AUS5"],
        fish=(5, 1, 3), ways={"AUS4": (5, 8, 32)}, ways_pays=32, fish_sum=9, collect=9, fs=0, keys=1, win=41),
    6: dict(phase="base", stops=(15, 58, 78, 10, 63), rows=[
        "AUS1 PIC3 PIC5 AUS5 AUS5", "AUS2 AUS5 AUS2 PIC2 PIC3",
        "PIC4 AUS5 FISH2 AUS4 AUS2", "AUS3 FISH1 AUS2 PIC5 FISH1"],
        fish=(1, 10, 1), ways={}, ways_pays=0, fish_sum=12, collect=0, fs=0, keys=0, win=0),
    7: dict(phase="base", stops=(1, 1, 19, 98, 5), rows=[
        "AUS4 FS PIC5 PIC4 AUS1", "AUS4 AUS3 AUS4 AUS5 PIC4",
        "PIC3 AUS3 PIC3 AUS5 PIC4", "PIC3 PIC3 FS FS AUS5"],
        fish=None, ways={"PIC3": (3, 2, 6)}, ways_pays=6, collect=0, fs=3, keys=0, win=6),
    8: dict(phase="level3", stops=(66, 86, 97, 22, 30), rows=[
        "PIC4 PIC4 AUS1 PIC5 PIC2", "FISH1 PIC4 PIC2 PIC4 PIC2",
        "PIC2 PIC3 PIC4 FISH1 AUS5", "PIC2 PIC5 KEY AUS5 PIC1"],
        fish=(1, 3), ways={"PIC4": (4, 2, 12)}, ways_pays=12, fish_sum=4, collect=4, fs=0, keys=1,
        multiplier=5, win=80),
    9: dict(phase="level1", stops=(50, 53, 0, 45, 23), rows=[
        "AUS2 AUS3 KEY AUS2 PIC4", "KEY FISH2 AUS1 PIC5 FISH1",
        "PIC5 PIC3 AUS1 PIC4 PIC1", "PIC5 AUS3 AUS1 PIC1 AUS2"],
        fish=(20, 3), ways=None, fish_sum=23, collect=46, fs=0, keys=2, multiplier=1),
}


def window_of(example: dict) -> tuple[tuple[str, ...], ...]:
    """The printed window as shape (reels, rows)."""
    rows = [r.split() for r in example["rows"]]
    return tuple(tuple(row[r] for row in rows) for r in range(len(rows[0])))
