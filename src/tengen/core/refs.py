"""A tuple of arrays handed to compiled calls by reference: one pointer, not every array.

numba passes a named tuple of arrays by value, each array as a structure of seven to eleven
words, so a recursive search whose state holds thirty arrays copies some 300 words a call
(the Gomoku search spent a tenth of its time on those copies: bench/STRENGTH.md). `pin` puts
the tuple in its caller's stack frame and gives a pointer to it; `deref` reads it back, and
LLVM keeps only the fields the callee uses. Python has no such pointers: there both are the
identity, so the interpreted twins of the kernels (`core.jit`) run the same code.
"""

from __future__ import annotations

from typing import Any

from numba import types
from numba.core import cgutils
from numba.core.imputils import lower_builtin
from numba.extending import type_callable


def pin(value: Any) -> Any:
    """`value` (a tuple), by reference in compiled code: valid while the caller runs; a
    pointer from `pin` as it is, so that a kernel called from Python and from compiled code
    alike may pin what it is given."""
    return value


def deref(ref: Any) -> Any:
    """The tuple `ref` points to, from `pin`; anything else as it is."""
    return ref


def _pinned(t: Any) -> bool:
    """Whether the numba type `t` is what `pin` makes: a pointer to a tuple."""
    return isinstance(t, types.CPointer) and isinstance(t.dtype, types.BaseTuple)


@type_callable(pin)
def _pin_type(context: Any) -> Any:
    """A pinned tuple is a pointer to it."""

    def typer(value: Any) -> Any:
        if isinstance(value, types.BaseTuple):
            return types.CPointer(value)
        if _pinned(value):
            return value
        return None

    return typer


@type_callable(deref)
def _deref_type(context: Any) -> Any:
    """A pointer from `pin` reads as its tuple; anything else is unchanged."""

    def typer(ref: Any) -> Any:
        if _pinned(ref):
            return ref.dtype
        return ref

    return typer


@lower_builtin(pin, types.BaseTuple)
def _pin_code(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    """A slot in the calling function's own frame (this is emitted there, not called)."""
    slot = cgutils.alloca_once_value(builder, args[0])
    return builder.bitcast(slot, context.get_value_type(signature.return_type))


@lower_builtin(pin, types.CPointer)
@lower_builtin(deref, types.Any)
def _identity(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    """A pointer pinned again, or anything not from `pin` read: itself."""
    return args[0]


@lower_builtin(deref, types.CPointer)
def _deref_code(context: Any, builder: Any, signature: Any, args: Any) -> Any:
    """The tuple, read field by field so that the fields the caller does not use cost nothing."""
    tuple_type = signature.return_type
    llvm_type = context.get_value_type(tuple_type)
    slot = builder.bitcast(args[0], llvm_type.as_pointer())
    value = cgutils.get_null_value(llvm_type)
    for i in range(len(tuple_type)):
        field = builder.load(cgutils.gep_inbounds(builder, slot, 0, i))
        value = builder.insert_value(value, field, i)
    return value
