"""The one error model of every REST route: ``{"code", "message"}``, and for a request
that does not validate ``422 {"code": "invalid_request", "message", "errors"}``.

Every refusal raises the one error class, :class:`app.errors.RoomError` (status,
code, message); the app's handlers (:mod:`app.main`) answer it, and :class:`ErrorRoute`
answers it the same way for a router mounted on an app without them.

:func:`responses` documents, per route, the statuses and codes it can really answer, so
that ``/openapi.json`` tells a client what to expect.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Literal

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from pydantic import BaseModel, Field

from app.errors import RoomError

# The code of every request that does not validate (a field missing, of the wrong type, out
# of range, or not allowed), on every route.
VALIDATION_CODE = "invalid_request"

RULE_CODES = ("rules/unknown_option", "rules/bad_value", "rules/unknown_preset", "rules/clash")


class ErrorOut(BaseModel):
    code: str = Field(description="stable and machine-readable")
    message: str = Field(description="English, for people")


class FieldError(BaseModel):
    loc: list[str | int] = Field(description="where: body, query, path or header, then keys")
    msg: str


class ValidationErrorOut(BaseModel):
    code: Literal["invalid_request"]
    message: str = Field(description="the first problem, as `where: what`")
    errors: list[FieldError]


def validation_body(errors: Any) -> dict[str, Any]:
    """The 422 body for pydantic's error list."""
    errors = list(errors) or [{"loc": (), "msg": "invalid request"}]
    first = errors[0]
    where = ".".join(str(p) for p in first.get("loc", ()))
    return {
        "code": VALIDATION_CODE,
        "message": f"{where}: {first.get('msg', 'invalid')}" if where else first.get("msg", ""),
        "errors": [{"loc": list(e.get("loc", ())), "msg": e.get("msg", "")} for e in errors],
    }


_REASONS = {
    400: "Bad request",
    401: "No bearer token",
    403: "Refused",
    404: "Not found",
    409: "Conflicts with the room's state",
    422: "The request does not validate",
    429: "Over a cap",
    503: "The server is shutting down, or the room did not answer in time",
}


def responses(
    errors: Mapping[int, tuple[str, ...]], validated: bool = True
) -> dict[int | str, dict[str, Any]]:
    """OpenAPI ``responses`` for a route: each status with the codes it answers.

    ``validated``: the route reads a body, path or query parameters, so it may answer 422
    ``invalid_request``.
    """
    out: dict[int | str, dict[str, Any]] = {}
    statuses = dict(errors)
    if validated:
        statuses[422] = (VALIDATION_CODE, *statuses.get(422, ()))
    for status, codes in sorted(statuses.items()):
        listed = ", ".join(f"`{c}`" for c in codes)
        entry: dict[str, Any] = {"description": f"{_REASONS.get(status, 'Error')}: {listed}"}
        if status == 422 and codes == (VALIDATION_CODE,):
            entry["model"] = ValidationErrorOut
        elif status == 422:
            # Either a validation error, or an engine refusal of well-formed input.
            entry["model"] = ValidationErrorOut | ErrorOut
        else:
            entry["model"] = ErrorOut
        out[status] = entry
    return out


class ErrorRoute(APIRoute):
    """A route that answers :class:`RoomError` and bad requests as ``{"code", "message"}``
    itself, whatever exception handlers the app installs."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def route_handler(request: Request) -> Response:
            try:
                return await handler(request)
            except RoomError as error:
                return JSONResponse(error.to_json(), status_code=error.status)
            except RequestValidationError as error:
                return JSONResponse(validation_body(error.errors()), status_code=422)

        return route_handler
