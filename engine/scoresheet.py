"""The scoresheet: tables playing with physical cards enter one number per player per deal.

Entries never change; :func:`standings` reads them under the current rules, so changing an
option mid-match simply recomputes the sheet (docs/scoresheet.md). Entries that break the
scoring mode's entry rules are *warnings* there, never errors, while :func:`add_deal`
refuses a new deal that breaks them. ``python -m engine.scoresheet FILE`` is the runner of
docs/scoresheet.md, "The runner". The choices made where the rules are silent are in
``docs/scoresheet.md``.

>>> from engine.rules import Rules
>>> result = standings(Rules(target_score=100), ["Anna", "Ben"], [[87, 0], [0, 40], [20, 0]])
>>> result["totals"], result["winner"], result["finished"]
([107, 40], 'Anna', True)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import TypedDict

from engine.cards import build_deck
from engine.errors import EngineError
from engine.rules import Rules, rules_from_json
from engine.scoring import DECK_POINTS_CAP, hand_value, ranked


class ScoresheetError(EngineError):
    """A sheet that cannot be read (wrong shape), or a new deal that :func:`add_deal` refuses.

    Codes: ``scoresheet/bad_input``, ``scoresheet/bad_players``, ``scoresheet/wrong_length``,
    ``scoresheet/bad_entry``, ``scoresheet/finished``.
    """


class Standing(TypedDict):
    player: str
    total: int
    place: int


class SheetResult(TypedDict):
    """The runner's result (docs/scoresheet.md, "The runner")."""

    totals: list[int]
    standings: list[Standing]
    winner: str | None
    finished: bool
    warnings: list[str]


@dataclass
class _Sheet:
    """A sheet read deal by deal: what :func:`standings` and :func:`add_deal` both need."""

    rules: Rules
    names: list[str]
    totals: list[int]
    warnings: list[str] = field(default_factory=list)
    finished_after: int | None = None  # the deal that finished the match
    out_after: dict[int, int] = field(default_factory=dict)  # knockout: seat -> deal

    def active(self) -> list[int]:
        return [seat for seat in range(len(self.names)) if seat not in self.out_after]


# --- entry rules -----------------------------------------------------------------------


def entry_cap(rules: Rules) -> int:
    """The largest entry allowed: 1240 per deck, or a whole deck's worth if values are raised.

    The rules fix 1240 x decks (a classic deck at default values); raising card values
    makes a whole deck worth more, and a legal entry must never be flagged, so the cap
    follows the deck then.
    """
    deck_worth = hand_value(build_deck(rules.deck, rules.decks), rules)
    return max(DECK_POINTS_CAP * rules.decks, deck_worth)


def entry_problems(
    rules: Rules,
    entries: Sequence[int],
    deal_number: int,
    players: Sequence[str] | None = None,
) -> list[str]:
    """English problems with one deal's entries; empty when the deal is valid.

    Every message starts with ``deal N`` (1-based) and names the player(s) concerned;
    without ``players`` they are called ``player 1``, ``player 2``, ...
    """
    names = _names(players, len(entries))
    return _deal_problems(rules, entries, deal_number, names, list(range(len(entries))), {})


def _names(players: Sequence[str] | None, count: int) -> list[str]:
    if players is not None and len(players) == count:
        return list(players)
    return [f"player {seat + 1}" for seat in range(count)]


def _deal_problems(
    rules: Rules,
    entries: Sequence[object],
    deal: int,
    names: Sequence[str],
    active: Sequence[int],
    out_after: dict[int, int],
) -> list[str]:
    """Value problems first; the mode's rule is only checked over well-typed entries."""
    problems = [
        p for seat, v in enumerate(entries) if (p := _value_problem(rules, v, deal, names[seat]))
    ]
    if problems:
        return problems
    values = [v for v in entries if isinstance(v, int)]
    problems += [
        f"deal {deal}, {names[seat]}: knocked out after deal {out_after[seat]}, so the entry"
        f" should be 0, not {values[seat]}"
        for seat in sorted(out_after)
        if values[seat] != 0
    ]
    return problems + _mode_problems(rules, values, deal, names, active)


def _value_problem(rules: Rules, value: object, deal: int, name: str) -> str | None:
    if not isinstance(value, int) or isinstance(value, bool):
        return f"deal {deal}, {name}: entry {value!r} is not a whole number"
    if value < 0:
        return f"deal {deal}, {name}: entry {value} is negative; points only go up"
    cap = entry_cap(rules)
    if value > cap:
        decks = "one whole deck" if rules.decks == 1 else f"{rules.decks} whole decks"
        return f"deal {deal}, {name}: entry {value} is more than {cap}, the value of {decks}"
    return None


