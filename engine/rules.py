"""Rule options as data, and the named presets built from them.

Every option of docs/rules.md is one :class:`Option` in :data:`OPTIONS`, with its
wire name (camelCase), its range and its default. :class:`Rules`
holds one value per option; :func:`rules_from_json` builds one from a ``{"preset": ...,
<option>: <value>}`` object and refuses, by name, any option it does not know or any value
outside its range.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from engine.clashes import check_clashes
from engine.errors import InvalidRules


@dataclass(frozen=True, slots=True)
class Option:
    """One rule option: its wire name, its allowed values and its default."""

    name: str
    default: bool | int | str
    choices: tuple[str, ...] = ()
    low: int = 0
    high: int = 0
    step: int = 1
    group: str = "play"
    help: str = ""
    zero_off: bool = False  # 0 (off) is allowed beside low..high

    @property
    def least(self) -> int:
        """The smallest value allowed (0 for an option that 0 turns off)."""
        return 0 if self.zero_off else self.low

    @property
    def kind(self) -> str:
        if isinstance(self.default, bool):
            return "bool"
        if isinstance(self.default, int):
            return "int"
        return "enum"

    def check(self, value: object) -> bool | int | str:
        """The value, if it is allowed for this option; else InvalidRules naming the option."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
            raise InvalidRules(
                "rules/bad_value", f"option {self.name!r} takes true or false, got {value!r}"
            )
        if kind == "int":
            if isinstance(value, int) and not isinstance(value, bool):
                if (self.zero_off and value == 0) or (
                    self.low <= value <= self.high and (value - self.low) % self.step == 0
                ):
                    return value
            off = "0 (off) or " if self.zero_off else ""
            raise InvalidRules(
                "rules/bad_value",
                f"option {self.name!r} takes {off}a whole number from {self.low} to {self.high}"
                f" in steps of {self.step}, got {value!r}",
            )
        if isinstance(value, str) and value in self.choices:
            return value
        raise InvalidRules(
            "rules/bad_value",
            f"option {self.name!r} takes one of {list(self.choices)}, got {value!r}",
        )

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "kind": self.kind, "default": self.default}
        out["group"] = self.group
        out["help"] = self.help
        if self.kind == "int":
            out.update(min=self.least, max=self.high, step=self.step)
            if self.zero_off:
                out["lowestOn"] = self.low  # 0 is off; 1 to lowestOn - 1 are refused
        if self.kind == "enum":
            out["choices"] = list(self.choices)
        return out


