"""Accounts and ratings, apart from any transport or storage: how names compare, how
passwords and tokens are kept, and the rating model (OpenSkill's Plackett-Luce). The SQL
lives in :mod:`app.db.accounts` and :mod:`app.db.ratings`, the routes in
:mod:`app.api.accounts` and :mod:`app.api.players`."""