def _mode_problems(
    rules: Rules, values: Sequence[int], deal: int, names: Sequence[str], active: Sequence[int]
) -> list[str]:
    """The scoring mode's rule over the players still in the match."""
    if rules.lowest_wins:
        if len(active) > 1 and all(values[seat] != 0 for seat in active):
            return [
                f"deal {deal}: no entry is 0; under ownHandCounts the player who went out"
                f" scores 0 ({_join(names[s] for s in active)} have points)"
            ]
        return []
    scorers = [seat for seat in active if values[seat] != 0]
    if len(scorers) > 1:
        return [
            f"deal {deal}: {_join(names[s] for s in scorers)} have non-zero entries; under"
            " winnerCollects only the player who went out scores, so at most one entry may be"
            " non-zero"
        ]
    return []


def _join(names: Iterable[str]) -> str:
    """``Anna``, ``Anna and Ben both``, ``Anna, Ben and Cara all``: a subject for "have"."""
    items = list(names)
    if len(items) == 1:
        return items[0]
    quantifier = " both" if len(items) == 2 else " all"
    return ", ".join(items[:-1]) + " and " + items[-1] + quantifier


def _entries(count: int) -> str:
    return "1 entry" if count == 1 else f"{count} entries"


# --- reading a sheet -------------------------------------------------------------------


def _check_shape(players: Sequence[object], deals: Sequence[Sequence[object]]) -> None:
    """Refuse what cannot be totalled at all: bad names, wrong lengths, non-numbers."""
    if not all(isinstance(p, str) and p.strip() for p in players):
        raise ScoresheetError("scoresheet/bad_players", "players must be non-empty names")
    if len(players) < 2:
        raise ScoresheetError("scoresheet/bad_players", "a scoresheet needs at least 2 players")
    if len(set(players)) != len(players):
        raise ScoresheetError("scoresheet/bad_players", f"player names repeat: {list(players)!r}")
    for number, deal in enumerate(deals, start=1):
        if len(deal) != len(players):
            raise ScoresheetError(
                "scoresheet/wrong_length",
                f"deal {number} has {_entries(len(deal))} for {len(players)} players",
            )
        for name, value in zip(players, deal, strict=True):
            if not isinstance(value, int) or isinstance(value, bool):
                raise ScoresheetError(
                    "scoresheet/bad_entry",
                    f"deal {number}, {name}: entry {value!r} is not a whole number",
                )


def _reading(rules: Rules) -> tuple[Rules, list[str]]:
    """The rules the entries are read under: knockout is defined on ownHandCounts."""
    if rules.match_mode == "knockout" and not rules.lowest_wins:
        note = (
            "matchMode knockout is played with scoringMode ownHandCounts;"
            " the entries are read that way (lowest total wins)"
        )
        return replace(rules, scoring_mode="ownHandCounts"), [note]
    return rules, []


def _read(rules: Rules, players: Sequence[str], deals: Sequence[Sequence[int]]) -> _Sheet:
    _check_shape(players, deals)
    rules, notes = _reading(rules)
    sheet = _Sheet(rules, list(players), [0] * len(players), notes)
    for number, deal in enumerate(deals, start=1):
        if sheet.finished_after is not None:
            # The result stands as it was when the match ended; later rows are kept, unread.
            sheet.warnings.append(
                f"deal {number} was entered after the match finished"
                f" (after deal {sheet.finished_after}) and is not counted"
            )
            continue
        _count(sheet, number, deal)
    return sheet


def _count(sheet: _Sheet, number: int, deal: Sequence[int]) -> None:
    """Add one deal to the running totals and decide whether it ended the match."""
    rules = sheet.rules
    sheet.warnings += _deal_problems(
        rules, deal, number, sheet.names, sheet.active(), sheet.out_after
    )
    sheet.totals = [total + entry for total, entry in zip(sheet.totals, deal, strict=True)]
    if rules.match_mode == "knockout":
        ended = _knock_out(sheet, number)
    elif rules.match_mode == "oneAndDone":
        ended = True
    else:
        ended = any(total >= rules.target_score for total in sheet.totals)
    if ended or number == rules.round_limit:
        sheet.finished_after = number


def _knock_out(sheet: _Sheet, number: int) -> bool:
    """Knock out every player still in whose total reached the target; True when <= 1 is left."""
    for seat in sheet.active():
        if sheet.totals[seat] >= sheet.rules.target_score:
            sheet.out_after[seat] = number
    return len(sheet.active()) <= 1


def _rank_keys(sheet: _Sheet) -> list[tuple[int, int, int]]:
    """Smaller is better: still in before knocked out, out later before out earlier, then
    the total in the mode's direction (only the total differs outside knockout)."""
    sign = 1 if sheet.rules.lowest_wins else -1
    out = sheet.out_after
    return [
        (int(seat in out), -out.get(seat, 0), sign * total)
        for seat, total in enumerate(sheet.totals)
    ]