OPTIONS: tuple[Option, ...] = (
    # Play
    Option(
        "stacking",
        False,
        help="Draw Two on Draw Two, Wild Draw Four on Wild Draw Four pass the growing penalty on",
    ),
    Option(
        "jumpIn", False, help="Anyone holding an exact copy of the top card may play it out of turn"
    ),
    Option(
        "jumpInContinuesFrom",
        "jumper",
        choices=("jumper", "turnHolder"),
        help="After a jump-in play continues from the jumper, or stays with the turn holder",
    ),
    Option(
        "sevenZero", False, help="A 7 swaps hands with a chosen player; a 0 passes every hand on"
    ),
    Option(
        "zeroPassDirection",
        "withPlay",
        choices=("withPlay", "againstPlay"),
        help="Which way hands pass when a 0 is played",
    ),
    Option("drawToMatch", False, help="Draw until you can play instead of drawing one card"),
    Option(
        "drawToMatchCap", 0, low=0, high=108, help="Most cards drawn under drawToMatch (0: no cap)"
    ),
    Option(
        "unoPenalty",
        2,
        low=0,
        high=10,
        help="Cards drawn when caught not calling UNO (0: no penalty)",
    ),
    Option(
        "decks",
        1,
        low=1,
        high=2,
        group="deck",
        help="Decks shuffled together (two for 7-10 players)",
    ),
    Option("wildDrawFourChallenge", True, help="The victim of a Wild Draw Four may challenge it"),
    Option(
        "wildDrawFourRestriction",
        "noMatchingColor",
        choices=("noMatchingColor", "noPlayableCard", "none"),
        help="When a Wild Draw Four may be played",
    ),
    Option(
        "firstCardWild",
        "firstPlayerChooses",
        choices=("firstPlayerChooses", "reshuffle"),
        help="A Wild turned up first: the first player names the colour, or it is reshuffled",
    ),
    Option(
        "firstCardWildDrawFour",
        "reshuffle",
        choices=("reshuffle", "bury"),
        help="A first Wild Draw Four goes back and is reshuffled, or is buried in the pile",
    ),
    Option("forbidActionFinish", False, help="The last card must be a number card"),
    # House rules (docs/rules.md, "House rules"): answering a pending draw penalty.
    Option(
        "stackDrawFour",
        False,
        help="A Wild Draw Four may be laid on a Wild Draw Four (also without stacking)",
    ),
    Option(
        "crossStack",
        "none",
        choices=("none", "drawTwoOnDrawFour", "drawFourOnDrawTwo", "both"),
        help="A Draw Two on a Wild Draw Four, a Wild Draw Four on a Draw Two, or both",
    ),
    Option(
        "reverseDeflect",
        False,
        help="A Reverse sends a pending draw penalty back to the player who laid it",
    ),
    Option(
        "skipDeflect",
        False,
        help="A Skip passes a pending draw penalty on to the next player",
    ),
    Option(
        "forcedPlay",
        False,
        help="A player who can play must play: no drawing instead (a penalty may be taken)",
    ),
    Option(
        "forcedPlayDrawn",
        False,
        help="A card you draw that can be played must be played at once",
    ),
    Option(
        "blindDraw",
        False,
        help="The drawn card is not shown to you: if it can be played it is played at once",
    ),
    Option(
        "strictUno",
        False,
        help="UNO must be called with (or before) the next-to-last card, never after",
    ),
    Option(
        "misplayPenalty",
        False,
        help="An illegal play attempt costs a card (the play itself is refused)",
    ),
    Option("noWildFinish", False, help="The last card may not be a wild"),
    Option(
        "bomb",
        False,
        help="Three or more cards of one number played together make everyone else draw one",
    ),
    Option(
        "handLimit",
        0,
        low=8,
        high=30,
        zero_off=True,
        help="A hand of this many cards is out of the deal, or draws no more (0: off, else 8-30)",
    ),
    Option(
        "handLimitRule",
        "out",
        choices=("out", "stopDrawing"),
        help="A hand at the limit is out of the deal, or stops drawing",
    ),
    Option(
        "handReveal",
        0,
        low=5,
        high=30,
        zero_off=True,
        help="A hand of this many cards or more is shown to everyone (0: off, else 5-30)",
    ),
    # Scoring and the match
    Option(
        "matchMode",
        "points",
        choices=("points", "oneAndDone", "knockout"),
        group="scoring",
        help="Play to a target score, end after one deal, or knock out players over the target",
    ),
    Option(
        "targetScore",
        500,
        low=100,
        high=1000,
        step=50,
        group="scoring",
        help="The match ends when a total reaches this",
    ),
    Option(
        "roundLimit",
        0,
        low=0,
        high=30,
        group="scoring",
        help="End after this many deals (0: play to the target)",
    ),
    Option(
        "scoringMode",
        "winnerCollects",
        choices=("winnerCollects", "ownHandCounts"),
        group="scoring",
        help="Winner scores all hands (highest wins), or each scores own hand (lowest wins)",
    ),
    Option(
        "numberCards",
        "faceValue",
        choices=("faceValue", "flatTen"),
        group="scoring",
        help="Number cards score their face or ten",
    ),
    Option(
        "actionValue",
        20,
        low=0,
        high=50,
        step=5,
        group="scoring",
        help="Points for Skip, Reverse, Draw Two",
    ),
    Option(
        "doubleScore", False, group="scoring", help="Every deal counts twice towards the totals"
    ),
    Option(
        "teams",
        0,
        low=2,
        high=3,
        zero_off=True,
        group="scoring",
        help="Play in teams of 2 or 3, partners opposite, the team's scores added (0: off)",
    ),
    Option(
        "placings",
        False,
        group="scoring",
        help="Play on after the first player goes out until one is left; each going out scores",
    ),
    Option(
        "blitzSeconds",
        0,
        low=60,
        high=3600,
        zero_off=True,
        group="scoring",
        help="A clock for the whole match per player; at 0 the match ends (0: off, else 60-3600 s)",
    ),
    Option(
        "shuffleSeats",
        False,
        group="scoring",
        help="The seats are shuffled at the start of a match",
    ),
    Option("wildValue", 50, low=0, high=100, step=5, group="scoring", help="Points for a Wild"),
    Option(
        "wildDrawFourValue",
        50,
        low=0,
        high=100,
        step=5,
        group="scoring",
        help="Points for a Wild Draw Four",
    ),
    # DrukUNO and its Helsinki and Warszawa rules
    Option(
        "multiPlay",
        False,
        group="druk",
        help="Play several cards of one number, or one action type, at once",
    ),
    Option(
        "stackWildDrawFour",
        True,
        group="druk",
        help="With stacking, Wild Draw Fours stack too (not only Draw Twos)",
    ),
    Option(
        "drawFourFollowColor",
        False,
        group="druk",
        help="After taking a Wild Draw Four you must play its colour, or draw up to 3 and pass",
    ),
    Option(
        "firstCardPlayedByDealer",
        False,
        group="druk",
        help="An action card turned up first acts as if the dealer had played it",
    ),
    Option(
        "wildDrawEight",
        0,
        low=0,
        high=4,
        group="druk",
        help="Wild Draw Eight cards added to the deck",
    ),
    Option(
        "everybodyDrawsTwo",
        0,
        low=0,
        high=4,
        group="druk",
        help="Everybody Draws Two cards added to the deck",
    ),
    Option("zeroPass", False, group="druk", help="A 0 passes every hand on (without the 7 swap)"),
    Option(
        "sevenSwap",
        False,
        group="druk",
        help="A 7 swaps hands with a chosen opponent (without the 0 pass)",
    ),
    Option(
        "swapOnLastCard",
        False,
        group="druk",
        help="A 0 or 7 played as the last card still passes or swaps hands: no win",
    ),
    Option(
        "penaltyDrawToMatch",
        False,
        group="druk",
        help="After a draw penalty keep drawing until a playable card comes, and you may play it",
    ),
    Option(
        "drawnCardPlayable",
        True,
        group="druk",
        help="A playable card you draw may be played at once (DrukUNO: drawing ends the turn)",
    ),
    Option("drinks", False, group="drinks", help="Keep a tally of sips (DrukUNO drinking rules)"),
    Option("sipsAsPoints", False, group="drinks", help="Count the tally as points instead of sips"),
    # UNO Duo
    Option(
        "dealMethod",
        "deal",
        choices=("deal", "draft"),
        group="duo",
        help="Deal seven each, or draft them (UNO Duo)",
    ),
    Option(
        "firstCardRules",
        "classic",
        choices=("classic", "duo"),
        group="duo",
        help="How the first card acts: the official rules or UNO Duo's",
    ),
    Option(
        "reverseDumpsColor",
        False,
        group="duo",
        help="A Reverse may be followed by every card of its colour in your hand (all or nothing)",
    ),
    Option(
        "flipPiles",
        "turnOver",
        choices=("turnOver", "flipInPlace"),
        group="flip",
        help="A Flip turns the piles over (bottom card on top) or flips each card in place",
    ),
    Option(
        "wildDrawFourPlaysAgain",
        False,
        group="duo",
        help="The player of a Wild Draw Four takes another turn",
    ),
)

