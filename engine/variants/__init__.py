"""Games with a shape of their own (UNO Rommy, Bottle UNO); importing this registers them."""

from engine.variants import bottle, rommy  # noqa: F401
