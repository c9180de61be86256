"""What travels inside socket messages, as closed pydantic models: actions, ``legal``
entries, the view of every game kind, every event type, JSON Patch operations.

The server builds these as plain dicts (built once per change, serialised once, shared
between sockets); the models fix and document their shape. Every model forbids fields it
does not declare, so the JSON Schemas generated from them (``app.ws.schemas``) are closed,
and the tests that validate every frame against them fail on a field that is not here:
a new view key or event field is added here, with its type, in the same change.

One file, though long: it is the whole vocabulary of the wire, model after model, and the
schemas are generated from it as one set; splitting it would split nothing but a list.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model

from engine.bots import RoomLevel
from engine.rules import OPTIONS


class Closed(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


Card = Annotated[str, Field(description="a card code (docs/cards.md)", min_length=1)]
Color = Annotated[str, Field(description="a colour letter: R G B Y, or P T O V (Flip dark)")]
Seat = Annotated[int, Field(ge=0, description="a seat number, 0..n-1 clockwise")]
Count = Annotated[int, Field(ge=0)]
At = Annotated[int, Field(ge=0, description="the view's `moves` this action answers")]


# --- Actions (client -> server, inside `action`) -----------------------------------------


class PlayAction(Closed):
    """Play one card, or several where the rules allow; out of turn it is a jump-in."""

    type: Literal["play"]
    cards: list[Card] = Field(min_length=1, description="in play order")
    color: Color | None = Field(default=None, description="for a wild")
    target: Seat | None = Field(default=None, description="for a seven swap")
    uno: bool = Field(default=False, description="call UNO with this play")
    at: At | None = None


def _simple(kind: str, doc: str, **fields: Any) -> type[Closed]:
    """An action model: its ``type``, optional ``at``, and ``fields``."""
    # A literal built at run time is no static type: Any tells mypy so.
    literal: Any = Literal[kind]
    return create_model(
        f"{kind[0].upper()}{kind[1:]}Action",
        __base__=Closed,
        __doc__=doc,
        type=(literal, ...),
        at=(At | None, None),
        **fields,
    )


_cards = (list[Card], Field(min_length=1))
ACTION_MODELS: tuple[type[Closed], ...] = (
    PlayAction,
    _simple("draw", "Draw a card, or take the pending penalty."),
    _simple("pass", "End the turn after drawing, keeping the card (or as a rule allows)."),
    _simple("callUno", "Call UNO."),
    _simple("catchUno", "Catch a player who did not call UNO.", target=(Seat, ...)),
    _simple("challenge", "Challenge a Wild Draw Four (or Flip's Wild Draw Two/Colour)."),
    _simple("chooseColor", "Name the colour when the rules ask for it.", color=(Color, ...)),
    _simple("nextDeal", "Start the next deal after dealOver."),
    _simple(
        "misplay",
        "misplayPenalty: the room's own penalty card for a refused play (`cards`: what it"
        " tried); a client need not send it.",
        cards=_cards,
    ),
    _simple("keep", "UNO Duo draft: keep the offered card."),
    _simple("discard", "UNO Duo draft: discard the offered card."),
    _simple(
        "meld",
        "UNO Rommy: lay a meld from the hand (`cards` in any order: the server lays them in"
        " table order).",
        cards=_cards,
    ),
    _simple(
        "layOff",
        "UNO Rommy: add cards to a meld on the table (`cards` in any order: the server lays"
        " them in table order).",
        cards=_cards,
        target=(Count, Field(description="the meld's index in `melds`")),
    ),
    _simple("takeDiscard", "UNO Rommy: take the top discard."),
    _simple("takePile", "UNO Rommy: take the whole discard pile."),
    _simple("discardCard", "UNO Rommy: discard a card, ending the turn.", cards=_cards),
    _simple(
        "swapJoker",
        "UNO Rommy: swap a card for the joker standing in for it in a meld.",
        cards=_cards,
        target=(Count, Field(description="the meld's index")),
    ),
    _simple(
        "turnCard",
        "Bottle UNO: turn the top card.",
        target=(Seat | None, Field(default=None, description="who gets the sips")),
    ),
)


def _union(models: tuple[type[BaseModel], ...]) -> Any:
    union: Any = models[0]
    for model in models[1:]:
        union = union | model
    return union


Action = Annotated[_union(ACTION_MODELS), Field(discriminator="type")]  # type: ignore[valid-type]


class LegalEntry(Closed):
    """One action this seat may send now. Without ``needs`` it is complete; with it, the
    client adds each named field, choosing from ``colors`` or ``targets``."""

    type: str = Field(description="an action type")
    cards: list[Card] | None = None
    color: Color | None = None
    target: int | None = None
    uno: bool | None = None
    needs: list[Literal["color", "target"]] | None = None
    colors: list[Color] | None = None
    targets: list[Seat] | None = None


# --- Views ------------------------------------------------------------------------------


def _rules_model() -> type[BaseModel]:
    """The rules object every view carries: one field per rule option (engine.rules)."""
    fields: dict[str, Any] = {"preset": (str | None, Field(default=None))}
    for option in OPTIONS:
        kind: Any
        if option.kind == "bool":
            kind = bool
        elif option.kind == "int":
            kind = Annotated[int, Field(ge=option.least, le=option.high)]
        else:
            kind = Literal[option.choices]
        fields[option.name] = (kind | None, Field(default=None, description=option.help))
    model = create_model("Rules", __base__=Closed, **fields)
    return model


Rules = _rules_model()


class SeatRating(Closed):
    value: int = Field(description="the account's shown rating in the room's pool")
    provisional: bool = Field(description="fewer than 20 rated games (shown with a ?)")
    games: int


class Player(Closed):
    seat: Seat
    cards: Count = Field(description="how many cards the seat holds")
    score: int
    out: bool | None = Field(default=None, description="knocked out (knockout scoring)")
    name: str | None = Field(default=None, description="null for a seat nobody holds")
    connected: bool | None = Field(default=None, description="some socket of the seat is open")
    away: bool | None = Field(default=None, description="the autopilot plays the seat meanwhile")
    bot: RoomLevel | None = Field(
        default=None, description="a seat the room plays: the bot's level"
    )
    left: bool | None = Field(
        default=None, description="its player left mid-match; a bot plays on, the score kept"
    )
    bank: int | None = Field(default=None, description="ms of time bank left this match")
    awayAt: int | None = Field(
        default=None,
        description="server ms when the autopilot takes the seat over (every socket of it"
        " closed; the room's absentAfter after the last one), or null",
    )
    place: int | None = Field(
        default=None, description="placings: the seat's place this deal (1 first out), or null"
    )
    blitz: int | None = Field(
        default=None,
        description="blitzSeconds: ms left on the seat's match clock when the view was made"
        " (it runs down while the seat decides: see `deadline`), or null without blitz",
    )
    rating: SeatRating | None = Field(
        default=None, description="an account's seat: its rating; null for guests and bots"
    )


class RoomEnded(Closed):
    reason: Literal["claim", "empty"]
    winner: Seat | None
    totals: list[int] | None


class DealResult(Closed):
    """One finished deal of the match, for the scoreboard of every deal."""

    deal: int
    winner: Seat | None = Field(description="who went out (None: nobody)")
    scores: list[int] | None = Field(description="each seat's points of the deal (None: no scores)")
    totals: list[int] = Field(description="each seat's running total after the deal")


class RoomInfo(Closed):
    id: str
    name: str
    seats: int
    status: Literal["lobby", "playing", "over", "ended"]
    private: bool
    spectators: bool
    matchId: str | None
    rated: bool | None = Field(
        default=None,
        description="its matches are rated: GET /api/matches/{matchId}/ratings has the changes",
    )
    watchers: Count = Field(description="spectator sockets open")
    turnSeconds: int | Literal["off"] | None = Field(
        default=None, description='seconds per decision, or "off"'
    )
    timeBank: int | None = Field(default=None, description="seconds of bank per player")
    absentAfter: int | None = Field(
        default=None, description="seconds without a socket before the autopilot plays a seat"
    )
    hostSeat: Seat | None = Field(default=None, description="the hosting seat, if a seat hosts")
    bans: list[str] | None = Field(default=None, description="names the host kicked")
    ended: RoomEnded | None = Field(default=None, description="the room ended the match itself")
    ready: list[Seat] | None = Field(
        default=None, description='seats that said "ready" for the next deal (the host deals it)'
    )
    deals: list[DealResult] | None = Field(
        default=None, description="every finished deal of the match so far, oldest first"
    )
    muted: list[Seat] | None = Field(default=None, description="seats whose chat the host muted")


class DrinksTally(Closed):
    total: Count
    byReason: dict[str, int]


class Sip(Closed):
    seat: Seat
    count: int
    reason: str


class Meld(Closed):
    kind: str = Field(description="set or run")
    cards: list[Card]
    as_: list[Card] = Field(alias="as", description="the card each one stands for")
    seats: list[Seat] = Field(description="who laid each card")


class BottleLast(Closed):
    """The last turned card: what its `turnCard` event said, and the sips it gave."""

    seat: Seat
    card: Card
    action: str
    count: Count = Field(description="the sips each receiver drinks (0: the card gives none)")
    target: Seat | None = Field(default=None, description="give: the seat given the sips")
    side: Literal["left", "right"] | None = Field(
        default=None, description="drawTwo: the neighbour who drinks"
    )
    skipped: Seat | None = Field(default=None, description="skip: the seat skipped")
    direction: int | None = Field(default=None, description="reverse: the new direction")
    everyone: bool | None = Field(default=None, description="an announced action: all join")
    sips: list[Sip]


class ShuffleReveal(Closed):
    """A finished deal's shuffle proof (docs/fairness.md)."""

    serverSeed: str = Field(description="S_k, hex: SHA-256 of it is the deal's commitment")
    entropy: list[str] = Field(description="the clients' contributions, sorted")


