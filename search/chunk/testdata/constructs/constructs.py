"""Module docstring."""
from __future__ import annotations

__all__ = ["Store", "load", "LIMIT"]

# How many to keep.
# At most.
LIMIT: int = 10
_cache = {}
type Pair[T] = tuple[T, T]
x = f"{'def fake(): pass'} {f"{1 + 2:{'>'}{10}}"} {{not}}"
y = rb'class Fake:\' ' + Rb"""
def fake2():
"""
total = 1 + \
    2


@decorator(
    arg=1,
)
@other
async def load(path: str,
               mode="r") -> bytes:
    '''Load a file.'''
    def helper():
        class Hidden:
            pass
        return 1
    return b""


class Store(Base, metaclass=Meta):
    """A store."""
    limit = 3

    class Inner:
        def method(self):
            return {"a": [1,
                2]}

    @property
    def size(self) -> int:
        return 0

    def one(self): return 1

    if TYPE_CHECKING:
        def typed(self): ...


try:
    import fast
except ImportError:
    def fast(): pass

match command:
    case "go":
        pass

def _private(): pass
