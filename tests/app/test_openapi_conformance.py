"""schemathesis against /openapi.json of a real server process: generated requests, valid
and invalid, for every operation; no answer may be a server error, a status the route does
not document, or a body its documented schema refuses, and no invalid request accepted.
Bounded: a few hundred requests."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from processes import AppProcess

EXAMPLES = 12  # per operation, generation mode and parameter choice


def _conformance(base: str, real: dict[str, str], auth: dict[str, str]) -> tuple[int, list[str]]:
    """Run every operation's cases; the number of calls and the failures found."""
    import schemathesis
    from hypothesis import HealthCheck, given, settings
    from hypothesis.errors import Unsatisfiable
    from schemathesis.checks import (
        content_type_conformance,
        negative_data_rejection,
        not_a_server_error,
        response_headers_conformance,
        response_schema_conformance,
        status_code_conformance,
    )
    from schemathesis.generation.modes import GenerationMode

    checks = [
        not_a_server_error,
        status_code_conformance,
        content_type_conformance,
        response_schema_conformance,
        response_headers_conformance,
        # Bad input is refused (4xx): no boolean 0, no integer "4".
        negative_data_rejection,
    ]
    schema = schemathesis.openapi.from_url(f"{base}/openapi.json")
    calls = 0
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        names = {p.name for p in operation.path_parameters}
        fixed = {k: v for k, v in real.items() if k in names}
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            for params in [None, fixed] if fixed else [None]:
                strategy = operation.as_strategy(generation_mode=mode, path_parameters=params)

                @settings(
                    max_examples=EXAMPLES,
                    deadline=None,
                    derandomize=True,
                    database=None,
                    suppress_health_check=list(HealthCheck),
                )
                @given(case=strategy)
                def run(case: Any) -> None:
                    nonlocal calls
                    calls += 1
                    case.call_and_validate(base_url=base, headers=auth, checks=checks)

                try:
                    run()
                except Unsatisfiable:
                    pass  # e.g. no invalid request exists for a route without parameters
                except BaseException as err:  # a FailureGroup: schemathesis's report
                    where = f"{mode.value} {operation.method.upper()} {operation.path}"
                    failures.append(f"{where}: {err}"[:1500])
    return calls, failures


async def test_every_answer_matches_the_openapi_document(tmp_path: Path) -> None:
    env = {
        "UNO_REST_WRITE_RATE": "",
        "UNO_ROOM_CREATE_RATE": "",
        "UNO_MAX_OPEN_LOBBIES_PER_ADDRESS": "100000",
    }
    server = AppProcess(tmp_path, env=env)
    try:
        await server.healthy()
        async with httpx.AsyncClient(base_url=server.base, timeout=10) as http:
            room = (await http.post("/api/rooms", json={"name": "t", "seats": 3})).json()
            await http.post(f"/api/rooms/{room['roomId']}/join", json={"name": "p"})
        real = {"room_id": room["roomId"], "roomId": room["roomId"]}
        auth = {"Authorization": f"Bearer {room['hostToken']}"}
        calls, failures = await asyncio.to_thread(_conformance, server.base, real, auth)
    finally:
        server.terminate()
        await server.exited()
    assert calls > 200
    assert failures == [], "\n\n".join(failures)
    assert "Traceback" not in server.log(), server.log()[-3000:]