OPTION_BY_NAME: dict[str, Option] = {o.name: o for o in OPTIONS}


def _snake(name: str) -> str:
    return "".join("_" + c.lower() if c.isupper() else c for c in name)


# Each option's default, stated once (in OPTIONS), by its Rules field name.
_DEFAULTS: dict[str, Any] = {_snake(o.name): o.default for o in OPTIONS}


@dataclass(frozen=True, slots=True)
class Rules:
    """One value per option; field names are the options' wire names in snake_case."""

    preset: str = "classic"
    deck: str = "classic108"
    stacking: bool = _DEFAULTS["stacking"]
    jump_in: bool = _DEFAULTS["jump_in"]
    jump_in_continues_from: str = _DEFAULTS["jump_in_continues_from"]
    seven_zero: bool = _DEFAULTS["seven_zero"]
    zero_pass_direction: str = _DEFAULTS["zero_pass_direction"]
    draw_to_match: bool = _DEFAULTS["draw_to_match"]
    draw_to_match_cap: int = _DEFAULTS["draw_to_match_cap"]
    uno_penalty: int = _DEFAULTS["uno_penalty"]
    decks: int = _DEFAULTS["decks"]
    wild_draw_four_challenge: bool = _DEFAULTS["wild_draw_four_challenge"]
    wild_draw_four_restriction: str = _DEFAULTS["wild_draw_four_restriction"]
    first_card_wild: str = _DEFAULTS["first_card_wild"]
    first_card_wild_draw_four: str = _DEFAULTS["first_card_wild_draw_four"]
    forbid_action_finish: bool = _DEFAULTS["forbid_action_finish"]
    stack_draw_four: bool = _DEFAULTS["stack_draw_four"]
    cross_stack: str = _DEFAULTS["cross_stack"]
    reverse_deflect: bool = _DEFAULTS["reverse_deflect"]
    skip_deflect: bool = _DEFAULTS["skip_deflect"]
    forced_play: bool = _DEFAULTS["forced_play"]
    forced_play_drawn: bool = _DEFAULTS["forced_play_drawn"]
    blind_draw: bool = _DEFAULTS["blind_draw"]
    strict_uno: bool = _DEFAULTS["strict_uno"]
    misplay_penalty: bool = _DEFAULTS["misplay_penalty"]
    no_wild_finish: bool = _DEFAULTS["no_wild_finish"]
    bomb: bool = _DEFAULTS["bomb"]
    hand_reveal: int = _DEFAULTS["hand_reveal"]
    hand_limit: int = _DEFAULTS["hand_limit"]
    hand_limit_rule: str = _DEFAULTS["hand_limit_rule"]
    double_score: bool = _DEFAULTS["double_score"]
    shuffle_seats: bool = _DEFAULTS["shuffle_seats"]
    teams: int = _DEFAULTS["teams"]
    placings: bool = _DEFAULTS["placings"]
    blitz_seconds: int = _DEFAULTS["blitz_seconds"]
    match_mode: str = _DEFAULTS["match_mode"]
    target_score: int = _DEFAULTS["target_score"]
    round_limit: int = _DEFAULTS["round_limit"]
    scoring_mode: str = _DEFAULTS["scoring_mode"]
    number_cards: str = _DEFAULTS["number_cards"]
    action_value: int = _DEFAULTS["action_value"]
    wild_value: int = _DEFAULTS["wild_value"]
    wild_draw_four_value: int = _DEFAULTS["wild_draw_four_value"]
    multi_play: bool = _DEFAULTS["multi_play"]
    stack_wild_draw_four: bool = _DEFAULTS["stack_wild_draw_four"]
    draw_four_follow_color: bool = _DEFAULTS["draw_four_follow_color"]
    first_card_played_by_dealer: bool = _DEFAULTS["first_card_played_by_dealer"]
    wild_draw_eight: int = _DEFAULTS["wild_draw_eight"]
    everybody_draws_two: int = _DEFAULTS["everybody_draws_two"]
    zero_pass: bool = _DEFAULTS["zero_pass"]
    seven_swap: bool = _DEFAULTS["seven_swap"]
    swap_on_last_card: bool = _DEFAULTS["swap_on_last_card"]
    penalty_draw_to_match: bool = _DEFAULTS["penalty_draw_to_match"]
    drawn_card_playable: bool = _DEFAULTS["drawn_card_playable"]
    drinks: bool = _DEFAULTS["drinks"]
    sips_as_points: bool = _DEFAULTS["sips_as_points"]
    deal_method: str = _DEFAULTS["deal_method"]
    first_card_rules: str = _DEFAULTS["first_card_rules"]
    reverse_dumps_color: bool = _DEFAULTS["reverse_dumps_color"]
    wild_draw_four_plays_again: bool = _DEFAULTS["wild_draw_four_plays_again"]
    flip_piles: str = _DEFAULTS["flip_piles"]
    # Fixed by the preset, not options: which game, which deck, how many players.
    game: str = "shedding"
    min_players: int = 2
    max_players: int = 10

    def to_json(self) -> dict[str, Any]:
        """The wire form: ``preset`` plus every option by its camelCase name (a fresh copy:
        the form itself is built once, as every view carries it)."""
        return dict(self.wire)

    # Derived once at construction: read on every action.
    wire: dict[str, Any] = field(init=False, repr=False, compare=False)
    lowest_wins: bool = field(init=False, repr=False, compare=False)
    zero_passes: bool = field(init=False, repr=False, compare=False)
    seven_swaps: bool = field(init=False, repr=False, compare=False)
    plain_plays: bool = field(init=False, repr=False, compare=False)  # one card, no target
    plain_checks: bool = field(init=False, repr=False, compare=False)  # matching is enough
    swaps_hands: bool = field(init=False, repr=False, compare=False)  # a 7 or 0 moves hands
    deflects: bool = field(init=False, repr=False, compare=False)  # a Reverse or Skip answers
    answers_pending: bool = field(init=False, repr=False, compare=False)  # some card answers

    def __post_init__(self) -> None:
        derived = {
            "lowest_wins": self.scoring_mode == "ownHandCounts",
            "zero_passes": self.seven_zero or self.zero_pass,
            "seven_swaps": self.seven_zero or self.seven_swap,
        }
        derived["plain_plays"] = not (
            derived["seven_swaps"] or self.multi_play or self.reverse_dumps_color
        )
        derived["plain_checks"] = (
            self.wild_draw_four_challenge
            and not self.forbid_action_finish
            and not self.no_wild_finish
        )
        derived["swaps_hands"] = derived["seven_swaps"] or derived["zero_passes"]
        derived["deflects"] = self.reverse_deflect or self.skip_deflect
        derived["answers_pending"] = (
            self.stacking
            or self.stack_draw_four
            or self.cross_stack != "none"
            or derived["deflects"]
        )
        wire: dict[str, Any] = {"preset": self.preset}
        for name, attribute in _WIRE_NAMES:
            wire[name] = getattr(self, attribute)
        object.__setattr__(self, "wire", wire)
        for name, value in derived.items():
            object.__setattr__(self, name, value)


