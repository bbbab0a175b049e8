"""Compiled kernels that never keep a caller waiting for the compiler.

numba compiles a kernel on its first call, or loads it from its on-disk cache: seconds on a
fresh install. Python code therefore calls kernels through `live(module)`, a namespace that
holds each kernel's interpreted twin (the very same function, its code object run by Python
with globals that name the other twins) until a background thread has every kernel compiled
or loaded, and from then on the compiled kernels. There is one implementation of each rule.

On a cold cache the compiling is done by a subprocess (``python -m tengen.warm``: it plays a
little of everything, so numba writes its cache, and lists the signatures it compiled), away
from this process's GIL; this process then loads those signatures from the cache. Set
``TENGEN_JIT=compiled`` to call the compiled kernels from the start (numba compiles on
demand, as plain numba does) or ``TENGEN_JIT=interpreted`` never to compile.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import importlib
import logging
import os
import pickle
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any, cast

import numba
import numpy as np
from numba.core.dispatcher import Dispatcher

MODES = ("background", "compiled", "interpreted")
# Seconds a caller waits for the kernels before it is told why: loading them from a warm cache
# took 0.9 s on an idle machine and 1.4-1.6 s with both cores busy (which at 1 s told every
# start on a busy machine that numba was compiling); a compile on a cold cache takes minutes.
NOTICE_AFTER = 5.0
SIGNATURES = "tengen-signatures-{key}.pickle"  # in numba's cache folder of `tengen.core`
SOURCES = "tengen-sources-{key}"  # beside it: numba's cache was made from these sources
ROOT = Path(__file__).resolve().parent.parent  # the tengen package
RULES = ("tengen.core.layout", "tengen.core.kernels", "tengen.core.rebuild")  # warmed up first

_log = logging.getLogger(__name__)
_lock = threading.RLock()
_ready = threading.Event()
_started = False
_checked = False  # whether this process has made sure numba's cache fits the sources
_spaces: list[tuple[ModuleType, ModuleType]] = []  # (live namespace, its module)
_twins: dict[int, FunctionType] = {}  # id(dispatcher) -> interpreted twin
_namespaces: dict[int, dict[str, Any]] = {}  # id(module globals) -> the twins' globals
_views: dict[int, ModuleType] = {}  # id(module globals) -> a module of twins


def lean_options() -> dict[str, Any]:
    """The options of the kernels that allocate nothing (the Gomoku player's moves and
    searches, the renju judge): without numba's reference counting, which would count
    every array of every call (the searches pass twenty at a time) and took half their
    time. The arrays are Python's, alive for the call; a kernel that allocated would not
    compile. The switch is numba's private `_nrt` option: a numba release without it gets
    the counted kernels, slower but the same."""
    options: dict[str, Any] = {"cache": True, "nogil": True}
    try:
        from numba.core.cpu import CPUTargetOptions
    except ImportError:  # a numba that moved its options
        return options
    if hasattr(CPUTargetOptions, "_nrt"):
        options["_nrt"] = False
    return options


lean = numba.njit(**lean_options())  # the decorator of those kernels
# The same for the small kernels a search calls at every node, inlined into their callers:
# a call passes each array of the state as seven or nine words (some 300 words a call), and
# inlining these made the search 8% faster to a depth (bench/STRENGTH.md).
lean_inline = numba.njit(inline="always", **lean_options())


def mode() -> str:
    """How kernels are called: TENGEN_JIT, one of `MODES` (background when unset)."""
    value = os.environ.get("TENGEN_JIT", "background")
    if value not in MODES:
        raise ValueError(f"TENGEN_JIT must be one of {', '.join(MODES)}, not {value!r}")
    return value


def live(module: ModuleType) -> Any:
    """`module`'s names for Python callers: its kernels interpreted until compiled ones are
    ready (see the module docstring), everything else as it is. The first call of a twin
    starts the warm-up (not the import, which it would slow down)."""
    current = mode()
    if current == "compiled":  # in background mode the warm-up checks it, off the import
        fresh_cache()
    space = ModuleType(module.__name__, module.__doc__)
    with _lock:
        compiled = current == "compiled" or _ready.is_set()
        for name, value in vars(module).items():
            if name.startswith("__"):
                continue
            if isinstance(value, Dispatcher) and not compiled:
                value = _wrapping(interpreted(value))
            setattr(space, name, value)
        _spaces.append((space, module))
    return space


def interpreted(kernel: Any) -> FunctionType:
    """The interpreted twin of a compiled `kernel` (a numba dispatcher): its own Python code,
    calling the twins of the kernels it calls."""
    with _lock:
        twin = _twins.get(id(kernel))
        if twin is None:
            f = kernel.py_func
            twin = FunctionType(
                f.__code__, _namespace(f.__globals__), f.__name__, f.__defaults__, f.__closure__
            )
            twin.__doc__ = f.__doc__
            _twins[id(kernel)] = twin
        return twin


def ready() -> bool:
    """Whether Python callers now get the compiled kernels."""
    return _ready.is_set() or mode() == "compiled"


def wait(timeout: float | None = None) -> bool:
    """Block until the compiled kernels are ready (e.g. before a player's clock starts);
    False if `timeout` seconds passed first or they never will be (interpreted mode)."""
    current = mode()
    if current == "compiled":
        return True
    if current == "interpreted":
        return False
    start()
    first = NOTICE_AFTER if timeout is None else min(timeout, NOTICE_AFTER)
    if _ready.wait(first):
        return True
    if timeout is not None and timeout <= NOTICE_AFTER:
        return False
    _log.warning(
        "tengen: waiting for its compiled kernels (numba compiles them once after an"
        " install or an upgrade: a few minutes; later starts load them in seconds)"
    )
    return _ready.wait(None if timeout is None else timeout - NOTICE_AFTER)


def start() -> None:
    """Start the background warm-up once per process (in background mode)."""
    global _started
    with _lock:
        if _started:
            return
        _started = True
        if mode() != "background":
            return
    threading.Thread(target=_warm_up, name="tengen-jit", daemon=True).start()


def record(path: Path | None = None) -> Path:
    """Write the signatures every kernel of tengen has compiled in this process (what
    ``python -m tengen.warm`` calls after its workload); return the file written."""
    found: dict[tuple[str, str], list[Any]] = {}
    for name, module in list(sys.modules.items()):
        if not name.startswith("tengen.") or module is None:
            continue
        for attr, value in list(vars(module).items()):
            if isinstance(value, Dispatcher) and value.__module__ == name and value.signatures:
                found[(name, attr)] = list(value.signatures)
    target = path or signature_path()
    tmp = target.with_suffix(f".{os.getpid()}.tmp")
    tmp.write_bytes(pickle.dumps(found))
    tmp.replace(target)  # whole or absent, for a process reading it meanwhile
    for old in target.parent.glob(SIGNATURES.format(key="*")):
        if old != target:
            old.unlink(missing_ok=True)
    return target


def signature_path() -> Path:
    """Where the signature list of this build of tengen lives: beside numba's cache of
    `tengen.core`, named by a key of the Python, numba and every tengen source file."""
    return _core_cache() / SIGNATURES.format(key=source_key(ROOT))


@functools.cache
def source_key(root: Path) -> str:
    """A key of the Python, numba and every source file under `root` (path, time, size),
    read once a process."""
    digest = hashlib.sha256(f"{sys.version}\n{numba.__version__}\n".encode())
    for source in sorted(root.rglob("*.py")):
        stat = source.stat()
        digest.update(f"{source.relative_to(root)} {stat.st_mtime_ns} {stat.st_size}\n".encode())
    return digest.hexdigest()[:16]


def fresh_cache() -> None:
    """Once a process, before a kernel is loaded: drop numba's cached tengen kernels if they
    were made from other sources (`drop_stale_cache`)."""
    global _checked
    with _lock:
        if _checked or os.environ.get("TENGEN_JIT_CACHE") == "checked":
            return
        _checked = True
        try:
            drop_stale_cache(ROOT, _core_cache())
        except Exception:  # a cache that cannot be checked must not stop the program
            _log.exception("tengen: checking numba's cache against the sources failed")


def drop_stale_cache(root: Path, folder: Path) -> bool:
    """Delete numba's cached kernels of the package at `root` unless `folder` holds the mark
    of its current sources, then leave that mark; whether any were deleted. numba checks a
    cached kernel against its own file only, yet a kernel carries the kernels it calls (and
    the constants it reads) from other modules compiled in: after an edit of one module, a
    kernel of another would load with the old code."""
    mark = folder / SOURCES.format(key=source_key(root))
    if mark.exists():
        return False
    folder.mkdir(parents=True, exist_ok=True)
    dropped = False
    with _exclusive(folder / "tengen-warm.lock"):
        if mark.exists():
            return False
        for cache in _cache_folders(root):
            for old in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
                old.unlink(missing_ok=True)
                dropped = True
        for old in folder.glob(SOURCES.format(key="*")):
            old.unlink(missing_ok=True)
        mark.touch()
    return dropped


def _core_cache() -> Path:
    """numba's cache folder of `tengen.core` (its choice: in the tree or the user's cache)."""
    from tengen.core import layout

    return Path(cast(Any, layout.init_state)._cache._cache_path)


def _cache_folders(root: Path) -> set[Path]:
    """The folders where numba keeps the cached kernels of the source files under `root`,
    found as numba finds them: the first of its cache locators that takes the file."""
    from numba.core.caching import CacheImpl

    folders: set[Path] = set()
    for package in sorted({source.parent for source in root.rglob("*.py")}):
        source = next(package.glob("*.py"))
        for locator in cast(list[Any], CacheImpl._locator_classes):
            found = locator.from_function(_cache_folders, str(source))
            if found is not None:
                folders.add(Path(found.get_cache_path()))
                break
    return folders


# -- internals -----------------------------------------------------------------------------


def _namespace(module_globals: dict[str, Any]) -> dict[str, Any]:
    """The globals the twins of a module's kernels run with: the module's own, each kernel
    replaced by its twin and each tengen module of kernels by a module of twins."""
    space = _namespaces.get(id(module_globals))
    if space is None:
        space = _namespaces[id(module_globals)] = {}
        for name, value in list(module_globals.items()):
            if isinstance(value, Dispatcher):
                value = interpreted(value)
            elif isinstance(value, ModuleType) and value.__name__.startswith("tengen."):
                value = _view(value)
            space[name] = value
    return space


def _view(module: ModuleType) -> ModuleType:
    """`module` as the twins see it: its kernels interpreted."""
    view = _views.get(id(vars(module)))
    if view is None:
        view = _views[id(vars(module))] = ModuleType(module.__name__)
        view.__dict__.update(_namespace(vars(module)))
    return view


def _wrapping(twin: FunctionType) -> Callable[..., Any]:
    """`twin` with numpy's integer overflow warnings off: compiled code wraps silently."""

    @functools.wraps(twin)
    def call(*args: Any) -> Any:
        if not _started:
            start()
        with np.errstate(over="ignore"):
            return twin(*args)

    return call