class ShuffleNext(Closed):
    """The next deal, while contributions to its seed are open."""

    deal: int
    commitment: str = Field(description="SHA-256 of the next deal's server seed, hex")
    entropy: list[Seat] = Field(description="the seats that contributed so far")


class ShuffleInfo(Closed):
    """The verifiable shuffle: the deal's commitment, its proof once over, the next's."""

    deal: int | None = None
    commitment: str | None = None
    revealed: ShuffleReveal | None = None
    next: ShuffleNext | None = None


class _ViewBase(Closed):
    """What every view holds (docs/protocol.md names most of it)."""

    you: Seat | None = Field(description="your seat; null for spectators")
    hand: list[Card] = Field(description="your cards, in the order you hold them")
    players: list[Player]
    top: Card | None
    color: Color | None = Field(description="the colour in force")
    turn: Seat | None
    direction: Literal[1, -1]
    drawPile: Count
    pendingDraw: Count = Field(description="cards the next draw takes (a stacked penalty)")
    phase: str
    rules: Rules  # type: ignore[valid-type]
    legal: list[LegalEntry]
    seq: Count = Field(description="the seq of the last change this view includes")
    room: RoomInfo
    shuffle: ShuffleInfo = Field(
        default_factory=ShuffleInfo, description="the verifiable shuffle (docs/fairness.md)"
    )
    deadline: int | None = Field(
        default=None, description="server ms when the current decision times out"
    )
    deadlineSeat: Seat | None = Field(default=None, description="whose decision that is")
    bankFrom: int | None = Field(
        default=None,
        description="server ms when the decision's turn time ends and its time bank starts"
        " (the bank runs until `deadline`), or null",
    )


