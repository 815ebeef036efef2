"""A small module to decompile and disassemble with uncompile."""


def fib(n: int) -> int:
    a, b = 0, 1
    while n > 0:
        a, b = b, a + b
        n -= 1
    return a


def safe_div(x, y, *, default=None):
    try:
        result = x / y
    except ZeroDivisionError:
        result = default
    finally:
        print(f"divided {x!r} by {y!r}")
    return result


class Counter:
    def __init__(self, start=0):
        self.count = start

    def bump(self, by=1):
        self.count += by
        return self.count


squares = {k: k * k for k in range(10) if k % 2}
