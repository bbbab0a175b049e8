"""Where a run's games are played: a local process pool (the default) or a Dask cluster.

Both are `concurrent.futures` executors, so the runner submits games and collects finished ones
the same way, and writes every result itself as it arrives. A Dask cluster is reached by its
scheduler's address (``tcp://host:8786``); its workers need tengen installed and the engines'
commands on their machines, as the games and the engines run there. Dask comes with the
``cluster`` extra (``pip install 'tengen[cluster]'``) and is imported only when asked for.
"""

from __future__ import annotations

from collections.abc import Iterator
from concurrent.futures import Executor
from contextlib import contextmanager

from tengen.match.pool import stopping_pool

CONNECT_TIMEOUT = 20.0  # seconds to reach a cluster's scheduler


@contextmanager
def executor(workers: int, cluster: str | None = None) -> Iterator[Executor]:
    """`workers` local processes, or the Dask cluster at `cluster`; games left running or
    queued when the block ends (the run is done, decided early, or interrupted) are cancelled.

    Raises ValueError if Dask is not installed or the scheduler cannot be reached.
    """
    if cluster is None:
        with stopping_pool(workers) as pool:
            yield pool
        return
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("a cluster run needs Dask: pip install 'tengen[cluster]'") from None
    failure: str | None = None
    try:
        client = Client(  # type: ignore[no-untyped-call]
            cluster, timeout=CONNECT_TIMEOUT, set_as_default=False
        )
    except (OSError, TimeoutError, ValueError) as err:
        failure = f"cannot reach the Dask scheduler at {cluster}: {err}"
    if failure is not None:  # raised here, so that the half-made client is not kept alive
        raise ValueError(failure)
    with client:
        pool = client.get_executor(pure=False)  # type: ignore[no-untyped-call]  # never cached
        try:
            yield pool
        finally:
            pool.shutdown(wait=False)