class LobbyView(_ViewBase):
    """Before the first deal (``phase: "lobby"``)."""

    phase: Literal["lobby"]


class _GameView(_ViewBase):
    deal: int
    dealer: Seat | None
    drawn: Card | None = Field(description="the card you just drew, while you may play it")
    unoExposed: Seat | None = Field(description="a seat with one card that did not call UNO")
    dealScores: list[int | None] | None
    totals: list[int]
    winner: Seat | None
    matchOver: bool
    reveal: list[list[Card]] | None = Field(description="every hand, after a deal")
    moves: Count = Field(description="actions applied in this match; send it as `at`")


class SheddingView(_GameView):
    """The shedding games: classic UNO and the presets built on it (house, druk, ...)."""

    phase: Literal["draft", "chooseColor", "playing", "dealOver", "matchOver"]
    offer: Card | None = Field(description="UNO Duo draft: the card offered to you")
    draftPile: Count
    followColor: bool = Field(description="a Wild Draw Four's colour must be followed")
    shownHands: list[list[Card] | None] | None = Field(
        default=None, description="handReveal: per seat its cards if shown to all, else null"
    )
    teams: dict[str, list[int]] | None = Field(
        default=None, description="teams: `of` (each seat's team) and each team's `totals`"
    )
    pendingKind: str | None = Field(
        default=None, description="the draw family pending (what stacks on it), or null"
    )
    dumpColor: Color | None = Field(description="UNO Duo: the colour you may dump")
    unoCalled: list[Seat] = Field(
        description="the seats showing as having called UNO while the deal is on"
    )
    drinks: list[DrinksTally] | None
    side: Literal["light", "dark"] = Field(description="UNO Flip: the side up")
    seedCommitment: str = Field(description="SHA-256 of the state's seed (the deal's), hex")
    seed: str | None = Field(description="the last deal's seed, once the match is over")


