"""The WebSocket side: message models, per-connection delivery, the endpoint."""