_WIRE_NAMES = tuple((option.name, _snake(option.name)) for option in OPTIONS)


_FIELD_NAMES = {f.name for f in fields(Rules) if f.init}
assert all(_snake(o.name) in _FIELD_NAMES for o in OPTIONS)

_DRUK: dict[str, Any] = {
    "multiPlay": True,
    "drawnCardPlayable": False,
    "stacking": True,
    "drawFourFollowColor": True,
    "firstCardPlayedByDealer": True,
    "jumpIn": True,
    "jumpInContinuesFrom": "turnHolder",
}
_HELSINKI: dict[str, Any] = {
    **_DRUK,
    "drawnCardPlayable": True,
    "drawToMatch": True,
    "drawToMatchCap": 0,
    "penaltyDrawToMatch": True,
    "zeroPass": True,
    "zeroPassDirection": "againstPlay",
    "swapOnLastCard": True,
}

PRESETS: dict[str, dict[str, Any]] = {
    "classic": {},
    "house": {"stacking": True, "jumpIn": True, "sevenZero": True, "drawToMatch": True},
    # The house rules most asked for, and a wild table (docs/rules.md, "House rules").
    "party": {
        "stacking": True,
        "crossStack": "both",
        "jumpIn": True,
        "sevenZero": True,
        "forcedPlay": True,
        "drawToMatch": True,
    },
    "crazy": {
        "stacking": True,
        "crossStack": "both",
        "reverseDeflect": True,
        "skipDeflect": True,
        "jumpIn": True,
        "sevenZero": True,
        "multiPlay": True,
        "bomb": True,
        "forcedPlay": True,
        "forcedPlayDrawn": True,
        "blindDraw": True,
        "wildDrawEight": 2,
        "everybodyDrawsTwo": 2,
        "handReveal": 12,
        "doubleScore": True,
    },
    "oneAndDone": {"matchMode": "oneAndDone"},
    "knockout": {"matchMode": "knockout", "scoringMode": "ownHandCounts"},
    "druk": _DRUK,
    "helsinki": _HELSINKI,
    "warszawa": {**_HELSINKI, "sevenSwap": True},
    "duo": {
        "dealMethod": "draft",
        "firstCardRules": "duo",
        "stacking": True,
        "stackWildDrawFour": False,
        "reverseDumpsColor": True,
        "wildDrawFourPlaysAgain": True,
        "wildDrawFourRestriction": "noPlayableCard",
        "scoringMode": "ownHandCounts",
        "actionValue": 10,
        "wildValue": 15,
        "wildDrawFourValue": 20,
        "targetScore": 200,
    },
    "flip": {},
    "rommy": {},
    "bottle": {"drinks": True},
}