class RommyView(_GameView):
    """UNO Rommy: melds on the table, a draw step then a play step."""

    game: Literal["rommy"]
    phase: Literal["playing", "dealOver", "matchOver"]
    discard: list[Card]
    melds: list[Meld]
    step: str = Field(description="draw, then play")
    mustMeld: bool
    stock: Count
    pointsLaid: list[int] | None = Field(
        description="per seat, the points of the cards it melded (null until the deal is over)"
    )
    pointsInHand: list[int] | None = Field(
        description="per seat, the points left in its hand (null until the deal is over)"
    )
    drinks: list[int] | None
    sips: list[Sip]


class BottleView(_GameView):
    """Bottle UNO: turning cards, giving and drinking sips."""

    game: Literal["bottle"]
    phase: Literal["playing", "dealOver", "matchOver"]
    turned: Count
    drinks: list[int]
    sips: list[Sip]
    peeCards: list[int]
    lastAction: BottleLast | None


VIEW_MODELS: tuple[type[BaseModel], ...] = (LobbyView, SheddingView, RommyView, BottleView)
View = _union(VIEW_MODELS)


# --- JSON Patch ---------------------------------------------------------------------------


class PatchOp(Closed):
    """One RFC 6902 operation. The server replaces, adds or removes top-level keys of the
    view (``/hand``, ``/players``); ``""`` replaces the whole view."""

    op: Literal["add", "remove", "replace", "move", "copy", "test"]
    path: str
    value: Any = None
    from_: str | None = Field(default=None, alias="from")


# --- Events -------------------------------------------------------------------------------


def _event(type_: str, doc: str, **fields: Any) -> type[Closed]:
    literal: Any = Literal[type_]
    return create_model(
        f"{type_[0].upper()}{type_[1:]}Event",
        __base__=Closed,
        __doc__=doc,
        type=(literal, ...),
        **fields,
    )


class RaceRtt(Closed):
    """A claimant connection's measured round trips (ms; None: not measured)."""

    app: int | None = Field(description="our ping/pong messages (answered by its code)")
    ws: int | None = Field(description="WebSocket ping frames (answered by its stack)")
    tcp: int | None = Field(description="the kernel's TCP round trip of the socket")


class RaceClaim(Closed):
    """One claim of a race (fairRaces): its place and timing in ms. ``seat`` and ``type``
    are left out for a losing play (they would tell what the claimant holds)."""

    rank: int
    raw: int | None = Field(description="ms from the change to the claim's arrival")
    delay: int | None = Field(description="the connection's credited round trip (capped)")
    rtt: RaceRtt | None = Field(None, description="the round trips the credit came from")
    reaction: int | None = Field(description="raw less delay: what was ranked")
    tie: bool
    superhuman: bool = Field(description="faster than a person reacts")
    seat: Seat | None = None
    type: str | None = None


class RaceOwn(RaceClaim):
    """A losing claimant's own place in the race it lost."""

    window: int = Field(description="ms the claims were held")


_seat = (Seat, ...)
_opt_seat = (Seat | None, None)
_count = (int, ...)
_card = (Card, ...)
_cards_list = (list[Card], ...)

