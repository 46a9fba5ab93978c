"""One kind of hook point (issue 31.3), in the spirit of pretix's plugin signals.

The core imports no app, and an app imports none above it; where a lower layer must call
up (the clock runs the reveal, the territories ask the economy where stations stand), it
declares a `Hook` once, with a docstring saying who calls it, with what, and what a
receiver returns, and the app above connects its receivers in its own
`<app>/connections.py` (imported by its `AppConfig.ready()`):

    dashboard_alerts: Hook[[Membership], list[Alert]] = Hook("dashboard_alerts", '''...''')

    @dashboard_alerts.connect(order=10)
    def trade_alerts(member: Membership) -> list[Alert]: ...

A receiver is known by its `key` (a phase, a section, a kind of thing: what the caller
picks receivers by) and its qualified name: connecting the same function under the same
key again keeps one, so `ready()` may run twice. Receivers run by `order`, then in the
order they were connected; state `order=` wherever one receiver must run before another.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, ParamSpec, TypeVar, overload

P = ParamSpec("P")
R = TypeVar("R")

_sequence = itertools.count()


@dataclass(frozen=True)
class Connection(Generic[P, R]):
    """One receiver connected to a hook point."""

    fn: Callable[P, R]
    key: str
    order: int
    label: str
    name: str
    seq: int


def _name(fn: Callable[..., Any]) -> str:
    return f"{getattr(fn, '__module__', '?')}.{getattr(fn, '__qualname__', repr(fn))}"


class Hook(Generic[P, R]):
    """A declared hook point: receivers `Callable[P, R]`, connected by the apps above."""

    def __init__(self, name: str, doc: str) -> None:
        self.name = name
        self.__doc__ = doc
        self._connections: list[Connection[P, R]] = []

    def __repr__(self) -> str:
        return f"<Hook {self.name}: {len(self._connections)} receiver(s)>"

    @overload
    def connect(self, fn: Callable[P, R], *, key: str = "", order: int = 50,
                label: str = "") -> Callable[P, R]: ...

    @overload
    def connect(self, fn: None = None, *, key: str = "", order: int = 50,
                label: str = "") -> Callable[[Callable[P, R]], Callable[P, R]]: ...

    def connect(self, fn: Callable[P, R] | None = None, *, key: str = "", order: int = 50,
                label: str = "") -> Any:
        """Connect `fn` (or, without it, return a decorator that does). `key`: what the
        caller picks it by (`by_key`); `order`: lower runs first; `label`: a name the
        caller reports the result under (effect_applied: the battle summary's key)."""
        def connect(receiver: Callable[P, R]) -> Callable[P, R]:
            name = _name(receiver)
            same = [c.seq for c in self._connections if (c.key, c.name) == (key, name)]
            kept = [c for c in self._connections if (c.key, c.name) != (key, name)]
            seq = same[0] if same else next(_sequence)  # connected again: its place kept
            kept.append(Connection(receiver, key, order, label, name, seq))
            self._connections = sorted(kept, key=lambda c: (c.order, c.seq))
            return receiver
        return connect if fn is None else connect(fn)

    def disconnect(self, fn: Callable[P, R], *, key: str = "") -> None:
        """Remove one receiver (tests that connect their own)."""
        name = _name(fn)
        self._connections = [c for c in self._connections if (c.key, c.name) != (key, name)]

    def connections(self, key: str | None = None) -> list[Connection[P, R]]:
        """The connections in order: all of them, or those under `key`."""
        return [c for c in self._connections if key is None or c.key == key]

    def receivers(self) -> list[Callable[P, R]]:
        """Every receiver, in order."""
        return [c.fn for c in self._connections]

    def by_key(self, key: str) -> list[Callable[P, R]]:
        """The receivers connected under `key`, in order."""
        return [c.fn for c in self._connections if c.key == key]

    def one(self, key: str) -> Callable[P, R] | None:
        """The receiver under `key` of a hook that takes one per key (the first in order),
        or None."""
        found = self.by_key(key)
        return found[0] if found else None

    def keys(self) -> list[str]:
        """The keys receivers are connected under, each once, in order."""
        return list(dict.fromkeys(c.key for c in self._connections))

    def call(self, *args: P.args, **kwargs: P.kwargs) -> list[R]:
        """Call every receiver in order; their results in the same order."""
        return [c.fn(*args, **kwargs) for c in self._connections]
