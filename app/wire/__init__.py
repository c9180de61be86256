"""What the server says on its sockets: the shape of every room-socket message the server
sends (``messages``) and of what travels inside them (``content``: actions, views,
events, patch operations). Below ``app.rooms``, which builds the messages, and
``app.ws``, which parses client messages and sends; it imports neither."""