EVENT_MODELS: tuple[type[Closed], ...] = (
    # The room's own events, seen by everyone.
    _event(
        "join",
        "A player (or a bot: its level) took a seat.",
        seat=_seat,
        name=(str, ...),
        bot=(RoomLevel | None, None),
    ),
    _event(
        "leave",
        "A player gave a seat up (bot: mid-match, a bot plays on).",
        seat=_seat,
        name=(str, ...),
        bot=(bool | None, None),
    ),
    _event(
        "kick",
        "The host removed a player (bot: mid-match, a bot plays on).",
        seat=_seat,
        name=(str, ...),
        bot=(bool | None, None),
    ),
    _event("unban", "The host lifted a kick's ban.", name=(str, ...)),
    _event("timeout", "The seat's decision ran out; the room played it.", seat=_seat),
    _event(
        "auto",
        "The room moved for a seat it plays.",
        seat=_seat,
        by=(Literal["bot", "autopilot"], ...),
    ),
    _event(
        "away",
        "The autopilot plays the seat until its player is back.",
        seat=_seat,
        reason=(Literal["absent", "timeouts"], ...),
    ),
    _event("back", "The seat's player is back.", seat=_seat),
    _event("host", "The host role passed to this seat.", seat=_seat, name=(str, ...)),
    _event("ready", "The seat is ready for the next deal (the host deals it).", seat=_seat),
    _event(
        "clockResumed",
        "A writer took the room over after an outage: the decider got `added` ms back.",
        seat=_seat,
        added=(int, ...),
    ),
    _event("paused", "A tournament's host paused the table: no clock runs, nobody moves."),
    _event(
        "unpaused",
        "The table goes on; every running clock got the paused `added` ms back.",
        added=(int, ...),
    ),
    _event(
        "matchEnded",
        "The room ended the match where it stood.",
        reason=(Literal["claim", "empty"], ...),
        winner=_opt_seat,
    ),
    _event("roomEnded", "The room is gone (nobody was there).", reason=(str, ...)),
    _event("connect", "A socket of the seat opened.", seat=_seat),
    _event("disconnect", "A socket of the seat closed.", seat=_seat),
    _event("watch", "A spectator socket opened."),
    _event("unwatch", "A spectator socket closed."),
    _event(
        "watchers",
        "The spectator count the views show was refreshed.",
        count=(Count, ...),
    ),
    _event("settings", "The host changed the room's settings."),
    _event("start", "The match started.", matchId=(str, ...)),
    _event(
        "seating",
        "shuffleSeats: the seats were shuffled; `order[seat]` is that player's former seat.",
        order=(list[Seat], ...),
    ),
    _event(
        "entropy",
        "A seat contributed to the seed of deal `deal` (docs/fairness.md).",
        seat=_seat,
        deal=(int, ...),
    ),
    _event("timer", "The room acted itself (e.g. dealt the next deal).", action=(str, ...)),
    _event(
        "race",
        "Claims on one position were ranked (fairRaces): the winner's change carries this.",
        at=(Count, Field(description="the `moves` the claims answered")),
        window=(int, Field(description="ms the claims were held")),
        winner=_seat,
        claims=(list[RaceClaim], ...),
    ),
    # The engine's events.
    _event("deal", "A deal was dealt.", deal=(int, ...), dealer=(Seat, ...)),
    _event(
        "dealerDraw",
        "Each seat drew a card to choose the dealer: [seat, card] pairs.",
        draws=(list[tuple[Seat, Card]], ...),
    ),
    _event("firstCard", "The first card was turned up.", card=_card),
    _event("firstCardReshuffled", "The first card was shuffled back.", card=_card),
    _event(
        "play",
        "Cards were played.",
        seat=_seat,
        cards=_cards_list,
        color=(Color | None, None),
        target=_opt_seat,
    ),
    _event("jumpIn", "The play that follows was a jump-in.", seat=_seat),
    _event(
        "draw",
        "Cards were drawn; only the drawer sees `cards`.",
        seat=_seat,
        count=_count,
        reason=(str, ...),
        cards=(list[Card] | None, None),
    ),
    _event("pass", "The seat passed.", seat=_seat),
    _event(
        "misplay",
        "misplayPenalty: the seat's refused play (`code`: why) costs it a card.",
        seat=_seat,
        cards=_cards_list,
        code=(str, ...),
    ),
    _event(
        "handLimit",
        "handLimit (rule out): these seats' hands reached the limit; they sit the deal out.",
        seats=(list[Seat], ...),
    ),
    _event(
        "knockedOut",
        "knockout scoring: these seats' totals reached the target; they leave the match.",
        seats=(list[Seat], ...),
    ),
    _event(
        "placed",
        "placings: the seat went out of the deal (or, at its end, is left) with this place.",
        seat=_seat,
        place=(int, ...),
    ),
    _event(
        "clockOut",
        "blitzSeconds: the seat's match clock ran out; the deal and the match end with it.",
        seat=_seat,
    ),
    _event(
        "bomb",
        "bomb: `count` cards of one number played together; every other seat draws one.",
        seat=_seat,
        count=_count,
    ),
    _event(
        "blindPlay",
        "blindDraw: the card just drawn is played unseen (the play event follows).",
        seat=_seat,
    ),
    _event("penalty", "The seat must draw a penalty.", seat=_seat, count=_count),
    _event("skip", "The seat was skipped.", seat=_seat),
    _event("reverse", "The direction changed.", direction=(int, ...), count=(int, 1)),
    _event(
        "deflect",
        "A Skip or Reverse sent the pending draw penalty on to `target`.",
        seat=_seat,
        card=(Literal["S", "R"], ...),
        target=_seat,
        pending=_count,
    ),
    _event("reshuffle", "The discard pile became the draw pile.", cards=(int, ...)),
    _event("callUno", "The seat called UNO.", seat=_seat),
    _event("catchUno", "The seat caught `target` without UNO.", seat=_seat, target=_seat),
    _event(
        "challenge",
        "A Wild Draw Four was challenged; the challenger sees `hand`.",
        seat=_seat,
        target=_seat,
        guilty=(bool, ...),
        hand=(list[Card] | None, None),
    ),
    _event("chooseColor", "The seat named a colour.", seat=_seat, color=(Color, ...)),
    _event("swapHands", "Two seats swapped hands.", seat=_seat, target=_seat),
    _event("passHands", "Every hand moved on.", direction=(int, ...)),
    _event("shuffleHands", "Wild Shuffle Hands: the hands were dealt anew.", seat=_seat),
    _event(
        "flip",
        "UNO Flip: everything turned over.",
        seat=_opt_seat,
        side=(str, ...),
        top=(Card | None, None),
    ),
    _event(
        "keep",
        "UNO Duo draft: the seat kept a card (its own seat sees it).",
        seat=_seat,
        card=(Card | None, None),
        discarded=(Card | None, None),
    ),
    _event(
        "discard",
        "UNO Duo draft: the seat discarded the offered card.",
        seat=_seat,
        card=(Card | None, None),
        discarded=(Card | None, None),
    ),
    _event(
        "sip",
        "DrukUNO: a seat drinks.",
        seat=_seat,
        count=_count,
        reason=(str, ...),
    ),
    _event("sips", "Sips given.", seat=_seat, count=_count, reason=(str, ...)),
    _event(
        "dealOver",
        "The deal ended.",
        winner=(Seat | None, None),
        seat=_opt_seat,
        deal=(int | None, None),
        scores=(list[int | None] | None, None),
        dealScores=(list[int | None] | None, None),
        totals=(list[int] | None, None),
        hands=(list[list[Card]] | None, None),
        drinks=(list[int] | None, None),
    ),
    _event(
        "matchOver",
        "The match ended.",
        winner=(Seat | None, None),
        totals=(list[int] | None, None),
        drinks=(list[int] | None, None),
    ),
    # UNO Rommy.
    _event(
        "meld",
        "UNO Rommy: a meld was laid.",
        seat=_seat,
        meld=(int, ...),
        kind=(str, ...),
        cards=_cards_list,
        as_=(list[Card], Field(alias="as")),
        seats=(list[Seat], ...),
    ),
    _event(
        "layOff",
        "UNO Rommy: cards added to a meld.",
        seat=_seat,
        meld=(int, ...),
        cards=_cards_list,
    ),
    _event("takeDiscard", "UNO Rommy: the top discard taken.", seat=_seat, card=_card),
    _event("takePile", "UNO Rommy: the discard pile taken.", seat=_seat, cards=_cards_list),
    _event(
        "discardCard",
        "UNO Rommy: a card discarded.",
        seat=_seat,
        card=_card,
        acts=(bool | None, None),
    ),
    _event(
        "swapJoker",
        "UNO Rommy: a joker swapped out of a meld.",
        seat=_seat,
        meld=(int, ...),
        card=_card,
        joker=_card,
        jokerOwner=(Seat | None, None),
    ),
    # Bottle UNO.
    _event(
        "turnCard",
        "Bottle UNO: a card was turned.",
        seat=_seat,
        card=_card,
        action=(str | None, None),
        count=(Count, Field(description="the sips each receiver drinks (0: none)")),
        side=(Literal["left", "right"] | None, None),
        target=_opt_seat,
        everyone=(bool | None, None),
        skipped=_opt_seat,
        direction=(int | None, None),
    ),
)
Event = Annotated[_union(EVENT_MODELS), Field(discriminator="type")]  # type: ignore[valid-type]
