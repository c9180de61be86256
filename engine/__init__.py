"""The UNO rules engine: pure functions over immutable game states.

Nothing here does I/O, reads a clock or touches global random state; randomness comes from
a seed held in the state. ``app/`` imports this package, never the other way round.
"""
