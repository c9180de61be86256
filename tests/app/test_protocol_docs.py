"""docs/protocol.md carries the JSON Schemas of the current message models."""

from __future__ import annotations

from pathlib import Path

from app.ws.schemas import embed, schemas

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"


def test_protocol_doc_schemas_are_generated_from_the_models() -> None:
    text = DOC.read_text()
    assert embed(text) == text, "run: python -m app.ws.schemas --write docs/protocol.md"


def test_every_message_has_a_schema_with_its_type() -> None:
    for name, schema in schemas().items():
        assert "type" in schema["properties"], name
