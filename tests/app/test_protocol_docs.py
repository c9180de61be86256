"""The published JSON Schemas: docs/schemas/ holds exactly what the models generate,
docs/protocol.md indexes them, and the server serves the same."""

from __future__ import annotations

from pathlib import Path

from jsonschema import Draft202012Validator
from live import Server

from app.ws.schemas import SCHEMA_DIR, asyncapi, embed, files, schemas

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
FIX = "run: python -m app.ws.schemas --write"


def test_protocol_doc_indexes_the_generated_schemas() -> None:
    text = DOC.read_text()
    assert embed(text) == text, FIX


def test_the_schema_files_are_the_generated_ones() -> None:
    wanted = files()
    assert {p.name for p in SCHEMA_DIR.glob("*.json")} == set(wanted), FIX
    for name, text in wanted.items():
        assert (SCHEMA_DIR / name).read_text() == text, f"{name}: {FIX}"


def test_every_schema_is_a_valid_draft_2020_12_schema() -> None:
    for name, schema in schemas().items():
        assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema", name
        Draft202012Validator.check_schema(schema)


def test_every_message_schema_is_closed_and_names_its_type() -> None:
    for name, schema in schemas().items():
        if name.endswith("Message") and name not in ("ClientMessage", "ServerMessage"):
            assert "const" in schema["properties"]["type"], name
            assert schema["additionalProperties"] is False, name


def test_the_asyncapi_document_names_every_message_both_ways() -> None:
    doc = asyncapi()
    assert doc["asyncapi"] == "3.0.0" and doc["info"]["version"] == "uno.v1"
    channel = doc["channels"]["room"]
    assert channel["address"] == "/ws/rooms/{roomId}"
    names = set(channel["messages"])
    assert {"ActionMessage", "SnapshotMessage", "PatchMessage", "AckMessage"} <= names
    for operation in doc["operations"].values():
        assert operation["action"] in ("send", "receive")
        target = operation["messages"][0]["$ref"].rsplit("/", 1)[-1]
        assert target in names
    for message in doc["components"]["messages"].values():
        ref = message["payload"]["schema"]["$ref"]
        assert (SCHEMA_DIR / ref).is_file(), ref


async def test_the_server_publishes_the_schemas(server: Server) -> None:
    index = (await server.http.get("/api/schemas")).json()
    assert index["version"] == "uno.v1"
    assert set(index["schemas"]) == set(schemas()) | {"asyncapi"}
    view = (await server.http.get("/api/schemas/View")).json()
    assert view == schemas()["View"]
    assert (await server.http.get("/api/schemas/asyncapi")).json() == asyncapi()
    missing = await server.http.get("/api/schemas/Nope")
    assert missing.status_code == 404 and missing.json()["code"] == "schema_not_found"