# What a preset fixes that no option may change.
PRESET_FIXED: dict[str, dict[str, Any]] = {
    "duo": {"deck": "classic112", "min_players": 2, "max_players": 2},
    "flip": {"deck": "flip112"},
    "rommy": {"game": "rommy"},
    "bottle": {"game": "bottle"},
}


def rules_from_json(data: Mapping[str, Any] | None) -> Rules:
    """Rules from ``{"preset": name, option: value, ...}``; the preset defaults to classic.

    :raises InvalidRules: an unknown preset or option, or a value out of its range; the
        message names the option.
    """
    if data is None:
        data = {}
    if not isinstance(data, Mapping):
        raise InvalidRules("rules/not_an_object", f"rules must be a JSON object, got {data!r}")
    preset = data.get("preset", "classic")
    # A string first: an object or list would make the lookup itself fail.
    if not isinstance(preset, str) or preset not in PRESETS:
        raise InvalidRules(
            "rules/unknown_preset", f"unknown preset {preset!r}; known presets: {sorted(PRESETS)}"
        )
    values: dict[str, Any] = {"preset": preset, **PRESET_FIXED.get(preset, {})}
    for name, value in list(PRESETS[preset].items()) + [
        (k, v) for k, v in data.items() if k != "preset"
    ]:
        option = OPTION_BY_NAME.get(name)
        if option is None:
            raise InvalidRules("rules/unknown_option", f"unknown rule option {name!r}")
        values[_snake(name)] = option.check(value)
    return check_clashes(Rules(**values))


def with_options(rules: Rules, changes: Mapping[str, Any]) -> Rules:
    """``rules`` with some options changed, each checked as in :func:`rules_from_json`."""
    values: dict[str, Any] = {}
    for name, value in changes.items():
        option = OPTION_BY_NAME.get(name)
        if option is None:
            raise InvalidRules("rules/unknown_option", f"unknown rule option {name!r}")
        values[_snake(name)] = option.check(value)
    return check_clashes(replace(rules, **values))


def describe_options() -> list[dict[str, Any]]:
    """Every option with its range, default, group and one-line help (for rule editors)."""
    return [o.to_json() for o in OPTIONS]
