"""Quick play: a queue of players who want a game now, matched into rated tables of 4 by
rating (docs/ratings.md, "Quick play"). Tickets live in the room store's Redis (or this
process), one node matches at a time under a lease, and a table is claimed in the queue
before its room exists, so a node killed while matching loses no ticket and seats nobody
twice: the next holder of the lease finishes the tables it finds claimed."""
