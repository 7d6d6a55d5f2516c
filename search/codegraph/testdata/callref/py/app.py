import pkg.sub.ops as ops
from pkg.util import add, format as fmt
from pkg import plus
from pkg.store import Store
import pkg.util


def main():
    s = Store()
    s.save("x")
    n = add(1, 2) + ops.mul(2, 3) + ops.square(2) + plus(1, 1)
    return fmt(n) + pkg.util.format(n) + local(n)


def local(n):
    return n


if __name__ == "__main__":
    main()
