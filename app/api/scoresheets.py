"""REST for scoresheet matches (docs/scoresheet.md): tables playing with physical cards.

A scoresheet stores players, rules and one entry per player per deal; standings are always
recomputed by :mod:`engine.scoresheet` from the entries under the current rules. A new deal
that breaks the entry rules is refused (``422``, nothing stored); changing an option never
touches the entries and reports deals that now break the rules as ``warnings``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictInt,
    StringConstraints,
    WithJsonSchema,
)

from app.api.errors import RULE_CODES, ErrorRoute, responses
from app.api.rules_schema import RULES_CHANGE_SCHEMA, RULES_SCHEMA
from app.api.text import (
    ID_MAX,
    ID_PATTERN,
    NAME_PATTERN,
    TEXT_PATTERN,
    cleaned_name,
    cleaned_text,
)
from app.db import ScoresheetRecord
from app.deps import Db
from app.errors import RoomError
from engine.errors import EngineError
from engine.rules import rules_from_json, with_options
from engine.scoresheet import add_deal, standings

router = APIRouter(prefix="/api/scoresheets", tags=["scoresheets"], route_class=ErrorRoute)
ScoresheetId = Annotated[str, Path(alias="scoresheetId", max_length=ID_MAX, pattern=ID_PATTERN)]
PlayerName = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=100, pattern=NAME_PATTERN),
    AfterValidator(cleaned_name),
]

_ENTRY_CODES = ("scoresheet/bad_entry", "scoresheet/wrong_length", "scoresheet/bad_input")
CREATE_ERRORS = responses({422: (*RULE_CODES, "rules/not_an_object", "scoresheet/bad_players")})
GET_ERRORS = responses({404: ("scoresheet_not_found",)})
DEAL_ERRORS = responses(
    {404: ("scoresheet_not_found",), 409: ("scoresheet/finished",), 422: _ENTRY_CODES}
)
RULES_ERRORS = responses(
    {
        404: ("scoresheet_not_found",),
        409: ("rules/clash",),
        422: ("rules/unknown_option", "rules/bad_value", "rules/not_an_object"),
    }
)


class StandingOut(BaseModel):
    player: str
    total: int
    place: int


class ScoresheetOut(BaseModel):
    """The sheet as stored plus its standings (docs/scoresheet.md), always recomputed."""

    id: str
    name: str
    rules: dict[str, Any]
    players: list[str]
    deals: list[list[int]]
    created: str
    updated: str
    totals: list[int]
    standings: list[StandingOut]
    winner: str | None
    finished: bool
    warnings: list[str]


class ScoresheetDealOut(ScoresheetOut):
    deal: int


class ScoresheetCreate(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    name: Annotated[
        str | None, Field(max_length=100, pattern=TEXT_PATTERN), AfterValidator(cleaned_text)
    ] = None
    players: list[PlayerName] = Field(
        min_length=2, max_length=10, json_schema_extra={"uniqueItems": True}
    )
    # A preset name plus option overrides, as for rooms; scoring options are what count.
    rules: Annotated[dict[str, Any], WithJsonSchema(RULES_SCHEMA)] = Field(default_factory=dict)


class DealEntries(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)

    # One number per player, in the scoresheet's player order.
    entries: list[StrictInt]


@router.post("", status_code=201, response_model=ScoresheetOut, responses=CREATE_ERRORS)
async def create_scoresheet(db: Db, body: ScoresheetCreate) -> dict[str, Any]:
    """Start a scoresheet: its players (2-10, distinct names) and rules."""
    with _engine_errors():
        rules = rules_from_json(body.rules)
        # The engine refuses repeated names: standings are reported per name.
        standings(rules, body.players, [])
    name = body.name.strip() if body.name and body.name.strip() else "Scoresheet"
    sheet = await db.create_scoresheet(name=name, players=body.players, rules=rules.to_json())
    return _sheet_json(sheet)


@router.get("/{scoresheetId}", response_model=ScoresheetOut, responses=GET_ERRORS)
async def get_scoresheet(db: Db, scoresheet_id: ScoresheetId) -> dict[str, Any]:
    """The scoresheet with its entries and standings (totals, places, winner, warnings)."""
    sheet = await db.scoresheet(scoresheet_id)
    if sheet is None:
        raise _not_found(scoresheet_id)
    return _sheet_json(sheet)


@router.post(
    "/{scoresheetId}/deals",
    status_code=201,
    response_model=ScoresheetDealOut,
    responses=DEAL_ERRORS,
)
async def add_scoresheet_deal(
    db: Db, scoresheet_id: ScoresheetId, body: DealEntries
) -> dict[str, Any]:
    """Enter one deal. Refused, with every problem named, if the entries break the rules."""

    def check(sheet: ScoresheetRecord, entries: list[int], number: int) -> None:
        # Against the sheet as stored, inside the writing transaction.
        rules = rules_from_json(sheet.rules)
        add_deal(rules, sheet.players, sheet.deals, entries)

    with _engine_errors():
        sheet = await db.add_scoresheet_deal(scoresheet_id, body.entries, check)
    if sheet is None:
        raise _not_found(scoresheet_id)
    return {**_sheet_json(sheet), "deal": len(sheet.deals)}


@router.patch(
    "/{scoresheetId}/rules",
    response_model=ScoresheetOut,
    responses=RULES_ERRORS,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/json": {"schema": RULES_CHANGE_SCHEMA}},
        }
    },
)
async def change_scoresheet_rules(
    db: Db,
    scoresheet_id: ScoresheetId,
    changes: Annotated[dict[str, Any], Body()],
) -> dict[str, Any]:
    """Change rule options (``{option: value}``). Entries stay; standings are recomputed;
    options whose new values clash with each other or with the sheet's others are a
    conflict with the sheet (``409 rules/clash``)."""

    def change(sheet: ScoresheetRecord) -> dict[str, Any]:
        try:
            return with_options(rules_from_json(sheet.rules), changes).to_json()
        except EngineError as error:
            if error.code == "rules/clash":
                raise RoomError.from_engine(error, 409) from None
            raise

    with _engine_errors():
        sheet = await db.change_scoresheet_rules(scoresheet_id, change)
    if sheet is None:
        raise _not_found(scoresheet_id)
    return _sheet_json(sheet)


def _sheet_json(sheet: ScoresheetRecord) -> dict[str, Any]:
    result = standings(rules_from_json(sheet.rules), sheet.players, sheet.deals)
    return {**sheet.to_json(), **result}


def _not_found(scoresheet_id: str) -> RoomError:
    return RoomError(404, "scoresheet_not_found", f"no scoresheet {scoresheet_id!r}")


def _engine_error(error: EngineError) -> RoomError:
    # A finished match is a conflict with the sheet's state, not a malformed entry.
    status = 409 if error.code == "scoresheet/finished" else 422
    return RoomError.from_engine(error, status)


@contextmanager
def _engine_errors() -> Iterator[None]:
    """Engine refusals (bad rules, bad entries: ScoresheetError) as API errors."""
    try:
        yield
    except EngineError as error:
        raise _engine_error(error) from error
