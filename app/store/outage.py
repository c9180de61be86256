"""What a store raises while it cannot be reached, and how failures are logged.

An outage (Redis down or restarting) is expected and already answered where it matters
(503 ``unavailable`` by REST, 1013 on sockets); its failures are logged as one warning
line each, so that a traceback in a log is always a bug worth reading.
"""

from __future__ import annotations

import logging
import sys

from redis.exceptions import ClusterError as _ClusterError
from redis.exceptions import ConnectionError as _RedisConnectionError
from redis.exceptions import RedisClusterException as _RedisClusterException
from redis.exceptions import TimeoutError as _RedisTimeoutError
from redis.exceptions import TryAgainError as _TryAgainError

from app.store.base import StoreUnavailable

# On a Redis Cluster: also a shard down or failing over (CLUSTERDOWN, TRYAGAIN, a slot no
# master serves).
OUTAGE: tuple[type[Exception], ...] = (
    StoreUnavailable,
    _RedisConnectionError,
    _RedisTimeoutError,
    _ClusterError,
    _TryAgainError,
    _RedisClusterException,
)


def log_failure(log: logging.Logger, message: str, *args: object) -> None:
    """Log the exception being handled: a warning without traceback for an outage's,
    with its traceback (``log.exception``) for anything else. Call in ``except``."""
    err = sys.exc_info()[1]
    if isinstance(err, OUTAGE):
        log.warning(message + " (the store cannot be reached: %r)", *args, err)
    else:
        log.exception(message, *args)
