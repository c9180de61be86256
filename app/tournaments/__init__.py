"""Tournaments: the table Swiss format (`swiss`, pure) built on the rooms."""