def _warm_up() -> None:
    """Get every recorded kernel signature compiled (from numba's cache, filled by a
    subprocess if need be), then hand the compiled kernels to the Python callers."""
    try:
        by_module: dict[str, list[tuple[str, list[Any]]]] = {}
        for (module_name, attr), sigs in _signatures().items():
            by_module.setdefault(module_name, []).append((attr, sigs))
        # The rules first (a game's moves), each module handed over once it is ready.
        for module_name in sorted(by_module, key=lambda name: name not in RULES):
            module = importlib.import_module(module_name)
            for attr, sigs in by_module[module_name]:
                kernel = getattr(module, attr, None)
                if isinstance(kernel, Dispatcher):
                    for sig in sigs:
                        kernel.compile(sig)
            _switch(module)
    except Exception:  # the kernels then compile on demand, as plain numba would
        _log.exception("tengen: warming up the compiled kernels failed")
    finally:
        _switch()


def _signatures() -> dict[tuple[str, str], list[Any]]:
    """The recorded signatures, made first by ``python -m tengen.warm`` if there are none
    (one process at a time does that: the others wait for it and read its list)."""
    fresh_cache()
    path = signature_path()
    with _exclusive(path.parent / "tengen-warm.lock"):
        if not path.exists():
            env = dict(os.environ, TENGEN_JIT="compiled", TENGEN_JIT_CACHE="checked")
            done = subprocess.run(
                [sys.executable, "-m", "tengen.warm", "--signatures", str(path)],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.PIPE,
                check=False,
            )
            if done.returncode != 0:
                _log.warning("tengen.warm failed: %s", done.stderr.decode(errors="replace"))
                return {}
    loaded: dict[tuple[str, str], list[Any]] = pickle.loads(path.read_bytes())
    return loaded


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """Hold an exclusive lock on `lock_path` (where the platform has `fcntl`)."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        yield
        return
    with open(lock_path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def _switch(only: ModuleType | None = None) -> None:
    """Give the live namespaces of `only` (default: of every module, and then `ready` is
    True) their module's compiled kernels."""
    with _lock:
        for space, module in _spaces:
            if only is None or module is only:
                for name, value in vars(module).items():
                    if isinstance(value, Dispatcher):
                        setattr(space, name, value)
        if only is None:
            _ready.set()
