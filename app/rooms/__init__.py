"""Rooms: the command log's writer, the per-seat views, and the node-side room service."""