def standings(rules: Rules, players: Sequence[str], deals: Sequence[Sequence[int]]) -> SheetResult:
    """The runner's result (docs/scoresheet.md) for a sheet under ``rules``.

    :raises ScoresheetError: the sheet has a shape that cannot be totalled (bad or repeated
        names, a deal of the wrong length, an entry that is not a whole number). Entries
        that merely break the scoring mode's rules are warnings.
    """
    sheet = _read(rules, players, deals)
    keys = _rank_keys(sheet)
    places = ranked(keys)
    order = sorted(range(len(keys)), key=lambda seat: (keys[seat], seat))
    winner = None
    if sheet.finished_after is not None:
        first = [seat for seat in order if places[seat] == 1]
        if len(first) == 1:
            winner = sheet.names[first[0]]
        else:
            sheet.warnings.append(
                f"shared first place: {_join(sheet.names[s] for s in first)} have"
                f" {sheet.totals[first[0]]}, so there is no single winner"
            )
    return {
        "totals": list(sheet.totals),
        "standings": [
            {"player": sheet.names[s], "total": sheet.totals[s], "place": places[s]} for s in order
        ],
        "winner": winner,
        "finished": sheet.finished_after is not None,
        "warnings": sheet.warnings,
    }


def add_deal(
    rules: Rules,
    players: Sequence[str],
    deals: Sequence[Sequence[int]],
    entries: Sequence[int],
) -> list[list[int]]:
    """``deals`` with one more deal, if it may be entered; the inputs are not changed.

    :raises ScoresheetError: ``scoresheet/wrong_length`` (not one entry per player),
        ``scoresheet/finished`` (the match is already over), ``scoresheet/bad_entry`` (the
        entries break the rules; the message lists every problem), or the codes of
        :func:`standings` when the existing sheet cannot be read.
    """
    if len(entries) != len(players):
        raise ScoresheetError(
            "scoresheet/wrong_length",
            f"deal {len(deals) + 1} has {_entries(len(entries))} for {len(players)} players",
        )
    sheet = _read(rules, players, deals)
    if sheet.finished_after is not None:
        raise ScoresheetError(
            "scoresheet/finished", f"the match finished after deal {sheet.finished_after}"
        )
    problems = _deal_problems(
        sheet.rules, entries, len(deals) + 1, sheet.names, sheet.active(), sheet.out_after
    )
    if problems:
        raise ScoresheetError("scoresheet/bad_entry", "; ".join(problems))
    return [list(deal) for deal in deals] + [list(entries)]


# --- the runner ------------------------------------------------------------------------


def parse_sheet(data: object) -> tuple[Rules, list[str], list[list[int]]]:
    """Rules, players and deals from the runner's input object.

    :raises ScoresheetError: a missing or ill-typed field. :raises InvalidRules: an unknown
        preset or option, or a bad value.
    """
    if not isinstance(data, dict):
        raise ScoresheetError("scoresheet/bad_input", "the input must be a JSON object")
    rules_data = data.get("rules", {})
    if not isinstance(rules_data, dict):
        raise ScoresheetError("scoresheet/bad_input", "'rules' must be an object")
    players = data.get("players")
    if not isinstance(players, list):
        raise ScoresheetError("scoresheet/bad_input", "'players' must be a list of names")
    deals = data.get("deals")
    if not isinstance(deals, list) or not all(isinstance(deal, list) for deal in deals):
        raise ScoresheetError("scoresheet/bad_input", "'deals' must be a list of lists")
    rules = rules_from_json(rules_data)
    _check_shape(players, deals)
    return rules, players, deals


def main(argv: list[str] | None = None) -> int:
    """``python -m engine.scoresheet FILE`` (``-`` for stdin): print the result as JSON.

    Exit 0 for a well-formed sheet (even with warnings), 2 with a message on stderr when the
    input is malformed.
    """
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m engine.scoresheet FILE  (- for standard input)", file=sys.stderr)
        return 2
    try:
        raw = sys.stdin.buffer.read() if args[0] == "-" else _read_file(args[0])
        rules, players, deals = parse_sheet(json.loads(raw))
        result = standings(rules, players, deals)
    except OSError as error:
        print(f"error: cannot read {args[0]}: {error.strerror}", file=sys.stderr)
        return 2
    except ValueError as error:  # bad JSON, bad UTF-8, and every EngineError
        code = error.code if isinstance(error, EngineError) else "scoresheet/bad_json"
        print(f"error: {code}: {error}", file=sys.stderr)
        return 2
    print(json.dumps(result))
    return 0


def _read_file(path: str) -> bytes:
    with open(path, "rb") as file:
        return file.read()


if __name__ == "__main__":
    raise SystemExit(main())
