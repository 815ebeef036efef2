"""Round trips through the decompiler: for every installed interpreter 3.8-3.13, compile a snippet,
decompile its .pyc with the CLI, recompile the output with the same interpreter and compare the
normalized code objects; runnable snippets are also run, original against round trip.

Constructs the structurer does not handle yet must fail loudly (a stub that raises plus a message),
never silently change meaning: those are checked too.
"""
import json
import os
import subprocess
import sys
import textwrap

import pytest

from conftest import ROOT, VERSIONS, interpreter

sys.path.insert(0, os.path.join(ROOT, "tools"))
# The random-program fuzzer's prelude (the trace helper t, a context manager that logs and can
# suppress), which the snippets of the functions it found run on.
from program_fuzz import PRELUDE as FUZZ_PRELUDE  # noqa: E402


def fuzz_run(*functions):
    """The run() of a snippet from a fuzzer's program: the functions on three argument sets, each
    outcome (result or exception type) with the trace it left."""
    return """
def run():
    out = []
    for fn in (%s,):
        for args in ((7, 7, 0), (0, 1, 2), (2, 1, 0)):
            del T[:]
            try:
                out.append((fn(*args), list(T)))
            except Exception as e:
                out.append((type(e).__name__, list(T)))
    return out
""" % ", ".join(functions)

CHECKER = os.path.join(ROOT, "tools", "roundtrip_check.py")

# A context manager that logs its exit and suppresses nothing (the prelude of several snippets).
LOGGING_CM = """
class CM:
    def __init__(self, log): self.log = log
    def __enter__(self): return self
    def __exit__(self, *e):
        self.log.append('exit')
"""

# h(k): 1 raises KeyError, 2 ValueError, anything else comes back (the prelude of snippets whose
# functions go every way out of their try statements).
RAISES_BY_K = """
def h(k):
    if k == 1:
        raise KeyError(k)
    if k == 2:
        raise ValueError(k)
    return k
"""

# A context manager CM(log, name, suppress) of a class made at run time (its __exit__ a plain
# function), which logs entering and leaving and suppresses an exception when told.
NAMED_CM = """
def enter(self):
    self.log.append('enter ' + self.name)


def exit_(self, t, v, tb):
    self.log.append('exit ' + self.name)
    return self.suppress


def CM(log, name, suppress):
    cm = type('CM', (), {'__enter__': enter, '__exit__': exit_})()
    cm.log, cm.name, cm.suppress = log, name, suppress
    return cm
"""

# The runs of several snippets' f(a, log) / f(a, b, log), whose a and b return or raise: g()
# gives every outcome with the log it left.
RUN_F_A_LOG = """
def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    out = []
    for a in (ok, ve, ke):
        for pre in ([], [0]):
            log = list(pre)
            out.append((f(a, log), log))
    return out
"""
RUN_F_A_B_LOG = """
def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    def te(): raise TypeError
    out = []
    for a in (ok, ve):
        for b in (ok, ke, te):
            log = []
            out.append((f(a, b, log), log))
    return out
"""

# A context manager that logs enter/exit, shared by the with-statement snippets.
CONTEXT_MANAGER = """
class CM:
    def __init__(self, log, v):
        self.log, self.v = log, v

    def __enter__(self):
        self.log.append('enter')
        return (self.v, self.v + 1)

    def __exit__(self, *exc):
        self.log.append('exit')
        return False


"""

# name -> (source, call expression or None, versions where the round trip must be equivalent)
SNIPPETS = {
    "arithmetic": ("""
def f(a, b=2, *args, c, d=4, **kw):
    x = a + b * c - (d ** 2) // 3 % 5
    y = -x if x else ~b
    z = (a, b, [c, d], {'k': x, 2: y}, {1, 2})
    return x, y, z, args, kw
""", "f(3, c=5, e=1)"),
    "conditions": ("""
def f(a, b, c):
    if a and b or not c:
        r = 1
    elif a < b <= c:
        r = 2
    elif a is None or b is not None:
        r = 3
    else:
        r = 4
    s = a or b
    t = a and b and c
    return r, s, t
""", "[f(*v) for v in [(1, 2, 3), (0, 2, 3), (0, 0, 0), (None, 1, 0), (3, 1, 0)]]"),
    "loops": ("""
def f(n):
    total = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        if i > 50:
            break
        total += i
    k = n
    while k > 0:
        k -= 2
        if k == 7:
            break
    for a, (b, c) in [(1, (2, 3)), (4, (5, 6))]:
        total += a * b * c
    return total, k
""", "[f(n) for n in (0, 5, 60)]"),
    "while_else": ("""
def f(items, goal):
    for x in items:
        if x == goal:
            found = True
            break
    else:
        found = False
    i = 0
    while i < 10:
        i += 1
    else:
        i = -i
    return found, i
""", "[f([1, 2, 3], 2), f([], 1)]"),
    "calls_and_strings": ("""
import os.path
from collections import OrderedDict as OD, defaultdict
def f(x, *a, **k):
    g = print
    s = f"{x!r:>10} and {x:{len(a)}} {k}"
    return os.path.join('a', 'b'), OD(a=1, **k), sorted(a, key=lambda v: -v), s, g.__name__
""", "f(3, 1, 2, z=1)"),
    "comprehensions": ("""
def f(n):
    a = [i * 2 for i in range(n) if i % 2]
    b = {i: j for i in range(3) for j in range(i)}
    c = {c for c in 'hello'}
    d = list(x for x in range(n) if x if x > 1)
    return a, b, c, d
""", "f(6)"),
    "classes": ('''
class Base:
    """Docstring."""
    x = 1

    def __init__(self, v):
        self.v = v

    def double(self):
        return self.v * 2


class Child(Base, metaclass=type):
    def double(self):
        return super().double() + 1

    @staticmethod
    def s(a, /, b):
        return a - b


def f():
    return Child(3).double(), Child.s(5, 2), Base.__doc__
''', "f()"),
    "augmented_and_subscripts": ("""
def f(d, k):
    d[k] += 1
    d[k:] = [1]
    x = d[1:2]
    d.attr = 5
    d.attr += 2
    del d[0]
    a = b = c = k
    (a, b), c = (1, 2), 3
    first, *rest = [1, 2, 3]
    return x, a, b, c, first, rest
""", None),
    "asserts_and_raises": ("""
def f(x):
    assert x, "no x"
    assert x > 0
    if x > 10:
        raise ValueError(x) from None
    return x
""", "f(3)"),
    "try_except_finally": ("""
def f(x):
    log = []
    try:
        y = 10 // x
    except ZeroDivisionError as e:
        log.append(str(e))
        y = -1
    except (TypeError, KeyError):
        y = -2
    except:
        y = -3
    else:
        y += 1
    finally:
        log.append('done')
    return y, log
""", "f(0), f(2), f('a')"),
    "try_finally_return": ("""
def f(x):
    out = []
    try:
        return len(x)
    except TypeError:
        return -1
    finally:
        out.append(1)
""", "f([1, 2]), f(3)"),
    "try_in_loop": ("""
def f(xs):
    total = 0
    for x in xs:
        try:
            total += int(x)
        except ValueError:
            continue
        except TypeError as err:
            total = -total
            break
    return total
""", "f(['1', 'x', '5']), f(['2', None, '7'])"),
    "with_blocks": (CONTEXT_MANAGER + """
def f(v):
    log = []
    with CM(log, v) as (a, b):
        log.append(a + b)
    with CM(log, 1), CM(log, 2) as pair:
        log.append(pair)
    with CM(log, 3):
        return log
""", "f(5)"),
    "generator": ("""
def f(n):
    def gen(k):
        for i in range(k):
            yield i * 2
    return list(gen(n))
""", "f(4)"),
    "value_and_or_mix": ("""
def f(a, b, c, d):
    x = a and b or c
    y = (a or b) and c
    z = a and (b or c) or d
    w = (a and b or c) and d
    return x, y, z, w, [v and b or c for v in (a, d) if v]
""", "[f(*t) for t in [(0, 1, 2, 3), (1, 0, 2, 0), (1, 2, 0, 3), (0, 0, 0, 5), ('', [], 'x', 0)]]"),
    "conditional_test": ("""
def f(ys, b, c):
    out = [y for y in ys if (y if b else -y)]
    if c and (b if out else c > 1):
        out.append('t')
    for y in ys:
        if (y > 1 if b else y < 1) or c == 3:
            out.append(y)
    return out
""", "[f(ys, b, c) for ys in ([0, 1, 2], []) for b in (0, 1) for c in (0, 2, 3)]"),
    "continue_then_break": ("""
def f(heap, pos):
    item = heap[pos]
    while pos > 0:
        parent = (pos - 1) >> 1
        if item < heap[parent]:
            heap[pos] = heap[parent]
            pos = parent
            continue
        break
    heap[pos] = item
    return heap
""", "[f(h, len(h) - 1) for h in ([5, 3, 1], [1, 2, 3, 0], [4])]"),
    "while_explicit_continue": ("""
def f(xs):
    i = 0
    out = []
    while i < len(xs):
        x = xs[i]
        i += 1
        if x > 2:
            if x > 5:
                out.append(x)
            else:
                out.append(-x)
            continue
        elif x < 0:
            out.append(0)
            continue
        return out, x
    return out
""", "[f(xs) for xs in ([], [3, 7, -1, 2, 9], [6, 1], [-5, -6])]"),
    "comprehension_if_own_line": ("""
def f(xs, bad):
    a = [x for x in xs
         if x not in bad]
    b = list(x * 2 for x in xs
             if x > 1 if x < 9)
    c = {x: 1 for x in xs
         if x != 3}
    d = [x for x in xs if x]
    return a, b, c, d, f'{[x for x in xs if x]}'
""", "[f(xs, bad) for xs in ([], [0, 1, 2, 3, 7, 11]) for bad in ((), (2, 3))]"),
    "assert_false": ("""
def f(c, kind):
    if c == b'0':
        return 0
    elif kind == 'x':
        c = c * 2
        assert False, 'bad digit ' + repr(c)
    for k in kind:
        assert k != 'z'
    if kind == 'y':
        assert False
    return 1
""", "[f(c, k) for c in (b'0', b'1') for k in ('', 'ab')]"),
    "loop_if_rest_threaded": ("""
def f(lines, log):
    out = []
    with log:
        for line in lines:
            if '=' in line:
                key = line.split('=')[0]
                if key == 'i':
                    out.append(1)
                elif key == 'home':
                    out.append(2)
            if line is None:
                continue
            out.append(line)
        for line in lines:
            if line is not None:
                out.append(line)
        return out
""", "[f(ls, open(__import__('os').devnull)) for ls in ([], ['a', 'i=1', 'home=2', 'x=3'])]"),
    "for_else_break_after_continue": ("""
def f(flags):
    names = []
    for i in range(8):
        flag = 1 << i
        if flags & flag:
            names.append(flag)
            flags ^= flag
            if not flags:
                break
    else:
        names.append(-1)
    return names
""", "[f(n) for n in (0, 1, 6, 300)]"),

}

# Exception handling and with statements across versions (block stack on 3.8-3.10, exception
# tables on 3.11+). Kept apart from SNIPPETS above; merged into it below.
EXCEPTION_SNIPPETS = {
    "except_clauses_else": ("""
def f(x):
    try:
        y = 10 // x
    except ZeroDivisionError as e:
        y = str(e)
    except (TypeError, KeyError):
        y = -2
    except:
        y = -3
    else:
        y += 1
    return y
""", "f(0), f(2), f('a'), f(None)"),
    "except_plain_clauses": ("""
def f(x):
    try:
        y = 10 // x
    except ZeroDivisionError:
        y = 0
    except (TypeError, KeyError):
        y = -2
    except:
        y = -3
    else:
        y += 1
    return y
""", "f(0), f(2), f('a'), f(None)"),
    "except_returns": ("""
def f(x):
    try:
        return 10 // x
    except ZeroDivisionError as e:
        return str(e)
    except TypeError:
        return None
""", "f(0), f(5), f('a')"),
    "try_finally_in_loops": ("""
def f(xs):
    log = []
    for x in xs:
        try:
            if x == 0:
                continue
            if x < 0:
                break
            log.append(10 // x)
        finally:
            log.append('f')
    i = 0
    while i < 5:
        i += 1
        try:
            if i == 2:
                continue
            if i == 4:
                break
            log.append(i)
        except ValueError:
            log.append('v')
    return log
""", "f([1, 0, 2, -1, 5]), f([])"),
    "nested_try": ("""
def f(a, b):
    try:
        try:
            r = a / b
        except ZeroDivisionError:
            r = None
            raise ValueError('zero')
        finally:
            a += 1
    except ValueError as err:
        r = str(err)
    return r, a
""", "f(1, 0), f(4, 2)"),
    "raise_in_except": ("""
def f(x):
    try:
        return int(x)
    except ValueError:
        raise
    except TypeError as e:
        raise RuntimeError('bad') from e


def g(x):
    try:
        return f(x)
    except Exception as e:
        return type(e).__name__
""", "g('3'), g('x'), g(None)"),
    "except_name_unbound": ("""
def f():
    e = 1
    try:
        raise KeyError(e)
    except KeyError as e:
        pass
    try:
        return e
    except NameError:
        return 'deleted'
""", "f()"),
    "with_in_loops": (CONTEXT_MANAGER + """
def f(n):
    log = []
    for i in range(n):
        with CM(log, i) as (a, b):
            if a == 1:
                continue
            if a == 3:
                break
            log.append(b)
    with CM(log, 7), CM(log, 8) as c:
        try:
            log.append(1 // 0)
        except ZeroDivisionError:
            log.append(c)
    return log
""", "f(5)"),
}
SNIPPETS.update(EXCEPTION_SNIPPETS)

# ---- Comprehensions inlined into their function on 3.12+ (PEP 709); separate code objects before.
SNIPPETS.update({
    "inlined_comp_clauses": ("""
def f(xs, k):
    a = [x * y for x in xs if x > 0 for y in range(x) if y != k]
    b = {x + y for x in xs for y in xs if x < y}
    c = {x: [y for y in range(x)] for x in xs if x % 2}
    d = [x for x in xs if x if not x == k]
    return a, b, c, d
""", "f([3, -1, 4, 5], 2), f([], 0)"),
    "inlined_comp_shadow": ("""
def f(xs):
    x = 'outer'
    ys = [x * 2 for x in xs]
    pairs = {x: y for x, y in zip(xs, ys)}
    return x, ys, pairs
""", "f([1, 2, 3])"),
    "inlined_comp_in_control_flow": ("""
def f(rows, flag):
    out = []
    for r in rows:
        out.append([c for c in r if c > 1])
    if flag:
        s = {c for r in rows for c in r}
    else:
        s = {c: r for r in rows for c in r[:1]}
    return out, s
""", "f([[1, 2, 3], [4]], True), f([[1, 2, 3], [4]], False)"),
    "inlined_comp_nested": ("""
def f(m, n):
    grid = [[i * j for j in range(n)] for i in range(m)]
    flat = [v for row in [[i + j for j in range(n)] for i in range(m)] for v in row]
    fns = [lambda: i for i in range(m)]
    return grid, flat, [g() for g in fns], sum([v for v in flat])
""", "f(3, 4)"),
    "inlined_comp_module_and_class": ("""
table = [i * i for i in range(5) if i % 2]
index = {v: k for k, v in enumerate(table)}


class Holder:
    squares = {s for s in table}
    names = [str(s) for s in squares]


def f():
    return table, index, sorted(Holder.squares), sorted(Holder.names)
""", "f()"),
})

# ---- Delegation and coroutines: `yield from`, `await`, `async def`, async generators. Coroutines run
# under asyncio.run; awaited values come from asyncio.sleep(0, result).
SNIPPETS.update({
    "yield_from": ("""
def inner(n):
    got = yield n
    yield got
    return n * 10


def outer(n):
    r = yield from inner(n)
    yield from [r, r + 1]
    total = (yield from inner(r)) + 1
    yield total


def f(n):
    g = outer(n)
    out = [next(g), g.send('a')]
    out.extend(g)
    return out
""", "f(3)"),
    "await_coroutine": ("""
import asyncio


async def twice(x):
    a = await asyncio.sleep(0, x)
    await asyncio.sleep(0)
    return a + await asyncio.sleep(0, x)


async def f(x):
    r = await twice(x)
    if r > 2:
        r = await twice(r) * 2
    return [r, await twice(1)]
""", "__import__('asyncio').run(f(3))"),
    "async_generator": ("""
import asyncio


async def agen(n):
    for i in range(n):
        v = await asyncio.sleep(0, i)
        yield v * 2
    yield n


async def consume(n):
    g = agen(n)
    out = []
    for _ in range(n + 1):
        out.append(await g.__anext__())
    return out


def f(n):
    return asyncio.run(consume(n))
""", "f(3)"),
})

# ---- async for, async with, async comprehensions (3.8's async with uses the finally machinery).
ASYNC_HELPERS = """
import asyncio


async def numbers(n):
    for i in range(n):
        yield await asyncio.sleep(0, i)


async def aenter(self):
    self.log.append('enter')
    return self.v


async def aexit(self, *exc):
    self.log.append('exit')
    return False


def ACM(log, v):  # a class statement's line number is a constant on 3.13
    cm = type('ACM', (), {'__aenter__': aenter, '__aexit__': aexit})()
    cm.log, cm.v = log, v
    return cm


"""
SNIPPETS.update({
    "async_for": (ASYNC_HELPERS + """
async def main(n):
    out = []
    async for v in numbers(n):
        if v == 3:
            continue
        out.append(v)
    async for b in numbers(2):
        out.append(b)
    else:
        out.append('done')
    return out
""", "asyncio.run(main(6)), asyncio.run(main(3))"),
    # `if c: break` as the first statement of a loop body: 3.8/3.9 print it as if/else (as sync for).
    "async_for_break": (ASYNC_HELPERS + """
async def main(n):
    out = []
    async for a in numbers(n):
        if a > 4:
            break
        out.append(-a)
    async for b in numbers(2):
        out.append(b)
    return out
""", "asyncio.run(main(6)), asyncio.run(main(3))"),
    "async_with": (ASYNC_HELPERS + """
async def main(v):
    log = []
    async with ACM(log, v) as a:
        log.append(a)
    async with ACM(log, 1) as b, ACM(log, 2):
        log.append(b + await asyncio.sleep(0, 10))
    async with ACM(log, 3):
        return log
""", "asyncio.run(main(5))"),
    # 3.8 runs an async with's __aexit__ as WITH_CLEANUP_START; await; WITH_CLEANUP_FINISH.
    "async_with_return": (ASYNC_HELPERS + """
async def f(cm):
    async with cm as c:
        return c


async def main():
    log = []
    return await f(ACM(log, 4)), log
""", "asyncio.run(main())"),
    "async_comprehensions": (ASYNC_HELPERS + """
async def main(n):
    a = [x async for x in numbers(n)]
    b = {x: x * 2 async for x in numbers(n) if x % 2}
    c = [await asyncio.sleep(0, y) for y in range(n)]
    d = [v async for v in (x + 1 async for x in numbers(n))]
    e = {z async for x in numbers(n) for z in range(x)}
    return a, b, c, d, sorted(e)
""", "asyncio.run(main(4))"),
})

# ---- Assignment expressions (`:=`): COPY 1 / DUP_TOP, a store, the other copy used by an expression.
# The calls are logged, so a walrus hoisted out of a short-circuit expression (f called when a() is
# false) or evaluated in another order shows as a different result.
WALRUS_HELPERS = """
def logged(log, tag, value):
    log.append(tag)
    return value
"""
SNIPPETS.update({
    "walrus_short_circuit": (WALRUS_HELPERS + """
def f(a, b):
    log = []
    m = n = None
    if logged(log, 'a', a) and (m := logged(log, 'f', b)):
        log.append(m)
    x = logged(log, 'a2', a) and (n := logged(log, 'g', b + 1))
    y = logged(log, 'a3', a) or (k := logged(log, 'h', b + 2))
    return log, m, n, x, y
""", "[f(a, b) for a in (0, 1) for b in (0, 5)]"),
    "walrus_while": (WALRUS_HELPERS + """
def f(n):
    log = []
    it = iter(range(n))
    out = []
    while (data := next(it, None)) is not None:
        out.append(data)
    k = 0
    while (a := logged(log, 'a', k)) < 3 and (b := a * 2) < 5:
        k += 1
    return out, data, log, a, k
""", "[f(n) for n in (0, 4)]"),
    "walrus_comprehension": (WALRUS_HELPERS + """
def f(xs):
    log = []
    r = [y for y in xs if (z := logged(log, y, y % 3))]
    s = [(w := y * 2) + w for y in xs]
    t = {y: v for y in xs if (v := y - 1) > 0}
    u = any((hit := x) > 2 for x in xs)
    return r, z, s, w, t, v, u, hit, log
""", "f([1, 2, 3, 4, 5])"),
    "walrus_nested_and_values": (WALRUS_HELPERS + """
def f(g):
    log = []
    if (a := (b := logged(log, 'g', g)) + 1) > 2:
        c = a, b
    else:
        c = None
    (d := logged(log, 'd', g * 2))
    s = f"{(e := g + 3)}-{e}"
    t = sorted([3, 1, 2], key=(key := (lambda v: -v)), reverse=bool(r := 0))
    return c, d, s, t, key(1), r, (h := g) + h, log
""", "[f(g) for g in (0, 5)]"),
    "walrus_scopes": ("""
G = 0
def f(x):
    global G
    n = 0
    def inner():
        nonlocal n
        return (n := n + x)
    inner()
    inner()
    (G := G + x)
    return n, G
""", "[f(2), f(3)]"),
    # A comprehension's walrus binds in the function: `global`/`nonlocal` there must be kept.
    "walrus_comprehension_scopes": ("""
GZ = None
def f(a):
    global GZ
    nz = 0
    def inner():
        nonlocal nz
        return [[nz for y in x if (nz := y)] for x in a]
    return [GZ for x in a if (GZ := x)], GZ, inner(), nz
""", "f([[1, 0, 2], [3]]), GZ"),
})

# ---- The end of a protected body around a loop: 3.12+ leave a loop's conditional jump and jump back
# outside the exception table's ranges, yet they are the body's. The log records __enter__/__exit__
# and every side effect, the return expression's too, so code moved into or out of the statement
# (run before or after __exit__ / the finally body) shows as a different log.
ORDER_HELPERS = """
def enter(self):
    self.log.append(('enter', self.v))
    return self.v


def exit(self, *exc):
    self.log.append(('exit', self.v, exc[0] is not None))
    return False


def CM(log, v):  # a class statement's line number is a constant on 3.13
    cm = type('CM', (), {'__enter__': enter, '__exit__': exit})()
    cm.log, cm.v = log, v
    return cm


def note(log, tag, value=None):
    log.append((tag, value))
    return value


def each(f, *inputs):
    out = []
    for args in inputs:
        log = []
        try:
            out.append((f(log, *args), log))
        except Exception as e:
            out.append((repr(e), log))
    return out


"""
SEQUENCES = "([],), ([1, 0, 2],), ([1, 2, 3, 4, 0, 5],), ([5, 3],)"
COUNTS = "(0,), (3,), (6,), (9,)"
SNIPPETS.update({
    "with_around_for_tail": (ORDER_HELPERS + """
def f(log, s):
    with CM(log, 1):
        for line in s:
            if line:
                note(log, 'line', line)
    return note(log, 'ret', len(s))


def g(log, s):
    with CM(log, 1):
        for x in s:
            if not x:
                continue
            note(log, 'x', x)
        note(log, 'in body')
    note(log, 'after')
""", "each(f, %s), each(g, %s)" % (SEQUENCES, SEQUENCES)),
    "with_around_for_break_else": (ORDER_HELPERS + """
def f(log, s):
    with CM(log, 1):
        for x in s:
            if x == 3:
                break
            if x:
                note(log, 'x', x)
        else:
            note(log, 'else')
    return note(log, 'ret', len(s))


def g(log, s):
    with CM(log, 1):
        for x in s:
            if x == 3:
                return note(log, 'early', x)
            if x and x > 1:
                note(log, 'x', x)
    return note(log, 'ret', len(s))


def h(log, s):
    with CM(log, 1):
        for x in s:
            if x == 3:
                break
        else:
            return note(log, 'else', len(s))
        note(log, 'broke')
    return note(log, 'ret', len(s))
""", "each(f, %s), each(g, %s), each(h, %s)" % (SEQUENCES, SEQUENCES, SEQUENCES)),
    "with_around_while": (ORDER_HELPERS + """
def f(log, n):
    with CM(log, 1):
        while n > 0:
            n -= 1
            if n == 7:
                break
            if n == 4:
                continue
            if n % 2:
                note(log, 'odd', n)
        else:
            note(log, 'else')
    return note(log, 'ret', n)


def g(log, n):
    with CM(log, 1):
        while True:
            n -= 1
            if n < 0:
                break
            if n % 2:
                note(log, 'odd', n)
    return note(log, 'ret', n)
""", "each(f, %s), each(g, %s)" % (COUNTS, COUNTS)),
    "nested_withs_around_loop": (ORDER_HELPERS + """
def f(log, s):
    with CM(log, 1):
        with CM(log, 2):
            for x in s:
                if x:
                    note(log, 'x', x)
        note(log, 'between exits')
    return note(log, 'ret', len(s))


def g(log, s):
    with CM(log, 1):
        for x in s:
            for y in s:
                if x and y:
                    note(log, 'xy', (x, y))
    with CM(log, 2):
        for x in s:
            if x:
                with CM(log, 3):
                    note(log, 'x', x)
    return note(log, 'ret', len(s))
""", "each(f, %s), each(g, %s)" % (SEQUENCES, SEQUENCES)),
    "try_around_loop_tail": (ORDER_HELPERS + """
def f(log, s):
    try:
        for x in s:
            if x:
                note(log, 'x', 10 // (x - 2))
    except ZeroDivisionError:
        note(log, 'zde')
    else:
        note(log, 'else')
    return note(log, 'ret', len(s))


def g(log, s):
    try:
        for x in s:
            if x == 3:
                break
            if x:
                note(log, 'x', x)
    finally:
        note(log, 'finally')
    return note(log, 'ret', len(s))


def h(log, n):
    try:
        while n > 0:
            n -= 1
            if n % 2:
                note(log, 'odd', n)
    finally:
        note(log, 'finally')
    return note(log, 'ret', n)
""", "each(f, %s), each(g, %s), each(h, %s)" % (SEQUENCES, SEQUENCES, COUNTS)),
    # Code after the statement was dropped (3.12/3.13) when the body's loop also leaves by return, or
    # when the with sits in an outer loop that its body's for-else breaks out of.
    "with_around_loop_other_exits": (ORDER_HELPERS + """
def f(log, n):
    with CM(log, 1):
        while n:
            n -= 1
            if n == 2:
                return note(log, 'early', n)
    note(log, 'after')


def g(log, s):
    for k in s:
        with CM(log, k):
            for x in s:
                if x == 0:
                    break
            else:
                note(log, 'else', k)
                break
        note(log, 'k', k)
    return note(log, 'ret', len(s))


def h(log, n):
    while True:
        with CM(log, n):
            n -= 1
            if n == 4:
                continue
            if n < 0:
                break
            note(log, 'n', n)
    return note(log, 'ret', n)
""", "each(f, %s), each(g, %s), each(h, %s)" % (COUNTS, SEQUENCES, COUNTS)),
    "with_around_loop_in_if": (ORDER_HELPERS + """
def f(log, s, flag):
    if flag:
        with CM(log, 1):
            for x in s:
                if x:
                    note(log, 'x', x)
    else:
        note(log, 'no flag')
    return note(log, 'ret', len(s))
""", "each(f, ([1, 0], True), ([1, 0], False), ([], True))"),
    "async_with_around_loop": (ASYNC_HELPERS + """
def note(log, tag, value=None):
    log.append((tag, value))
    return value


async def main(s):
    log = []
    async with ACM(log, 1):
        for x in s:
            if x:
                note(log, 'x', x)
    note(log, 'ret', len(s))
    async with ACM(log, 2):
        while s:
            if s.pop() == 3:
                break
    return note(log, 'ret', len(s)), log
""", "asyncio.run(main([])), asyncio.run(main([1, 0, 3, 4]))"),
})

# ---- Shapes where 3.8/3.9 bytecode tells the source apart where later versions do not.
SNIPPETS.update({
    "else_after_return": ("""
def f(x, ys):
    if x > 1:
        return 'big'
    if x < -1:
        return 'small'
    else:
        return 'mid'


def g(x, y):
    if x:
        y = 3
    if y:
        if x:
            return 4
        return 5
    else:
        y = 6
    return y


def h(x):
    if x:
        return 1
    elif x is None:
        return 2
    else:
        return 3
""", "[f(v, [1]) for v in (3, 0, -3)], [g(v, w) for v in (0, 1, 2) for w in (0, 5)], [h(v) for v in (0, 1, None)]"),
    # 3.8 runs finally bodies, with exits and `except ... as name` unbinding as subroutines
    # (BEGIN_FINALLY / CALL_FINALLY / END_FINALLY, WITH_CLEANUP_*): normalize copies them inline as 3.9 does.
    # 3.8 concatenates starred items with BUILD_*_UNPACK[_WITH_CALL]; 3.9+ extends an empty display.
    "star_unpacking": ("""
def g(*args, **kwargs):
    return args, sorted(kwargs.items())


def f(a, b, k, m, x=0):
    r = [g(*a, *b), g(1, 2, *a, 3, x, *b, 4), g(*a, **k, **m), g(x, *a, y=1, **k, z=2, w=3), g(**k, **m)]
    r.append(g(**{**k, **m, 'p': 5}))
    l = [1, *a, 2, *b]
    s = {1, *a, 2, *b}
    t = (*a, 1, *b)
    d = {'x': 1, **k, 'y': 2, **m}
    e = {**k}
    return r, l, sorted(s), t, d, e
""", "f([1, 2], (3,), {'q': 1}, {'r': 2}), f([], [], {}, {})"),
    # The code after a try statement whose body never goes on, laid out in the block of its
    # clause after POP_EXCEPT (3.10 and 3.12, without a jump): it runs after the clause is over
    # (sys.exc_info() is clear again), so it may not be printed in the clause.
    "code_after_clause_in_its_block": ("""
import sys
SEEN = []


def done():
    SEEN.append(sys.exc_info()[0])


def f():
    try:
        raise ValueError
    except:
        pass
    done()


def run():
    del SEEN[:]
    f()
    return list(SEEN)
""", "run()"),
    # The short code after a try/except/else that ends the function, which 3.12+ copy after each
    # clause's POP_EXCEPT and after the else clause: written once after the statement (in the
    # clause it would run while the exception is still being handled).
    "clause_tail_copies": ("""
import sys
SEEN = []


def done():
    SEEN.append(sys.exc_info()[0])


def g(d):
    SEEN.append(0)
    try:
        v = d['k']
    except KeyError as e:
        SEEN.append(type(e))
    else:
        SEEN.append(v)
    done()


def run():
    del SEEN[:]
    g({})
    g({'k': 1})
    return list(SEEN)
""", "run()"),
    # 3.8 asserts load the global AssertionError, the same code as `if not t: raise AssertionError`,
    # except for a constant test: `if not False:` is folded to `if True:` (and differs under -O).
    "constant_asserts": ("""
def f(text):
    if text:
        return 1
    assert False, 'bad %r' % text


def g(x):
    assert 0
    return x


def run():
    out = [f(1)]
    for fn, arg in ((f, 0), (g, 5)):
        try:
            out.append(fn(arg))
        except AssertionError as e:
            out.append(('AssertionError', str(e)))
    return out
""", "run()"),
    # Declarations in class bodies: written after the docstring, before which the compiler puts
    # its own stores (__module__, __qualname__); `nonlocal __class__` names a free variable while
    # the class's methods use the class's own cell of that name (test_super's pathologies).
    "class_declarations": ('''
G = 0


def outer():
    x = 0

    class A:
        """Doc."""
        nonlocal x
        x = 5
        y = x

    class B:
        global G
        G = 7

    return x, A.__doc__, A.y, 'x' in A.__dict__, G, 'G' in B.__dict__


class K:
    def method(self):
        class X:
            nonlocal __class__
            __class__ = 42

            def f():
                __class__
        return __class__, '__class__' in X.__dict__
''', "outer(), K().method()"),
    # A dict under a call's ** whose keys are no keyword arguments stays a dict (3.8 passes a
    # literal dict as is): not identifiers, keywords, or the same key twice.
    "star_star_dict_keys": ("""
def g(*args, **kwargs):
    return args, sorted(kwargs.items())


def f(x):
    return [g(**{'"': 'quote'}), g(1, **{'2': 2}), g(**{'class': x}), g(**{'a': 1, 'a': 2}),
            g(**{'a': x, 'b': 2}), g(*(1,), **{'4': 4})]
""", "f(3)"),
    # A display under a call's star is not the call's own packing of its arguments: CALL_FUNCTION_EX
    # gets a list, or a tuple with no `**` (3.8: a tuple BUILD_TUPLE_UNPACK made).
    "star_displays": ("""
def g(*args, **kwargs):
    return args, sorted(kwargs.items())


def f(a, b, k):
    return [g(*(0, 1)), g(*[a, b]), g(*(a, b)), g(*[]), g(*()), g(*[1, 2, 3]), g(*[a], **k),
            g(*[*a, b]), g(*(*a, b)), g(*(*a, b), **k), g(a, b, **k), g(0, 1, **k), g(1, *[a])]
""", "f((1, 2), 3, {'q': 4})"),
    # `while True:` whose body goes back only by `continue` and otherwise returns or breaks: the
    # code after the jump back (a return) was printed in the body and again after the loop, and
    # the function refused, on every version (markdown-it's skipOrderedListMarker).
    "while_true_continue_else_return": ("""
def marker_end(src, pos, start):
    while True:
        if pos >= len(src):
            return -1
        ch = src[pos]
        pos += 1
        if '0' <= ch <= '9':
            if pos - start >= 10:
                return -1
            continue
        if ch in ').':
            break
        return -1
    return pos


def first_false(xs, n):
    it = iter(xs)
    while True:
        x = next(it)
        if x:
            if n:
                return -1
            continue
        return x


def f():
    return [marker_end(s, 0, 0) for s in ('12.', '1)', '123', '1x', '12345678901.', '')] + \
           [first_false([1, 2, 0], 0), first_false([1, 0], 1), first_false([0], 1)]
""", "f()"),
    # `try: return f() finally: <a loop>`: the returned value waits below the loop of the finally
    # body's copy that the return runs; it was written to a temporary as a value kept across a loop,
    # and the function refused, on every version (torch's patch_test_members wrapper).
    "return_through_finally_loop": ("""
def a1(x, vals, log):
    try:
        return x
    finally:
        for x in vals:
            log.append(x)


def a2(f, vals, log):
    try:
        return f()
    finally:
        i = 0
        while i < len(vals):
            log.append(vals[i])
            i += 1


def a3(f, vals, log):
    for w in vals:
        try:
            return f(w)
        finally:
            for v in vals:
                log.append((w, v))


def a4(f, vals, log):
    try:
        try:
            return f()
        finally:
            for v in vals:
                log.append(v)
    finally:
        log.append('outer')


def run():
    def bad(*a):
        raise KeyError

    out = []
    for fn in (a1, a2, a3, a4):
        for f in (lambda *a: 7, bad):
            log = []
            try:
                out.append((fn(f if fn is not a1 else 5, [0, 1], log), log))
            except KeyError:
                out.append(('raised', log))
    return out
""", "run()"),
    # A comparison chain as a side of a conditional expression: the chain's clean-up jumps past the
    # other side, which the chain's reading did not follow (3.8, 3.9, 3.11: refused; torch's
    # RangeVariable.range_count).
    "chain_in_conditional_expression": ("""
def in_range(start, stop, step, x):
    inside = (start <= x < stop) if step > 0 else (stop < x <= start)
    other = (x < stop <= start) if step else not (start < x < stop)
    return inside, other


def f():
    return [in_range(0, 10, s, x) for s in (1, -1, 0) for x in (-1, 0, 5, 10)]
""", "f()"),
    # A while test that is a comparison chain or'ed with another test: 3.10+ repeat the test at the
    # bottom, the chain's clean-up (POP_TOP) going on to the next test, which the repeated test's
    # reading did not take: refused on 3.10-3.13 (PyYAML's Scanner.scan_directive_name).
    "while_chain_or_test": ("""
def name_length(text):
    length = 0
    ch = text[length] if length < len(text) else '\\0'
    while '0' <= ch <= '9' or 'a' <= ch <= 'z' or ch in '-_':
        length += 1
        ch = text[length] if length < len(text) else '\\0'
    return length


def f():
    return [name_length(t) for t in ('abc-9 x', '', '_', 'Z', 'a1b2c3')]
""", "f()"),
    # A while test that is a comparison chain and'ed with another test, as in the bounds-checked
    # scan `while 0 <= i < len(xs) and xs[i]`: 3.10+ repeat the test at the bottom with the chain's
    # clean-up (POP_TOP) between the repeated test's blocks (3.12+ with a copy of the `return` in
    # it), which the reading of the repeated test did not take: refused on 3.10-3.13.
    "while_chain_and_test": ("""
def skip_digits(s, i, y):
    while '0' <= s[i] <= '9' and y:
        i += 1
    return i


def scan(xs, z):
    i = 0
    while z and 0 <= i < len(xs) and xs[i]:
        i += 1
    return i


def scan_then(xs):
    i = 0
    while 0 <= i < len(xs) < 9 and xs[i] or i == 2:
        i += 1
    else:
        i = -i
    return i * 2


def f():
    return ([skip_digits(s, 0, y) for s in ('12a', 'x', '99.') for y in (True, False)],
            [scan(xs, z) for xs in ([1, 1, 0, 1], [], [2, 2]) for z in (0, 1)],
            [scan_then(xs) for xs in ([1, 1, 0, 1], [], [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])])
""", "f()"),
    # An if ending the function whose `and` test is split over lines: 3.10+ give each copy of the
    # implicit `return None` the line of the jump it replaces, and copies of different lines were
    # not read as the one end of the function, so 3.12 printed nested ifs and an explicit `return
    # None` that compile to other code (imghdr.test_pbm).
    "multiline_test_at_function_end": ("""
def is_pbm(h):
    if len(h) >= 3 and \\
            h[0] == ord(b'P') and h[1] in b'14' and h[2] in b' \\t\\n\\r':
        return 'pbm'


def f():
    return [is_pbm(h) for h in (b'P1 ', b'P4\\n', b'P7 ', b'Q1 ', b'P1', b'P1x')]
""", "f()"),
    # A while loop with an else clause ending a for body: 3.12+ thread its `break` straight to the
    # for loop's next iteration, which the rotated while did not take for a break (it knew no
    # enclosing loop): refused on 3.12/3.13.
    "while_else_break_in_for": ("""
def first_steps(xs, n):
    out = []
    for x in xs:
        while x < n:
            x += 1
            if x == 3:
                out.append('b')
                break
        else:
            out.append('e')
    return out


def f():
    return [first_steps(xs, n) for xs in ([0, 1, 2, 5, 9], [], [3, 4, 10]) for n in (0, 3, 6)]
""", "f()"),
    # A comparison chain tested in an except clause: the chain's clean-up (POP_TOP) goes on through
    # the compiler's copy of the clause's end (POP_EXCEPT and the jump past the try statement, 3.13;
    # with the return after it, 3.10-3.13 in the last clause) instead of jumping to it, which was not
    # read as the same way out: refused on 3.13, the chain split into nested ifs on 3.10-3.12.
    "chain_test_in_except_clause": ("""
def note(a, c, log):
    try:
        a()
    except ValueError:
        if 0 < c <= 3:
            log.append(2)
    log.append(3)
    return log


def two_clauses(a, c, log):
    try:
        a()
    except (ValueError, KeyError) as e:
        if 0 < log.pop() <= 3 and c != 2:
            log.append(2)
    except TypeError:
        if c < 0 < c * c:
            log.append(7)
    return log


def early(a, c, log):
    try:
        a()
    except ValueError:
        if 0 < c <= 3:
            return 9
    log.append(3)
    return log


def f():
    def ok():
        pass

    def ve():
        raise ValueError

    def te():
        raise TypeError
    calls = [(note, ok), (note, ve), (early, ok), (early, ve), (two_clauses, ok), (two_clauses, ve), (two_clauses, te)]
    return [fn(a, c, [1, 5]) for fn, a in calls for c in (-2, 0, 2, 3, 4)]
""", "f()"),
    # A `break` out of a while loop in an except clause: 3.12+ copy the loop's exit (POP_EXCEPT, then
    # the return after the try statement, or the jump past it) into the break instead of jumping
    # there, and the body's if joined the loop's repeated test: refused on 3.12/3.13.
    "while_break_in_except_clause": ("""
def drain(a, items):
    try:
        a()
    except ValueError:
        while items:
            if items.pop() == 3:
                break
    return items


def drain_then(a, items):
    try:
        a()
    except KeyError:
        pass
    except ValueError:
        while items:
            if items.pop() == 3:
                break
    items.append(0)
    return items


def f():
    def ok():
        pass

    def ve():
        raise ValueError
    calls = [(fn, a) for fn in (drain, drain_then) for a in (ok, ve)]
    return [fn(a, list(items)) for fn, a in calls for items in ([], [1, 3, 2], [3], [1, 2])]
""", "f()"),
    # A `return` written at the end of a function after an if: 3.10+ copy the implicit return (which
    # has no line) into each way that reaches it, but not a written one, so stripping it as the
    # implicit return compiled to other code (tarfile.copyfileobj, dis.findlinestarts).
    "explicit_return_at_function_end": ("""
def copy_blocks(src, dst, n):
    if n:
        dst.extend(src[:n])
        if len(dst) > 5:
            raise ValueError(len(dst))
        dst.append(n)
    return


def lines(pairs):
    last = False
    for start, line in pairs:
        if line is not last:
            last = line
            yield start, line
    return


def f():
    out = []
    for n in (0, 2, 9):
        dst = []
        try:
            copy_blocks([1, 2, 3], dst, n)
        except ValueError as e:
            dst.append(e.args)
        out.append(dst)
    return out, list(lines([(0, 1), (2, 1), (4, None), (6, 3)]))
""", "f()"),
    # A function of more than 256 locals: the store and the clean-up of `except E as e` carry
    # EXTENDED_ARG prefixes, which the normalizer's patterns for them did not skip (3.8-3.10:
    # refused, then, with only the first fixed, a `try` with no handler printed).
    "except_as_with_many_locals": ("""
def g(v):
    raise KeyError(v)

def f(x):
""" + "".join("    a%d = x + %d\n" % (i, i) for i in range(300)) + """    try:
        g(a299)
    except KeyError as e0:
        a0 = e0.args
    return [a0, a7, a150, a299]
""", "f(1)"),
    # `or` and `and` of 40 operands: 3.12+ write each short-circuit jump with an EXTENDED_ARG prefix
    # once it goes 256 units or more, which the normalizer did not fold ("a value the bytecode
    # computes once would be computed twice").
    "long_or_and_chains": ("""
def f(T, a, b):
    x = """ + " or ".join("T[%d]" % i for i in range(40)) + """
    y = """ + " and ".join("(T[%d] if a else b)" % i for i in range(40)) + """
    return (x, y)
""", "[f(T, a, b) for T in ([0] * 40, [0] * 39 + [5], list(range(1, 41))) for a in (0, 1) for b in (0, 2)]"),
    # An if ending the function whose test joins `and` and `or`: 3.10+ copy the implicit `return
    # None` into each way the test fails, and those copies were not read as one place, so the body
    # was reached from two tests and the function refused (torch's _validate_pruning_amount_init).
    "compound_test_at_function_end": ("""
def check(amount, integral):
    if (isinstance(amount, integral) and amount < 0) or (not isinstance(amount, integral) and (amount > 1.0 or amount < 0.0)):
        raise ValueError(amount)


def note(log, a, b, c, d):
    if (a and b) or (c and d):
        log.append((a, b, c, d))


def f():
    out = []
    for amount in (-1, 2, 0.5, 1.5, -0.5):
        try:
            check(amount, int)
            out.append('ok')
        except ValueError:
            out.append('bad')
    log = []
    for k in range(16):
        note(log, k & 1, k & 2, k & 4, k & 8)
    return out, log
""", "f()"),
    # A lambda as an operand of `or` / `and`, of a conditional expression, or as a subscript in a
    # target: each was left as the decompiler's function value (refused) on every version.
    "lambda_in_boolean_and_conditional": ("""
def f(key, c, d):
    key = key or (lambda x: -x)
    pick = (lambda: 'a') if c else (lambda: 'b')
    both = c and (lambda: 1) or (lambda: 2)
    d[lambda: 0] = 1
    found = [k() for k in d if callable(k)]
    del d[next(k for k in d if callable(k))]
    return sorted([3, 1, 2], key=key), pick(), both(), found, len(d)
""", "f(None, True, {'x': 1})"),
    # 3.8 iterates a starred item at BUILD_*_UNPACK, after the items after it are computed, as
    # the source compiles again: no temporaries for them.
    "star_items_then_effects": ("""
class D:
    e = 5


def g(*args, **kwargs):
    return args, sorted(kwargs.items())


def f(a, c, d):
    k = {'q': d.e}
    return [g(a, *c, d.e), g(*c, d.e, *a), g(*c, d.e, a[0] + 1, **k), (*c, d.e), [a[0], *c, len(c)],
            {*c, d.e}]
""", "f((1, 2), [3, 4], D())"),
    "with_block": ("""
def f(path):
    with open(path) as fh:
        return fh.read()
""", None),
    "finally_subroutines": (CONTEXT_MANAGER + """
def f(xs, log):
    for x in xs:
        try:
            log.append(x)
            if x == 5:
                break
        finally:
            log.append('f%d' % x)
    for x in xs:
        try:
            if x == 1:
                continue
        finally:
            log.append(-x)
    try:
        log.append('body')
    finally:
        pass
    return log


def g(x, log):
    try:
        with CM(log, x) as c:
            if x:
                return c
            log.append('inside')
    finally:
        try:
            log.append('outer')
        finally:
            log.append('inner')
    return None


def h(xs, log):
    for x in xs:
        try:
            log.append(10 // x)
        except ZeroDivisionError as e:
            log.append(type(e).__name__)
            continue
    for x in xs:
        with CM(log, x):
            if x > 2:
                break
    return log
""", "f([0, 1, 2, 5, 6], []), g(0, []), g(1, []), h([1, 0, 2, 3, 4], [])"),
})

# ---- What the compiler leaves of the source in constants: `while 1:` keeps an unused 1 (`while
# True:` a True), and 3.10+ copies the implicit `return None` into each branch of a trailing if.
SNIPPETS.update({
    # 3.13 drops the first of two stores to one name (`_, _, x = ...`: POP_TOP, then the stores).
    "unpack_same_name_twice": ("""
def f(code):
    if code:
        _, _, encoding = code.partition('.')
        if encoding:
            return encoding, _
    a, a, *rest = code or 'xyz'
    return a, rest
""", "f('a.b'), f(''), f('ab.')"),
    # Code after a with statement whose body always returns runs only when __exit__ suppresses an
    # exception: it must not be lost.
    "with_suppressed_exit": ("""
class Suppress:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.log.append(exc[0] is not None)
        return True


def f(g, log):
    with Suppress(log):
        x = g()
        return x
    return 'suppressed'


def h(g, log):
    with Suppress(log) as s:
        return g(), s.log
""", "[(k(v, log), log) for k in (f, h) for v in (lambda: 1, lambda: 1 / 0) for log in [[]]]"),
    "loop_constants_and_tail_ifs": ("""
\"\"\"Module docstring.\"\"\"


def f(n):
    out = []
    while 1:
        n -= 1
        out.append(n)
        if n < 3:
            break
    while True:
        n += 2
        if n > 6:
            break
    return out, n


def g(x, out):
    \"\"\"Docstring: None is not co_consts[0].\"\"\"
    if x:
        if x > 1:
            out.append('big: ' + str(x))
        else:
            out.append('one')
    else:
        out.append('nothing here')
""", "f(7), [(lambda o: (g(v, o), o))([]) for v in (0, 1, 5)]"),
})

# ---- Control flow shapes the structurer once refused as "a block reached twice".
SNIPPETS.update({
    # A side that returns has no post-dominator in common with the other: the sides still meet.
    "nested_early_return": ("""
def f(x, n):
    if not isinstance(x, int):
        if not isinstance(x, str):
            return None
        x = len(x)
    return x * n


def g(w):
    if w is None:
        raise ValueError('none')
    if w < 1 or w > 4:
        raise ValueError('range')
    return w
""", "[f(v, 2) for v in (3, 'ab', None)], g(2)"),
    # A comparison chain as a condition: its clean-up block (dropping the shared operand) goes
    # where the chain goes when false, by a jump, by falling through or through a copy of the code.
    "chain_conditions": ("""
def f1(a, b, c):
    if a < b < c:
        return 1
    return 2


def f2(y):
    if not 1 <= y <= 9:
        raise ValueError(y)
    return y


def f4(a, b, c, d):
    if a < b < c and d:
        return 1
    return 2


def f5(a, b, c, d):
    if d or a < b < c:
        return 1
    return 2


def f6(a, b):
    assert 1 <= a <= 12, 'm'
    return b


def f7(a, b, c, d):
    if a < b < c or d:
        return 1
    return 2


def f9(v):
    if isinstance(v, int) and 0 <= v <= 9:
        return 'digit'
    return 'other'


def safe(fn, *args):
    try:
        return fn(*args)
    except (ValueError, AssertionError) as e:
        return type(e).__name__
""", "[(f1(a, b, c), f4(a, b, c, d), f5(a, b, c, d), f7(a, b, c, d), safe(f6, a, b))"
                " for a, b, c, d in [(1, 2, 3, 0), (1, 2, 3, 4), (3, 2, 1, 0), (3, 2, 1, 5), (1, 3, 2, 0), (1, 3, 2, 4), (13, 1, 2, 3)]]"
                " + [safe(f2, y) for y in (0, 1, 9, 10)] + [f9(v) for v in (3, 12, 'x', -1)]"),
    # A comparison chain as a loop test (3.10+ repeat it at the bottom, its first link leaving the
    # shared operand below the tested value).
    "chain_while": ("""
def f(a, b, c, d):
    while a < b <= c < d:
        a += 1
    return a
""", "[f(a, 2, 3, 4) for a in (0, 1, 2, 5)] + [f(0, 3, 2, 4)]"),
    # Nested and/or in a condition: each group reduces before the group it belongs to; a `not` that
    # would fall right on `in` / `is` (folded by the compiler into `not in` / `is not`) goes on the
    # group instead.
    "grouped_conditions": ("""
def f(a, b, c, d):
    if (a and b) or (c and d):
        return 1
    return 2


def g(a, b, c):
    if a and (b or c):
        return 1
    return 2


def h(v, k):
    if not (isinstance(v, int) and v in (0, 1)):
        return 'bad'
    if k is not None and not isinstance(k, dict) or v is not None and not isinstance(v, int):
        return 'odd'
    return 'ok'


def run():
    import itertools
    out = [(f(*t), g(*t[:3])) for t in itertools.product((0, 1), repeat=4)]
    out += [h(v, k) for v in (0, 1, 2, 'x', None) for k in (None, {}, 3)]
    return out
""", "run()"),
    # 3.10+ repeat a while loop's test at the bottom; `continue` jumps to the test on top.
    "while_repeated_test": ("""
def f(s, n):
    i = 0
    while i < len(s) and s[i] != n:
        i += 1
    return i


def g(a, b):
    out = []
    while a and b:
        a -= 1
        if a % 3 == 0:
            continue
        out.append(a)
    return out


def h(data, n):
    while len(data) < n:
        more = data[-1:] * 2
        if not more:
            raise EOFError('short')
        data += more
    return data


def k(y, items):
    while y:
        y -= 1
        if y in items:
            return y
        items.append(y)
""", "f('abcde', 'd'), f('ab', 'z'), g(10, 1), h('ab', 5), k(5, [2]), k(0, [])"),
    # A test at the end of a loop body jumps straight back to the loop's head (3.8-3.11), or over a
    # jump back (3.12+); `if x: continue` keeps the other polarity.
    # The last statement of a for body tests and returns; its false side jumps straight back to
    # the loop's header (threaded through the body's end): no `continue` in the source.
    "for_body_ends_in_returning_ifs": ("""
def f(items, left, right):
    for index, direction in items:
        l = left[index]
        r = right[index]
        if l < r:
            return -direction
        if l > r:
            return direction
    return 0

def g(params):
    result = {}
    for param in params:
        param, eq, value = param.partition('=')
        if not param.isalnum() or eq and not value:
            return None
        result[param] = value if eq else True
    return result
""", "[f([(0, 1), (1, -1)], [1, 2], [1, 3]), f([(0, 1)], [2], [1]), f([], [], []), g(['a=1', 'b']), g(['a=']), g(['?'])]"),
    # A nonlocal declaration with no use still makes the function close over the cell.
    "unused_nonlocal": ("""
def f():
    a = 1
    def g():
        nonlocal a
    def h():
        def inner():
            return a
        return inner
    return g.__closure__[0].cell_contents, h()()
""", "f()"),
    # `f(*a, **k)` with operands that run code: `a` is iterated by the call, after `k` is evaluated.
    "call_ex_effectful_operands": ("""
class Log:
    def __init__(self):
        self.log = []

    @property
    def target(self):
        self.log.append('target')
        return lambda *a, **k: (a, sorted(k.items()))

    @property
    def args(self):
        self.log.append('args')
        return iter([1, 2])

    @property
    def kwargs(self):
        self.log.append('kwargs')
        return {'x': 3}

def f(o):
    r = o.target(*o.args, **o.kwargs)
    s = getattr(o, 'target')(*o.args)
    return r, s, o.log
""", "f(Log())"),
    "loop_tail_tests": ("""
def f(o, s):
    for v in o:
        if v in s:
            return v
    return None


def g(d, keep):
    out = []
    for k in d:
        if k not in keep:
            continue
        out.append(k)
    for k in d:
        if not k % 2:
            out.append(-k)
    return out


def h(n, stop):
    while n:
        n -= 1
        if n == stop:
            return 'stopped'
    return n
""", "f([1, 2], {2}), f([], {1}), g([1, 2, 3, 4], {2, 3}), h(5, 2), h(5, 9)"),
    # Returns inside try/finally run copies of the finally body with the returned value waiting on
    # the stack; those stores must not leak into the next branch (refused for now, never merged).
    "return_branches_in_finally": ("""
def f(result, cls, value, exc):
    try:
        if isinstance(result, cls):
            return result
        elif cls:
            return result
        else:
            ve_exc = ValueError(value)
            if result is None and exc is None:
                raise ve_exc
            raise exc
    finally:
        exc = None
        ve_exc = None
""", "f(1, int, 2, None), f('a', str, 0, None)"),
    # 3.12+ lay out except clauses after the code that follows the statement and jump back to it.
    "except_pass_then_code": ("""
def f(d, k):
    v = {}
    try:
        v = d[k]
    except KeyError:
        pass
    return len(v), k


def g(d, k):
    try:
        x = d[k]
    except KeyError:
        if k:
            return 'missing'
        x = 0
    d[k] = x + 1
    return d
""", "f({1: 'ab'}, 1), f({}, 1), g({}, 0), g({1: 2}, 1), g({}, 3)"),
})

# Ways out of nested try/finally statements: a return, break or continue runs a copy of each
# finally body it leaves (innermost first); the compiler copies a returned value's tail into
# the branches of those copies.
SNIPPETS.update({
    "finally_nested_ways_out": ("""
def f(x, log):
    try:
        try:
            return x
        finally:
            log.append('a')
    finally:
        log.append('b')

def g(xs, log):
    for i in xs:
        try:
            try:
                if i == 1:
                    continue
                if i == 2:
                    break
                if i == 3:
                    return i
            finally:
                log.append('a')
        finally:
            log.append('b')

def h(x, log):
    try:
        if x:
            return x
    finally:
        if x:
            try:
                log.append(1 // (x - 1))
            except ZeroDivisionError:
                pass

def run():
    out = []
    for fn, args in ((f, (1,)), (g, ([0, 1, 2],)), (g, ([0, 3],)), (h, (1,)), (h, (2,)), (h, (0,))):
        log = []
        out.append((fn(*args, log), log))
    return out
""", "run()"),
    "finally_copied_tail": ("""
import types

def close(self, log):
    try:
        log.append(0)
    finally:
        try:
            if self.a:
                log.append(1)
        finally:
            self.sock = None

def close2(self, log):
    try:
        log.append(0)
    finally:
        sock = self.sock
        if sock is not None:
            log.append(sock)

def run():
    out = []
    for s in (types.SimpleNamespace(a=1, sock=None), types.SimpleNamespace(a=2, sock=None)):
        log = []
        close(s, log)
        s.sock = 5
        close2(s, log)
        s.a = 0
        close(s, log)
        out.append(log)
    return out
""", "run()"),
})

# 3.10 copies a short `return value` after a try statement into the end of each except clause
# (after POP_EXCEPT); a `return` written in the clause computes its value before POP_EXCEPT.
SNIPPETS.update({
    "except_copied_tail_return": ("""
def setdefault(d, key, default=None):
    try:
        return d[key]
    except KeyError:
        d[key] = default
    return default

def inside(d, key, default):
    try:
        return d[key]
    except KeyError:
        d[key] = default
        return default
    except TypeError as e:
        default = str(e)
    return default + '!'

def pair(d, key):
    try:
        a, b = d[key]
    except (KeyError, ValueError):
        a = b = 0
    return (a, b)

def run():
    d = {1: (2, 3)}
    return [setdefault(d, 5, 'x'), setdefault(d, 5), inside(d, 6, 'y'), inside(d, [], 'z'),
            pair(d, 1), pair(d, 9), pair({1: 2}, 1) if False else None, d]
""", "run()"),
    # A finally body that returns, around except clauses that go on: 3.10 and 3.12 copy it after
    # each clause and after the body, outside the finally's range. The copies are the one code after
    # the inner statement (printed in its `else`, inside the outer body, a call that raises there was
    # caught by the finally body's stand-in).
    "finally_returns_after_clauses": ("""
calls = []

def h(x):
    calls.append(x)
    if x == 1:
        raise KeyError(x)
    return x

def one(x):
    try:
        x = 1 // x
    except ZeroDivisionError:
        pass
    finally:
        return h(x)

def two(x):
    try:
        x = [1][x]
    except IndexError:
        pass
    except TypeError:
        pass
    finally:
        return h(x)

def run():
    out = []
    for f in (one, two):
        for x in (0, 1, 'a', 2):
            try:
                out.append(f(x))
            except (KeyError, TypeError) as e:
                out.append(type(e).__name__)
    return out, calls
""", "run()"),
    # `continue` in an except clause inside a with statement in a loop: after the clause's
    # POP_EXCEPT, the with's __exit__ call, then the jump back (the other clause goes on after the
    # try statement). 3.12+ lay the clauses out after the loop: the one that goes on jumps back to
    # the with's exit, the other goes on nowhere in the statement.
    "except_continue_in_with": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(items, log):
    for x in items:
        with CM(log):
            try:
                log.append(10 // x)
            except ZeroDivisionError:
                continue
            except TypeError:
                log.append('type')
            log.append(x)
    return log

def run():
    return f([1, 0, 'a', 2], [])
""", "run()"),
    # `break` in an if in an except clause, with a finally body: 3.8/3.9 pop the for loop's iterator
    # after the copy of the finally body, then jump; 3.11+ copy the `return None` after the loop into
    # the break's path, after the copy and the pop (as `return` there compiles).
    "except_break_through_finally": ("""
def f(items, log):
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            if log:
                break
        finally:
            log.append('finally')

def run():
    out = []
    for items in ([1, 0, 2], [0, 1, 0, 5]):
        log = []
        out.append((f(items, log), log))
    return out
""", "run()"),
    # The same with code after the loop: 3.12+ copy `return log` into the break's path, after the
    # copy of the finally body (still refused there: no `break` is read through such copies).
    "except_break_through_finally_tail": ("""
def g(items, log):
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            if log:
                break
        finally:
            log.append('finally')
    return log

def run():
    return [g(items, []) for items in ([1, 0, 2], [0, 1, 0, 5])]
""", "run()"),
    # `return value` in an except clause inside try/finally in for loops: the value computed in the
    # clause waits below the copy of the finally body, then is swapped above each loop's iterator,
    # which is popped.
    "except_return_through_finally_in_loop": ("""
def f(items, log):
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            pass
        except TypeError:
            return x
        finally:
            log.append('finally')

def g(rows, log):
    for row in rows:
        for x in row:
            try:
                log.append(10 // x)
            except ZeroDivisionError:
                pass
            except TypeError:
                return x
            finally:
                log.append('finally')
    return 7

def run():
    out = []
    for items in ([1, 0, 2], [0, 'a', 5]):
        log = []
        out.append((f(items, log), log))
        log = []
        out.append((g([items, items], log), log))
    return out
""", "run()"),
    # The same through a finally body's copy (3.12+: the clause that continues goes on nowhere in
    # the statement; the other jumps back to the normal path's copy).
    "except_continue_through_finally": ("""
def f(items, log):
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError:
            continue
        except TypeError:
            log.append('type')
        finally:
            log.append('finally')
    return log

def run():
    return f([1, 0, 'a', 2], [])
""", "run()"),
    # `if t: continue` in an except clause inside a with statement in a loop: on 3.12+, laid out
    # after the loop, the side that continues goes on nowhere in the clause.
    "except_if_continue_after_loop": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(items, log):
    for x in items:
        with CM(log):
            try:
                log.append(10 // x)
            except ZeroDivisionError as e:
                if log:
                    continue
            except TypeError as e:
                log.append('type')
        log.append(x)
    return log

def run():
    return [f(items, log) for items in ([1, 0, 'a', 2], [0, 2]) for log in ([], [0])]
""", "run()"),
    # `try:` right around `while True:`: the handler covers the loop's first block and its jump
    # back, and the except clauses never go back into the loop.
    "try_around_while_true": ("""
def drain(xs):
    try:
        while True:
            xs.pop()
    except IndexError:
        pass
    return xs

def items(seq):
    i = 0
    try:
        while True:
            v = seq[i]
            yield v
            i += 1
    except IndexError:
        return

def run():
    return [drain([1, 2, 3]), list(items('abc'))]
""", "run()"),
    # `break` out of an except clause: 3.10+ write a copy of the short code after the loop (after
    # the for loop's POP_TOP of its iterator) instead of a jump to it.
    "except_clause_break": ("""
def inner(xs):
    out = []
    while xs:
        try:
            out.append(xs.pop())
        except IndexError:
            break
    return out

def first_int(items):
    n = None
    for s in items:
        try:
            n = int(s)
        except ValueError:
            continue
        except TypeError:
            break
        else:
            if n > 10:
                break
    return n

def run():
    return [inner([1, 2]), first_int(['x', '3', None, '40']), first_int(['x', '50', '1'])]
""", "run()"),
    # A try statement ending one side of an `if` whose except clauses never go on: where the sides
    # meet is the code after the `if`, not an `else` clause of the try (3.12+ lay handlers out last).
    "try_in_if_side": ("""
def lookup(d, s, c):
    if not c or c == 'default':
        table = d
    else:
        try:
            table = d[c]
        except KeyError:
            raise LookupError(c) from None
    key = s.lower()
    found = key in table
    if found:
        del table[key]
    return found

def run():
    try:
        lookup({}, 'a', 'zz')
    except LookupError as e:
        err = str(e)
    return [lookup({'a': 1}, 'A', ''), lookup({'x': {'b': 2}}, 'B', 'x'), err]
""", "run()"),
})

# Before 3.10 `else:` after a branch that raises, breaks or continues leaves a dead jump over the
# else arm (one after `return` is dropped by the peephole optimizer): it tells `else:` from code
# after the `if`.
SNIPPETS.update({
    "else_after_ending_branch": ("""
def raise_else(a):
    if a < 0:
        raise ValueError(a)
    else:
        a = a + 1
    return a * 2

def raise_flat(a):
    if a < 0:
        raise ValueError(a)
    a = a + 1
    return a * 2

def loop_else(xs):
    out = []
    for x in xs:
        if x == 3:
            continue
        else:
            out.append(x)
        if x > 6:
            break
        else:
            out.append(-x)
        out.append(0)
    return out

def loop_flat(xs):
    out = []
    for x in xs:
        if x == 3:
            continue
        out.append(x)
        if x > 6:
            break
        out.append(-x)
    return out

def nested_returns(items, key):
    if items is None:
        raise TypeError('not indexable')
    found = [i for i in items if i == key]
    if not found:
        raise KeyError(key)
    if len(found) == 1:
        return found[0]
    else:
        return found

def returns_then_else(text, state):
    if not text:
        if state == 0:
            if text is None:
                return ''
            else:
                return '\\t'
        else:
            return None
    return text * state

def attempt(f, *args):
    try:
        return f(*args)
    except (ValueError, TypeError, KeyError) as e:
        return repr(e)

def run():
    res = [attempt(f, a) for f in (raise_else, raise_flat) for a in (-1, 0, 4)]
    res.append(loop_else(range(10)))
    res.append(loop_flat(range(10)))
    res += [attempt(nested_returns, i, k) for i, k in ((None, 1), ([1, 2], 3), ([1, 2], 2), ([2, 2], 2))]
    res += [returns_then_else(t, s) for t, s in (('', 0), (None, 0), ('', 1), ('ab', 2))]
    return res
""", "run()"),
})
# try statements ending a loop body. Before 3.10 a clause or branch that falls out of the last
# statement jumps straight back to the loop (the jump to the jump back is threaded), and a written
# `continue` leaves dead code after it; clauses that all leave by continue/break say where the
# statement ends by the layout (3.10+: code past the handler is after the statement; before: the
# dead jump after each clause). 3.12+ lay out both the same (names/constants order differs).
SNIPPETS.update({
    "try_ending_loop_body": ("""
def fields(obj, names):
    for name in names:
        try:
            yield name, getattr(obj, name)
        except AttributeError:
            pass

def skip_bad(items):
    out = []
    for x in items:
        try:
            v = 10 // x
        except ZeroDivisionError:
            continue
        out.append(v)
    return out

def named(items):
    res = []
    for f in items:
        try:
            res.append(int(f))
        except ValueError as e:
            res.append(str(e)[:5])
    return res

def named_continue(items):
    res = []
    for f in items:
        try:
            res.append(int(f))
        except ValueError as e:
            res.append(str(e)[:5])
            continue
        res.append('+')
    return res

def first_hit(rows, key):
    for row in rows:
        if row is not None:
            try:
                return row[key]
            except KeyError:
                pass
    return 'none'

def run():
    class O:
        a = 1
    return [list(fields(O, ['a', 'b'])), skip_bad([1, 0, 2]), named(['1', 'x', '3']),
            named_continue(['1', 'x']), first_hit([None, {}, {'k': 5}], 'k'), first_hit([{}], 'k')]
""", "run()"),
})

# An except clause holding a try statement goes on from that statement's clauses too (ratio: the
# middle clause goes on only through its nested clause, to the code after the outer statement;
# refused for now rather than printing that code inside the clause).
SNIPPETS.update({
    # Branches that return a call's result or a lambda from inside try/finally: the value is
    # spilled (or the lambda built) before the branch's copy of the finally body.
    "finally_branch_returns_spilled": ("""
def f(a, log):
    try:
        if a > 1:
            return len(log.append('body') or 'xy')
        if a:
            return lambda t, k=a: (t, k)
        return log
    finally:
        log.append('finally')

def g(a):
    log = []
    r = f(a, log)
    return (r if not callable(r) else r(5), log)
""", "g(0), g(1), g(2)"),
    # A returned function object waits on the stack while the finally body's copy runs; it prints
    # as a lambda, a node of its own.
    "finally_returns_lambda": ("""
def f(log):
    try:
        return lambda t: (t, len(log))
    finally:
        log.append('finally')

def g():
    log = []
    return f(log)(1), log
""", "g()"),
    # A finally body `if a and b:` that ends the function: on the normal path its test jumps to
    # copies of the return and reads `if a: if b:`.
    "finally_and_test_ends_function": ("""
def f(a, b, log):
    try:
        log.append('body')
    finally:
        if a and b:
            log.append('finally')

def g():
    out = []
    for a in (0, 1):
        for b in (0, 1):
            log = []
            f(a, b, log)
            out.append(log)
    return out
""", "g()"),
    "except_clause_nested_try": ("""
def ratio(x):
    try:
        if type(x) is float:
            return x.as_integer_ratio()
        try:
            return (x.numerator, x.denominator)
        except AttributeError:
            try:
                return x.as_integer_ratio()
            except AttributeError:
                pass
    except (OverflowError, ValueError):
        return (x, None)
    raise TypeError('cannot convert %r' % (x,))

def nested_goes_on(d, k):
    try:
        v = d[k]
    except KeyError:
        try:
            v = int(k)
        except ValueError:
            v = -1
    return v

def run():
    out = []
    for x in (0.5, 3, float('inf'), 'a'):
        try:
            out.append(ratio(x))
        except TypeError as e:
            out.append(str(e))
    out += [nested_goes_on({1: 2}, 1), nested_goes_on({}, '7'), nested_goes_on({}, 'z')]
    return out
""", "run()"),
    # A try statement inside an except clause, whose clauses all raise, followed by more than a
    # return: 3.13 lays out the outer clause's exit (`POP_EXCEPT; JUMP_BACKWARD_NO_INTERRUPT`)
    # right after the inner body, before the inner handler; it is not an `else` clause.
    "except_clause_try_then_code": ("""
def wrap(s, d1, d2):
    try:
        value = d1[s]
    except KeyError:
        try:
            value = d2[s]
        except KeyError:
            raise ValueError(s)
    if isinstance(value, (str, int)):
        return [value]
    raise ValueError(value)

def wrap_else(s, d1, d2, out):
    try:
        value = d1[s]
    except KeyError:
        try:
            value = d2[s]
        except KeyError:
            raise ValueError(s)
        else:
            out.append(value)
    if value:
        return [value, out]
    raise ValueError(value)

def run():
    out = []
    for s in ('a', 'b', 'c', 'z'):
        for f in (lambda s: wrap(s, {'a': 1, 'c': 0.5}, {'b': 'x'}), lambda s: wrap_else(s, {'a': 1}, {'b': 'x', 'c': 0}, [])):
            try:
                out.append(f(s))
            except ValueError as e:
                out.append(repr(e))
    return out
""", "run()"),
    # A `return` in an except clause of a try statement inside an except clause: its block pops
    # both clauses and returns; it is the inner clause's own code, not where the clauses go on.
    "except_clause_try_returns": ("""
def mount(path, d1, d2):
    try:
        s = d1[path]
    except KeyError:
        path = path + '/'
        try:
            s = d2[path]
        except KeyError:
            return False
    return s != path or s == 0

def run():
    return [mount(p, {'a': 1}, {'b/': 'b/'}) for p in ('a', 'b', 'c')]
""", "run()"),
    # A `while` with an and/or test ending the function (3.10+): each jump out of the test on top
    # and of its copy at the bottom goes to its own copy of `return None`; 3.12+ put a bare jump
    # back to the body after each part of an `or` at the bottom.
    "while_bool_test_ends_function": ("""
def both(head, tail, out):
    while head and tail:
        out.append(head)
        head, tail = head - 1, tail - 2

def either(a, b, out):
    while a or b:
        out.append((a, b))
        a, b = b, 0

def mixed(a, b, c, out):
    while a and (b or c):
        out.append(a)
        a -= 1

def run():
    out = []
    both(5, 6, out)
    either(1, 2, out)
    mixed(3, 0, 1, out)
    mixed(3, 1, 0, out)
    return out
""", "run()"),
    # Code after a try statement whose except clauses all return: an `else:` clause is compiled
    # before the clauses, code after the statement after them (3.11+ lay handlers out in that order,
    # and co_names take names in that order).
    "code_after_try_all_clauses_return": ("""
def node(mod, default=''):
    try:
        m = __import__(mod)
    except ImportError:
        return default
    try:
        return m.getcwd()
    except OSError:
        return default

def syscmd(mod, default=''):
    try:
        m = __import__(mod)
    except ImportError:
        return default
    output = m.sep
    if not output:
        return default
    return output.encode('latin-1')

def loop(head, tail, out):
    while head and tail:
        try:
            out.append(10 // head)
        except ZeroDivisionError:
            break
        head, tail = head - 1, tail - 1

def run():
    out = [node('os') != '', node('no_such_module_x'), syscmd('os'), syscmd('no_such_module_x')]
    loop(3, 5, out)
    return out
""", "run()"),
    # Lambdas as items of tuple, list, set and dict displays (they were printed as a marker).
    "lambda_in_displays": ("""
def run():
    x = (lambda: 1, list)
    d = {'a': lambda: 2, 'b': 3}
    e = {1: lambda: 4, len(x): 5}
    out = []
    for f in (lambda: 6, list):
        out.append(f())
    return out + [x[0](), [lambda: 5][0](), d['a'](), e[1](), {lambda: 7}.pop()()]
""", "run()"),
    # 3.10+ copies the implicit `return None` into the branches of a trailing if or try whose other
    # paths raise or return: the copies are not written (a docstring makes the constants' order show it).
    "implicit_return_beside_raise": ("""
def set_info(obj, info):
    "Set info."
    if isinstance(info, str):
        obj.append(info)
    elif info is None:
        obj.append('-')
    else:
        raise TypeError('info must be a string: %s' % type(info))

def close(f):
    "Close."
    try:
        f()
    except (KeyError, StopIteration):
        pass
    else:
        raise RuntimeError('ignored')

def run():
    out = []
    for v in ('a', None, 3):
        try:
            set_info(out, v)
        except TypeError as e:
            out.append(str(e))
    for f in (lambda: {}['k'], list):
        try:
            close(f)
        except RuntimeError as r:
            out.append(str(r))
    return out
""", "run()"),    # An if in an except clause of a try in a loop (3.11+ lay the clause out after the loop): its
    # sides meet in the clause, or at the code after the try, or one side continues; and a try
    # ending an if's side whose clause only continues.
    "except_clause_if_in_loop": ("""
def lookup(items, table):
    out = []
    for k in items:
        try:
            v = table[k]
        except KeyError:
            if k:
                v = -1
        out.append(v)
    return out

def defaults(items, table):
    out = []
    for k in items:
        try:
            out.append((k, table[k]))
        except KeyError:
            if k > 2:
                v = k * 2
            elif k > 1:
                v = ()
            else:
                continue
            out.append((k, v))
    return out

def select(items, check):
    for x in items:
        if x is None or x >= 0:
            if check:
                try:
                    if not 10 // x:
                        continue
                except ZeroDivisionError:
                    continue
            y = x * 3
            if check:
                yield y
            else:
                yield -y

def run():
    return (lookup([0, 1, 2], {0: 'a'}), defaults([0, 1, 2, 3, 4], {4: 'x'}),
            list(select([1, 20, 0, 3], True)), list(select([1, 20, 3], False)))
""", "run()"),
    # `while True:` left only by `break` in an except clause that 3.11+ lay out after the loop (right
    # after it, or after code of an enclosing if's other side): where the clause goes is the exit.
    "while_true_except_break": ("""
def strip(a, env):
    while True:
        try:
            i = a.index(1)
            del a[i]
        except ValueError:
            break
    if env:
        a = a + [2]
    return a

def strip_or(a, env):
    if a.count(1) > 1 or env:
        while True:
            try:
                i = a.index(1)
                del a[i]
            except ValueError:
                break
    elif env is None:
        for i in range(2):
            a.append(i)
    if env:
        a = a + [2]
    return a

def run():
    return [strip([1, 3, 1], e) for e in (0, 1)] + [strip_or(x, e) for x in ([1], [1, 1, 5]) for e in (0, 1, None)]
""", "run()"),
    # `a or b and c` in a loop inside a with body (3.13 leave the conditional jumps and the jumps
    # back uncovered, each in a block of its own): one condition.
    "with_loop_or_and_filter": ("""
import contextlib

def pick(items, keep, log):
    with contextlib.nullcontext(log) as out:
        with contextlib.nullcontext(out) as z:
            for x in items:
                name = str(x)
                if keep is None or keep(name) and x != len(name):
                    z.append(name)
            if items:
                z.append('end')
    return log

def run():
    return pick([1, 22, 333, 4444], None, []), pick([1, 22, 333, 4444], lambda n: n != '22', []), pick([], len, [])
""", "run()"),
    # A test after `or` whose value holds a short circuit of its own: `a or (b or c) is d`.
    "or_test_with_inner_short_circuit": ("""
def pick(items, everything, default):
    out = []
    for key, value in items:
        if everything is not None or (value.get(key) or default) is default:
            if key:
                out.append(key)
    return out

def one(value, flag, default):
    if flag or (value or default) is default:
        return 'yes'
    return 'no'

def run():
    items = [('a', {}), ('b', {'b': 1}), ('', {})]
    return (pick(items, None, None), pick(items, 1, None), [one(v, f, None) for v in (0, 1, None) for f in (0, 1)])
""", "run()"),
    # A try that starts a `while True:` body (its handler covers the loop's first block, not the
    # jump back): an if/else in its except clause, laid out after the loop (3.11+).
    "while_true_try_first_clause_if": ("""
def scan(it, params):
    out = []
    while True:
        try:
            v = next(it)
        except StopIteration:
            p = next(params, None)
            if p is None:
                break
            if p > 5:
                kind = 'big'
            else:
                kind = 'small'
            out.append(kind)
            raise ValueError(kind)
        out.append(v)
    return out

def run():
    res = []
    for ps in ([], [7], [1]):
        try:
            res.append(scan(iter([1, 2]), iter(ps)))
        except ValueError as e:
            res.append(str(e))
    return res
""", "run()"),
})

UNSUPPORTED_YET = {
    # A guard whose condition holds a conditional expression (more blocks than one condition).
    "match_guard_ifexp": ("""
def f(x, c):
    match x:
        case [a] if (a if c else -a) > 0:
            return a
        case _:
            return None
""", ["3.10", "3.11", "3.12", "3.13"]),
}

def compile_pyc(exe, source, path):
    src = path.with_suffix(".py")
    src.write_text(textwrap.dedent(source))
    subprocess.run([exe, "-c", "import py_compile,sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], doraise=True)",
                    str(src), str(path)], check=True)


def compiled_pyc_or_skip(version, source, pyc):
    """Compiles `source` into `pyc` with the interpreter of `version` (skips the test where it is
    not installed); returns that interpreter."""
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    compile_pyc(exe, source, pyc)
    return exe


def verify(exe, pyc, source, tmp_path):
    out = tmp_path / "decompiled.py"
    out.write_text(source)
    proc = subprocess.run([exe, CHECKER, str(pyc), str(out)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)["verdicts"]


def run_both(exe, original, decompiled, call):
    script = ("import sys\nns1, ns2 = {}, {}\nexec(compile(sys.argv[1], 'o', 'exec'), ns1)\n"
              "exec(compile(sys.argv[2], 'd', 'exec'), ns2)\n"
              "print(repr(eval(sys.argv[3], ns1)) == repr(eval(sys.argv[3], ns2)))")
    out = subprocess.run([exe, "-c", script, textwrap.dedent(original), decompiled, call],
                         capture_output=True, text=True, timeout=60)
    return out.stdout.strip(), out.stderr


# Finally bodies the compiler lays out or copies unevenly (3.10+: short endings copied into the
# jumps to them; 3.12+: except clauses out of line, jumping back to the normal-path copy).
FINALLY_LAYOUT_SNIPPETS = {
    # The `except: pass` clause jumps back to the finally body's normal-path copy (3.12+); both
    # clauses reach the finally's handler, which is no place where the if of their tests meets.
    "finally_clause_jumps_back": ("""
def f(a, b, log):
    c = None
    try:
        c = a()
    except ValueError:
        pass
    except KeyError as e:
        return b
    finally:
        log.append(c)

def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    out = []
    for a in (ok, ve, ke):
        log = []
        out.append((f(a, 'b', log), log))
    return out
""", "g()"),
    # A with statement in an except clause whose __exit__ suppresses goes on where the clause does
    # (3.11+: its handler ends with POP_EXCEPT like a clause's).
    "finally_clause_with_suppresses": ("""
class CM:
    def __init__(self, s, log): self.s, self.log = s, log
    def __enter__(self): return self
    def __exit__(self, *e):
        self.log.append(e[0])
        return self.s

def f(a, cm):
    try:
        a()
    except ZeroDivisionError:
        with cm:
            return a()
    finally:
        pass

def g():
    out = []
    for a in (int, lambda: 1 // 0):
        for s in (True, False):
            log = []
            try:
                out.append((f(a, CM(s, log)), log))
            except ZeroDivisionError:
                out.append(('raised', log))
    return out
""", "g()"),
    # A finally body ending with if/else: the then-side's jump over the else arm holds a copy of the
    # ending (`return None` on the normal path, the re-raise in the handler).
    "finally_if_else_ends": ("""
def f(a, log):
    try:
        log.append(a)
    finally:
        if a:
            pass
        else:
            log.append('else')

def g():
    return [(f(a, log := []), log) for a in (0, 1)]
""", "g()"),
    # A finally body's last statement holding a conditional expression: the handler's copy of the
    # code after it (the store, the re-raise) is copied into both sides.
    "finally_ends_with_conditional": ("""
def f(a, log):
    try:
        log.append(1 // a)
    except ZeroDivisionError:
        pass
    finally:
        log.append('x' if a else 'y')

def g():
    return [(f(a, log := []), log) for a in (0, 1)]
""", "g()"),
    "finally_ends_with_conditional_operand": ("""
def f(a, log):
    try:
        log.append(1 // a)
    finally:
        log.append(len(log) + (1 if a else 2))

def g():
    out = []
    for a in (0, 1):
        log = []
        try:
            out.append((f(a, log), log))
        except ZeroDivisionError:
            out.append(('raised', log))
    return out
""", "g()"),
    # Nested withs whose body returns: where the inner one's __exit__ suppresses, the outer's
    # clean-up is copied (3.11+) and goes on after the statement, the body's only normal exit.
    "nested_with_returns_suppressed": ("""
class CM:
    def __init__(self, s, log): self.s, self.log = s, log
    def __enter__(self): return self
    def __exit__(self, *e):
        self.log.append(e[0])
        return self.s

def f(a, b, cm1, cm2):
    if a:
        pass
    else:
        with cm1, cm2:
            return 1 // b
    return ('after', a, b)

def g():
    out = []
    for a in (0, 1):
        for b in (0, 1):
            for s1 in (True, False):
                for s2 in (True, False):
                    log = []
                    try:
                        out.append((f(a, b, CM(s1, log), CM(s2, log)), log))
                    except ZeroDivisionError:
                        out.append(('raised', log))
    return out
""", "g()"),
}
SNIPPETS.update(FINALLY_LAYOUT_SNIPPETS)


# Except clauses of one try statement where one goes on and another returns through the way out
# of the statements around it (random programs: the refusal "except clauses that continue in
# different places").
CLAUSE_RETURN_SNIPPETS = {
    # One clause goes on, the other returns through the copy of a finally body that may return
    # itself (the copy's return and the handler's, which drops the exception first, differ).
    "clause_return_finally_may_return": ("""
def f(a, log):
    try:
        log.append(a())
    except ValueError:
        log.append('value')
    except KeyError:
        return 'key'
    finally:
        if len(log) > 1:
            return log[-1]
""" + RUN_F_A_LOG, "g()"),
    # A clause of a try statement in a with statement in an outer clause returns: the with's
    # __exit__ call, then the outer clause's POP_EXCEPT, then the return.
    "clause_return_in_with_in_clause": (LOGGING_CM + """
def f(a, b, log):
    try:
        a()
    except ValueError:
        with CM(log):
            try:
                b()
            except KeyError:
                return 'key'
            except TypeError:
                log.append('type')
    log.append('end')
""" + RUN_F_A_B_LOG, "g()"),
    # The same through a finally body: its copy, then the outer clause's POP_EXCEPT.
    "clause_return_in_try_finally_in_clause": ("""
def f(a, b, log):
    try:
        a()
    except ValueError:
        try:
            b()
        except KeyError:
            return log
        finally:
            log.append('finally')

def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    out = []
    for a in (ok, ve):
        for b in (ok, ke):
            log = []
            out.append((f(a, b, log), log))
    return out
""", "g()"),
    # A return through the copy of a finally body that branches, then the __exit__ call of a with
    # statement around the try statement.
    "clause_return_branching_finally_in_with": (LOGGING_CM + """
def f(a, log):
    with CM(log):
        try:
            a()
        except ValueError:
            return 1
        except KeyError:
            log.append('key')
        finally:
            if log:
                log.append('finally')
""" + RUN_F_A_LOG, "g()"),
    # A return through the copy of a finally body that returns, inside a with statement.
    "clause_return_finally_returns_in_with": (LOGGING_CM + """
def f(a, log):
    with CM(log):
        try:
            a()
        except ValueError:
            return log.append('value')
        except KeyError:
            log.append('key')
        finally:
            return len(log)

def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    out = []
    for a in (ok, ve, ke):
        log = []
        out.append((f(a, log), log))
    return out
""", "g()"),
    # A return through the copy of a finally body that may `continue` (the copy pops the value, the
    # handler the exception, before the jump).
    "clause_return_finally_continues": ("""
def f(items, log):
    for a in items:
        try:
            a()
        except ValueError:
            return a
        except KeyError:
            log.append('key')
        finally:
            if log:
                continue
        log.append('after')

def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    out = []
    for items in ([ok, ve], [ke, ok, ve], [ve]):
        log = []
        out.append((f(items, log) is not None, log))
    return out
""", "g()"),
    # Through the copies of two finally bodies, the inner one's, the outer clause's POP_EXCEPT, then
    # the outer one's (inner first, whichever is laid out first).
    "clause_return_in_nested_finally_in_clause": ("""
def f(a, b, log):
    try:
        a()
    except ValueError:
        try:
            b()
        except KeyError:
            return log
        except TypeError:
            log.append('type')
        finally:
            log.append(1)
    finally:
        log.append(2)
""" + RUN_F_A_B_LOG, "g()"),
    # The same through the copy of an outer finally body that branches, after the outer clause's
    # POP_EXCEPT (3.12+ refuse it still: a way out without the compiler's copy).
    "clause_return_in_clause_branching_finally": ("""
def f(a, b, log):
    try:
        a()
    except ValueError:
        try:
            b()
        except KeyError:
            return log
        except TypeError:
            log.append('type')
    finally:
        if log:
            log.append('finally')

def g():
    def ok(): return 1
    def ve(): raise ValueError
    def ke(): raise KeyError
    def te(): raise TypeError
    out = []
    for a in (ok, ve):
        for b in (ok, ke, te):
            for pre in ([], [0]):
                log = list(pre)
                out.append((f(a, b, log), log))
    return out
""", "g()"),
    # (Not a return: 3.8's peephole threads one clause's jump past the lone jump that ends the if
    # body, where the other clause goes on, to where that jump goes.)
    "clauses_end_if_body_threaded_jump": ("""
def f(a, b, log):
    if a:
        if b:
            try:
                log.append(b())
            except KeyError:
                pass
            except ValueError as e:
                log.append(str(e))
        else:
            log.append('no b')
    else:
        log.append('no a')
    return log

def g():
    def ok(): return 1
    def ve(): raise ValueError('v')
    def ke(): raise KeyError
    return [f(a, b, []) for a in (0, 1) for b in (None, ok, ve, ke)]
""", "g()"),
    # A return through the copy of a finally body holding a with statement, whose handler (3.8: laid
    # out inside the copy) goes on in the copy.
    "clause_return_through_finally_with": (LOGGING_CM + """
def f(a, log):
    try:
        a()
    except ValueError:
        if log:
            return log.pop()
    finally:
        if len(log) > 1:
            log.append('long')
        with CM(log):
            log.append('with')

def g():
    def ok(): return 1
    def ve(): raise ValueError
    out = []
    for a in (ok, ve):
        for pre in ([], [0], [0, 1, 2]):
            log = list(pre)
            out.append((f(a, log), log))
    return out
""", "g()"),
    # The copy's own return, of a constant, leaves the with statement around it too (the copy drops
    # the clause's value, the handler the exception, before the __exit__ call).
    "clause_return_finally_may_return_in_with": (LOGGING_CM + """
def f(a, log):
    with CM(log):
        try:
            a()
        except ValueError:
            return log.append('value')
        except KeyError:
            log.append('key')
        finally:
            if len(log) > 1:
                return 'finally'
""" + RUN_F_A_LOG, "g()"),
    # The code after the statement, which 3.12+ copy after the normal-path copy of the finally body,
    # computes its value after that copy ran, even where the copy starts with a try statement (no
    # expression of its own): that return is no statement of the try body (3.12+ refuse it).
    "return_after_finally_starting_with_try": ("""
def f(a, b, c):
    x = 0
    y = b
    try:
        try:
            x = a()
        except ZeroDivisionError:
            x = 1
        except:
            if 9 <= b:
                return 2
            c = b
    finally:
        try:
            y *= c
        except TypeError as e:
            y = 0
        finally:
            assert b == 7, x
        c = b
    return (x, y, c)

def g():
    def ok(): return 5
    def zd(): raise ZeroDivisionError
    def ve(): raise ValueError
    out = []
    for args in ((ok, 7, 3), (zd, 7, 'x'), (ve, 7, 2), (ve, 10, 2), (ok, 1, 2)):
        try:
            out.append(f(*args))
        except Exception as e:
            out.append(type(e).__name__)
    return out
""", "g()"),
}
SNIPPETS.update(CLAUSE_RETURN_SNIPPETS)


# Returns, breaks and raises leaving nested with statements (inside try statements, with try
# statements inside; CPython's test_shutil). f(g, a, b, ...) takes an action g and context managers
# that log and may suppress: run(f, n) gives every outcome of every combination.
SUPPRESSING_CMS = """
L = []
class CM:
    def __init__(self, tag, suppress):
        self.tag, self.suppress = tag, suppress
    def __enter__(self):
        L.append(('enter', self.tag))
        return self.tag
    def __exit__(self, et, ev, tb):
        L.append(('exit', self.tag, et.__name__ if et else None))
        return self.suppress
    async def __aenter__(self):
        return self.__enter__()
    async def __aexit__(self, et, ev, tb):
        return self.__exit__(et, ev, tb)
def h(*v):
    L.append(('h',) + v)
def result(r):
    if hasattr(r, 'send'):  # an async def's coroutine: run to its end
        try:
            r.send(None)
        except StopIteration as e:
            return e.value
    return r
def run(f, n):
    def ok(*v):
        L.append(('ok',) + v)
        return 'v'
    def oserror(*v):
        raise OSError
    def keyerror(*v):
        raise KeyError
    out = []
    for g in (ok, oserror, keyerror):
        for mask in range(2 ** n):
            del L[:]
            try:
                out.append((result(f(g, *[CM(i, bool(mask >> i & 1)) for i in range(n)])), list(L)))
            except Exception as e:
                out.append((type(e).__name__, list(L)))
    return out
"""
WITH_RETURN_SNIPPETS = {
    # A return after an inner with statement, in the outer one: where the inner __exit__ suppresses,
    # the return still runs (printed as `with a, b:` it did not).
    "return_after_inner_with": (SUPPRESSING_CMS + """
def f(g, a, b):
    with a:
        with b:
            g()
        return 2
""", "run(f, 2)"),
    # A return of a constant inside nested with statements: where the inner __exit__ suppresses,
    # the outer body goes on to its end (3.10+ lay that out as one more way out of it).
    "return_in_nested_withs": (SUPPRESSING_CMS + """
def f(g, a, b):
    with a:
        with b:
            g()
            return 2
""", "run(f, 2)"),
    # Inner suppression goes on after the inner statement, at the end of the outer body: out
    # through the outer __exit__, then to the code after both, which the normal path (`continue`)
    # skips. That code must not be printed inside the outer body, before the outer __exit__ (the
    # slice store logs without a call, which would make it another shape).
    "continue_in_nested_withs_then_code": (SUPPRESSING_CMS + """
def f(g, a, b):
    n = 0
    while n < 3:
        with a, b:
            n += 1
            g(n)
            continue
        n = n + 10
        L[99:] = [('after', n)]
    return n
""", "run(f, 2)"),
    # A loop whose body never goes back (printed as an if): the with body's break and the code only
    # a suppressed exception reaches go on in different places (a flag tells them apart).
    "break_in_with_in_loop_that_never_loops": (SUPPRESSING_CMS + """
def f(g, a):
    n = 0
    while n < 2:
        n += 1
        with a:
            g(n)
            break
        h('after', n)
        return n
    h('end')
""", "run(f, 1)"),
    "return_in_nested_withs_then_return": (SUPPRESSING_CMS + """
def f(g, a, b):
    with a:
        with b:
            g()
            return 1
    return 2
""", "run(f, 2)"),
    "return_in_three_withs": (SUPPRESSING_CMS + """
def f(g, a, b, c):
    with a:
        with b:
            with c:
                g()
                return 1
""", "run(f, 3)"),
    # The same inside try statements: where an __exit__ suppresses, the try body goes on to its
    # end (the normal exit, found through the with statements' handlers); a return runs the
    # finally body's copy after the __exit__ calls.
    "return_in_with_in_try_finally": (SUPPRESSING_CMS + """
def f(g, a):
    try:
        with a:
            g()
            return 2
    finally:
        h()
""", "run(f, 1)"),
    "return_in_nested_withs_in_try_finally": (SUPPRESSING_CMS + """
def f(g, a, b):
    try:
        with a:
            with b:
                g()
                return 2
    finally:
        h()
""", "run(f, 2)"),
    "return_in_nested_withs_in_try_except": (SUPPRESSING_CMS + """
def f(g, a, b):
    try:
        with a:
            with b:
                g()
                return 2
    except OSError:
        h()
""", "run(f, 2)"),
    # Every path of a try statement inside nested withs returns: the suppressed path goes on from
    # the values the statements started with (3.11+: 'stack underflow').
    "try_else_returns_in_nested_withs": (SUPPRESSING_CMS + """
def f(g, a, b):
    with a:
        with b:
            try:
                g()
            except OSError:
                return 1
            else:
                return 2
""", "run(f, 2)"),
    # An except clause's return through the __exit__ calls and then the copy of a finally body:
    # statements below the stack of the clause's region, kept.
    "clause_return_in_with_in_try_finally": (SUPPRESSING_CMS + """
def f(g, a):
    try:
        with a:
            try:
                g()
            except OSError:
                return 1
    finally:
        h()
""", "run(f, 1)"),
    # A finally body that branches: the return's way out is no normal exit though it branches.
    "return_in_nested_withs_in_branching_finally": (SUPPRESSING_CMS + """
def f(g, a, b):
    try:
        with a:
            with b:
                g()
                return 2
    finally:
        if a:
            h()
""", "run(f, 2)"),
    # A break the same way: the copy of the finally body, then the jump out of the loop.
    "break_in_nested_withs_in_try_finally": (SUPPRESSING_CMS + """
def f(g, a, b):
    for i in range(2):
        try:
            with a:
                with b:
                    g(i)
                    break
        finally:
            h(i)
    return 3
""", "run(f, 2)"),
    # The same with async with statements (__aexit__'s result awaited before it is dropped).
    "return_in_nested_async_withs_in_try_finally": (SUPPRESSING_CMS + """
async def f(g, a, b):
    try:
        async with a:
            async with b:
                g()
                return 2
    finally:
        h()
""", "run(f, 2)"),
    "clause_return_in_async_with_in_try_finally": (SUPPRESSING_CMS + """
async def f(g, a, b):
    try:
        async with a:
            with b:
                try:
                    g()
                except OSError:
                    return 1
    finally:
        h()
""", "run(f, 2)"),
    # CPython's test_shutil (supports_file2file_sendfile), simplified: an except clause's return
    # through the __exit__ calls, then a copy of the finally body that branches.
    "clause_returns_in_withs_in_try_finally": (SUPPRESSING_CMS + """
def f(g, a, b, c):
    src = None
    try:
        with a as s:
            src = s
        with c as x:
            with b as y:
                try:
                    g(x, y)
                except OSError:
                    return False
                else:
                    return True
    finally:
        if src is not None:
            h(src)
""", "run(f, 3)"),
}
SNIPPETS.update(WITH_RETURN_SNIPPETS)


# Round trips that are equivalent today; a regression here fails the test. The others must at least
# fail loudly (see test_never_silently_wrong).
EQUIVALENT_NOW = {
    ('arithmetic', '3.10'),
    ('arithmetic', '3.11'),
    ('arithmetic', '3.12'),
    ('arithmetic', '3.13'),
    ('arithmetic', '3.8'),
    ('arithmetic', '3.9'),
    ('asserts_and_raises', '3.10'),
    ('asserts_and_raises', '3.11'),
    ('asserts_and_raises', '3.12'),
    ('asserts_and_raises', '3.13'),
    ('augmented_and_subscripts', '3.10'),
    ('augmented_and_subscripts', '3.11'),
    ('augmented_and_subscripts', '3.12'),
    ('augmented_and_subscripts', '3.13'),
    ('augmented_and_subscripts', '3.8'),
    ('augmented_and_subscripts', '3.9'),
    ('calls_and_strings', '3.10'),
    ('calls_and_strings', '3.11'),
    ('calls_and_strings', '3.12'),
    ('calls_and_strings', '3.13'),
    ('calls_and_strings', '3.9'),
    ('loops', '3.10'),
    ('loops', '3.11'),
    ('loops', '3.12'),  # 3.12+ while loops: the repeated test jumps out, a bare jump goes back
    ('loops', '3.13'),
    ('while_else', '3.10'),
    ('while_else', '3.11'),
    ('while_else', '3.8'),
    ('while_else', '3.9'),
    ('generator', '3.8'),
    ('generator', '3.9'),
    ('generator', '3.10'),
    ('generator', '3.11'),
    ('generator', '3.12'),
    ('generator', '3.13'),
    ('try_except_finally', '3.11'),
    ('try_except_finally', '3.12'),
    ('try_except_finally', '3.13'),
    ('with_blocks', '3.11'),
    ('with_blocks', '3.12'),
    # Exception handling and with statements (block stack on 3.8-3.10; see EXCEPTION_SNIPPETS).
    ('except_clauses_else', '3.11'),
    ('except_clauses_else', '3.9'),
    ('except_name_unbound', '3.10'),
    ('except_name_unbound', '3.11'),
    ('except_name_unbound', '3.12'),
    ('except_name_unbound', '3.13'),
    ('except_name_unbound', '3.9'),
    ('except_plain_clauses', '3.8'),
    ('except_plain_clauses', '3.9'),
    ('except_plain_clauses', '3.11'),
    ('except_returns', '3.10'),
    ('except_returns', '3.11'),
    ('except_returns', '3.12'),
    ('except_returns', '3.13'),
    ('except_returns', '3.9'),
    ('nested_try', '3.11'),
    ('nested_try', '3.9'),
    ('raise_in_except', '3.10'),
    ('raise_in_except', '3.11'),
    ('raise_in_except', '3.12'),
    ('raise_in_except', '3.13'),
    ('raise_in_except', '3.9'),
    ('try_except_finally', '3.9'),
    ('try_finally_return', '3.10'),
    ('try_finally_return', '3.11'),
    ('try_finally_return', '3.12'),
    ('try_finally_return', '3.13'),
    ('try_finally_return', '3.9'),
    ('try_in_loop', '3.11'),
    ('try_in_loop', '3.9'),
    ('with_blocks', '3.10'),
    ('with_blocks', '3.9'),
    ('with_in_loops', '3.10'),
    ('with_in_loops', '3.11'),
}


# ---- Comprehensions (PEP 709 inlined ones on 3.12+, code objects before).
EQUIVALENT_NOW |= {(name, version) for name in ("comprehensions", "inlined_comp_clauses", "inlined_comp_shadow",
                                                 "inlined_comp_in_control_flow", "inlined_comp_nested")
                   for version in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, version) for name in ("yield_from", "await_coroutine", "async_generator", "async_for",
                                                 "async_comprehensions")
                   for version in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("async_with", "async_for_break") for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("async_with", "async_with_return") for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("async_with", "3.9")}
EQUIVALENT_NOW |= {("code_after_clause_in_its_block", v) for v in ("3.8", "3.9", "3.11", "3.13")}
EQUIVALENT_NOW |= {("clause_tail_copies", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("constant_asserts", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("class_declarations", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("star_star_dict_keys", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("star_displays", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("star_items_then_effects", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("lambda_in_boolean_and_conditional", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_continue_else_return", v) for v in ("3.10", "3.12", "3.13")}
EQUIVALENT_NOW |= {("compound_test_at_function_end", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("long_or_and_chains", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_as_with_many_locals", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_chain_or_test", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_chain_and_test", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("explicit_return_at_function_end", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_break_in_except_clause", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("chain_test_in_except_clause", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_else_break_in_for", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("multiline_test_at_function_end", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("chain_in_conditional_expression", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("return_through_finally_loop", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("finally_clause_jumps_back", "finally_if_else_ends", "finally_ends_with_conditional",
                                         "finally_ends_with_conditional_operand") for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("nested_with_returns_suppressed", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("finally_clause_with_suppresses", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("clause_return_finally_may_return", "clause_return_in_with_in_clause",
                                         "clause_return_in_try_finally_in_clause", "clause_return_branching_finally_in_with",
                                         "clause_return_in_nested_finally_in_clause", "clauses_end_if_body_threaded_jump")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("clause_return_finally_returns_in_with", "clause_return_finally_continues",
                                         "clause_return_in_clause_branching_finally", "clause_return_through_finally_with",
                                         "clause_return_finally_may_return_in_with", "return_after_finally_starting_with_try")
                   for v in ("3.8", "3.9", "3.10", "3.11")}
EQUIVALENT_NOW |= {("for_body_ends_in_returning_ifs", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("unused_nonlocal", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("call_ex_effectful_operands", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("loop_tail_tests", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_repeated_test", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_pass_then_code", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("chain_conditions", "grouped_conditions") for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("chain_while", v) for v in ("3.8", "3.9")}
EQUIVALENT_NOW |= {(name, v) for name in ("value_and_or_mix", "conditional_test")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("continue_then_break", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_explicit_continue", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("comprehension_if_own_line", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}
EQUIVALENT_NOW |= {("assert_false", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("loop_if_rest_threaded", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("for_else_break_after_continue", v) for v in ("3.8", "3.9", "3.11")}
EQUIVALENT_NOW |= {("except_clause_try_then_code", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_clause_try_returns", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("nested_early_return", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("inlined_comp_module_and_class", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}
# ---- 3.8/3.9 specifics (see the section above UNSUPPORTED_YET).
EQUIVALENT_NOW |= {(name, v) for name in ("else_after_return", "with_block", "star_unpacking") for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("loop_constants_and_tail_ifs", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("unpack_same_name_twice", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("with_suppressed_exit", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}  # 3.13: __firstlineno__ of the class
EQUIVALENT_NOW |= {("finally_subroutines", "3.8"), ("finally_subroutines", "3.9"), ("asserts_and_raises", "3.9"),
                   ("calls_and_strings", "3.8")}
# 3.8's finally subroutines, copied inline as 3.9 compiles them.
EQUIVALENT_NOW |= {(name, "3.8") for name in ("asserts_and_raises", "except_clauses_else", "except_name_unbound",
                                               "except_returns", "nested_try", "raise_in_except", "try_except_finally",
                                               "try_finally_return", "try_in_loop", "with_blocks")}

EQUIVALENT_NOW |= {("finally_branch_returns_spilled", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("finally_returns_lambda", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("finally_and_test_ends_function", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("finally_copied_tail", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_copied_tail_return", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_break_through_finally", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_break_through_finally_tail", v) for v in ("3.8", "3.9", "3.10", "3.11")}
EQUIVALENT_NOW |= {("except_return_through_finally_in_loop", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("except_continue_in_with", "except_continue_through_finally", "except_if_continue_after_loop")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("else_after_ending_branch", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("try_ending_loop_body", v) for v in ("3.8", "3.9", "3.10", "3.11")}
EQUIVALENT_NOW |= {("finally_nested_ways_out", v) for v in ("3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("try_around_while_true", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("try_in_if_side", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_bool_test_ends_function", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("code_after_try_all_clauses_return", v) for v in ("3.8", "3.9", "3.12", "3.13")}  # 3.10/3.11: loop() refused (a block reached twice)
EQUIVALENT_NOW |= {("lambda_in_displays", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("implicit_return_beside_raise", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: try-else layout
EQUIVALENT_NOW |= {("except_clause_break", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: try-else layout
EQUIVALENT_NOW |= {("except_clause_if_in_loop", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_except_break", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("with_loop_or_and_filter", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("or_test_with_inner_short_circuit", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_try_first_clause_if", v) for v in ("3.8", "3.9")}  # 3.10: not equivalent; 3.11+: refused (a block reached twice)
EQUIVALENT_NOW |= {(name, v) for name in ("return_after_inner_with", "return_in_nested_withs", "return_in_nested_withs_then_return",
                                         "return_in_three_withs", "return_in_with_in_try_finally",
                                         "return_in_nested_withs_in_try_finally", "return_in_nested_withs_in_try_except",
                                         "clause_return_in_with_in_try_finally", "return_in_nested_withs_in_branching_finally",
                                         "return_in_nested_async_withs_in_try_finally", "clause_return_in_async_with_in_try_finally",
                                         "break_in_nested_withs_in_try_finally")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("clause_returns_in_withs_in_try_finally", v) for v in ("3.10", "3.11", "3.12")}
EQUIVALENT_NOW |= {("try_else_returns_in_nested_withs", v) for v in ("3.10", "3.11")}  # 3.8/3.9, 3.12/3.13: else-less

# ---- match statements (3.10+): every pattern kind, guards, a computed subject, loops, returns.
# 3.13 classes store __firstlineno__, which the round trip does not reproduce yet: only the
# class-pattern snippets define a class.
MATCH_HELPERS = """
import math

"""
POINT = """
class Point:
    __match_args__ = ('x', 'y')

    def __init__(self, x, y):
        self.x, self.y = x, y


"""
MATCH_INPUTS = ("[0, 1, -2, 3.5, 'a', b'b', None, True, False, 1+2j, math.pi, math.e, [], [1], [1, 2], "
                "(1, 2, 3), [[1, 2], 5], {'k': 1}, {'k': 1, 'z': 2}, {'a': 1, 'b': [7, 8]}, {}, 2.5+0j, 'text', "
                "b'x', object]")
POINTS = "[Point(0, 5), Point(1, 2), Point(0, -1), Point(2, 3), Point(1, 0)]"
MATCH_SNIPPETS = {
    "match_literals": (MATCH_HELPERS + """
def f(x):
    match x:
        case 0:
            return 'zero'
        case -2 | 3.5:
            return 'neg or float'
        case 'a' | b'b':
            return 'str or bytes'
        case None:
            return 'none'
        case True:
            return 'true'
        case False:
            return 'false'
        case 1+2j:
            return 'complex'
        case math.pi:
            return 'pi'
        case _:
            return 'other'
""", "[f(v) for v in %s]" % MATCH_INPUTS),
    "match_sequences": (MATCH_HELPERS + """
def f(x):
    match x:
        case []:
            return 'empty'
        case [a]:
            return ('one', a)
        case [1, *rest]:
            return ('starts with 1', rest)
        case [[p, q], *_]:
            return ('pair first', p, q)
        case (a, *_, b):
            return ('ends', a, b)
        case [*_]:
            return 'some sequence'
    return 'not a sequence'
""", "[f(v) for v in %s]" % MATCH_INPUTS),
    "match_mappings": (MATCH_HELPERS + """
def f(x):
    match x:
        case {'k': 1, **rest}:
            return ('k', rest)
        case {'a': 1, 'b': [c, *_]}:
            return ('a b', c)
        case {math.e: v}:
            return ('e key', v)
        case {}:
            return 'mapping'
        case _:
            return 'other'
""", "[f(v) for v in %s + [{math.e: 3}]]" % MATCH_INPUTS),
    "match_classes": (MATCH_HELPERS + POINT + """
def f(x):
    match x:
        case Point(0, y) if y > 0:
            return ('on y axis', y)
        case Point(x=0, y=_):
            return 'x zero'
        case Point(a, b=2):
            return ('b two', a)
        case complex(real=r, imag=0):
            return ('real', r)
        case str() | bytes():
            return 'text'
        case int(n) if n > 0 and n < 10:
            return ('small', n)
    return 'other'
""", "[f(v) for v in %s + %s]" % (MATCH_INPUTS, POINTS)),
    "match_as_and_guards": (MATCH_HELPERS + POINT + """
def f(x):
    match x:
        case [1, 2] as pair:
            return ('pair', pair)
        case (0 | 1) as bit:
            return ('bit', bit)
        case Point(x=(1 | 2) as px) as p if px < p.y:
            return ('point', px)
        case [a, b] if a == b or a is None:
            return ('same', a)
        case n if isinstance(n, float):
            return ('float', n)
        case other:
            return ('other', type(other).__name__)
""", "[f(v) for v in %s + %s + [[3, 3], [None, 4]]]" % (MATCH_INPUTS, POINTS)),
    "match_computed_subject": (MATCH_HELPERS + """
def f(cmd, log):
    match cmd.split():
        case ['go', direction]:
            log.append(direction)
        case ['drop', *objects]:
            log.extend(objects)
        case ['quit']:
            return 'bye'
        case _:
            log.append('?')
    match len(log), log[-1:]:
        case (0, _):
            return 'nothing'
        case (n, ['north']):
            return n * 10
    return len(log)
""", "[(f(c, l), l) for c, l in [('go north', []), ('drop a b', ['x']), ('quit', []), ('dance', [])]]"),
    "match_in_loop": (MATCH_HELPERS + """
def f(items):
    out = []
    for it in items:
        match it:
            case 'skip':
                continue
            case int(n) if n > 100:
                out.append('big')
            case int(n):
                out.append(n)
            case [x, y]:
                out.append(x + y)
            case _:
                out.append(None)
        out.append('|')
    return out
""", "f([1, 'skip', 500, [2, 3], 'z', 7])"),
}
SNIPPETS.update(MATCH_SNIPPETS)
NEEDS_310 = set(MATCH_SNIPPETS)
# A walrus test as a match guard (3.10+): COPY 1; STORE; a jump on the copy starts no match.
SNIPPETS["walrus_match_guard"] = ("""
def f(v, w):
    match v:
        case 1 if (t := w * 2):
            return 'one', t
        case [x, *_] if (n := len(str(x))) > 1:
            return 'seq', n
        case y:
            return 'other', y
""", "[f(1, 0), f(1, 3), f([10, 2], 0), f([1], 0), f('z', 1)]")
NEEDS_310.add("walrus_match_guard")
EQUIVALENT_NOW |= {("walrus_match_guard", v) for v in ("3.10", "3.11", "3.12", "3.13")}
# A guard on the first case whose capture pattern does not branch (the subject kept for the next
# case): the guard starts in the block the statement starts in. The guard of a later case may fail
# into the compiler's copy of the small block that ends the function, where its failed pattern
# goes (past the pop of the subject the pattern left, in h).
SNIPPETS["match_first_case_capture_guard"] = ("""
def f(x):
    match x:
        case z if not z:
            return 'falsy', z
        case 0 if x:
            return 'zero'
        case [a, b] if a > b:
            return 'pair', a
        case y:
            return 'other', y

def g(x):
    match x:
        case z if z:
            r = 1
        case 0:
            r = 2
        case _:
            r = 3
    return r

def h(x):
    match x:
        case [(0 as w)]:
            return w
        case (1 as v) if v:
            return v
""", "[f(0), f(''), f([3, 1]), f([1, 3]), f(5), g(0), g(4), g(''), g([]), h([0]), h(1), h(True), h(2)]")
NEEDS_310.add("match_first_case_capture_guard")
EQUIVALENT_NOW |= {("match_first_case_capture_guard", v) for v in ("3.10", "3.11", "3.12", "3.13")}
# `case _ if guard:` before other cases: 3.12+ drop the wildcard's COPY 1; POP_TOP, so the guard
# runs on the subject itself (popped by its success, kept by its failure for the next case). Read
# as ifs, the subject was evaluated after the guard (f, or refused for a call: g).
SNIPPETS["match_wildcard_guards"] = ("""
def f(x, t):
    match x:
        case _ if t:
            return 'guard'
        case 1:
            return 'one'

def g(x, t):
    match x():
        case _ if t() and x:
            return 'guard'
        case 1:
            return 'one'
    return 'none'

def h(x, t):
    match x:
        case 1:
            return 'one'
        case _ if (n := t):
            return 'guard', n
        case _ if x:
            return 'truthy'
        case [a, b]:
            return 'pair', a, b

def k(items, t):
    out = []
    for i in items:
        match i:
            case _ if t(i):
                continue
            case str():
                break
        out.append(i)
    return out
""", "[f(1, 0), f(1, 1), f(2, 0), g(lambda: 1, lambda: 0), g(lambda: 1, lambda: 1), g(lambda: 2, lambda: 0), "
    "h(1, 0), h(2, 5), h([3, 4], 0), h(0, 0), k([1, 2, 'a', 3], lambda i: i == 2)]")
NEEDS_310.add("match_wildcard_guards")
EQUIVALENT_NOW |= {("match_wildcard_guards", v) for v in ("3.10", "3.11", "3.12", "3.13")}
# `try: pass` with except clauses or a finally body: nothing in the body can raise, so on 3.11+ no
# exception table entry leads to the handler, which the compiler keeps all the same (3.12+ out of
# line, its clauses jumping back). Read back as written, not dropped or read as a loop.
SNIPPETS["try_pass_handlers"] = ("""
def f(g, E):
    hit = []
    try:
        pass
    except E as e:
        hit.append(e)
    else:
        hit.append('else')
    hit.append('after')
    return hit

def h(items, g, E):
    out = []
    for i in items:
        try:
            pass
        except E:
            continue
        except ValueError:
            break
        out.append(i)
    try:
        pass
    finally:
        out.append(g())
    return out

def k(n, E):
    while n > 0:
        try:
            pass
        except E:
            n += 1
        n -= 1
    return n
""", "[f(len, KeyError), h([1, 2, 3], lambda: 'g', KeyError), k(3, KeyError)]")
EQUIVALENT_NOW |= {("try_pass_handlers", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# A body that only leaves (`try: break`): its POP_BLOCKs too come right after the SETUP_FINALLY
# before 3.11, but the body is no `pass` (outcomes compared; not pinned as equivalent).
SNIPPETS["try_break_handlers"] = ("""
def f(n, E):
    out = []
    while n:
        try:
            break
        except E:
            out.append('e')
        n -= 1
    for i in range(3):
        try:
            continue
        except E:
            out.append(i)
    return out, n
""", "[f(2, KeyError), f(0, KeyError)]")
# except*: 3.11+ only (no snippet runs it before).
SNIPPETS["try_pass_except_star"] = ("""
def f(E):
    hit = False
    try:
        pass
    except* E:
        hit = True
    return hit
""", "[f(KeyError)]")
EQUIVALENT_NOW |= {("try_pass_except_star", v) for v in ("3.11", "3.12", "3.13")}
# A finally body whose statement needs a temporary (a value computed before an inlined
# comprehension, 3.12+): each copy of the body gets temporaries of its own, numbered apart.
SNIPPETS["finally_copies_with_temporaries"] = ("""
def f(a, b, c):
    try:
        c()
    finally:
        a[len(a) % 2] -= sum([x for x in a if b > 7])
    return a

def g(a, b):
    try:
        pass
    finally:
        a[b % 2] += sum([x * 2 for x in a if x])
    return a
""", "[f([1, 2, 3], 9, list), f([4, 5], 0, list), g([1, 2], 3), g([0, 0, 5], 2)]")
EQUIVALENT_NOW |= {("finally_copies_with_temporaries", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# A conditional expression in a branch of a finally body: in the copy run for an exception the
# compiler copies what follows the expression (`y += ...`, then the re-raise) into both of its
# sides (3.10, 3.12+ where the branch has an `else`): the re-raise ends that tail as a return would.
SNIPPETS["finally_conditional_value_tail"] = ("""
def f(a, b, y):
    try:
        pass
    finally:
        if a:
            y += 6 if a else b
        else:
            pass
    return y

def g(a, b, h):
    out = []
    try:
        h()
    finally:
        if a:
            out.append(6 if b else 7)
        else:
            pass
    return out

def k(a, b):
    out = []
    try:
        try:
            raise ValueError
        finally:
            if a:
                out += [1] if b else [2]
            else:
                pass
    except ValueError:
        out.append('caught')
    return out
""", "[f(1, 2, 3), f(0, 2, 3), g(1, 0, list), g(0, 1, list), k(1, 1), k(1, 0), k(0, 1)]")
# `try: pass` with except clauses and a finally body: the body's op is covered by the finally's
# handler already (3.12+ keeps that entry), yet the except clauses are the innermost statement
# there; before, their dead handler's jump back into the finally body read as a loop.
SNIPPETS["try_pass_except_finally"] = ("""
def f(a, y):
    try:
        pass
    except ZeroDivisionError:
        pass
    finally:
        if a:
            raise a
        y |= a
    return y

def g(a, out):
    try:
        pass
    except ValueError as e:
        out.append(e)
    except KeyError:
        out.append(2)
    else:
        out.append(3)
    finally:
        out.append(a)
    return out
""", "[f(0, 5), f(0, 0), g(1, []), g(None, [4])]")
# The same with `except*` and an else body (test_sys_settrace's shape). 3.12 copies the function's
# `return None` after the clauses' POP_EXCEPT into a block of its own (the handlers change there):
# the clauses fall out of the statement there, as the else body does.
SNIPPETS["try_pass_except_star_else_finally"] = ("""
def f(out, h):
    try:
        2
    except* Exception:
        out.append(4)
    else:
        out.append(6)
        if h.__name__ == 'Fred':
            out.append(12)
    finally:
        out.append(14)
""", "[f([], f), f([0], len)]")
# A while loop in a for loop inside a try statement, with `continue`: 3.13 leaves the jump of the
# test on top outside the exception table's range (a block of its own), which `continue` jumps back
# before; the loop is still the rotated while it was written as.
SNIPPETS["rotated_while_split_test_in_try"] = ("""
def f(items, g):
    out = []
    try:
        for x in items:
            while g(x):
                if x % 3 == 0:
                    x -= 1
                    continue
                x = x - 2
                out.append(x)
    except ValueError:
        out.append('v')
    return out

def h(lines, n):
    out = []
    try:
        for line in lines:
            while line:
                out.append(line[:n])
                line = line[n:]
    except TypeError:
        pass
    return out
""", "[f([5, 9, 4], lambda x: x > 0), f([3], lambda x: x > 1 if x < 10 else int('z')), h(['abcdefg', '', 'xy'], 3)]")
EQUIVALENT_NOW |= {("rotated_while_split_test_in_try", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# Or-patterns whose alternatives capture names: each alternative leaves what it captured on the
# stack (reordered into the first alternative's order), the stores after the or-pattern name them
# in every alternative (3.10 rotates the copy of the subject to the top first, 3.11+ store first);
# nested as-patterns store one value twice.
SNIPPETS["match_or_patterns_capturing"] = ("""
class Point:
    __match_args__ = ('x', 'y')
    def __init__(self, x, y):
        self.x, self.y = x, y

def f(v):
    match v:
        case (0 as z) | (1 as z):
            return 'bit', z
        case [a, b] | (a, b, 0):
            return 'pair', a, b
        case {'k': (0 as y) | (1 as y)}:
            return 'key', y
        case Point(x=a, y=b) | [b, a, _, _] if a:
            return 'point', a, b
        case {'v': w} | [w, _, _, _, _]:
            return 'w', w
    return None

def g(v):
    match v:
        case ((0 as w) as z):
            return w, z
        case ((a as b, c) as e) as whole:
            return a, b, c, e, whole
        case [(1 | 2) as k, *rest] as all_:
            return k, rest, all_
        case _:
            return 'other'

def h(x):
    match x:
        case [a, 1] | [1, a]:
            return a
        case _:
            return None
""", "[h([5, 1]), h([1, 6]), h([2, 2]), f(0), f(1), f([3, 4]), f((5, 6, 0)), f({'k': 1}), f(Point(2, 3)), f(Point(0, 3)), f([7, 8, 9, 9]), "
    "f({'v': 9}), f([1, 2, 3, 4, 5]), f('x'), g(0), g((1, 2)), g([2, 5, 6]), g([9])]")
NEEDS_310.add("match_or_patterns_capturing")
EQUIVALENT_NOW |= {("match_or_patterns_capturing", v) for v in ("3.10", "3.11", "3.12", "3.13")}
# `break` in an except clause of a for loop that ends an enclosing loop's body: the compiler
# threads the jump to the enclosing loop's next iteration, after popping the iterator (the end of
# the clause's if on 3.12+); 3.8/3.9 read the try body's own jump back as `else: continue`. And a
# for-else loop's `break` in a named except clause (until_error): on 3.12+ the end of the clause's
# if too, the code after the else, laid out before the handler.
SNIPPETS["except_break_in_inner_loop"] = ("""
def first_bad(groups, check):
    out = []
    for group in groups:
        for x in group:
            try:
                check(x)
            except ValueError:
                break
            out.append(x)
    return out

def drain(stacks, check):
    out = []
    while stacks:
        for x in stacks.pop():
            try:
                out.append(check(x))
            except ValueError:
                break
    return out

def until_error(n, check, log):
    for i in range(n):
        try:
            check(i - 2)
        except ValueError as e:
            at = i
            break
    else:
        log.append('none')
        at = -1
    if at > 0:
        log.append(at)
    return log

def check(x):
    if x < 0:
        raise ValueError(x)
    return x * 2
""", "[first_bad([[1, 2, -1, 3], [4, -5], []], check), drain([[1, -2, 3], [4, 5]], check), "
    "until_error(5, lambda v: check(-v), []), until_error(0, check, []), until_error(3, check, [])]")
EQUIVALENT_NOW |= {("except_break_in_inner_loop", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: first_bad's code after the try reads as its else (try-else layout)
# A finally body that is a try statement with a bare `except: pass`, code after the statement:
# in the handler's copy the clause ends in the compiler's copy of the re-raise that ends the
# finally body (after its POP_EXCEPT), which is no clause of its own.
SNIPPETS["finally_try_bare_except_then_code"] = ("""
class F:
    def __init__(self, fail):
        self.fail, self.log = fail, []
    def write(self, d):
        self.log.append(d)
    def close(self):
        self.log.append('close')
        if self.fail:
            raise OSError('busy')

def save(data, f):
    try:
        f.write(data)
        f.close()
    finally:
        try:
            f.close()
        except:
            pass
    return f.log

def run(fail):
    f = F(fail)
    try:
        return save('x', f)
    except OSError as e:
        return str(e), f.log
""", "[run(False), run(True)]")
EQUIVALENT_NOW |= {("finally_try_bare_except_then_code", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# A retry loop (`while True: try: ... except E: pass else: break`) that starts the body of a
# rotated while: both loops start at one block, the inner one goes back there only through its
# except clause (3.10/3.11 were refused: 'a backward jump that is not a loop').
SNIPPETS["retry_loop_starts_while_body"] = ("""
class Q:
    def __init__(self, items):
        self.items = list(items)
    def get(self):
        v = self.items.pop(0)
        if v is None:
            raise LookupError
        return v

def drain(q, results):
    while results[0] > 0:
        while True:
            try:
                val = q.get()
            except LookupError:
                pass
            else:
                break
        results.append(val)
        results[0] -= 1
    return results
""", "[drain(Q([1, None, None, 2, 3, None, 4]), [3]), drain(Q([]), [0])]")
EQUIVALENT_NOW |= {("retry_loop_starts_while_body", v) for v in ("3.10", "3.11")}  # 3.8/3.9: not equivalent (the try-else layout); 3.12/3.13: refused
# A try/finally inside a try/except at the function's end, the finally body ending in an `if`:
# 3.10+ copy the function's `return None` into the branch of the normal path's copy that ends it.
SNIPPETS["finally_if_in_try_except_at_end"] = ("""
class R:
    def __init__(self, fail):
        self.fail, self.log = fail, []
    def go(self):
        self.log.append('go')
        if self.fail:
            raise OSError('x')
    def close(self):
        self.log.append('close')

def use(r, f):
    try:
        try:
            r.go()
        finally:
            if f is not None:
                f.close()
    except OSError:
        r.log.append('oserr')

def gen(r, f):
    try:
        try:
            r.go()
            yield 1
        finally:
            if f is not None:
                f.close()
    except OSError:
        pass

def run(fail):
    r = R(fail)
    use(r, r)
    use(r, None)
    return r.log, list(gen(r, r)), list(gen(r, None)), r.log
""", "[run(False), run(True)]")
EQUIVALENT_NOW |= {("finally_if_in_try_except_at_end", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# A try body that always raises, its one clause going on into the code after the statement: 3.10
# lays that code out in the clause's block, right after its POP_EXCEPT (was refused there).
SNIPPETS["clause_runs_into_code_after"] = ("""
import sys

def tb_of(n):
    try:
        raise IndexError(n)
    except:
        tb = sys.exc_info()[0].__name__
    e = [tb] * n
    return e

def first_error(n):
    try:
        raise KeyError(n)
    except KeyError as e:
        got = e.args
    except ValueError:
        raise
    out = [got, n]
    return out

def flag(log):
    hit = False
    try:
        raise Exception('ahoy!')
    except:
        hit = True
    log.append(hit)

def run_flag():
    log = []
    flag(log)
    return log
""", "[tb_of(3), first_error(4), run_flag()]")
EQUIVALENT_NOW |= {("clause_runs_into_code_after", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# `return` through a finally body that is a try statement of its own: the return's copy of it
# keeps the value below, and 3.10+ copy the return after it into each of its ways on (also where
# the body goes on past the return, in h, or the return is in a loop).
SNIPPETS["return_through_finally_try_statement"] = ("""
class R:
    def __init__(self, fail):
        self.fail, self.log = fail, []
    def do(self):
        self.log.append('do')
        return 7
    def close(self):
        self.log.append('close')
        if self.fail:
            raise OSError('x')

def f(r):
    try:
        return r.do()
    finally:
        try:
            r.close()
        except OSError:
            pass

def g(r, k):
    try:
        return r.do() + k
    finally:
        try:
            r.close()
        except OSError as e:
            r.log.append(str(e))
        except ValueError:
            r.log.append('v')

def h(r, a):
    try:
        if a:
            return r.do() * a
        r.log.append('work')
    finally:
        try:
            r.close()
        except OSError:
            r.log.append('oserr')

def loop(r, items):
    for x in items:
        try:
            if x:
                return x + r.do()
        finally:
            try:
                r.close()
            except OSError:
                pass
    return -1

def run(fail, k=1):
    r = R(fail)
    return f(r), g(r, k), h(r, k), h(r, 0), loop(r, [0, k]), loop(r, []), r.log
""", "[run(False), run(True), run(True, 2), run(False, 0)]")
EQUIVALENT_NOW |= {("return_through_finally_try_statement", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# `continue` ending the body of nested with statements (`with a, b:`) that end a loop's body: the
# compiler runs both __exit__ calls and jumps to the next iteration; an exception the inner one
# suppresses goes on through its copy of the outer __exit__ call to the code after the statement,
# the next iteration too. 3.9+ read a `for` loop's as `pass` (both ways go to the FOR_ITER), which
# runs alike.
SNIPPETS["with_items_continue_ends_loop"] = (NAMED_CM + """
def f(xs):
    log = []
    a, b = CM(log, 'a', True), CM(log, 'b', False)
    for x in xs:
        with a, b:
            log.append(1 // x)
            continue
    i = 0
    while i < len(xs):
        i += 1
        with b, a:
            log.append(2 // xs[i - 1])
            continue
    for x in xs:
        with a:
            with b:
                continue
    return log
""", "f([1, 0, 2])")
EQUIVALENT_NOW |= {("with_items_continue_ends_loop", "3.8")}
SNIPPETS["async_with_items_continue_ends_loop"] = (ASYNC_HELPERS + """
async def main(n):
    log = []
    async for x in numbers(n):
        async with ACM(log, x), ACM(log, -x):
            continue
    async for x in numbers(n):
        async with ACM(log, x) as v:
            log.append(v)
            continue
    return log
""", "asyncio.run(main(3))")
EQUIVALENT_NOW |= {("async_with_items_continue_ends_loop", v) for v in ("3.12", "3.13")}
# `break` out of a with statement that a while loop's body ends with: 3.10/3.12 copy the loop's
# short exit (`return len(log)`) after the __exit__ call, a copy of the code the break goes to (not
# a return in the body: it would run before __exit__); in a coroutine (3.12+), the bare jump out
# of the repeated test is outside the handler around the function that covers the exit it copies.
# 3.13's __exit__ call falls into the loop's exit, laid out inside the loop: flow of the body that
# reaches a while loop's exit has left the loop, a `break` (3.8/3.9: also where `if not r: raise`
# before a `break` jumps straight there, see while_break_after_raise).
SNIPPETS["with_break_copies_loop_exit"] = (NAMED_CM + """
def f(n):
    log = []
    i = 0
    while i < n:
        i += 1
        with CM(log, 'a', False):
            break
    return len(log)


async def g(n, log):
    while n:
        n -= 1
        with CM(log, 'b', False):
            break
    return 1


def run(c):
    try:
        c.send(None)
    except StopIteration as e:
        return e.value
""", "f(3), f(0), [(run(g(n, log)), log) for n, log in ((2, []), (0, []))]")
EQUIVALENT_NOW |= {("with_break_copies_loop_exit", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
SNIPPETS["async_with_break_copies_loop_exit"] = (ASYNC_HELPERS + """
async def main(n):
    log = []
    while n:
        n -= 1
        async with ACM(log, n):
            break
    return len(log)
""", "asyncio.run(main(2)), asyncio.run(main(0))")
EQUIVALENT_NOW |= {("async_with_break_copies_loop_exit", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
SNIPPETS["while_break_after_raise"] = ("""
def f(chars, terminator):
    result = ''
    it = iter(chars)
    while True:
        c = next(it, None)
        if c is None:
            raise ValueError('missing')
        if c == terminator:
            if not result:
                raise ValueError('empty')
            break
        result += c
    return result


def g(chars, terminator):
    try:
        return f(chars, terminator)
    except ValueError as e:
        return str(e)
""", "[g(s, ';') for s in ('ab;c', ';', 'abc', '')]")
EQUIVALENT_NOW |= {("while_break_after_raise", v) for v in ("3.10", "3.11", "3.12", "3.13")}
# Comprehension conditions the compiler folds: an always false one drops the element (and the loops
# after it; 3.8/3.9 keep the code), any element says the same; an always true one that evaluates a
# test (`t(x) or True`) jumps on either way.
SNIPPETS["comprehension_constant_conditions"] = ("""
def f(xs, d):
    seen = []

    def t(v):
        seen.append(v)
        return v
    a = [x for x in xs if False]
    b = {x for x in xs if not True}
    c = {k: v for k, v in d if False}
    g = list((x for x in xs if False))
    h = [(x, y) for x in xs for y in xs if False]
    i = [x for x in xs if t(x) or True]
    j = {k: v for k, v in d if t(k) or True}
    k = list((x for x in xs if t(-x) or True))
    return (a, b, c, g, h, i, j, k, seen)
""", "f([0, 1, 2], [(1, 2), (0, 4)])")
EQUIVALENT_NOW |= {("comprehension_constant_conditions", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# The same with constants other than True and False: 3.8-3.11 keep the dead constants (`0`; 3.8/3.9
# `1 if 0 else 2`'s 1) in co_consts, where the output has False or True. 3.12: `t(x) and False`
# jumps to the dropped element when true, a layout read as `not t(x)`, evaluated alike.
SNIPPETS["comprehension_folded_conditions"] = ("""
def f(xs, d):
    seen = []

    def t(v):
        seen.append(v)
        return v
    a = [x for x in xs if 0]
    b = {k: v for k, v in d if (1 if 0 else 2)}
    c = {x for x in xs if t(x * 10) and False}
    g = list((x for x in xs if t(x) or 1))
    return (a, b, c, g, seen)
""", "f([0, 1, 2], [(1, 2), (0, 4)])")
EQUIVALENT_NOW |= {("comprehension_folded_conditions", "3.13")}
# Cases whose guard is always false (3.10+): the compiler drops the body, and the matched case goes
# on to the next case with the subject, by a jump or by falling into it (the last one before
# `case _` into that body); the capture stays bound. (Not `case y if False:`: after a pattern that
# cannot fail, the ops read as a chained assignment, `y = <next case's subject>`.)
SNIPPETS["match_dead_guards"] = ("""
def f(x):
    r = []
    match x:
        case 1:
            r.append('one')
        case [a, b] if False:
            r.append(a)
        case {'k': v} if False:
            r.append(v)
        case (2 | 3) if False:
            r.append(x)
        case [a]:
            r.append(a)
        case 4:
            r.append(4)
        case [c, d, e] if False:
            r.append(c)
        case _:
            r.append('default')
    return r


def g(items):
    out = []
    for it in items:
        match it:
            case [a, b] if False:
                continue
            case [a]:
                break
            case str() if False:
                break
            case _:
                out.append(it)
        out.append('|')
    return out
""", "[f(v) for v in [1, [1, 2], {'k': 3}, 2, 3, [5], 4, [1, 2, 3], 'z']], g([[1, 2], 'a', 3, [4], 5])")
NEEDS_310.add("match_dead_guards")
EQUIVALENT_NOW |= {("match_dead_guards", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in MATCH_SNIPPETS for v in ("3.10", "3.11", "3.12", "3.13")
                   if not (v == "3.13" and POINT in MATCH_SNIPPETS[name][0])}

# Shapes of 3.10+'s block layout (copied exit blocks, 3.12+ inverted loop-end tests).
LAYOUT_SNIPPETS = {
    # 3.10+ copy a short return/raise block into each side of a conditional expression before it;
    # 3.12+ load a returned constant apart from RETURN_VALUE there (not one RETURN_CONST).
    "exit_copied_into_ifexp": ("""
def truth(a):
    return True if a else False


def cmp(x, y):
    return 0 if x == y else 1 if x > y else -1


def check(closed, msg=None):
    if closed:
        raise ValueError('closed' if msg is None else msg)
    return a_plus(1, 2, 0) + a_plus(1, 2, 1)


def a_plus(a, b, c):
    return a + (b if c else 3)
""", "[truth(0), truth(2), cmp(1, 2), cmp(2, 1), cmp(1, 1), check(False)]"),
    # A break whose loop exit is a short return: the compiler copies the return after POP_TOP.
    "break_to_copied_exit": ("""
def f(items, hint):
    n = 0
    lines = []
    for line in items:
        lines.append(line)
        n += len(line)
        if n >= hint:
            break
    return lines
""", "f(['ab', 'cde', 'f'], 4), f(['ab'], 9)"),
    # A break out of a for-else nested in a loop: the compiler jumps straight to the outer loop's
    # next iteration (past the else clause).
    "break_threaded_to_outer_loop": ("""
def f(names, classes):
    for name in names:
        for c in classes:
            if name in c:
                if c[name] is None:
                    return 'none'
                break
        else:
            return 'missing'
    return 'ok'
""", "f('ab', [{'a': 1}, {'b': 2}]), f('ab', [{'a': 1}]), f('a', [{'a': None}])"),
    # A for loop whose body always leaves: no path goes back to FOR_ITER.
    "for_without_back_edge": ("""
def popitem(d):
    for key in sorted(d):
        value = d[key]
        del d[key]
        return key, value
    raise KeyError


def first(xs):
    for x in xs:
        if x:
            return x
        raise ValueError
    return None
""", "popitem({'b': 1, 'a': 2}), first([3]), first([])"),
    # Stores to a global or to an enclosing function's variable need their declaration.
    "global_and_nonlocal": ("""
counter = 0


def bump():
    "Count."
    global counter, gone
    counter += 1
    gone = 1
    del gone
    return counter


def make():
    n = 0

    def inc():
        nonlocal n
        n += 1
        return n
    return inc
""", "bump(), bump(), [make()() for _ in range(2)]"),
}
SNIPPETS.update(LAYOUT_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("exit_copied_into_ifexp", "break_to_copied_exit", "break_threaded_to_outer_loop",
                                          "for_without_back_edge", "global_and_nonlocal")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}


# Shapes of the 3.8-3.11 equivalence work (branch eqearly).
EQEARLY_SNIPPETS = {
    # 3.8's assert loads the global AssertionError: `if not a is b: raise AssertionError` would fold
    # into `a is not b` (other jumps), so only an assert compiles to these.
    "assert_folded_compare": ("""
def f(a, b, seq):
    assert a is not None
    assert a is b, 'same'
    assert a not in seq
    assert b in seq, ('missing', b)
    if not a in seq:
        raise AssertionError
    return a


def g(a, b, seq):
    try:
        return f(a, b, seq)
    except AssertionError as e:
        return 'failed', e.args
""", "[g(x, y, s) for x, y, s in [(None, 1, [1]), (1, 1, [1]), (1, 2, [2]), (2, 2, [2]), (1, 1, [2])]]"),
    # Decorators: on a nested def (a closure), stacked, with arguments, on a class and its methods.
    "decorated_defs": ("""
import functools


def tag(label):
    def apply(fn):
        fn.label = label
        return fn
    return apply


def twice(func):
    @functools.wraps(func)
    @tag('inner')
    def inner(*args, **kwds):
        return func(*args, **kwds) * 2
    return inner


@tag('cls')
@functools.total_ordering
class K:
    def __init__(self, v):
        self.v = v

    @staticmethod
    @twice
    def m(x):
        return x + 1

    def __lt__(self, other):
        return self.v < other.v

    def __eq__(self, other):
        return self.v == other.v


@twice
def g(a, b=1):
    return a - b
""", "g(5), g(5, 2), K.m(3), K.label, g.label, g.__name__, K(1) <= K(2), K(3) >= K(4)"),
    # `else:` arms that only raise or return, with code after the if/else: the then-side jumps over
    # the else arm to that code.
    "else_ends_code_after": ("""
def f(x, log):
    if x > 2:
        log.append('big')
    else:
        raise ValueError(x)
    log.append('after')
    return log


def g(x, log):
    for y in range(x):
        if y % 2:
            log.append(y)
        elif y > 3:
            return log
        else:
            raise KeyError(y)
        log.append(-y)
    if x:
        log.append(x)
    else:
        raise IndexError
    return log


def h(x):
    if x:
        r = 1
    else:
        raise TypeError


def run(fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        return type(e).__name__
""", "[run(f, x, []) for x in (1, 5)] + [run(g, x, []) for x in (0, 1, 2, 3, 6)] + [run(h, 0), run(h, 1)]"),
    # `while 1:` and `while True:` (3.10/3.11 keep the dropped test's constant in co_consts where it
    # was compiled, also when the body uses a 1 again).
    "while_constant_tests": ("""
def f(n):
    out = []
    while 1:
        n -= 1
        if n < 1:
            break
        out.append(n)
    while True:
        n += 1
        if n > 3:
            break
    return out, n


def g(n):
    k = 1
    while 1:
        k += 1
        if k > n:
            return k


def h(n):
    while True:
        n = n + 1
        if n % 7 == 0:
            return n
""", "f(5), g(4), h(3)"),
    # A loop whose only way out is an `if test: break` with code after it (before 3.10 the break's
    # block post-dominates the test).
    "while_true_only_break": ("""
def f(items):
    out = []
    it = iter(items)
    while True:
        x = next(it, None)
        if x is None:
            break
        out.append(x * 2)
    return out


def g(n, log):
    while 1:
        n = n // 2
        if n < 3:
            log.append(('small', n))
            break
        log.append(('big', n))
    return n, log
""", "f([1, 2, 3]), g(40, [])"),
}
SNIPPETS.update(EQEARLY_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("with_around_for_tail", "with_around_for_break_else", "with_around_while",
                                           "nested_withs_around_loop", "try_around_loop_tail", "with_around_loop_in_if")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("with_around_loop_other_exits", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: h's layout
EQUIVALENT_NOW |= {("async_with_around_loop", v) for v in ("3.9", "3.10", "3.11", "3.12", "3.13")}  # 3.8: async with refused
EQUIVALENT_NOW |= {("assert_folded_compare", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("else_ends_code_after", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_constant_tests", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_only_break", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("decorated_defs", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}  # 3.13: __firstlineno__ of the class

# Ifs whose paths all reach the next iteration (the post-dominator is the loop's header) still
# meet inside the body; an if/else whose then-side is a try that only returns goes on where its
# except clause does; `else: continue` before more code of the body stays an else arm.
TWICE2_SNIPPETS = {
    "if_continue_nest_in_for": ("""
def f(xs):
    out = []
    for v in xs:
        if v > 0:
            v = v * 10
            if v > 50:
                continue
            elif v == 30:
                out.append('thirty')
                continue
        out.append(v)
    return out


def g(xs):
    out = []
    for v in xs:
        if v % 2:
            out.append('odd')
            if v > 4:
                continue
            out.append('small')
        out.append(v)
    return out
""", "f([1, 3, 7, -2, 0]), g([1, 2, 5, 6])"),
    "try_return_in_if_else": ("""
def f(x, flag):
    if x == 'a':
        try:
            return int(flag)
        except ValueError as e:
            if flag != 'keep':
                raise
    elif x == '':
        x = '.'
    cmd = 'CWD ' + x
    return cmd


def g(x):
    try:
        return f(x, 'bad')
    except ValueError:
        return 'raised'
""", "f('a', '3'), f('a', 'keep'), f('', 0), f('b', 0), g('a')"),
    "else_continue_then_code": ("""
def f(items):
    labels = []
    for offset, op, arg in items:
        if arg is not None:
            if op in (1, 2):
                if op == 2:
                    arg = -arg
                label = offset + 2 + arg * 2
            elif op in (3, 4):
                label = arg * 2
            else:
                continue
            if label not in labels:
                labels.append(label)
    return labels
""", "f([(0, 1, 3), (2, 2, 1), (4, 3, 5), (6, 9, 1), (8, 4, None), (10, 4, 5)])"),
}
SNIPPETS.update(TWICE2_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("if_continue_nest_in_for", "try_return_in_if_else")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("else_continue_then_code", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}


# 3.12+ lay a loop body's except clauses out after the body's end (a bare jump back, or the
# repeated test of a `while`): a clause that goes on jumps back there.
BACK_SNIPPETS = {
    "except_pass_ends_while_true": ("""
def f(keys, d):
    pending = list(keys)
    while True:
        try:
            key = pending.pop()
        except IndexError:
            return d
        try:
            del d[key]
        except KeyError:
            pass
""", "f([1, 2, 5], {1: 'a', 2: 'b', 3: 'c'})"),
    "except_ends_loop_body": ("""
def g(keys, d):
    while keys:
        key = keys.pop()
        try:
            del d[key]
        except KeyError:
            d['missed'] = d.get('missed', 0) + 1


def h(d, n):
    i = 0
    while True:
        i += 1
        if i > n:
            break
        try:
            d[i] = 10 // (i % 3)
        except ZeroDivisionError:
            d[i] = None
    return d
""", "g([1, 4], {1: 'a', 3: 'c'}), h({}, 7)"),
    # (A clause that goes on to the next iteration of a `for` jumps to its header: `continue`.)
    "except_in_elif_of_for": ("""
def f(items):
    ints, others = [], []
    for x in items:
        if isinstance(x, int):
            if ints and ints[-1] > x:
                raise ValueError(x)
            ints.append(x)
        elif isinstance(x, str):
            try:
                ints.append(int(x))
            except ValueError:
                others.append(x)
        else:
            others.append(x)
    return ints, others
""", "f([1, '2', 'z', 3.5, 4])"),
    # 3.12+ thread the exits of a loop ending an enclosing loop's body to that loop's header.
    "while_ends_for_body": ("""
def f(items, d, bad):
    for word, tup in items:
        fragment = word
        while fragment:
            if fragment in d:
                bad[fragment] = 0
                break
            d[fragment] = tup
            fragment = fragment[:-1]
    return d, bad


def g(items, n):
    out = []
    i = 0
    while i < len(items):
        x = items[i]
        i += 1
        while x < n:
            if x == 5:
                break
            x += 2
            out.append(x)
    return out


def h(items, n):
    out = []
    for x in items:
        if x:
            while x < n:
                if x == 5:
                    break
                x += 2
                out.append(x)
    return out
""", "f([('abc', 1), ('abd', 2), ('x', 3)], {}, {}), g([1, 5, 9], 8), h([0, 1, 5, 9], 8)"),
    # 3.13 copies an except clause's way out into the ends of a try statement nested in it.
    "try_in_except_clause_in_loop": ("""
def f(mods):
    for m in mods:
        x = None
        try:
            x = m.a
        except AttributeError:
            try:
                x = m.b
            except AttributeError:
                pass
        if x is None:
            continue
        m.c = x


def g(mods):
    out = []
    for m in mods:
        loader = None
        try:
            loader = m.a
        except AttributeError:
            try:
                loader = m.b
            except AttributeError:
                pass
        if loader not in {'x', 'y'}:
            continue
        try:
            m.c = abs(m.c)
        except (AttributeError, TypeError):
            pass
        out.append(loader)
    return out


def ns(**kw):
    o = type('O', (), {})()
    o.__dict__.update(kw)
    return o


def run_f():
    ms = [ns(b=1), ns(a=None), ns(a=2), ns()]
    f(ms)
    return [sorted(vars(m).items()) for m in ms]
""", "run_f(), g([ns(a='x', c=-3), ns(b='y'), ns(a='z'), ns(), ns(a='y', c='s')])"),
    # A loop starting the body of a `while` whose test is repeated at the bottom: both jump back to
    # the body's first block.
    "while_true_starts_while_body": ("""
def f(m, pos, size):
    i = 0
    buf = 0
    while size > 0:
        while True:
            start, stop = m[i]
            if start <= pos < stop:
                break
            else:
                i += 1
                if i == len(m):
                    i = 0
        length = min(size, stop - pos)
        buf += length
        size -= length
    return buf
""", "f([(0, 2), (2, 5), (5, 9)], 3, 10), f([(0, 4)], 1, 6)"),
    "while_true_ends_for_body": ("""
def f(items, n):
    out = []
    for x in items:
        while True:
            x += 1
            if x > n:
                break
            out.append(x)
    return out
""", "f([1, 5, 9], 7)"),
}
SNIPPETS.update(BACK_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("except_ends_loop_body", "except_in_elif_of_for", "while_true_ends_for_body",
                                         "try_in_except_clause_in_loop")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_starts_while_body", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: the else's jump
EQUIVALENT_NOW |= {("except_pass_ends_while_true", v) for v in ("3.12", "3.13")}  # 3.8-3.11: refused (finally copy)
EQUIVALENT_NOW |= {("while_ends_for_body", v) for v in ("3.12", "3.13")}  # 3.8-3.11: h's layout


def decompile_and_check(cli, tmp_path, version, name):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    if name in NEEDS_310 and version in ("3.8", "3.9"):
        pytest.skip("match statements are Python 3.10+")
    if name in NEEDS_312 and version in ("3.8", "3.9", "3.10", "3.11"):
        pytest.skip("type statements are Python 3.12+")
    if name in NEEDS_311 and version in ("3.8", "3.9", "3.10"):
        pytest.skip("starred annotations and except* are Python 3.11+")
    if name in NEEDS_313 and version in ("3.8", "3.9", "3.10", "3.11", "3.12"):
        pytest.skip("type parameter defaults are Python 3.13+")
    source, call = SNIPPETS[name]
    pyc = tmp_path / ("%s.pyc" % name)
    compile_pyc(exe, source, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    return exe, source, call, proc


# A module whose last statement is an if or try: 3.10+ copies the module's end (`return None`)
# into each branch, which must not be printed (a `return` outside a function does not compile).
# A generator whose only yield is dead code stays a generator.
MODULE_END_SNIPPETS = {
    "module_ends_with_main_guard": ("""
import sys


def f(x):
    return x + 1


RESULT = []
if __name__ == "__main__":
    RESULT.append(f(1))
    sys.exit(0)
""", "f(1), RESULT"),
    "module_ends_with_if_pass": ("""
X = [1]


def f():
    return X


if X:
    pass
""", "f()"),
    "module_ends_with_try_import": ("""
def f():
    return json is None


try:
    import json
except ImportError:
    json = None
""", "f()"),
    "dead_yield_generator": ("""
def f():
    while False:
        yield None


async def g():
    return
    yield


def h():
    return type(f()).__name__, type(g()).__name__
""", "h()"),
}
SNIPPETS.update(MODULE_END_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in MODULE_END_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
                   if (name, v) not in {("module_ends_with_if_pass", "3.8"), ("module_ends_with_if_pass", "3.9")}}
# 3.8/3.9: `if x: pass` jumps to the next instruction, refused as "a block reached twice".


# ---- module and class bodies: constructs that refused a whole module or class (every function in
# it was lost).
ALL_VERSIONS = ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")
MODULE_BODY_SNIPPETS = {
    # 3.10+: more than 16 entries are added one by one (MAP_ADD 1), then chunk by chunk.
    "big_dict_display": ("""
x = 1
D = {'k0': x, 'k1': x, 'k2': x, 'k3': x, 'k4': x, 'k5': x, 'k6': x, 'k7': x, 'k8': x, 'k9': x, 'k10': x, 'k11': x, 'k12': x, 'k13': x, 'k14': x, 'k15': x, 'k16': x, 'k17': x, 'k18': x, 'k19': x, 'k20': x, 'k21': x, 'k22': x, 'k23': x, 'k24': x, 'k25': x, 'k26': x, 'k27': x, 'k28': x, 'k29': x, 'k30': x, 'k31': x, 'k32': x, 'k33': x, 'k34': x, 'k35': x, 'k36': x, 'k37': x, 'k38': x, 'k39': x}
E = {'k0': x, 'k1': x, 'k2': x, 'k3': x, 'k4': x, 'k5': x, 'k6': x, 'k7': x, 'k8': x, 'k9': x, 'k10': x, 'k11': x, 'k12': x, 'k13': x, 'k14': x, 'k15': x, 'k16': x, **{'a': 1}, 'b': 2}
F = {k: {'k0': x, 'k1': x, 'k2': x, 'k3': x, 'k4': x, 'k5': x, 'k6': x, 'k7': x, 'k8': x, 'k9': x, 'k10': x, 'k11': x, 'k12': x, 'k13': x, 'k14': x, 'k15': x, 'k16': x} for k in 'ab'}


def f():
    return D, E, F
""", "f()"),
    # A private def or class in a class body is stored under its mangled name.
    "private_methods": ("""
class _P:
    def __setup(self):
        return 1

    def run(self):
        return self.__setup() + self.__Sub().m()

    class __Sub:
        def m(self):
            return 3

    @staticmethod
    def __s():
        return 4


def f():
    return _P().run(), _P._P__s()
""", "f()"),
    # `self.__x` inside a class: printed as written (3.13 records it so in __static_attributes__).
    "private_attributes": ("""
class Counter:
    def __init__(self):
        self.__count = 0
        self._Counter__other = 1

    def bump(self):
        self.__count += 1
        del self._Counter__other
        return self.__count


def f():
    c = Counter()
    return c.bump(), c._Counter__count, getattr(Counter, "__static_attributes__", None)
""", "f()"),
    "module_class_annotations": ("""
import typing
x: int = 1
y: typing.List[int]


class C:
    a: int = 2
    __b: str = 'q'
    c: 'int'
    if x:
        d: float = 1.5


def f():
    return x, sorted(__annotations__), C.__annotations__, C.a, C._C__b, C.d
""", "f()"),
    "future_annotations": ("""
from __future__ import annotations
x: list[int] = 1


class C:
    a: dict[str, int] | None = 2


def g(q: dict[str, int] | None) -> str:
    return str(q)


def f():
    return x, __annotations__, C.__annotations__, g.__annotations__
""", "f()"),
    "lambda_returning_none": ("""
L = type(lambda: None)
g = lambda a=1: None
h = lambda: (yield)


def f():
    return L.__name__, g(), type(h()).__name__
""", "f()"),
    # A nested def's text naming a marker of the structurer (as a refused def's stub would) is no
    # marker left in the module's own code.
    "marker_text_in_nested_def": ("""
try:
    import termios
except ImportError:
    termios = None


def g():
    \"\"\"Mentions <re-raise> and <exception>.\"\"\"
    return termios is None


def f():
    return g(), g.__doc__
""", "f()"),
    # 3.12+ copies a lambda's return into both branches of its conditional expression.
    "lambda_conditional_expression": ("""
from math import sqrt
T = {"a": lambda p: sqrt(2*p) - 1 if p < 1/2 else 1 - sqrt(2 - 2*p),
     "b": lambda p: 1 if p else 2 if p is None else 3,
     "c": lambda p, q: p if p and q else q}


def f():
    return [T[k](x, 0) if k == "c" else T[k](x) for k in T for x in (0, 0.25, 0.75, 1)]
""", "f()"),
    # 3.10 copies the module's end into the branches of an if that ends a last with's body.
    "module_ends_with_with": ("""
import contextlib
import sys

log = []


def f():
    return log


if sys.argv is not None:
    with contextlib.suppress(KeyError):
        log.append(1)
        if log:
            log.append(2)
""", "f()"),
    # `global x` in a function that never stores x still makes the module's stores STORE_GLOBAL.
    "module_global_declared_in_function": ("""
\"\"\"Doc.\"\"\"
_cache = {}


def f():
    global _cache
    _cache.clear()
    return _cache, __doc__
""", "f()"),
    # 3.8: an assert in a module or class body loads AssertionError with LOAD_GLOBAL (a written
    # name there is LOAD_NAME).
    "module_class_asserts": ("""
import sys
assert sys.argv is not None, "argv"


class C:
    assert sys
    if sys:
        assert sys.path is not None, sys.path


def f():
    return C.__name__
""", "f()"),
    # 3.10+ copies a class body's end (return, 3.13's __static_attributes__) into the branches of
    # its trailing if, try or with.
    "class_ends_with_branches": ("""
import contextlib
import sys


class A:
    try:
        import termios
    except ImportError:
        t = 1
    else:
        t = 2


class B:
    with contextlib.suppress(KeyError):
        if sys:
            u = 3


class D:
    def m(self):
        return __class__

    if sys:
        v = 4


def f():
    return A.t, B.u, D.v, D().m().__name__
""", "f()"),
    "module_try_else_end": ("""
def f():
    return g


try:
    import termios
except ImportError:
    try:
        import msvcrt
    except ImportError:
        g = 1
    else:
        g = 2
else:
    g = 3
""", "f()"),
}
SNIPPETS.update(MODULE_BODY_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in MODULE_BODY_SNIPPETS for v in ALL_VERSIONS}
# Operands of `and`/`or` holding comparison chains and conditional expressions, where the compiler
# copies the code after the value (a return) into each way the value ends.
SNIPPETS.update({
    "short_circuit_value_tails": ("""
def dunder(name):
    return (len(name) > 4 and name[:2] == name[-2:] == '__' and name[2] != '_' and name[-3] != '_')


def chain(a, b, c):
    return a == b == c


def chain_store(a, b, c):
    x = a < b < c
    return x


def or_ifexp(x, a, b, c):
    return x or (a if b else c)


def and_chain_and(x, a, b, c, d):
    return x and a == b == c and d
""", "dunder('__x__'), dunder('_x_'), dunder('__a_'), chain(1, 1, 1), chain(1, 2, 2), chain_store(1, 2, 3), "
        "chain_store(3, 2, 1), or_ifexp(0, 1, 0, 2), or_ifexp(5, 1, 1, 2), or_ifexp(0, 1, 1, 2), "
        "and_chain_and(1, 2, 2, 2, 3), and_chain_and(1, 2, 3, 2, 3), and_chain_and(0, 2, 2, 2, 3)"),
    # 3.11+ compile `'...%s' % (x,)` to an f-string: its fields may hold strings with both quote
    # kinds or newlines (triple quotes before 3.12; anything goes from 3.12 on, PEP 701).
    "fstring_from_percent_format": ("""
def quoted(cc):
    return "'%s' --version" % (cc.replace("'", "'\\"'\\"'"),)


def joined(name, lines):
    return '%r mismatch:\\n      %s' % (name, '\\n      '.join(lines))


def nested(key, v):
    return "%r:\\n  %s" % (key, "checked -> %r" % (v,))
""", "quoted(\"a'b\"), joined('n', ['x', 'y']), nested('k', 'v')"),
    # A field that needs a backslash: 3.12+ write it as it is; 3.11 refuses that function alone.
    "fstring_field_backslash": ("""
def replaced(x):
    return '%s!' % (x.replace('\\\\', '/'),)


def other(x):
    return x + 1
""", "replaced('a\\\\b'), other(1)"),
})
EQUIVALENT_NOW |= {(name, v) for name in ("short_circuit_value_tails", "fstring_from_percent_format") for v in ALL_VERSIONS}
# 3.8/3.9: `return` in a try body is POP_BLOCK, then RETURN_VALUE outside the body; an if/else whose
# sides both return leaves one side's value on the stack for that return.
SNIPPETS.update({
    "try_if_else_returns": ("""
def build(pair):
    try:
        language, encoding = pair
        if language is None:
            language = 'C'
        if encoding is None:
            return language
        else:
            return language + '.' + encoding
    except (TypeError, ValueError):
        raise TypeError('bad') from None


def plain(t):
    try:
        a = t + 1
        if a > 2:
            return a
        else:
            return -a
    except TypeError:
        pass
""", "build(('en', None)), build((None, 'utf8')), plain(1), plain(5), plain('x')"),
    # A comparison chain as the last operand of `and` in a test: its false way out shares code with
    # the first operand's (3.10+ copy that exit into the chain's fall-through; 3.12+ fold a last
    # `is None` into the jump).
    "chain_in_and_tests": ("""
def check(proto, top):
    assert isinstance(proto, int) and 0 <= proto <= top
    return proto


def none_chain(g, node, seq):
    if g is not None and node is seq is None:
        return 1
    return 2
""", "check(1, 3), none_chain(0, None, None), none_chain(None, None, None), none_chain(0, 1, None)"),
})
EQUIVALENT_NOW |= {(name, v) for name in ("try_if_else_returns", "chain_in_and_tests") for v in ALL_VERSIONS}
# 3.8-3.10: `return` from an except clause inside a try body leaves the body's block after
# POP_EXCEPT: the lone RETURN_VALUE there is the clause's own, not where the clause goes on.
SNIPPETS["return_from_nested_clause"] = ("""
def ratio(x):
    try:
        if type(x) is float:
            return x.as_integer_ratio()
        try:
            return (x.numerator, x.denominator)
        except AttributeError:
            try:
                return x.as_integer_ratio()
            except AttributeError:
                pass
    except (OverflowError, ValueError):
        return (x, None)
    raise TypeError('no ratio')
""", "ratio(0.5), ratio(3), ratio(float('inf'))")
EQUIVALENT_NOW |= {("return_from_nested_clause", v) for v in ALL_VERSIONS}
# A lambda as the operand of yield, await, an operator, an attribute, a subscript, an f-string
# field or raise: the function object becomes the lambda there too (it once printed as a stand-in
# name that does not compile).
SNIPPETS["lambda_operands"] = ("""
def fields(x):
    yield f'x:{yield (lambda i: x * i)}'
    return f'{(lambda i: x * i)}'

def operands(x):
    names = [(lambda: x).__name__, (lambda: 1) == x, not (lambda: 2)]
    try:
        names.append((lambda: 1) + x)
        raise (lambda: 4)
    except TypeError:
        names.append('no +')
    return names

def run(x):
    g = fields(x)
    f = next(g)
    return (f(3), g.send('s'), operands(x))
""", "run(2)")
EQUIVALENT_NOW |= {("lambda_operands", v) for v in ALL_VERSIONS}
# `[] = value` stores nothing but still iterates the value (UNPACK_SEQUENCE 0): it was dropped.
SNIPPETS["empty_unpack_target"] = ("""
def f(g):
    it = iter(g)
    [] = it
    a, [] = [1, ()]
    for [] in [(), []]:
        a += 1
    try:
        [] = [1]
    except ValueError:
        return a, list(it)
    return 0
""", "f([]), f(())")
EQUIVALENT_NOW |= {("empty_unpack_target", v) for v in ALL_VERSIONS}
# Complex constants with signed zeros: repr's "(-0-0j)" reads back as another number, so the printer
# writes a sum or negation that the compiler folds into the same bits (returned as text: -0.0 == 0.0).
SNIPPETS["complex_signed_zeros"] = ("""
def f():
    zs = (-0j, -7j, -1e300j, 0 - 7j, 2.5 + 0j, -2.5 - 0j, -(2.5 + 0j), -(0 - 3j), 1 - 0.5j, 3j)
    return repr([(z.real, z.imag) for z in zs])
""", "f()")
EQUIVALENT_NOW |= {("complex_signed_zeros", v) for v in ALL_VERSIONS}
# `import a.b.c as x` walks down from the top package with IMPORT_FROM (no fromlist): two levels
# printed as `from a.b import b` (another meaning), three were refused.
SNIPPETS["import_dotted_as"] = ("""
def f():
    import os.path as p
    import xml.etree.ElementTree as tree
    from xml.etree import ElementTree
    import xml.etree
    return (p.__name__, tree.__name__, ElementTree is tree, xml.__name__)
""", "f()")
EQUIVALENT_NOW |= {("import_dotted_as", v) for v in ALL_VERSIONS}
# A class body's own stores to the names the compiler stores (__module__, __qualname__,
# __classcell__, __static_attributes__) are kept: only the compiler's own, at the body's start and
# end, are implied. A copy of the end in an if's branch (3.10+) leaves what follows as its else.
SNIPPETS["class_own_dunder_stores"] = ("""
def f(x):
    class A:
        __module__ = 'm'
        __qualname__ = 'Q'
        def g(self):
            return __class__
        if x:
            y = 2
        else:
            z = 3
    class B:
        'doc'
        __qualname__ = 'B2'
        __static_attributes__ = ('a',)
    c = 'made'
    try:
        class C:
            __classcell__ = 42
            __slots__ = ['__classcell__']
    except TypeError:
        c = 'refused'
    return (A.__module__, A.__qualname__, A().g() is A, hasattr(A, 'y'), hasattr(A, 'z'), B.__qualname__, B.__doc__, c)
""", "f(0), f(1)")
EQUIVALENT_NOW |= {("class_own_dunder_stores", v) for v in ALL_VERSIONS}
# `return` in an async generator is bare: `return None` does not compile there.
SNIPPETS["async_generator_return"] = ("""
async def agen(x, log):
    try:
        log.append(x)
    except ValueError:
        return
    yield 'a'
    for y in x:
        if y:
            return
        yield y

def run(x):
    import asyncio
    async def main():
        return [v async for v in agen(x, [])]
    return asyncio.run(main())
""", "run([0, 0, 1, 0]), run([])")
EQUIVALENT_NOW |= {("async_generator_return", v) for v in ALL_VERSIONS}
# A chain of three or more targets is one assignment (it was printed as nested walruses, which a
# chain of a few hundred targets turns into "too many nested parentheses": test_exceptions).
SNIPPETS["chained_assignment_many"] = ("""
def f(x, o):
    a = b = c = None
    d = o.p = o[0] = e = x
    """ + " = ".join("v%d" % i for i in range(250)) + """ = x
    return (a, b, c, d, e, o.p, o[0], v0, v249)
""", "f(3, type('O', (list,), {})([0]))")
EQUIVALENT_NOW |= {("chained_assignment_many", v) for v in ALL_VERSIONS}
# A string statement decoded from code (3.11 and earlier keep `f'text'` as LOAD_CONST, POP_TOP) is
# not a docstring: written first as a plain string it became one (test_fstring's test_docstring).
SNIPPETS["string_statement_not_docstring"] = ("""
def outer():
    def f():
        f'Not a docstring'
    def h():
        "doc"
        f"not {{doc}}"
        return 1
    return (f.__doc__, h.__doc__, h())
""", "outer()")
EQUIVALENT_NOW |= {("string_statement_not_docstring", v) for v in ALL_VERSIONS}
# 3.13 compiles `not not x` to a lone TO_BOOL, which was dropped as the implied truth test of a
# jump: the value kept is bool(x), not x (test_descr's `__bool__` returning `not not self.x`).
SNIPPETS["double_not_value"] = ("""
def f(x, y):
    a = not not x
    b = (not not x) and y
    c = not not not y
    return (a, b, c, [not not v for v in (0, 2, '')])
""", "f(3, []), f(0, 'a')")
EQUIVALENT_NOW |= {("double_not_value", v) for v in ALL_VERSIONS}
# A raise after an inner try statement inside an except clause, which 3.12+ copy into the inner
# clause after its POP_EXCEPT: printed there, a bare `raise` re-raised the inner exception instead
# of the clause's (test_exceptions' test_yield_in_nested_try_excepts), and hoisted twice it ran
# outside any clause. A with statement's POP_EXCEPT (its __exit__ suppressed the exception) does not
# end the clause (test_raise's test_with_reraise2).
SNIPPETS["raise_after_nested_clause"] = ("""
def run():
    class MainError(Exception):
        pass
    class SubError(Exception):
        pass
    def main():
        try:
            raise MainError()
        except MainError:
            try:
                yield
            except SubError:
                pass
            raise
    coro = main()
    coro.send(None)
    try:
        coro.throw(SubError())
    except Exception as e:
        first = type(e).__name__
    def g(x):
        try:
            raise KeyError(1)
        except KeyError:
            try:
                x()
            except ValueError:
                pass
            raise TypeError(2)
    try:
        g(lambda: None)
    except TypeError as e:
        second = type(e.__context__).__name__
    class Suppress:
        def __enter__(self):
            return self
        def __exit__(self, *exc):
            return True
    def h():
        try:
            raise TypeError('foo')
        except:
            with Suppress():
                raise KeyError('caught')
            raise
    try:
        h()
    except Exception as e:
        third = type(e).__name__
    return (first, second, third)
""", "run()")
EQUIVALENT_NOW |= {("raise_after_nested_clause", v) for v in ALL_VERSIONS}
# A local whose only binding was dead code the compiler dropped (`if False: x = 0`) is still local:
# a read of it raises UnboundLocalError, and printed without any binding it read a global.
SNIPPETS["local_bound_only_in_dead_code"] = ("""
def f():
    if False:
        x = 0
    try:
        return x
    except UnboundLocalError:
        return 'unbound'
""", "f()")
EQUIVALENT_NOW |= {("local_bound_only_in_dead_code", v) for v in ("3.8", "3.9")}
# A chained assignment of a lambda binds one function object to every target; printed as one
# lambda per target, the names held different functions (test_xml_etree's DummyBuilder).
SNIPPETS["chained_lambda_assignment"] = ("""
class Builder:
    data = start = end = lambda *a: None

def f():
    a = b = lambda: 1
    c = Builder.x = d = lambda y=[]: y
    return a is b, c is d is Builder.x, Builder.data is Builder.end
""", "f()")
EQUIVALENT_NOW |= {("chained_lambda_assignment", v) for v in ALL_VERSIONS}
# A chained assignment of three targets or more: the value is copied again before each store
# but the last; a display value was stored once and the other targets bound to the first name.
SNIPPETS["chained_assignment_three_targets"] = ("""
def f(g):
    a = b = c = [1, 2, 3]
    d = e = {}
    x = y = z = w = g()
    d['k'] = e['j'] = s = g()
    a[1:2] = b[:1] = t = [g()]
    a.append(4)
    return b, c is a, d, x is y is z is w, s, t
""", "f(list)")
EQUIVALENT_NOW |= {("chained_assignment_three_targets", v) for v in ALL_VERSIONS}
# A `while True` whose only way back is an except clause's `continue`, its try body returning
# (mailbox.Maildir.next): 3.10+ end the loop with that clause, the re-raise of an unmatched
# exception and the clause's clean-up laid out after it were taken for the loop's exit (refused:
# "stack underflow").
SNIPPETS["while_true_continue_from_clause"] = ("""
def f(d, it, log):
    while True:
        try:
            return d[next(it)]
        except KeyError as e:
            log.append(e.args)
            continue
        except IndexError:
            continue

def g(d, it):
    while True:
        try:
            return d[next(it)]
        except StopIteration:
            return None
        except KeyError:
            continue

def run():
    log = []
    return f({3: 'x'}, iter([1, 2, 3]), log), log, g({2: 'y'}, iter([1, 2])), g({}, iter([1]))
""", "run()")
EQUIVALENT_NOW |= {("while_true_continue_from_clause", v) for v in ALL_VERSIONS}
# A nested def (or class) that declares `global w` and only reads it, where the function around it binds w:
# printed without the declaration, the def (or a lambda or comprehension in it, which cannot
# declare) read the enclosing w instead (test__interpreters: `global w` in a nested script()).
SNIPPETS["global_read_shadowed_by_enclosing_local"] = ("""
w = 'global w'

def outer():
    r, w = 1, 'local w'
    def script():
        global w
        return w
    def other():
        global w
        return lambda: w
    def third():
        return w
    def gen():
        global w
        return [w for _ in range(1)], list(w for _ in range(1))
    class C:
        global w
        y = w
    return script(), other()(), third(), gen(), C.y
""", "outer()")
EQUIVALENT_NOW |= {("global_read_shadowed_by_enclosing_local", v) for v in ALL_VERSIONS}
# Nested assignment expressions copy the value before each store and keep it: no chained
# assignment (`x = y = g()` then `(z := ...)` would call g() twice; it was refused that way), and
# printed nested, not as `x = g(); y = x; (z := x)`.
SNIPPETS["nested_assignment_expressions"] = ("""
def f(g, log):
    (z := (y := (x := g())))
    log.append((a := (b := g())))
    return x, y, z, a, b, log
""", "f(iter(range(5)).__next__, [])")
EQUIVALENT_NOW |= {("nested_assignment_expressions", v) for v in ALL_VERSIONS}
# Nested unpacking targets of a parallel assignment: the compiler swaps the two values instead of
# building and unpacking a tuple, so p() and q() are both called before p()'s result is unpacked.
# Printed as two statements (`a, b = p()` then `c, d = q()`), q() ran after the unpacking (and not
# at all when it failed).
SNIPPETS["nested_unpacking_parallel_assignment"] = ("""
def f(log, p, q):
    def call(name, value):
        log.append(name)
        return value
    def items(name, values):
        for v in values:
            log.append(name)
            yield v
    (a, b), (c, d) = call('p', items('unpack p', p)), call('q', q)
    (e, *g), h = call('r', p), call('s', [7])
    return a, b, c, d, e, g, h

def run():
    out = []
    for p, q in (([1, 2], [3, 4]), ([1], [3, 4])):
        log = []
        try:
            out.append((f(log, p, q), log))
        except ValueError as e:
            out.append((str(e), log))
    return out
""", "run()")
EQUIVALENT_NOW |= {("nested_unpacking_parallel_assignment", v) for v in ALL_VERSIONS}
# A slice among the targets of a parallel assignment (`garbage, gc.garbage[:] = gc.garbage[:], []`
# in test_gc): a global or cell stored first while q()'s value waited was refused, a local was
# stored in a statement of its own (the same meaning, another code object).
SNIPPETS["parallel_assignment_slice_target"] = ("""
def f(x, p, q):
    global g
    g, x[1:2] = p(), q()
    a, x[:1], b = q(), p(), x[::-1]
    def r():
        return a
    return g, r(), b, x
""", "f([1, 2, 3], lambda: [4], lambda: [5, 6])")
EQUIVALENT_NOW |= {("parallel_assignment_slice_target", v) for v in ALL_VERSIONS}
# A target of a parallel assignment computed with a call (`x, z[f(i)] = v, w`): computed after
# the values and the stores before it, as the source computes it (it was refused).
SNIPPETS["parallel_assignment_called_target"] = ("""
def f(z, a, b, t):
    x, z[t(5) % 2:] = t(b), [t(a)]
    z[t(1)], y = t(2), t(3)
    x, z[x] = 1, 2
    return x, y, z

def run():
    log = []
    def t(v):
        log.append(v)
        return v
    return f([0, 1, 2, 3, 4, 5], 1, 2, t), log
""", "run()")
EQUIVALENT_NOW |= {("parallel_assignment_called_target", v) for v in ALL_VERSIONS}
# Augmented assignment to a slice: 3.12+ read and store it with BINARY_SLICE / STORE_SLICE, each
# making its own slice of the copied bounds. Printed as `x[a:b] = x[a:b] + v` it called __add__
# (a list plus a tuple raises TypeError; += extends) and evaluated x, a and b twice.
SNIPPETS["slice_augmented_assignment"] = ("""
def f(x, a, b, v):
    x[a:b] += v
    x[:1] *= 2
    return x

class Log:
    def __init__(self):
        self.seen = []
        self.items = [1, 2, 3]
    def bound(self, n):
        self.seen.append(n)
        return n

def g(log, v):
    log.items[log.bound(0):log.bound(2)] += v
    return log.items, log.seen
""", "(f([1, 2, 3], 1, 2, (7, 8)), g(Log(), (5,)))")
EQUIVALENT_NOW |= {("slice_augmented_assignment", v) for v in ALL_VERSIONS}
# The same local read after a comprehension whose variable has its name: 3.12+ inline the
# comprehension, whose loads and stores of its own variable (and the restores of the saved
# binding) do not bind the function's local (test_listcomps).
SNIPPETS["local_bound_only_in_dead_code_comprehension"] = ("""
def f(a):
    if False:
        x = 0
    y = [x * 2 for x in a]
    try:
        return x
    except UnboundLocalError:
        return ('unbound', y)
""", "f([1, 2])")
EQUIVALENT_NOW |= {("local_bound_only_in_dead_code_comprehension", v) for v in ("3.8", "3.9", "3.12", "3.13")}
# 3.12+ inline a comprehension whose variable shares its name with a free variable of the function
# (a type parameter): the comprehension's stores of it declare nothing (`nonlocal T` is a
# SyntaxError for a type parameter: test_type_params).
SNIPPETS["inlined_comprehension_shadows_free_variable"] = ("""
def outer(T):
    def f():
        return [lambda: T for T in T.__name__]
    return [g() for g in f()]
""", "outer(int)")
EQUIVALENT_NOW |= {("inlined_comprehension_shadows_free_variable", v) for v in ALL_VERSIONS}
# A `return` inside a with statement that ends a try body: the value waits through __exit__ and
# is returned after the try body (3.8-3.10 leave it by POP_BLOCK first). (3.11: the try's
# trailing `return None` is printed as the implicit one; the same meaning.)
SNIPPETS["with_return_in_try"] = (CONTEXT_MANAGER + """

def f(log, v):
    try:
        with CM(log, v) as c:
            return c[0]
    except (TypeError, IndexError):
        log.append('caught')
    return None


def run():
    log = []
    return f(log, [1]), f(log, []), f(log, 3), log
""", "run()")
EQUIVALENT_NOW |= {("with_return_in_try", v) for v in ("3.8", "3.9", "3.10", "3.12", "3.13")}
# A for loop in a finally body (its copy on the exception path runs above the exception markers)
# and stores in a finally body after `return v` in the try body (v waits below them): ordinary
# stores, not parts of a parallel assignment.
SNIPPETS["stores_in_finally_bodies"] = ("""
class A:
    def __init__(self, n):
        self.n = n
        self.saved = None


def restore(items, fail):
    try:
        for a in items:
            a.saved = a.n
            a.n = 0
        if fail:
            raise KeyError(fail)
    finally:
        for a in items:
            a.n = a.saved
    return [a.n for a in items]


def cleared(d, flag):
    try:
        return len(d)
    finally:
        if flag:
            import builtins
            builtins._uncompile_test = None
            d.clear()


def run():
    items = [A(1), A(2)]
    out = [restore(items, None)]
    try:
        restore(items, 'x')
    except KeyError:
        out.append([a.n for a in items])
    d = {1: 2}
    out.append((cleared(d, False), d, cleared(d, True), d))
    return out
""", "run()")
EQUIVALENT_NOW |= {("stores_in_finally_bodies", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("fstring_field_backslash", v) for v in ("3.8", "3.9", "3.10", "3.12", "3.13")}
# type statements: 3.12+ (NEEDS_312).
SNIPPETS["type_alias_statements"] = ("""
from typing import Callable, Any
type F = Callable[..., Any]


class C:
    type G = list[int]
    type __H = dict[str, G]


type N = int | None


def f():
    return F.__value__, C.G.__value__, C._C__H.__value__, N.__value__, F.__name__
""", "f()")
NEEDS_312 = {"type_alias_statements"}
EQUIVALENT_NOW |= {("type_alias_statements", v) for v in ("3.12", "3.13")}
# Type parameters (PEP 695, 3.12+; defaults PEP 696, 3.13+): the compiler wraps each generic
# definition in a `<generic parameters of X>` function called where the definition stands.
GENERIC_SNIPPETS = {
    "generic_functions": ("""
import functools
from typing import Callable


def deco(f):
    return f


@functools.cache
def ident[T](x: T) -> T:
    return x


@deco
def bounded[T: int, S: (int, str), *Ts, **P](a: T = 1, *args: *Ts, k: S = 'k', **kw: P.kwargs) -> Callable[P, T]:
    return a, args, k, kw


def kwonly[T](*, a=1, b: T):
    return a, b


def posonly[T](a, /, b=2) -> list[T]:
    return [a, b]


def outer(z):
    def g[T: int](x: T = z, *args: T) -> T:
        def h[U](y: U) -> tuple[T, U]:
            return x, y, z
        return h
    return g


async def agen[T](x: T):
    yield x


def f():
    return (ident(3), bounded(), kwonly(b=2), posonly(1), outer(5)()(6),
            [str(p) for p in bounded.__type_params__], bounded.__type_params__[0].__bound__,
            bounded.__type_params__[1].__constraints__, sorted(bounded.__annotations__),
            outer(1).__type_params__, agen.__type_params__)
""", "f()"),
    "generic_classes": ("""
def deco(c):
    return c


class Base[T]:
    pass


@deco
class K[T: (int, str), *Ts, **P](Base[T], metaclass=type):
    \"\"\"doc\"\"\"
    attr: T

    def __init__(self, v: T) -> None:
        super().__init__()
        self.__v = v

    def m[U](self, u: U, *, k: int = 3) -> tuple[T, U]:
        return self.__v, u, k

    @staticmethod
    def st[__X](a: __X, b=lambda: 1) -> __X:
        return a

    class Inner[S](list[S]):
        pass


def local(z):
    class Loc[T]:
        def f(self) -> T:
            return z
    return Loc


def f():
    return ([str(p) for p in K.__type_params__], K.__doc__, K.__orig_bases__[0], K.__mro__[1:],
            K.m.__type_params__, K.st(4), K.Inner.__type_params__, local(3)().f(), local(1).__type_params__)
""", "f()"),
    "generic_type_aliases": ("""
from typing import Callable


type Pair[T] = tuple[T, T]
type Rec[T: int] = list[Rec[T]] | T
type Call[**P, *Ts] = Callable[P, tuple[*Ts]]


class C:
    type Inner[U] = dict[str, U]


def g():
    type Loc[V] = list[V]
    return Loc


def f():
    return (Pair.__type_params__, Pair.__value__, Rec.__value__, Rec.__type_params__[0].__bound__,
            Call.__type_params__, C.Inner.__value__, g().__type_params__)
""", "f()"),
}
SNIPPETS.update(GENERIC_SNIPPETS)
NEEDS_312 |= set(GENERIC_SNIPPETS)
# The same in a generic function, where the shadowed free variable is a type parameter: a
# `nonlocal T` printed for the comprehension's stores does not compile (test_type_params).
SNIPPETS["inlined_comprehension_shadows_type_parameter"] = ("""
def F[T: int]():
    return [lambda: T for T in T.__name__]

def run():
    return [g() for g in F()]
""", "run()")
NEEDS_312.add("inlined_comprehension_shadows_type_parameter")
EQUIVALENT_NOW |= {("inlined_comprehension_shadows_type_parameter", v) for v in ("3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in GENERIC_SNIPPETS for v in ("3.12", "3.13")}
# `class C(*bases, **kw)`: __build_class__ called with CALL_FUNCTION_EX (3.8: BUILD_TUPLE_UNPACK_WITH_CALL).
SNIPPETS["class_star_bases"] = ("""
class B:
    def __init_subclass__(cls, **k):
        pass


def f(bases=(B,), kw={}):
    class A(B, *bases[1:], x=1, **kw):
        pass
    class A2(**kw):
        pass
    class A3(*bases):
        pass
    return A.__mro__, A2.__mro__, A3.__mro__
""", "f()")
EQUIVALENT_NOW |= {("class_star_bases", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# `*args: *Ts` (PEP 646, 3.11+): the annotation is Ts unpacked into one value (UNPACK_SEQUENCE 1).
SNIPPETS["starred_vararg_annotation"] = ("""
from typing import TypeVarTuple

Ts = TypeVarTuple('Ts')


def g(*args: *Ts, k: int = 1) -> tuple[*Ts]:
    return args


def f():
    return g(1, 2), sorted(g.__annotations__)
""", "f()")
NEEDS_311 = {"starred_vararg_annotation"}
EQUIVALENT_NOW |= {("starred_vararg_annotation", v) for v in ("3.11", "3.12", "3.13")}
# Type parameter defaults: 3.13+ (NEEDS_313).
SNIPPETS["type_param_defaults"] = ("""
def f[T: int = bool, *Ts = *tuple[int], **P = [int]](x: T = 1, *a: *Ts) -> T:
    return x


class C[T = int](list[T]):
    def m[U = T](self) -> U:
        return super().__len__()


type A[T = int, *Ts = *tuple[str, ...]] = list[T]


def check():
    return ([(p, p.__default__) for p in f.__type_params__], C.__type_params__[0].__default__,
            C.m.__type_params__[0].__default__, [p.__default__ for p in A.__type_params__], f(), C().m())
""", "check()")
NEEDS_313 = {"type_param_defaults"}
EQUIVALENT_NOW |= {("type_param_defaults", "3.13")}

# try/except* (PEP 654, 3.11+, NEEDS_311): clauses that match parts of a group, bind or drop them,
# raise, and run with else/finally; the results record which clauses ran with what.
EXCEPT_STAR_SNIPPETS = {
    "except_star_clauses": ("""
def run(exc):
    ran = []
    try:
        if exc is not None:
            raise exc
    except* ValueError as e:
        ran.append(('value', sorted(str(x) for x in e.exceptions)))
    except* (TypeError, KeyError):
        ran.append('type or key')
    return ran


def check():
    return (run(None), run(ExceptionGroup('g', [ValueError(1), TypeError(2)])), run(ValueError(3)),
            run(ExceptionGroup('g', [KeyError(4)])))
""", "check()"),
    "except_star_else_finally_raise": ("""
def run(exc, ran):
    try:
        ran.append('body')
        if exc is not None:
            raise exc
    except* ValueError as e:
        ran.append(len(e.exceptions))
        raise KeyError('from clause')
    except* TypeError:
        pass
    else:
        ran.append('else')
    finally:
        ran.append('finally')
    ran.append('after')
    return ran


def check():
    out = []
    for exc in (None, TypeError(1), ExceptionGroup('g', [ValueError(1), ValueError(2)]), OSError(5)):
        ran = []
        try:
            run(exc, ran)
        except BaseException as e:
            ran.append(type(e).__name__)
        out.append(ran)
    return out
""", "check()"),
    "except_star_in_loop": ("""
def run(excs):
    ran = []
    for exc in excs:
        try:
            raise exc
        except* ValueError:
            ran.append(1)
            if len(ran) > 2:
                ran.append('many')
        except* OSError as e:
            for x in e.exceptions:
                ran.append(x.errno)
    return ran


def check():
    return run([ValueError(), ExceptionGroup('g', [OSError(3, 'x'), ValueError()]), OSError(7, 'y')])
""", "check()"),
    # The body always raises: the clauses' way out is the only one (it was refused, "way out").
    "except_star_body_always_raises": ("""
def run(make, ran):
    try:
        try:
            raise make()
        except* ValueError as e:
            ran.append(len(e.exceptions))
    except KeyError:
        ran.append('key')


def run_finally(make, ran):
    try:
        raise make()
    except* ValueError:
        ran.append('value')
    finally:
        ran.append('finally')


def check():
    out = []
    for make in (ValueError, KeyError, lambda: ExceptionGroup('g', [ValueError(1), ValueError(2)]), OSError):
        for f in (run, run_finally):
            ran = []
            try:
                f(make, ran)
            except BaseException as e:
                ran.append(type(e).__name__)
            out.append(ran)
    return out
""", "check()"),
}
SNIPPETS.update(EXCEPT_STAR_SNIPPETS)
NEEDS_311 |= set(EXCEPT_STAR_SNIPPETS)
NEEDS_311.add("try_pass_except_star")
NEEDS_311.add("try_pass_except_star_else_finally")
EQUIVALENT_NOW |= {(name, v) for name in EXCEPT_STAR_SNIPPETS for v in ("3.11", "3.12", "3.13")}

# Finally bodies whose two copies (the normal path's and the handler's) were read differently,
# refused ("a finally body whose normal-path copy differs"). One that ends in an if nested in an if:
# in the handler's copy (3.10+) the inner then-side ends in its own copy of the re-raise, where the
# normal path's copy has an `else:` (or copies of the return after the statement); at the end of a
# function, before a return, and in a loop. (3.11, before a return: the inner then-side's jump is
# threaded past the outer one's, where the two sides meet; it was refused, "a block reached twice".)
TRY_FINALLY_NESTED_IF = """try:
    log.append(10 // a)
finally:
    if b:
        if c:
            log.append('c')
        else:
            log.append('not c')
"""
FINALLY_NESTED_IF_ELSE = "\ndef run(a, b, c, log):\n" + textwrap.indent(TRY_FINALLY_NESTED_IF, "    ")
FINALLY_COPY_SNIPPETS = {
    "finally_ends_in_nested_if_else": (FINALLY_NESTED_IF_ELSE + """

def run_elif(a, b, c, log):
    try:
        log.append(10 // a)
    finally:
        if b:
            if c > 1:
                log.append('big')
            elif c:
                log.append('small')


def run_loop(xs, b, c, log):
    for a in xs:
""" + textwrap.indent(TRY_FINALLY_NESTED_IF, "        ") + """    return log


def check():
    out = []
    for f in (run, run_elif):
        for a in (0, 2):
            for b in (0, 1):
                for c in (0, 1, 2):
                    log = []
                    try:
                        f(a, b, c, log)
                    except ZeroDivisionError:
                        log.append('zero')
                    out.append(log)
    for b in (0, 1):
        for c in (0, 1):
            log = []
            try:
                run_loop([5, 2, 0, 1], b, c, log)
            except ZeroDivisionError:
                log.append('zero')
            out.append(log)
    return out
""", "check()"),
    "finally_nested_if_else_then_return": (FINALLY_NESTED_IF_ELSE + """    return 5


def check():
    out = []
    for a in (0, 2):
        for b in (0, 1):
            for c in (0, 1):
                log = []
                try:
                    log.append(run(a, b, c, log))
                except ZeroDivisionError:
                    log.append('zero')
                out.append(log)
    return out
""", "check()"),
    # 3.12+: `z[a:b] += v` duplicates z, a and b by design (COPY 3 x3), as `z[i] += v` does z and i;
    # the slice's bound was written to a temporary, named apart in the two copies of a finally body.
    "finally_augmented_slice": ("""
def run(a, z):
    try:
        z.append(10 // a)
    finally:
        z[a:a + 2] += [a]
    return z


def check():
    out = []
    for a in (0, 1, 3):
        z = [1, 2, 3, 4, 5]
        try:
            run(a, z)
        except ZeroDivisionError:
            z.append('zero')
        out.append(z)
    return out
""", "check()"),
}
# A finally body that ends in a match: each case of the handler's copy ends in its own copy of the
# re-raise, of the normal path's in its own copy of the return or of the code after the statement.
FINALLY_MATCH_SNIPPETS = {
    "finally_ends_in_match": ("""
def run(a, log):
    try:
        log.append(10 // a)
    finally:
        match a:
            case 0:
                log.append('zero')
            case 1 | 2:
                log.append('small')


def run_loop(xs, log):
    for a in xs:
        try:
            log.append(10 // a)
        finally:
            match a:
                case 0:
                    log.append('zero')
                case [p, *rest]:
                    log.append(rest)
    return log


def run_return(a, log):
    try:
        return 10 // a
    finally:
        match a:
            case 0:
                log.append('zero')
            case _:
                if a > 5:
                    log.append('big')
                else:
                    log.append('not big')


def check():
    out = []
    for f in (run, run_return):
        for a in (0, 1, 7):
            log = []
            try:
                log.append(f(a, log))
            except ZeroDivisionError:
                log.append('zero div')
            out.append(log)
    log = []
    try:
        run_loop([5, 2, 0], log)
    except ZeroDivisionError:
        log.append('zero div')
    out.append(log)
    return out
""", "check()"),
}
SNIPPETS.update(FINALLY_MATCH_SNIPPETS)
NEEDS_310 |= set(FINALLY_MATCH_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in FINALLY_MATCH_SNIPPETS for v in ("3.10", "3.11", "3.12", "3.13")}
SNIPPETS.update(FINALLY_COPY_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in FINALLY_COPY_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A while loop whose test ends in a comparison chain, ending an if's body before its `else:`, with
# more than a short exit after the statement: 3.13 threads the repeated test's last link past the
# loop's exit (itself a jump past the else) to where that jump goes. Refused ("a block reached
# twice"; found by random programs).
WHILE_CHAIN_BEFORE_ELSE_SNIPPETS = {
    "while_chain_ends_if_body_before_else": ("""
def run(a, x, n, log):
    if a:
        while n < 4 and a < 4 <= x:
            n += 1
    else:
        log.append(0)
    return a if n else x


def check():
    out = []
    for a in (0, 1, 5):
        for x in (3, 4, 9):
            for n in (0, 2, 6):
                log = []
                out.append((run(a, x, n, log), log))
    return out
""", "check()"),
}
SNIPPETS.update(WHILE_CHAIN_BEFORE_ELSE_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in WHILE_CHAIN_BEFORE_ELSE_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A with statement in a loop whose nested with statement's body ends in `continue` (or `break`),
# with code after the nested statement that only its suppressed exception reaches: the outer body's
# way out right after the nested __exit__ call is that `continue`; its normal end is the other copy
# of its __exit__ call, after that code. Refused ("code after a suppressing with statement that
# leaves the body around it"), on every version.
SUPPRESS_IN_OUTER_WITH = """

def run{suffix}(items, d, lock):
    out = []
    for item in items:
        with lock:
            with suppress(KeyError):
                out.append(d[item])
                {way_out}
            out.append(None)
    return out
"""
NESTED_WITH_CONTINUE_SNIPPETS = {
    "suppress_then_continue_in_outer_with": ("""
from contextlib import nullcontext, suppress
""" + SUPPRESS_IN_OUTER_WITH.format(suffix="", way_out="continue") +
        SUPPRESS_IN_OUTER_WITH.format(suffix="_break", way_out="break") + """

def check():
    d = {1: 'a', 3: 'c'}
    return [f(items, d, nullcontext()) for f in (run, run_break) for items in ([1, 2, 3, 0], [2, 1], [])]
""", "check()"),
}
SNIPPETS.update(NESTED_WITH_CONTINUE_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in NESTED_WITH_CONTINUE_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A `break` in an except clause of a try statement inside an except clause, in a loop (a retry
# loop): 3.11+ leave both clauses (two POP_EXCEPTs, the iterator dropped) before the jump. Refused
# where another clause goes on ("except clauses that continue in different places"), printed with
# the break after the inner statement otherwise (the same, not the same code).
NESTED_CLAUSE_BREAK_SNIPPETS = {
    "break_from_clause_in_clause": ("""
def run(xs, fail, log):
    for x in xs:
        try:
            log.append(fail(x, 0))
        except ValueError:
            try:
                log.append(fail(x, 1))
            except KeyError:
                log.append('key')
                break
            except TypeError:
                pass
            log.append('retry')
    log.append('done')
    return log


def run_break_only(xs, fail, log):
    for x in xs:
        try:
            log.append(fail(x, 0))
        except ValueError:
            try:
                log.append(fail(x, 1))
            except KeyError:
                break
    log.append('done')
    return log


def fail(x, step):
    kind = x[step] if step < len(x) else '-'
    if kind == 'V':
        raise ValueError(x)
    if kind == 'K':
        raise KeyError(x)
    if kind == 'T':
        raise TypeError(x)
    return (x, step)


def check():
    out = []
    for f in (run, run_break_only):
        for xs in (['-', 'V-', 'VT', 'VK', '-'], ['VK'], ['VT', 'V-'], ['V-', 'VK', 'VV'], []):
            log = []
            try:
                f(xs, fail, log)
            except Exception as e:
                log.append(type(e).__name__)
            out.append(log)
    return out
""", "check()"),
}
SNIPPETS.update(NESTED_CLAUSE_BREAK_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in NESTED_CLAUSE_BREAK_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A while loop with `continue` in a for loop, inside a try body: 3.12 leaves the jumps back out of
# the exception table's ranges (a jump cannot raise), so `POP_JUMP_IF_TRUE L; JUMP_BACKWARD H` was
# not folded into the conditional jump back as elsewhere. Refused on 3.12 ("a backward jump that is
# not a loop"); 3.13, which also leaves the top test's conditional jump uncovered, is refused still.
TRY_LOOP_SNIPPETS = {
    "while_continue_in_for_in_try": ("""
def run(xs, n, skip, log):
    try:
        for x in xs:
            while n:
                n -= 1
                if skip(n):
                    continue
                log.append(10 // x)
    except ZeroDivisionError:
        log.append('zero')
    return n, log


def check():
    return [run(xs, n, lambda k: k % 3 == 0, []) for xs in ([1, 2], [5, 0, 1], []) for n in (0, 4, 7)]
""", "check()"),
}
SNIPPETS.update(TRY_LOOP_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in TRY_LOOP_SNIPPETS for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}

# Loops whose body goes back only through an except clause (the header reaches the jump back only
# through the handler), and 3.12+ while loops whose repeated test is laid out after the handler.
LOOP_SHAPE_SNIPPETS = {
    "loop_back_through_handler": ("""
def parse(items):
    it = iter(items)
    n = 0
    while True:
        try:
            v = int(next(it))
            break
        except ValueError:
            pass
        n += 1
    return v, n

def parse_while(items):
    it = iter(items)
    got = []
    while len(got) < 2:
        try:
            v = int(next(it))
            break
        except ValueError:
            pass
        got.append(1)
    return got

def f():
    return parse(['a', 'b', '3']), parse_while(['x', '5']), parse_while(['x', 'y', 'z'])
""", "f()"),
    "while_true_starts_with_while": ("""
def pump(src):
    it = iter(src)
    lines = []
    out = []
    while True:
        while len(lines) < 2:
            lines.append(next(it, 'X'))
        s = lines.pop(0)
        if s == 'X':
            break
        out.append(s)
    return out

def f():
    return pump('abc')
""", "f()"),
    # A finally body ending with try/except: the compiler copies the re-raise that ends the finally
    # body into the except clause (after its POP_EXCEPT), and the `return None` likewise.
    "finally_ends_with_try_except": ("""
class Box:
    def __init__(self, fail):
        self.fail = fail
        self.log = []

    def sync(self):
        self.log.append('sync')

    def reset(self):
        if self.fail:
            raise AttributeError('x')
        return 'fresh'

    def close(self):
        if self.log is None:
            return
        try:
            self.sync()
        finally:
            try:
                self.state = self.reset()
            except:
                self.state = None

def f():
    a, b = Box(False), Box(True)
    a.close()
    b.close()
    return a.state, b.state, a.log
""", "f()"),
    # `if c:` whose body is `while t:`: both tests jump past the loop, yet `t` is the loop's own test.
    "if_then_while": ("""
def drain(items, n):
    if n < 0:
        while items.pop():
            pass
    elif n == 0:
        while len(items) > 2:
            items.pop()
    return items

def f():
    return drain([0, 1, 2, 3], -1), drain([1, 2, 3, 4], 0), drain([5], 1)
""", "f()"),
    # A `break` out of a while-else that ends a for body: 3.8/3.9 thread it to the for loop's next
    # iteration (correct there, not yet equivalent; 3.12+ still refuse).
    "while_else_break_threaded": ("""
def overlap(prefix):
    table = [0] * len(prefix)
    for i in range(1, len(prefix)):
        idx = table[i - 1]
        while prefix[i] != prefix[idx]:
            if idx == 0:
                table[i] = 0
                break
            idx = table[idx - 1]
        else:
            table[i] = idx + 1
    return table

def f():
    return overlap('abcabd'), overlap('aaaa')
""", "f()"),
}
SNIPPETS.update(LOOP_SHAPE_SNIPPETS)
EQUIVALENT_NOW |= {("loop_back_through_handler", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_starts_with_while", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("finally_ends_with_try_except", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("if_then_while", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("while_else_break_threaded", v) for v in ("3.10", "3.11")}


# Merge points the post-dominators miss: a `break` (or an except clause) that is the loop's only
# way out post-dominates the statements before it, a loop left only from an except clause has no
# normal exit at all, and a for loop whose try body always returns goes back only from except
# clauses.
BLOCK_MERGE_SNIPPETS = {
    "loop_break_in_elif": ("""
def f(items):
    out = []
    it = iter(items)
    while True:
        out.append(0)
        try:
            x = next(it)
        except StopIteration:
            break
        if x == 1:
            out.append('one')
        elif x == 2:
            if not out:
                raise ValueError('empty')
            out.append('two')
            break
        out.append(x)
    out.append(len(out))
    return out
""", "f([3, 1, 4]), f([1, 2, 5]), f([])"),
    "while_true_left_by_except_in_if": ("""
def f(a, xs):
    xs = list(xs)
    if a:
        while True:
            try:
                xs.remove(1)
            except ValueError:
                break
    elif len(xs) > 2:
        xs.append(0)
    xs.append(len(xs))
    return xs
""", "f(True, [1, 2, 1]), f(False, [1, 2, 3]), f(False, [])"),
    "infinite_loop_in_if": ("""
import itertools


def f(xs):
    last = None
    for x in xs:
        if x < 0:
            return
        if x == 0:
            if last is None:
                raise ValueError('no last')
            while True:
                yield last
        yield x
        last = x
""", "list(f([1, 2, -1])), list(itertools.islice(f([3, 0]), 5))"),
    "except_clause_if_continue": ("""
def f(xs, flag):
    out = []
    for x in xs:
        try:
            out.append(10 // x)
        except ZeroDivisionError:
            if flag:
                out.append('z')
            continue
        out.append(x)
    return out


def g(xs):
    errors = []
    for x in xs:
        try:
            return 10 // x
        except ZeroDivisionError as e:
            errors.append(str(e))
            if len(errors) > 1:
                errors.append('again')
            continue
    return errors
""", "f([1, 0, 2], True), f([0, 5], False), g([0, 0, 2]), g([0])"),
    "for_try_body_returns": ("""
def f(xs, timeout, source):
    errors = []
    for x in xs:
        res = None
        try:
            res = [x]
            if timeout is not None:
                res.append(timeout)
            if source:
                res.append(source)
            res.append(10 // x)
            errors.clear()
            return res
        except ZeroDivisionError as exc:
            if not source:
                errors.clear()
            errors.append(str(exc))
            if res is not None:
                res.clear()
    if errors:
        return errors
    raise ValueError('empty')
""", "f([0, 2], 1, 'a'), f([0, 0], None, ''), f([5], None, None)"),
    "if_break_then_code": ("""
import threading


def f(value, blocking, timeout, items):
    rc = False
    endtime = None
    with threading.Lock():
        while value > 0:
            if not blocking:
                break
            if timeout is not None:
                if endtime is None:
                    endtime = timeout * 2
                else:
                    timeout = endtime - 1
                    if timeout <= 0:
                        break
            items.append(timeout)
            value -= 1
        else:
            rc = True
    return rc, items
""", "f(3, True, None, []), f(3, False, 1, []), f(5, True, 2, []), f(2, True, -4, [])"),
    "except_clause_raises_in_loop": ("""
def f(tagged, tag, debug, log):
    while True:
        result = tagged.get(tag)
        if result is not None:
            del tagged[tag]
            return result
        tagged[tag] = tagged.get(tag + 1)
        try:
            tagged[tag] = 10 // tag
        except ZeroDivisionError as val:
            if debug >= 1:
                log.append(str(val))
            raise
""", "f({1: None, 2: 5}, 2, 0, []), f({}, 3, 0, [])"),
    "else_break_ends_body": ("""
def f(parts, found):
    module, n = None, 0
    while n < len(parts):
        nextmodule = found.get(parts[n])
        if nextmodule: module, n = nextmodule, n + 1
        else: break
    if module:
        found.clear()
    return module, n


def g(line, i, n):
    start = i
    while i < n:
        c = line[i]
        if c == ';':
            break
        elif c == '/':
            i = i + 2
        else:
            i = i + 1
    return line[start:i].strip(), i
""", "f(['a', 'b', 'c'], {'a': 1, 'b': 2}), f([], {}), g('ab;cd', 0, 5), g('a/bc', 0, 4)"),
    "return_ifexp_in_try_in_loop": ("""
def f(path, tail):
    while path:
        try:
            new_path = path[1:]
            if new_path.startswith('x'):
                return new_path + tail if tail else new_path
        except IndexError:
            pass
        path = path[1:]
    return tail
""", "f('abxc', 't'), f('abxc', ''), f('ab', 't')"),
}
SNIPPETS.update(BLOCK_MERGE_SNIPPETS)
EQUIVALENT_NOW |= {("return_ifexp_in_try_in_loop", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {(name, v) for name in ("except_clause_raises_in_loop", "else_break_ends_body")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("if_break_then_code", v) for v in ("3.8", "3.9", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("for_try_body_returns", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12")}
EQUIVALENT_NOW |= {(name, v) for name in ("loop_break_in_elif", "while_true_left_by_except_in_if")
                   for v in ("3.8", "3.9", "3.10", "3.11")}
EQUIVALENT_NOW |= {("infinite_loop_in_if", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("except_clause_if_continue", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A loop that ends an except clause: 3.13 copies the clause's way out (`POP_EXCEPT; jump`) into its
# `break`, which then jumps back to the code after the try statement, laid out before the handler.
CLAUSE_LOOP_SNIPPETS = {
    "for_else_break_ends_clause": ("""
def f(names, mro, d):
    out = []
    for key in names:
        try:
            value = d[key]
            if key in out:
                raise KeyError
        except KeyError:
            for base in mro:
                if key in base:
                    value = base[key]
                    break
            else:
                continue
        out.append((key, value))
    return out
""", "f(['a', 'b', 'c'], [{'b': 1}, {'c': 2, 'b': 3}], {'a': 0}), f([], [], {})"),
    # The inner try is the whole body of the outer one: its clause's POP_EXCEPT is still in the
    # outer body, the jump after it is not.
    "for_break_ends_nested_clause": ("""
def g(m, v, items, log):
    try:
        try:
            e = m[v]
        except TypeError:
            for name, c in items:
                if c == v:
                    e = c
                    break
            else:
                raise KeyError
    except KeyError:
        log.append(v)
        e = None
    log.append(e)
    log.append(1)
    return log

def h():
    return (g({1: 2}, 1, [], []), g({}, [1], [('a', [1])], []), g({}, [1], [('a', [2])], []),
            g({}, 3, [], []))
""", "h()"),
    "for_break_then_code_ends_clause": ("""
def g(m, v, items, log):
    try:
        e = m[v]
    except TypeError:
        log.append(0)
        for c in items:
            if c == v:
                e = c
                break
        else:
            e = None
        log.append(e)
    log.append(1)
    return log

def h():
    return g({1: 2}, 1, [], []), g({}, [1], [[1]], []), g({}, [1], [[2]], [])
""", "h()"),
    # A `while` whose body holds a try statement: 3.12+ lay its handler out after the code after
    # the loop, so the repeated test comes after both; `break` in the try body jumps to the code
    # after the loop, laid out inside the loop's blocks.
    "while_try_break_in_layout": ("""
def f(n2i, start):
    stack = []
    itstack = []
    seen = set()
    out = []
    for node in start:
        if node in seen:
            continue
        while True:
            if node in seen:
                out.append(node)
            else:
                seen.add(node)
                itstack.append(iter(n2i[node]).__next__)
                stack.append(node)
            while stack:
                try:
                    node = itstack[-1]()
                    break
                except StopIteration:
                    stack.pop()
                    itstack.pop()
            else:
                break
    return out
""", "f({1: [2, 3], 2: [3], 3: [1]}, [1, 2]), f({}, [])"),
    # `while True:` left only by `break` in except clauses: 3.12+ lay the clauses out after the
    # loop's jump back, so no jump of the loop's own blocks shows where the loop ends. Inside a
    # with statement, the code there (the __exit__ call) was read as the loop's body going on.
    "while_true_broken_from_clauses": ("""
def f(it, log):
    while True:
        try:
            x = next(it)
        except StopIteration:
            break
        log.append(x)
    log.append(0)
    return log

def g(it, log, cm):
    with cm:
        while True:
            try:
                x = next(it)
            except StopIteration:
                break
            log.append(x)
    log.append(0)
    return log

def h(it, log, cm):
    with cm:
        while True:
            try:
                try:
                    x = next(it)
                except StopIteration:
                    break
            except OSError:
                log.append(1)
                break
            log.append(x)
    log.append(0)
    return log

def k():
    import contextlib
    def bad():
        yield 1
        raise OSError
    c = contextlib.nullcontext()
    return (f(iter([1, 2]), []), g(iter([1, 2]), [], c), h(iter([1, 2]), [], c), h(bad(), [], c))
""", "k()"),
    # A try statement in a loop whose clauses break, nested in another whose clause breaks too:
    # where the loop's `break` goes is no normal exit of the outer body, and the outer clause is
    # an except clause of the loop's body (3.12+ lay both out after the loop).
    "nested_try_clauses_break": ("""
def f(it, onerror, log):
    cont = False
    while True:
        try:
            try:
                entry = next(it)
            except StopIteration:
                break
        except OSError as error:
            if onerror is not None:
                onerror(error)
            cont = True
            break
        try:
            is_dir = entry > 1
        except TypeError:
            is_dir = False
        log.append(is_dir)
    return cont, log

def k():
    def bad():
        yield 1
        yield 'a'
        raise OSError
    return f(iter([1, 2]), None, []), f(bad(), print, [])
""", "k()"),
}
SNIPPETS.update(CLAUSE_LOOP_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("for_else_break_ends_clause", "for_break_ends_nested_clause",
                                           "for_break_then_code_ends_clause")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.13")}
EQUIVALENT_NOW |= {("while_try_break_in_layout", v) for v in ("3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("while_true_broken_from_clauses", v) for v in ("3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("nested_try_clauses_break", "3.11")}

# A return, break or continue that leaves a finally body (3.8 runs it through POP_FINALLY /
# CALL_FINALLY, 3.9/3.10 pop the exception's three values before POP_EXCEPT).
FINALLY_EXIT_SNIPPETS = {
    "finally_body_exits": ("""
def f(a, b):
    try:
        if a:
            raise KeyError(a)
    finally:
        if b:
            return b


def g(xs, stop):
    out = []
    for x in xs:
        try:
            if x < 0:
                raise ValueError(x)
            out.append(x)
        finally:
            if x == stop:
                break
            if x < 0:
                continue
            out.append(-x)
    return out


def h(a, b):
    try:
        r = 1 // a
    finally:
        if b:
            return b + a
    return r


def k():
    return f(0, 0), f(1, 2), g([1, -1, 2, 3], 2), g([-1, 4], 9), h(1, 0), h(0, 5), h(2, 1)
""", "k()"),
    # A finally body that always raises (3.8: its END_FINALLY is unreachable); read back as an except
    # clause and an else clause, which mean the same.
    "finally_body_raises": ("""
def m(a):
    try:
        r = 1 // a
    finally:
        raise KeyError(a)


def catch(fn, *args):
    try:
        return fn(*args)
    except Exception as e:
        return type(e).__name__, type(e.__context__).__name__


def k():
    return catch(m, 0), catch(m, 1)
""", "k()"),
}
SNIPPETS.update(FINALLY_EXIT_SNIPPETS)
EQUIVALENT_NOW |= {("finally_body_exits", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}


# ---- Except clauses inside with statements (found by tools/program_fuzz.py): 3.12+ lays the
# clauses out after the code the try goes on to and jumps back there; a `return` in a clause
# leaves the with statements first (their __exit__ calls, then the return).
WITH_CLAUSE_SNIPPETS = {
    "with_try_two_clauses_jump_back": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(a, log):
    with CM(log):
        try:
            log.append(10 // a)
        except ZeroDivisionError:
            log.append('zero')
        except (TypeError, KeyError):
            log.append('type')
        log.append('after')
    return log

def g():
    return f(2, []), f(0, []), f('x', [])
""", "g()"),
    "with_clause_returns_constant": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(a, log):
    with CM(log):
        try:
            log.append(10 // a)
        except ZeroDivisionError:
            pass
        except (TypeError, KeyError):
            return 7

def g():
    out = []
    for a in (2, 0, 'x'):
        log = []
        out.append((f(a, log), log))
    return out
""", "g()"),
    "with_clause_returns_value": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')
        return True

def f(a, b, log):
    with CM(log):
        try:
            assert b <= a, a
        except (AssertionError, KeyError):
            if b < 5:
                return b * 2
        log.append('after try')
    log.append('after with')

def g():
    out = []
    for a, b in ((3, 1), (1, 3), (1, 7)):
        log = []
        out.append((f(a, b, log), log))
    return out
""", "g()"),
    # `return value` from an except clause of a try/finally: the value waits on the stack below
    # the compiler's copy of the finally body, after POP_EXCEPT (was refused on every version).
    "clause_returns_value_through_finally": ("""
def f(a, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        pass
    except TypeError:
        return len(log) + 100
    finally:
        log.append('finally')
    return log

def g():
    return [f(a, []) for a in (2, 0, 'x')]
""", "g()"),
    # (Was refused on 3.8/3.9: a returned value waiting below the finally copy.)
    "clause_returns_named_exception_through_finally": ("""
def f(x, log):
    try:
        return 1 / x
    except ZeroDivisionError as e:
        return str(e)
    finally:
        log.append('done')

def g():
    log = []
    return f(2, log), f(0, log), log
""", "g()"),
    "with_clause_if_meets_in_clause": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(a, b, log):
    with CM(log):
        try:
            log.append(10 // a)
        except ZeroDivisionError:
            if b:
                log.append('b')
            else:
                log.append('not b')
            log.append('clause')
        except TypeError:
            log.append('type')
        log.append('after')
    return log

def g():
    return [f(a, b, []) for a in (2, 0, 'x') for b in (0, 1)]
""", "g()"),
}
SNIPPETS.update(WITH_CLAUSE_SNIPPETS)
# A match statement ending a with statement (3.10: the failed cases go on at the with's
# POP_BLOCK, which normalizing drops, as it drops the NOP of a final `case _:`), and a `case _`
# holding a with statement and more code while the other cases return.
WITH_MATCH_SNIPPETS = {
    "match_in_with": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(v, log):
    with CM(log):
        match v:
            case [_, _, p]:
                log.append(p)
    return log

def g():
    return [f(v, []) for v in ([1, 2, 3], [1], 'abc', None)]
""", "g()"),
    "match_default_with_then_code": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, *exc):
        self.log.append('exit')

def f(v, log):
    match v:
        case (0, _):
            return 'pair'
        case _:
            with CM(log):
                log.append(v)
            log.append('after with')
    return log

def g():
    return [f(v, []) for v in ((0, 1), (1, 0), 5)]
""", "g()"),
}
SNIPPETS.update(WITH_MATCH_SNIPPETS)
NEEDS_310 |= set(WITH_MATCH_SNIPPETS)
# (3.10 copies the with's exit and the `return` after it into both ways out of the match: the
# output reads `case _: return log`, the same ops in another layout.)
EQUIVALENT_NOW |= {(name, v) for name in WITH_MATCH_SNIPPETS for v in ("3.10", "3.11", "3.12", "3.13")
                   if (name, v) != ("match_in_with", "3.10")}
EQUIVALENT_NOW |= {(name, v) for name in ("with_try_two_clauses_jump_back", "with_clause_if_meets_in_clause")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# (3.10 copies the with's exit and the return into each clause's way out: the output reads
# `return` in the clauses, which recompiles to the same ops in another layout.)
EQUIVALENT_NOW |= {(name, v) for name in ("with_clause_returns_constant", "with_clause_returns_value")
                   for v in ("3.8", "3.9", "3.11", "3.12", "3.13")}
# (3.10 lays the finally copies out in another order; 3.12/3.13 are still refused here: a clause
# exit jumps back over the handler, "a backward jump that is not a loop".)
EQUIVALENT_NOW |= {("clause_returns_value_through_finally", v) for v in ("3.8", "3.9", "3.11")}
EQUIVALENT_NOW |= {("clause_returns_named_exception_through_finally", v) for v in ALL_VERSIONS}


# A context manager that logs its enter and exit and suppresses an exception when told to (the
# prelude of several snippets below).
SUPPRESSING_CM = """
class CM:
    def __init__(self, log, suppress):
        self.log, self.suppress = log, suppress
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, et, ev, tb):
        self.log.append(et.__name__ if et else None)
        return self.suppress
"""

# Shapes random programs (tools/program_fuzz.py) found refused.
LOOP_BREAK_CHAIN_SNIPPETS = {
    # A comparison chain testing an if with an empty body: its jump over the clean-up goes straight
    # to the code after the if, where its false side goes too.
    "chain_if_empty_body": ("""
def g(a, b, c, log):
    if a < b <= c:
        pass
    log.append(a)
    if a < b < c < 9:
        pass
    elif a:
        log.append(b)
    return log

def f():
    return g(1, 2, 3, []), g(3, 2, 1, []), g(1, 2, 9, [])
""", "f()"),
    # A `break` laid out last in a for body: 3.10/3.11 fall from it (after popping the iterator)
    # into the loop's exit.
    "for_break_falls_into_exit": ("""
def g(items, log):
    for j in items:
        break
    for j in items:
        if j:
            log.append(j)
            break
    for j in items:
        for k in items:
            log.append(k)
            break
        log.append(j)
        break
    log.append('end')
    return log

def f():
    return g([0, 1, 2], []), g([], [])
""", "f()"),
    # A rotated while whose test ends in a comparison chain: the chain's clean-up (a POP_TOP, then
    # the way out) and its jump over it are roles of their own in both copies of the test.
    "while_and_chain": ("""
def g(n, lo, hi):
    while n < 5 and lo < n <= hi:
        n += 1
    return n

def h(n, lo, hi, log):
    while n < 5 and lo < n <= hi:
        n += 1
    log.append(n)
    return log

def f():
    return g(1, 0, 9), g(1, 2, 9), g(6, 0, 9), h(2, 1, 3, [])
""", "f()"),
    # A while body whose with statement always raises: only a suppressed exception goes on, from
    # the handler, to the rest of the body or the repeated test.
    "while_with_raise": (SUPPRESSING_CM + """
def g(n, log):
    while len(log) < n:
        with CM(log, True):
            raise ValueError(1)

def h(n, log):
    while len(log) < n:
        log.append(0)
        with CM(log, True):
            raise ValueError(1)
        log.append(1)
    return log

def k(log):
    try:
        g(3, log)
        while log:
            with CM(log, False):
                raise KeyError(2)
    except KeyError:
        pass
    return log

def f():
    return g(4, []), h(5, []), k([])
""", "f()"),
}
SNIPPETS.update(LOOP_BREAK_CHAIN_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in LOOP_BREAK_CHAIN_SNIPPETS for v in ALL_VERSIONS}


# The same with a runner that turns an exception into its type's name.
SUPPRESSING_CM_AND_RUN = SUPPRESSING_CM + """
def run(f, a):
    log = []
    try:
        r = f(a, log)
    except Exception as e:
        r = type(e).__name__
    return r, log
"""

# More shapes random programs found refused.
FUZZ_SHAPES_SNIPPETS = {
    # `return value` inside a branch of a try/finally or with body whose finally body stores more
    # than once: the value waits below the compiler's copy of the finally body, which is no
    # parallel assignment of it.
    "branch_return_through_finally_stores": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, et, ev, tb):
        self.log.append('exit')

def g(a, x, log):
    try:
        if x: return a
    finally:
        a = 1
        c = 2
        log.append((a, c))
    return log

def h(a, x, log):
    for i in x:
        try:
            if i: return a + i
            if a: break
        finally:
            a = 1
            c = 2
    try:
        try:
            if x: return a
        finally:
            a = 1
            c = 2
    finally:
        a = 5
        x = 6
    with CM(log):
        if a: return a
        a = 3
    return a

def f():
    return g(3, 1, []), g(3, 0, []), h(2, [0, 4], []), h(0, [0], []), h(0, [], [])
""", "f()"),
    # A with statement in a finally body whose __exit__ suppresses an exception: the re-raise that
    # ends the finally body follows the with's clean-up pops (in one block from 3.11 on) and is
    # not __exit__'s (the except clause it was read as swallowed the exception).
    "finally_with_suppressing_exit": (SUPPRESSING_CM_AND_RUN + """
def g(a, log):
    try:
        log.append(a * 2)
    finally:
        with CM(log, True):
            raise ValueError(a)

def h(a, log):
    try:
        log.append(a * 2)
    finally:
        with CM(log, True), CM(log, False):
            log.append(a)
    return log

def f():
    return [run(fn, a) for fn in (g, h) for a in (1, None)]
""", "f()"),
    # A `continue` in a finally body drops the value a `return` in the try body left: refused (the
    # value was computed after the finally body's with statement, or dropped with it).
    "finally_continue_drops_returned_value": (SUPPRESSING_CM_AND_RUN + """
def k(a, log):
    for i in range(3):
        try:
            if a:
                return log.append(a * 2)
        finally:
            with CM(log, True):
                raise ValueError(a)
            continue
    return log

def f():
    return [run(k, a) for a in (1, None)]
""", "f()"),
    # `return value` from an except clause of a try/finally inside a with statement: after
    # POP_EXCEPT the copy of the finally body, then __exit__'s call, then the return. (With code
    # after the with statement 3.12/3.13 are still refused: "code after a try/finally statement
    # that the compiler copied into each path".)
    "clause_return_through_finally_and_with": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('enter')
    def __exit__(self, et, ev, tb):
        self.log.append(et.__name__ if et else None)

def g(a, c, log):
    with CM(log):
        try:
            log.append(1 // a)
        except ZeroDivisionError:
            return c + 1
        finally:
            log.append('finally')

def run(a):
    log = []
    return g(a, 5, log), log

def f():
    return run(0), run(1)
""", "f()"),
    # `return` in a finally body drops the value a `return` in the try body left: the copy's pop
    # of it is no statement (the try body's `return` computed it).
    "finally_return_drops_returned_value": ("""
def f(a, x, log):
    try:
        if x:
            return a
        log.append(x)
    finally:
        if a:
            return 2
    return log

def g(a, log):
    try:
        return a
    finally:
        log.append(a)
        if a:
            return 2

def run(fn, *args):
    log = []
    return fn(*args, log), log

def f2():
    return [run(f, a, x) for a in (0, 1) for x in (0, 1)] + [run(g, a) for a in (0, 1)]
""", "f2()"),
    # A comparison chain as a comprehension's condition: 3.13 leaves the last link's conditional
    # jump and the clean-up's jump back outside the exception table's range around the inlined
    # comprehension (blocks of their own, with no handler).
    "comprehension_chain_condition": ("""
def g(a, xs):
    return [i for i in xs if 0 < a <= 4], [i for i in xs if a and 0 < 4 <= a], {i: a for i in xs if i < a < 9}

def f():
    return [g(a, [1, 2, 7]) for a in (-1, 0, 3, 5, 10)]
""", "f()"),
    # (Found by program_fuzz on 3.8/3.9, reduced: a comparison chain's link that falls into its
    # conditional jump laid out as a block of its own, "control flow the structurer did not cover".)
    "chain_link_falls_into_its_jump": ("""
class CM:
    def __enter__(self):
        return self
    def __exit__(self, *exc):
        return False

def t(v):
    return v

def f4(a, b, c):
    n7 += 1
    n8 = a
    while n8 < 3 and y != y:
        n8 += 1
        with CM(3):
            y -= (lambda q: q + a)(c)
            c = (-sum([x for i in range(1) if i % 2 == 0]))
            y = {i: (i + (-3 if b > c else 6)) for i in range(1)}.get(x, x)
        n9 = a
        while n9 < 3 and (b > b and a < c):
            n9 += 1
            c = sum([(i + c) for i in range(0) if -3 == -3])
        c = a
        c = t((lambda q: q + x)(8))
        for i in [a, b, c]:
            if c < x <= c: return (b & c)
    x = a

def f():
    out = []
    for args in ((0, 1, 2), (1, 0, 3), (2, 2, 2)):
        try:
            out.append(f4(*args))
        except Exception as e:
            out.append(type(e).__name__)
    return out
""", "f()"),
}
SNIPPETS.update(FUZZ_SHAPES_SNIPPETS)
EQUIVALENT_NOW |= {("branch_return_through_finally_stores", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("comprehension_chain_condition", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("chain_link_falls_into_its_jump", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("finally_return_drops_returned_value", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("clause_return_through_finally_and_with", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("finally_with_suppressing_exit", v) for v in ("3.9", "3.10", "3.11", "3.12", "3.13")}  # 3.8: BEGIN_FINALLY

# Shapes whose layout alone does not tell which source the compiler saw (the order of co_consts,
# filled at each constant's first use, may), or that the compiler's copies of short exits blur.
EQ_ORDER_SNIPPETS = {
    # 3.12+: the statement after the try, the clause returning a constant before it loads it: the
    # code after the body is no `else:` (which the compiler would compile before the clause).
    "code_after_try_clause_returns_constant": ("""
def f(x):
    try:
        int(x)
    except (ValueError, TypeError):
        return 'bad'
    return 'good'
""", "[f(v) for v in ('1', 'a', None)]"),
    # 3.10, 3.12+: each side of the clause's if ends with POP_EXCEPT and a copy of `return r`.
    "clause_if_sides_copy_tail": ("""
def f(d, k, n):
    try:
        r = d[k]
    except KeyError:
        if n == 1:
            r = 'one'
        elif n == 2:
            r = 'two'
        else:
            r = n
    return r
""", "[f({1: 'x'}, k, n) for k in (1, 2) for n in (1, 2, 3)]"),
    # 3.11+: `a is None` is a jump on None, as `a is not None` is with the jump's sense flipped, so
    # the test negated as a whole needs no `not` on that comparison (which would fold into the
    # other comparison, `frame is not cur[-2]`).
    "negated_test_with_none_jump": ("""
class Frame:
    def __init__(self, back):
        self.f_back = back

def f(cur, frame, log):
    if cur and frame.f_back is not cur[-2]:
        a, b, c = cur
        if not isinstance(b, int):
            assert b.f_back is frame.f_back, ('bad', a)
            log.append(a)
            assert (cur is None or frame.f_back is cur[-2]), ('bad call', len(cur))
    n = frame.f_back is None
    return n, log

def g():
    p = Frame(None)
    out = [f(None, p, []), f((1, 2, 3), p, [])]
    try:
        f((1, Frame(p), p), Frame(None), [])
    except AssertionError as e:
        out.append(e.args)
    return out
""", "g()"),
    # 3.12+: `if a is b: return x` ending a loop body is `a is b` jumping past the jump back when
    # true; `if not a is b: continue` would fold into `a is not b`.
    "loop_if_return_identity_test": ("""
def f(items, x):
    try:
        return items[x]
    except (KeyError, TypeError):
        for key in items:
            if key is x:
                return key
            if key in x:
                return 'in'
        raise
""", "[f(d, x) for d, x in (({1: 2}, 1), ({'a': 1}, 'xa'))]"),
    # 3.8/3.9 lay out an else clause after the handler, as code after the statement: a clause that
    # never goes on keeps its dead jump to the end of the statement, past the else (g: none).
    "else_after_raising_clause": ("""
def f(x, log):
    try:
        n = x.__index__
    except AttributeError:
        raise TypeError('not an integer')
    else:
        x = n()
        log.append(x)
    return x, log

def g(x, log):
    try:
        n = x.__index__
    except AttributeError:
        raise TypeError('not an integer')
    x = n()
    log.append(x)
    return x, log

def run():
    out = []
    for h in (f, g):
        for v in (3, 'a'):
            try:
                out.append(h(v, []))
            except TypeError as e:
                out.append(str(e))
    return out
""", "run()"),
    # ...and where the else ends the function with a return, the compiler's implicit `return None`
    # stays after it, dead (g, with the return after the statement, has none).
    "else_return_ends_function": ("""
def f(d, k):
    try:
        d[k]
    except KeyError:
        return False
    else:
        return True

def g(d, k):
    try:
        d[k]
    except KeyError:
        return False
    return True
""", "[h({1: 2}, k) for h in (f, g) for k in (1, 2)]"),
    # 3.10 copies the body's way out of the with (its __exit__ call) and the short return after
    # the statement into each path out of the body: those paths fall to the end of the body, the
    # return's call after __exit__ (the log shows the order).
    "with_paths_copy_return_after": ("""
class CM:
    def __init__(self, log):
        self.log = log

    def __enter__(self):
        self.log.append('enter')
        return self

    def __exit__(self, *exc):
        self.log.append('exit')
        return False

    def done(self):
        self.log.append('done')
        return len(self.log)

def f(cm, x, log):
    with cm as c:
        log.append(x)
        if x is not None and isinstance(x, int):
            log.append('int')
    return c.done()

def g(cm, xs, log):
    with cm as c:
        while xs:
            x = xs.pop()
            if x == 3:
                break
            log.append(x)
    return c.done()

def h(cm, xs, log):
    with cm as c:
        for x in xs:
            if x == 3:
                break
            log.append(x)
        else:
            log.append('else')
    return c.done()

def run():
    out = []
    for x in (None, 1, 'a'):
        log = []
        out.append((f(CM(log), x, log), log))
    for fn in (g, h):
        for xs in ([1, 2], [1, 3, 4]):
            log = []
            out.append((fn(CM(log), list(xs), log), log))
    return out
""", "run()"),
    # 3.10+ copy `return 0` into the then-side's jump to it: `if t: A else: B` then the return lays
    # out like `if t: A; return 0` then B and the return; co_consts says which (g had the copy).
    "else_before_copied_return": ("""
class Stats:
    def __init__(self, log):
        self.log = log

    def reverse_order(self):
        self.log.append('reversed')

def f(stats, log):
    if stats:
        stats.reverse_order()
    else:
        log.append('No statistics object is loaded.')
    return 0

def g(stats, log):
    if stats:
        stats.reverse_order()
        return 0
    log.append('No statistics object is loaded.')
    return 0

def h(x, log):
    if x == 1:
        log.append('one')
    elif x == 2:
        log.append('two')
    else:
        log.append(x)
    return 'done'

def run():
    out = []
    for fn in (f, g):
        for with_stats in (True, False):
            log = []
            out.append((fn(Stats(log) if with_stats else None, log), log))
    for x in (1, 2, 3):
        log = []
        out.append((h(x, log), log))
    return out
""", "run()"),
    # 3.12+ copy the function's short end (a call, then `return None`) into both sides of the last
    # if/else; co_names says it was compiled once, after the else side.
    "function_end_copied_into_if_sides": ("""
LOG = []

def mutated():
    LOG.append('mutated')

def f(items, x, append):
    if not append:
        try:
            items.remove(x)
        except ValueError:
            pass
        items.insert(0, x)
    else:
        if x not in items:
            items.append(x)
    mutated()

def run():
    out = []
    for append in (False, True):
        for x in (1, 5):
            items = [1, 2]
            out.append((f(items, x, append), items, len(LOG)))
    return out
""", "run()"),
}
SNIPPETS.update(EQ_ORDER_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in EQ_ORDER_SNIPPETS for v in ALL_VERSIONS}

# 3.8/3.9's peephole threads the jump of `a` in `if a or b: break` through the break to the loop's
# exit; `b` falls into the break itself: both sides reach the same place.
EQ_ORDER_SNIPPETS_2 = {
    "or_break_threaded_to_loop_exit": ("""
def f(resp):
    out = ''
    i = 0
    n = len(resp)
    while i < n:
        c = resp[i]
        i = i + 1
        if c == '"':
            if i >= n or resp[i] != '"':
                break
            i = i + 1
        out = out + c
    return out, i

def g(new, old, stop):
    while 1:
        ctx = new.get('ctx')
        if ctx is old:
            return 'same'
        if ctx is None or ctx is stop:
            break
        new = ctx
    return new.get('name')
""", "[f(s) for s in ('ab\"\"c\"d', 'abc', 'x\"')] + [g(d, 1, 2) for d in ({'ctx': 1}, {'ctx': None, 'name': 'n'}, {'ctx': {'ctx': 2, 'name': 'm'}})]"),
    # 3.10 copies the function's implicit `return None` into each path of a last try/finally's
    # body (before its copy of the finally body): the end of the function, not statements.
    "try_finally_ends_function_copied_returns": ("""
def f(log, x):
    try:
        log.append(10 // x)
    except ZeroDivisionError:
        log.append('zero')
    finally:
        log.append('finally')

def g(log, x):
    try:
        if x:
            log.append(x)
        else:
            log.append('none')
    finally:
        log.append('done')

def run():
    out = []
    for fn in (f, g):
        for x in (0, 2):
            log = []
            out.append((fn(log, x), log))
    return out
""", "run()"),
}
SNIPPETS.update(EQ_ORDER_SNIPPETS_2)
EQUIVALENT_NOW |= {(name, v) for name in EQ_ORDER_SNIPPETS_2 for v in ALL_VERSIONS}

# From random programs (tools/program_fuzz.py, seeds 7100-7150): except clauses that leave a
# try/finally by `return`, `break` or `continue` run the compiler's copy of the finally body after
# POP_EXCEPT. A copy that branches (an assert) was not read as the clause's own tail, nor was the
# unwinding after an empty copy (`finally: pass`), where only the handler covering the code changes;
# both were refused as "except clauses that continue in different places". A loop that starts a
# finally body (3.8/3.9) had its back edge land on the handler's PushExcInfo.
HANDLER_SNIPPETS = {
    "clause_return_through_branching_finally": ("""
def f(log, x, exc):
    try:
        log.append(exc(x))
    except ValueError:
        pass
    except KeyError as e:
        return ('k', x)
    finally:
        assert x, log

def run():
    out = []
    def ok(x):
        return x
    def bad_value(x):
        raise ValueError(x)
    def bad_key(x):
        raise KeyError(x)
    for x in (0, 1):
        for exc in (ok, bad_value, bad_key):
            log = []
            try:
                out.append((f(log, x, exc), log))
            except AssertionError as e:
                out.append(('assert', repr(e), log))
    return out
""", "run()"),
    "clause_continue_through_finally_copy": ("""
def f(log, flag, items):
    if flag:
        return None
    else:
        while items:
            x = items.pop()
            try:
                log.append(10 // x)
            except TypeError:
                log.append('t')
            except ZeroDivisionError:
                continue
            finally:
                log.append('fin')

def run():
    log = []
    f(log, False, [1, 0, 'a', 5])
    return log
""", "run()"),
    "clause_break_return_past_empty_finally": ("""
def f(log, items):
    for x in items:
        try:
            log.append(10 // x)
        except ZeroDivisionError as e:
            break
        except TypeError:
            log.append('t')
        finally:
            pass

def g(log, items):
    for x in items:
        try:
            log.append(10 // x)
        except TypeError:
            log.append('t')
        except ZeroDivisionError as e:
            return log
        finally:
            pass

def run():
    out = []
    for fn in (f, g):
        log = []
        out.append((fn(log, [1, 'a', 0, 5]), log))
    return out
""", "run()"),
    "finally_body_starting_with_loop": ("""
def f(log, x):
    try:
        if x:
            log.append('x')
        else:
            return 'early'
    finally:
        while log and len(log) < 3:
            log.append('fin')

def run():
    out = []
    for x in (0, 1):
        log = []
        out.append((f(log, x), log))
    return out
""", "run()"),
}
# From random programs (seed 7106, 3.9; the same output on every version): a raise after a
# try/finally whose body also leaves by `continue` was printed inside the body, after the normal
# path's copy of the finally body, which then ran twice. Such a raise is outside the finally
# handler's range: it is refused now, as it was for try/except.
HANDLER_SNIPPETS["raise_after_try_finally_left_by_continue"] = ("""
def f(items, c, log):
    for i in items:
        try:
            if c:
                continue
        finally:
            log.append(i)
        raise ValueError(i)

def run():
    log, out = [], []
    try:
        f([1, 2], False, log)
    except ValueError as e:
        out.append(repr(e))
    f([1, 2], True, log)
    return out, log
""", "run()")
# A copy that starts with a loop is reached from its own back edge too, and the compiler copies
# a return or re-raise into the branches that reach it: the copy is matched path for path.
HANDLER_SNIPPETS["clause_return_through_finally_loop"] = ("""
def f(log, x, exc):
    try:
        log.append(exc(x))
    except KeyError:
        if x:
            return ('k', x)
    else:
        log.append('else')
    finally:
        while len(log) < 3:
            log.append('fin')

def run():
    out = []
    def ok(x):
        return x
    def bad_key(x):
        raise KeyError(x)
    for x in (0, 1):
        for exc in (ok, bad_key):
            log = []
            out.append((f(log, x, exc), log))
    return out
""", "run()")
SNIPPETS.update(HANDLER_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in ("clause_return_through_branching_finally", "clause_continue_through_finally_copy",
                                          "clause_break_return_past_empty_finally", "clause_return_through_finally_loop")
                   for v in ("3.8", "3.9", "3.10", "3.11")}
EQUIVALENT_NOW |= {("finally_body_starting_with_loop", v) for v in ALL_VERSIONS}

# From random programs (tools/program_fuzz.py, seeds 5001 and 5025): a raise that runs after
# with statements' __exit__ calls (the compiler copies it, or a finally body raising, there) was
# printed inside their bodies, so __exit__ saw the exception. It is refused now where every path
# to it passes the __exit__ call (or the with's handler, which calls __exit__ too): on 3.12/3.13
# an inlined comprehension's loop or the suppressing handler's jump back lies on the way.
RAISE_AFTER_WITH_EXITS = {
    "seed5001_f_4": ("\n" + FUZZ_PRELUDE + """
def f_4(a, b, c):
    x = a
    y = b
    with CM(9) as w, CM(10):
        with CM(4):
            with CM(8, True):
                y = b
                pass
            if c > b: return max(b, 1, key=lambda v: -v)
            try:
                if (y := 0) > 1: raise ValueError(c)
                x = (len({x for i in range(3)}) * (lambda q: q + 1)(-2))
                if b < y: return len(f'{6}-{c!r:>4}')
            except (ValueError, KeyError) as e:
                t(type(e).__name__)
                if b >= a: raise ValueError(b)
                y = (y | x)
            finally:
                pass
    raise ValueError(c)
    x = sum([(i + (b % b)) for i in range(1) if i % 2 == 0])
    if b >= x:
        return [t(b), sum([(i + a) for i in range(4) if a != 0])][len(f'{x}-{c!r:>4}') % 2]
    x = [(j + t(6)) for i in range(3) for j in range(i) if i % 2 == 1]
    return (x, y, c)
""" + fuzz_run("f_4"), ("3.12", "3.13")),
    "seed5025_f_19": ("\n" + FUZZ_PRELUDE + """
def f_19(a, b, c):
    x = a
    y = b
    try:
        with CM(3):
            n43 = 0
            while n43 < 2 and a != b:
                n43 += 1
                t(x)
                if b >= c: return b
            if y is None: return len(f'{b}-{a!r:>4}')
            n44 = 0
            while n44 < 3 and (7 > c and c > 7):
                n44 += 1
                if b == y: raise ValueError(6)
                if (b == a and b < c): raise ValueError(b)
                x = ([y, a][y % 2] + a)
        for j in (x, y):
            x = len(f'{x}:{y!s}')
        with CM(6, True) as w, CM(7):
            if (x >= 6 or c <= b):
                return y
    finally:
        y = {i: (i + c) for i in range(2)}.get(x, b)
        raise ValueError(b)
    c = (t(6) - (b + b))
    match [x, y, c]:
        case [_, _, p]:
            match b % 3:
                case (0, _):
                    if a == 1:
                        return max([x, b][y % 2], (x | a), key=lambda v: -v)
                    n45 = 0
                    while n45 < 3 and y >= b:
                        n45 += 1
                        y = len(f'{b}-{y!r:>4}')
                    with CM(1) as w:
                        y = sum(y for i in range(0))
                        x = [(j + (y - a)) for i in range(3) for j in range(i) if i % 2 == 1]
                        x = len(f'{x}:{y!s}')
                case _:
                    if t(not b != y):
                        y |= len({(i + y) for i in range(1)})
                        t((-len({(i + c) for i in range(2)})))
                    elif (a > -3 or y != b):
                        y = c
                        y = y
                    with CM(7) as w:
                        x = len(f'{x}:{y!s}')
                        c = t(y)
            t((c + (-a)))
            x, y = max(a, b, key=lambda v: -v), b
        case _:
            assert not a < b, 2
            x += (lambda q: q + y)(1)
    with CM(3) as w:
        if a <= c:
            for j in range(len({(i + c) for i in range(3)}) % 4):
                y = {i: (i + (b << 2)) for i in range(0)}.get(c, a)
                t(max(c, sum([(i + a) for i in range(0) if i % 2 == 0]), key=lambda v: -v))
            else:
                assert t(b <= b), y
            match [x, y, c]:
                case 1 | 2:
                    x = ((y | y) % (lambda q: q + b)(a))
                case 0:
                    c = len({(i + (lambda q: q + b)(9)) for i in range(1)})
                    x, y = (a // 4), (c if x != y else -2)
                case None:
                    y = {i: [x, y][a % 2] for i in range(3)}.get(x, a)
                    y = a
                    x *= (y if x == c else y)
        elif (c != y or x != 8):
            n46 = 0
            while n46 < 2:
                n46 += 1
                t(sum([(i + t(2)) for i in range(4) if i % 2 == 1]))
                y = 9
                if (b >= c and x != a): return (c % x)
            n47 = 0
            while n47 < 4:
                n47 += 1
                c = b
                x, y = max(x, 8, key=lambda v: -v), y
        elif b < x:
            c = x
            if t(c in (a, b)):
                y = [x, len(f'{a}-{a!r:>4}')][(a * c) % 2]
            elif (a <= x and x >= c):
                x = (lambda q: q + (c % -3))((y // a))
            elif y == y:
                raise ValueError(x)
            else:
                c = a
            y = b
        else:
            n48 = 0
            while n48 < 3 and (x < x and x == c):
                n48 += 1
                c = t((y & x))
                if a is None: break
                y = sum((y if -1 < x else -3) for i in range(3))
            try:
                t(((b & b) | (a // b)))
                c = a
            except ZeroDivisionError as e:
                x = [(j + c) for i in range(3) for j in range(i) if i % 2 == 0]
            finally:
                t((sum([5 for i in range(2) if y > x]) | [b, c][b % 2]))
                c = x
            with CM(5):
                y -= [c, x][x % 2]
                if (a != -3 or 5 == c): return (y if a == 1 else b)
                t(c)
        t(max((x * y), (b - a), key=lambda v: -v))
    return (x, y, c)
""" + fuzz_run("f_19"), ("3.10", "3.11", "3.12", "3.13")),
    # The return path's copy of the finally body, after the with's __exit__ calls: 3.12+ inline the
    # comprehension there, whose loop splits the straight code after those calls (and on 3.13 the
    # jump back from the suppressing __exit__ joins the normal path's copy).
    "finally_raise_after_comprehension": ("\n" + FUZZ_PRELUDE + """
def f_1(a, b, c):
    x = a
    y = b
    try:
        with CM(6, True) as w, CM(7):
            if (x >= 6 or c <= b):
                return y
    finally:
        y = {i: (i + c) for i in range(2)}.get(x, b)
        raise ValueError(b)

def f_2(a, b, c):
    try:
        with CM(6, True):
            if c <= b:
                return a
    finally:
        if a:
            t(1)
        raise ValueError(b)
""" + fuzz_run("f_1", "f_2"), ("3.10", "3.11", "3.12", "3.13")),
}


# From random programs (tools/program_fuzz.py, seeds 7200-7229): blocks the structurer reached
# twice. 3.11+ put a NOP for the line of a `try:` where a match statement ends, as they do for a
# final `case _:`; a case body that jumps or falls there shows it is the end of the statement.
REACHED_TWICE_MATCH_SNIPPETS = {
    "match_then_try": ("""
def f(a, log):
    match a:
        case 1:
            log.append(1)
        case [0, _]:
            log.append(2)
    try:
        log.append(10 // a)
    except Exception:
        log.append('e')
    return log

def g(a, log):
    match a:
        case 1 | 2:
            log.append(1)
    try:
        log.append(10 // a)
    except (ZeroDivisionError, TypeError):
        log.append('z')
    return log

def h(a, log):
    match a:
        case 1:
            log.append(1)
        case _:
            try:
                log.append(10 // a)
            except Exception:
                log.append('e')
    return log

def k(a, log):
    match a:
        case 1:
            return 1
        case 2:
            return 2
    try:
        log.append(10 // a)
    except Exception:
        log.append('e')
    return log

def run():
    return [fn(a, []) for fn in (f, g, h, k) for a in (0, 1, 2, [0, 5], 'x')]
""", "run()"),
    # 3.10/3.11 lay out the handlers of a try statement ending a case body after the body's jump
    # past the other cases: that jump is the end of the body.
    "match_case_ends_in_try": ("""
def f(a, log):
    match a:
        case [0, _]:
            try:
                log.append(1)
            finally:
                log.append(2)
        case _:
            log.append(3)
    log.append(4)
    return log

def g(a, log):
    match a:
        case 1:
            log.append(0)
        case [0, _]:
            try:
                log.append(10 // a[1])
            except ZeroDivisionError:
                log.append('z')
        case _:
            log.append(3)
    log.append(4)
    return log

def run():
    return [h(a, []) for h in (f, g) for a in (1, 2, [0, 0], [0, 5])]
""", "run()"),
    # A final `case _: break` in a rotated while (3.11): the failure goes to the NOP for its line
    # and the jump after it, which is the body, not more of the failure's way out.
    "match_default_break": ("""
def f(a, log):
    while a:
        match a:
            case [p, q]:
                log.append(p)
                a = q
            case int(n) if n > 0:
                log.append(n)
                a = n - 1
            case _:
                break
    return log

def run():
    return [f(a, []) for a in (0, 3, [1, 2], [1, [2, 0]], 'x')]
""", "run()"),
    # ...but a jump after the failure's POP_TOP that needs EXTENDED_ARG (dropped too) is still the
    # failure's way to a far `case _` body.
    "match_or_far_default": ("""
def f(a, log):
    match a:
        case 1 | 2:
            log.append(a + 0)
            log.append(a + 1)
            log.append(a + 2)
            log.append(a + 3)
            log.append(a + 4)
            log.append(a + 5)
            log.append(a + 6)
            log.append(a + 7)
            log.append(a + 8)
            log.append(a + 9)
            log.append(a + 10)
            log.append(a + 11)
            log.append(a + 12)
            log.append(a + 13)
            log.append(a + 14)
            log.append(a + 15)
            log.append(a + 16)
            log.append(a + 17)
            log.append(a + 18)
            log.append(a + 19)
            log.append(a + 20)
            log.append(a + 21)
            log.append(a + 22)
            log.append(a + 23)
            log.append(a + 24)
            log.append(a + 25)
            log.append(a + 26)
            log.append(a + 27)
            log.append(a + 28)
            log.append(a + 29)
            log.append(a + 30)
            log.append(a + 31)
            log.append(a + 32)
            log.append(a + 33)
            log.append(a + 34)
            log.append(a + 35)
            log.append(a + 36)
            log.append(a + 37)
            log.append(a + 38)
            log.append(a + 39)
        case _:
            log.append('other')
    return log

def run():
    return [f(a, []) for a in (1, 3)]
""", "run()"),
}
SNIPPETS.update(REACHED_TWICE_MATCH_SNIPPETS)
NEEDS_310 |= set(REACHED_TWICE_MATCH_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in REACHED_TWICE_MATCH_SNIPPETS for v in ("3.10", "3.11", "3.12", "3.13")}

REACHED_TWICE_SNIPPETS = {
    # 3.11 threads the repeated test's way out of a rotated while through the bare jump past the
    # else that the test on top goes to: the place after the if is no copy of the loop's exit.
    "while_chain_test_in_if": ("""
def f(a, y, log):
    if a:
        while y < 4 and a < y <= 9:
            log.append(y)
            y += 1
    else:
        log.append('no')
    return log

def run():
    return [f(a, y, []) for a in (0, 1, 2) for y in (0, 1, 2, 5)]
""", "run()"),
    # 3.8/3.9's peephole threads the end of the innermost if through the bare jump past the else of
    # the middle if (the end of that else) and its else past it: both ways reach the same place.
    "nested_if_else_shared_jump": ("""
def f(a, b, c, log):
    if a:
        if b:
            if c:
                log.append(1)
            else:
                log.append(2)
        else:
            log.append(3)
    else:
        log.append(4)
    return log

def g(a, b, c, log):
    if a:
        if b:
            log.append(0)
        elif c:
            if a > 1:
                log.append(1)
            else:
                log.append(2)
        else:
            log.append(3)
    else:
        log.append(4)
    return log

def run():
    return [h(a, b, c, []) for h in (f, g) for a in (0, 1, 2) for b in (0, 1) for c in (0, 1)]
""", "run()"),
    # ...and where jumps need EXTENDED_ARG (offsets past 255) it leaves the end of an inner if/elif
    # chain a lone jump past the else around it, where the chain's last test jumps past it: the
    # else of that test starts where the chain's end goes.
    "elif_chain_long_shared_jump": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('in')
    def __exit__(self, *exc):
        self.log.append('out')

def h(a, b, c, log):
    log.append(a + 0)
    log.append(a + 1)
    log.append(a + 2)
    log.append(a + 3)
    log.append(a + 4)
    log.append(a + 5)
    log.append(a + 6)
    log.append(a + 7)
    log.append(a + 8)
    log.append(a + 9)
    log.append(a + 10)
    log.append(a + 11)
    if a == 1:
        log.append(0)
    elif a == 2:
        with CM(log):
            log.append(1)
    elif b == 1:
        with CM(log):
            log.append(2)
    elif c in (b, 5):
        if b == 2 or c == 3:
            log.append(3)
        elif b == 3:
            log.append(4)
        elif b == a:
            assert c >= a, log
            log.append(5)
    else:
        log.append(6)
    return log

def run():
    return [h(a, b, c, []) for a in (1, 2, 3) for b in (1, 2, 3) for c in (1, 3, 5)]
""", "run()"),
}
SNIPPETS.update(REACHED_TWICE_SNIPPETS)
EQUIVALENT_NOW |= {(name, v) for name in REACHED_TWICE_SNIPPETS for v in ALL_VERSIONS}

# Where a lone jump's way is not the end of the region it ends (stdlib: platform.win32_ver,
# zipfile.ZipFile.__init__): the end itself is one of the lone jumps passed (the inner try's jump
# to the outer try's exit, 3.8/3.9), or the jump leaves a loop (a `break` after a try statement
# in a loop in an if, 3.11), whatever end the region inside the loop was given.
LONE_JUMP_LIMIT_SNIPPETS = {
    "nested_try_import_else": ("""
def f(ptype):
    try:
        try:
            import winreg
        except ImportError:
            import _winreg as winreg
    except ImportError:
        pass
    else:
        try:
            ptype = winreg.__name__
        except OSError:
            pass
    return ptype

def run():
    return [f('x'), f('y')]
""", "run()"),
    "break_after_try_in_if": ("""
def g(file, modes, modeDict):
    if isinstance(file, str):
        filemode = modes
        while True:
            try:
                fp = [file, filemode, 10 // len(filemode)]
            except ZeroDivisionError:
                if filemode in modeDict:
                    filemode = modeDict[filemode]
                    continue
                raise
            break
    else:
        fp = file
    return fp

def run():
    return [g(a, m, {'': 'r', 'r': 'rb'}) for a in ('f', 3) for m in ('', 'r')]
""", "run()"),
}
SNIPPETS.update(LONE_JUMP_LIMIT_SNIPPETS)
EQUIVALENT_NOW |= {(n, v) for n in ("nested_try_import_else",) for v in ("3.8", "3.9", "3.11")}
EQUIVALENT_NOW |= {("break_after_try_in_if", "3.11")}

# A with statement whose body ends in `continue` or `break` (random programs, seeds 6000-6009):
# the normal path leaves through the __exit__ call to the next iteration or out of the loop, the
# suppressed path goes on to the code after the statement, which only it runs.
WITH_WAY_OUT_SNIPPETS = {
    "with_continue_then_code": (SUPPRESSING_CM_AND_RUN + """
def g(items, log):
    for x in items:
        with CM(log, x % 2 == 1):
            if x > 2:
                raise ValueError(x)
            continue
        log.append(('after', x))
    return len(log)

def h(items, log):
    for x in items:
        if x:
            with CM(log, x % 2 == 1):
                if x > 2:
                    raise ValueError(x)
                continue
            log.append(('after', x))
        else:
            log.append('zero')
    else:
        log.append('done')
    return log

def f():
    return [run(fn, a) for fn in (g, h) for a in ([0, 1, 2, 3, 5], [4, 3])]
""", "f()"),
    # (3.10 and 3.12+ copy the `return n` after the loop into the way out: `return n` in the body.)
    "with_break_then_code": (SUPPRESSING_CM_AND_RUN + """
def g(n, log):
    while n:
        n -= 1
        with CM(log, n % 2 == 0):
            if n == 2:
                raise KeyError(n)
            log.append(n)
            break
        log.append(('after', n))
    return n

def f():
    return [run(g, n) for n in (0, 3, 6)]
""", "f()"),
    # A with statement that ends an except clause (3.13 copies the clause's end, POP_EXCEPT and the
    # jump out, for the suppressed path): both paths meet after it.
    "with_ends_except_clause": (SUPPRESSING_CM_AND_RUN + """
def g(a, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        with CM(log, a == 0):
            log.append(10 // a)
    for i in range(2):
        log.append(i)
    return log

def h(a, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError:
        log.append('clause')
    except TypeError:
        with CM(log, a is None):
            log.append(a + 1)
    else:
        log.append('else')
    finally:
        log.append('finally')

def f():
    return [run(fn, a) for fn in (g, h) for a in (0, 2, None, 'x')]
""", "f()"),
}
SNIPPETS.update(WITH_WAY_OUT_SNIPPETS)
EQUIVALENT_NOW |= {("with_continue_then_code", v) for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("with_break_then_code", v) for v in ("3.8", "3.9", "3.11")}
EQUIVALENT_NOW |= {("with_ends_except_clause", v) for v in ("3.8", "3.9", "3.11", "3.12", "3.13")}

# Finally bodies that never go on (every path returns or raises; the compiler lays out its dead
# code after them all the same), with finally bodies inside: a snippet below, and on 3.8 part of
# FINALLY_38_MORE.
FINALLY_NEVER_GOES_ON = """
def g(a, log):
    try:
        try:
            log.append(a)
        finally:
            return a * 2
    except ZeroDivisionError:
        pass
    finally:
        for i in range(a):
            log.append(i)

def k(a, log):
    try:
        log.append(a)
    finally:
        try:
            log.append(-a)
        finally:
            raise KeyError(a)

def m(a, log):
    try:
        log.append(a)
    finally:
        if a:
            return 1
        raise KeyError(a)

def n(a, log):
    for x in a:
        try:
            log.append(x)
        finally:
            try:
                log.append(-x)
            finally:
                if x:
                    break
            continue
"""

# 3.8's finally subroutines whose body has ways out in an except clause inside it, or that never
# goes on (every path returns or raises, the compiler's dead code after that laid out all the same,
# with finally bodies inside, inlined first).
FINALLY_38_SNIPPETS = {
    "finally_except_clause_ways_out": ("""
def g(a, log):
    try:
        log.append(10 // a)
    finally:
        try:
            log.append(-10 // (a - 1))
        except ZeroDivisionError:
            return 7
        except TypeError as e:
            return str(e)
    return 3

def h(items, log):
    for x in items:
        try:
            log.append(x)
        finally:
            try:
                log.append(10 // (x - 1) + [1][x - 3])
            except ZeroDivisionError:
                continue
            except IndexError:
                break
        log.append('after')
    return log
""" + SUPPRESSING_CM_AND_RUN + """
def f():
    return [run(g, a) for a in (0, 1, 2, 'x')] + [run(h, [0, 1, 2, 3, 5])]
""", "f()"),
    "finally_never_goes_on": (FINALLY_NEVER_GOES_ON + SUPPRESSING_CM_AND_RUN + """
def f():
    return [run(g, 2), run(k, 1), run(m, 0), run(m, 3), run(n, [0, 1, 2])]
""", "f()"),
}
SNIPPETS.update(FINALLY_38_SNIPPETS)
EQUIVALENT_NOW |= {("finally_except_clause_ways_out", v) for v in ("3.8", "3.9")}

# A `return` inside try/finally whose finally body leaves on its own (`return`, or a way out of
# an if in it): the copy of the finally body the return runs drops the returned value before it
# leaves (the value, computed first, may have effects). A finally body that always leaves ends in
# no re-raise: its handler keeps the exception below the body, where an except clause pops it.
FINALLY_DROPS_RETURN_SNIPPETS = {
    "finally_return_drops_value": ("""
def f(a, b):
    try:
        return len(b)
    finally:
        return a

def g(a, b, log):
    try:
        if a:
            return log.append(b)
        log.append(a)
    finally:
        return a

def h(a, b):
    try:
        return a + b
    except TypeError:
        pass
    finally:
        return a

def k(a, b, log):
    try:
        return len(b)
    finally:
        log.append(a)
        return a

def run():
    log = []
    return [f(1, 'ab'), f(2, 3), g(0, 1, log), g(1, 2, log), h(1, 2), h(1, 'x'), k(3, 'abc', log), k(4, None, log), log]
""", "run()"),
    "finally_return_drops_nested": ("""
def f(a, g, log):
    try:
        try:
            return g()
        finally:
            log.append('inner')
    finally:
        return a

def h(a, g, log):
    try:
        try:
            return g()
        finally:
            return a
    finally:
        log.append('outer')

def run():
    log = []
    return [f(1, lambda: 2, log), f(3, lambda: 1 // 0, log), h(4, lambda: 5, log), h(6, lambda: 1 // 0, log), log]
""", "run()"),
    "finally_if_return_drops_value": ("""
def f(a, b, log):
    try:
        return len(b)
    finally:
        if a:
            return a
        log.append(b)

def g(a, b, c):
    try:
        return len(b)
    finally:
        if c:
            return a
        return b

def run():
    log = []
    return [f(0, 'ab', log), f(1, 'ab', log), f(1, 2, log), g(1, 'x', 0), g(1, 'x', 1), g(1, 2, 1), log]
""", "run()"),
    "except_return_drops_value": ("""
def f(a, b):
    try:
        a()
    except ValueError:
        return len(b)
    finally:
        return a

def run():
    def bad():
        raise ValueError
    return [f(bad, 'ab') is bad, f(bad, 3) is bad, f(len, 'x') is len]
""", "run()"),
    # 3.10+ copy the return into each branch of the finally copy's ifs that falls out (an
    # `if a and b:` reads `if a: if b:` there), and into the then-side of an if whose else-side
    # follows it.
    "finally_return_copied_into_ifs": ("""
def f(a, b, c, log):
    try:
        return b
    finally:
        if a:
            if c:
                log.append(c)

def g(a, c, log):
    try:
        if a:
            return 8
        log.append(a)
    finally:
        if a:
            log.append(1)
        elif c:
            log.append(2)
        else:
            log.append(3)

def run():
    log = []
    return [f(a, 5, c, log) for a in (0, 1) for c in (0, 1)] + [g(a, c, log) for a in (0, 1) for c in (0, 1)] + [log]
""", "run()"),
    # A finally body returning a conditional expression: the normal path's copy (3.9+) has the
    # return copied into the jump, `if t: return a` then `return b`, where the handler's keeps it.
    "finally_returns_conditional": ("""
def f(a, b, log):
    try:
        if a:
            return a
        log.append(b)
    finally:
        return b if a else log

def g(a, b, c, log):
    try:
        log.append(a)
    finally:
        if b:
            return a if c else b

def run():
    log = []
    return [f(0, 1, log), f(2, 3, log), g(1, 0, 0, log), g(1, 2, 0, log), g(1, 2, 3, log), len(log)]
""", "run()"),
    # Finally bodies ending in an if with an empty side: the handler's copy reads `if a: pass elif
    # b: pass` as `if a or b: pass`; the normal path's then-side jumps straight to what follows
    # (the function's end, copied in 3.10+, or a loop's next iteration: `if t: continue`).
    "finally_if_pass_copies": ("""
def f(a, b, c, log):
    try:
        log.append(b)
    finally:
        if a:
            pass
        elif c:
            pass

def g(xs, log):
    for x in xs:
        try:
            log.append(x)
        finally:
            if x:
                pass
            else:
                log.append(-1)

def h(n, log):
    while n:
        n -= 1
        try:
            log.append(n)
        finally:
            if n > 2:
                pass
            else:
                log.append(n * 10)
    return n

def run():
    log = []
    return [f(0, 1, 0, log), f(1, 2, 0, log), g([0, 1, 2], log), h(4, log), log]
""", "run()"),
    # A conditional expression in a finally body followed by more code: 3.12+ copy what follows it
    # in the handler (up to the re-raise), 3.10+ the code after the statement in the normal path,
    # into both sides of the split conditional.
    "finally_conditional_then_code": ("""
def f(a, b, log):
    try:
        y = log.append(a)
    finally:
        y = a if a else y
        log.append(b)
    return y

def g(a, b, log):
    try:
        return log.append(a)
    except TypeError:
        pass
    finally:
        b = a if a else log
    return b

def run():
    log = []
    return [f(0, 1, log), f(2, 3, log), g(0, 1, log), g(4, 5, log), log]
""", "run()"),
}
SNIPPETS.update(FINALLY_DROPS_RETURN_SNIPPETS)
EQUIVALENT_NOW |= {(n, v) for n in ("finally_return_drops_value", "finally_return_drops_nested", "finally_return_copied_into_ifs",
                                     "finally_returns_conditional", "finally_if_pass_copies", "finally_conditional_then_code")
                   for v in ALL_VERSIONS}
EQUIVALENT_NOW |= {("finally_if_return_drops_value", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: an else after `return a`
EQUIVALENT_NOW |= {("except_return_drops_value", v) for v in ("3.8", "3.9", "3.11")}  # 3.10, 3.12+: refused (the copy in the else)

# `while` tests that 3.10+ write twice (on top, and again at the end of the body): a comparison
# chain (its first link leaves the shared operand below the tested value; 3.10/3.11 put a jump over
# the chain's clean-up after the repeated test), `and` in a for loop (3.12+ jump back to the for
# from each test on top, and from a bare jump after the repeated one), and a loop ending the
# function whose test jumps out to two copies of `return None` (3.10/3.11: `continue` as the body).
ROTATED_WHILE_TEST_SNIPPETS = {
    "while_chain_test": ("""
def f(a, b, c, log):
    while a < b <= c:
        log.append(a)
        a += 1
    return a, log

def g(xs, lim, log):
    for x in xs:
        while len(log) < lim and 0 <= x < 5:
            log.append(x)
            x += 1
    return log

def k(a, b, log):
    while a < b < 10:
        a += 1
        if a % 2:
            log.append(a)
    log.append(b)
    return log

def run():
    return [f(1, 3, 5, []), f(4, 3, 5, []), g([1, 2, 7], 6, []), k(0, 5, []), k(3, 20, [])]
""", "run()"),
    "while_and_continue_ends_function": ("""
def h(a, stack):
    while a and stack.pop() < 3:
        continue

def run():
    out = []
    for a, stack in ((1, [5, 1, 2]), (0, [1]), (1, [4])):
        out.append((h(a, stack), stack))
    return out
""", "run()"),
}
SNIPPETS.update(ROTATED_WHILE_TEST_SNIPPETS)
EQUIVALENT_NOW |= {("while_chain_test", v) for v in ALL_VERSIONS}
# (3.8/3.9 compile the `continue` as the jump back a `pass` body ends with, to another target.)
EQUIVALENT_NOW |= {("while_and_continue_ends_function", v) for v in ("3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("chain_while", v) for v in ALL_VERSIONS}

# A match case whose body starts with a `while` (3.10+: its test on top jumps where a failed
# pattern goes when the cases after it are empty, as a guard's would, but the loop goes back past
# it), and a for loop's body that is a match whose cases end in `pass` (3.10: the last case's guard
# jumps straight back to the FOR_ITER, which goes on to the next iteration).
MATCH_LOOP_SNIPPETS = {
    "match_case_rotated_while": ("""
def f(a, x, log):
    match a:
        case [0, _]:
            while x:
                x = log.pop()
        case _:
            pass
    log.append(x)
    return log

def run():
    return [f([0, 1], 0, [1]), f([0, 1], 1, [0, 5]), f([1, 1], 1, []), f(3, 1, [])]
""", "run()"),
    "for_body_match_pass_cases": ("""
def g(items, log):
    for a in items:
        match a:
            case [p, q]:
                pass
            case int(p) if log.append(p) or p > 1:
                pass
    return log

def run():
    return g([[1, 2], 3, 0, 'x'], [])
""", "run()"),
}
SNIPPETS.update(MATCH_LOOP_SNIPPETS)
NEEDS_310 |= set(MATCH_LOOP_SNIPPETS)
EQUIVALENT_NOW |= {("match_case_rotated_while", v) for v in ("3.10", "3.12", "3.13")}
EQUIVALENT_NOW |= {("for_body_match_pass_cases", v) for v in ("3.12", "3.13")}
# Decompiled, and computing the same, where the round trip is not equivalent (a regression here is
# a refusal): 3.11 lays out the case's loop and 3.10/3.11 the last case's guard (read as an `if` in
# its body) otherwise.
DECOMPILED_NOW = {("match_case_rotated_while", "3.11"), ("for_body_match_pass_cases", "3.10"),
                  ("for_body_match_pass_cases", "3.11")}
DECOMPILED_NOW |= {("while_true_continue_else_return", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
DECOMPILED_NOW |= {("finally_conditional_value_tail", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
EQUIVALENT_NOW |= {("try_pass_except_star_else_finally", v) for v in ("3.12", "3.13")}
EQUIVALENT_NOW |= {("try_pass_except_finally", v) for v in ("3.8", "3.9", "3.11", "3.12", "3.13")}  # (3.10: g, with an else, refused)
DECOMPILED_NOW |= {("break_in_with_in_loop_that_never_loops", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}
# (Decompiled, not equivalent: see the snippets.)
DECOMPILED_NOW |= {("with_items_continue_ends_loop", v) for v in ("3.9", "3.10", "3.11", "3.12", "3.13")}
DECOMPILED_NOW |= {("async_with_items_continue_ends_loop", v) for v in ("3.8", "3.9", "3.10", "3.11")}
DECOMPILED_NOW |= {("while_break_after_raise", v) for v in ("3.8", "3.9")}  # (an else and a continue where the source has none)
# (With statements: the return of an else clause whose except clause returns read as code after
# the try statement (3.8/3.9, 3.12/3.13), 3.13's `with c as x, b as y` on one line; the same
# outcomes.)
DECOMPILED_NOW |= {("clause_returns_in_withs_in_try_finally", v) for v in ("3.8", "3.9", "3.13")}
DECOMPILED_NOW |= {("try_else_returns_in_nested_withs", v) for v in ("3.8", "3.9", "3.12", "3.13")}

# An if/elif chain in a loop body whose last arm leaves (`continue` through the compiler's copy of
# __exit__, `break`): that arm takes the post-dominator away, past the with body's end or the loop;
# the other arms still meet at the code after the chain, where the region around it ends.
LEAVING_ARM_SNIPPETS = {
    "elif_chain_leaving_arm": ("""
class CM:
    def __init__(self, log):
        self.log = log
    def __enter__(self):
        self.log.append('in')
    def __exit__(self, *exc):
        self.log.append('out')

def f(items, log):
    for a, b in items:
        with CM(log):
            if a:
                log.append(1)
            elif b:
                log.append(2)
            else:
                continue
            log.append(3)
    return log

def g(items, log):
    while items:
        a, b = items.pop()
        if a:
            log.append(1)
        elif b:
            log.append(2)
        else:
            break
        log.append(3)
    return log

def h(items, log):
    while items:
        a, b = items.pop()
        if a:
            if b:
                break
        else:
            log.append(2)
        log.append(3)
    return log

def k(items, log):
    while items:
        a = items.pop()
        if a:
            assert a > 0, a
        elif len(items) > 2:
            log.append(a)
    return log

def run():
    data = [(1, 0), (0, 1), (0, 0), (1, 1)]
    return [f(data, []), g(list(data), []), g(data[:2], []), h(list(data), []), h([(0, 0), (1, 0)], []),
            k([1, 0, 0, 2, 0], [])]
""", "run()"),
}
SNIPPETS.update(LEAVING_ARM_SNIPPETS)

# A with statement whose body ends in a way out (break, continue, return) that is the last
# statement of a loop body or an if branch: __exit__ suppressing an exception goes on where that
# region ends (the next iteration, the code after the if), not through the way out. The cleanup
# ends with its block there, where the normal path goes too; the way out was printed after the
# with statement, which a suppressed exception then ran.
SNIPPETS["with_way_out_ends_region"] = (SUPPRESSING_CM + """
import asyncio

class ACM(CM):
    async def __aenter__(self):
        return self.__enter__()
    async def __aexit__(self, *exc):
        return self.__exit__(*exc)

def loop_break(xs, log):
    for x in xs:
        with CM(log, True):
            log.append(x)
            if x == 0:
                raise ValueError
            break
    return log

def if_return(c, log):
    if c:
        with CM(log, True):
            log.append(c)
            if c > 1:
                raise ValueError
            return 1
    log.append('after')
    return 2

async def async_break(xs, log):
    for x in xs:
        async with ACM(log, True):
            log.append(x)
            if x == 0:
                raise KeyError
            break
    return log

def run():
    out = [loop_break([0, 1, 2], []), asyncio.run(async_break([0, 1], []))]
    for c in (0, 1, 2):
        log = []
        out.append((if_return(c, log), log))
    return out
""", "run()")
EQUIVALENT_NOW |= {("with_way_out_ends_region", v) for v in ALL_VERSIONS}

EQUIVALENT_NOW |= {("elif_chain_leaving_arm", v) for v in ALL_VERSIONS}

# A return inside try/finally runs the compiler's copy of the finally body, laid out after the try
# body: an if in that copy is no part of the body, and its sides meet where the copy goes on (not
# at the end of the try body, where the first if's then-side would take in the rest of the copy).
FINALLY_COPY_IF_SNIPPETS = {
    "finally_copy_two_ifs": ("""
def f(a, b, log):
    try:
        if a:
            return a
        log.append('body')
    finally:
        if b:
            log.append('b')
        if len(log) > 1:
            log.append('long')
    return log

def g(a, b, log):
    try:
        if a:
            return a
    finally:
        x = 'yes' if b else 'no'
        for j in range(a if a else b):
            log.append((x, j))

def run():
    out = []
    for a in (0, 1, 5):
        for b in (0, 1, 4):
            log = []
            out.append((f(a, b, log), log))
            log = []
            out.append((g(a, b, log), log))
    return out
""", "run()"),
}
SNIPPETS.update(FINALLY_COPY_IF_SNIPPETS)
EQUIVALENT_NOW |= {("finally_copy_two_ifs", v) for v in ALL_VERSIONS}

# A case body that goes on by its test's jump (`if t: return`, an assert) before a final `case _`
# whose body falls into the code after the match (or that is empty: the failure goes on there):
# that jump shows where the statement ends.
MATCH_DEFAULT_END_SNIPPETS = {
    "match_default_end_by_test": ("""
def f(items, log):
    for a in items:
        match a:
            case 1 | 2:
                if a == 2:
                    break
            case [x, y]:
                assert x, y
            case _:
                log.append(a)
                if a is None:
                    continue
        log.append('after')
    return log

def g(a, c, log):
    match a:
        case 1 | 2:
            if c:
                return 1
        case _:
            log.append(a)
    log.append(c)
    return log

def h(a, log):
    match a:
        case [p, *rest]:
            if p:
                raise ValueError(p)
        case None:
            return a
        case 1 | 2:
            raise KeyError(a)
        case _:
            pass
    log.append('after')
    return log

def k(items, log):
    while items:
        a = items.pop()
        match a:
            case [p, q]:
                if p:
                    return q
            case [_, _, p]:
                break
            case _:
                pass
        if a:
            log.append(a)
    return log

def m(a, log):
    match a:
        case [_, _, p]:
            if p:
                raise ValueError(p)
        case int(p) if p > 3:
            raise KeyError(p)
        case _:
            pass
    log.append(a)
    return log

def n(a, log):
    match a:
        case [_, _, p]:
            if p:
                return p
        case int(p) if p > 3:
            log.append('big')
        case _:
            log.append('other')
    log.append(a)
    return log

def run():
    out = [f([1, 3, [1, 2], None, 2, 5], []), g(1, 0, []), g(2, 1, []), g(5, 0, [])]
    for a in ([1, 2], [0], [], None, 1, 4, [1, 2, 3], [1, 2, 0], 5, 'x'):
        for fn in (h, m, n):
            try:
                out.append(fn(a, []))
            except Exception as e:
                out.append(repr(e))
    return out + [k([[1, 2, 3], [0, 1], 5, 0], []), k([[1, 9], 3], [])]
""", "run()"),
}
SNIPPETS.update(MATCH_DEFAULT_END_SNIPPETS)
NEEDS_310 |= set(MATCH_DEFAULT_END_SNIPPETS)
EQUIVALENT_NOW |= {("match_default_end_by_test", v) for v in ("3.10", "3.12", "3.13")}  # 3.11: the for loop laid out otherwise

# A match ending an except clause: 3.13 copy the clause's way out (POP_EXCEPT, the jump back to
# the code after the try statement, laid out before the handler) to the end of each case body and
# to the failure of the last case, which is no `case _`.
MATCH_IN_CLAUSE_SNIPPETS = {
    "match_ends_except_clause": ("""
def f(a, log):
    try:
        log.append(10 // a[0])
    except ZeroDivisionError:
        match a:
            case [0, x]:
                log.append(x)
            case [_, _, p]:
                log.append(p)
    except TypeError:
        log.append('type')
    return (len(log), log, a)

def g(a, log):
    try:
        log.append(1 // a)
    except ZeroDivisionError as e:
        match log:
            case []:
                log.append('empty')
    return (len(log), log, a)

def run():
    return [f([0, 5], []), f([0, 1, 2], []), f([0], []), f([2], []), f(['x'], []), g(0, []), g(0, [1]), g(1, [])]
""", "run()"),
}
SNIPPETS.update(MATCH_IN_CLAUSE_SNIPPETS)
NEEDS_310 |= set(MATCH_IN_CLAUSE_SNIPPETS)
EQUIVALENT_NOW |= {("match_ends_except_clause", v) for v in ("3.10", "3.11", "3.12", "3.13")}

# A return inside an except clause of a try statement in a try/finally body: 3.12+ lay the clause's
# way out (POP_EXCEPT, the copy of the finally body, the return of the value computed in the
# clause) after the code after the statement, which also only returns (or goes on into a copy of
# a finally body that branches). That code is the normal exit, not the clause's return.
CLAUSE_RETURN_EXIT_SNIPPETS = {
    "clause_return_through_finally_exit": ("""
def f(a, log):
    if a:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            return str(e)
        finally:
            log.append('finally')
    else:
        log.append('no a')
    return (len(log), log)

def g(a, log):
    try:
        log.append(10 // a)
    except ZeroDivisionError as e:
        return log
    finally:
        log.append('finally')
    return (len(log), a)

def h(items, log):
    for a in items:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            return (log, a)
        finally:
            log.append(a)
    return (len(log), log)

def k(a, log):
    try:
        try:
            return 10 // a
        except ZeroDivisionError:
            pass
    finally:
        log.append('k')
    return (len(log), log)

def m(a, log):
    if a is not None:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            return a
        finally:
            if log:
                log.append('m')
    return log

def run():
    return [f(0, []), f(2, []), f(None, []), g(0, []), g(5, []), h([1, 2, 0, 3], []), h([4], []), k(0, []), k(2, []),
            m(0, []), m(0, [1]), m(5, []), m(None, [])]
""", "run()"),
}
SNIPPETS.update(CLAUSE_RETURN_EXIT_SNIPPETS)
EQUIVALENT_NOW |= {("clause_return_through_finally_exit", v) for v in ALL_VERSIONS}


@pytest.mark.parametrize("name, version", [(n, v) for n in sorted(RAISE_AFTER_WITH_EXITS) for v in RAISE_AFTER_WITH_EXITS[n][1]])
def test_raise_after_with_exits_not_in_body(cli, tmp_path, name, version):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    source = RAISE_AFTER_WITH_EXITS[name][0]
    pyc = tmp_path / "m.pyc"
    compile_pyc(exe, source, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    if "could not decompile f_" in proc.stderr:
        return
    same, err = run_both(exe, source, proc.stdout, "run()")
    assert same == "True", err + proc.stdout


# From a random program (tools/program_fuzz.py, seed 257's module 272, f_13 on 3.10/3.11): a
# try/finally whose finally body raises is printed as try/except/else, and the compiler's copy of
# that body on the way out of a `return` was printed inside the try body, where the except clause
# caught the raise and ran the finally body again. The bytecode's handler does not cover that copy:
# it must be refused (or placed outside the try).
FINALLY_RAISE_COPY = """
T = []
def t(*v):
    T.append(v)
    return v[-1] if v else None

def f_1(a, b, c):
    try:
        for i in range(2):
            if a: return c
        t(2)
    finally:
        t(-1)
        raise ValueError(a)

def f_2(a, b, c):
    x = a
    y = b
    try:
        for i in range(4):
            y |= (x | c)
            if x in (x, a): return c
        if not a < y:
            return x
    finally:
        for j in [a, b, c]:
            t(-1)
        raise ValueError(x)
""" + fuzz_run("f_1", "f_2")


@pytest.mark.parametrize("version", VERSIONS)
def test_finally_raise_copy_not_in_try_body(cli, tmp_path, version):
    pyc = tmp_path / "m.pyc"
    exe = compiled_pyc_or_skip(version, FINALLY_RAISE_COPY, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    if "could not decompile f_" in proc.stderr:
        return
    same, err = run_both(exe, FINALLY_RAISE_COPY, proc.stdout, "run()")
    assert same == "True", err + proc.stdout


# A suppressing with statement inside another with body, its own body never going on: what the
# bytecode has after it (reached only when __exit__ suppresses) goes on past the outer body, whose
# normal exit is then not found. Printed inside the outer body, that code ran before the outer
# __exit__ and the return after it was lost (wrong results); it must be refused or placed right.
SNIPPETS["suppressing_with_leaves_outer_body"] = ("""
class CM:
    def __init__(self, log, tag, suppress=False):
        self.log, self.tag, self.suppress = log, tag, suppress
    def __enter__(self):
        self.log.append(('enter', self.tag))
        return self
    def __exit__(self, *exc):
        self.log.append(('exit', self.tag, exc[0].__name__ if exc[0] else None))
        return self.suppress

def f(a, log):
    with CM(log, 4, True):
        with CM(log, 9):
            raise ValueError(a)
        for i in range(a):
            log.append(i)
    return (lambda q: q + a)(1)

def g(a, log):
    for k in range(2):
        with CM(log, 4, True):
            log.append(k)
            with CM(log, 7):
                raise ValueError(a)
        for i in range(1):
            log.append(('after', i))
    return a

def run():
    out = []
    for fn in (f, g):
        log = []
        out.append((fn(2, log), log))
    return out
""", "run()")


# `break` inside an if in a with statement in a loop, where the code after the loop is short and
# ends the function: 3.10+ copy it after the __exit__ call in place of the jump (3.12+ copy it for
# any break, with its lines); the exception __exit__ suppresses goes on to the next iteration
# (with_break_copies_loop_exit: a with holding only the break). Was refused (a return after the
# with statement's exit printed in its body) on 3.10 and 3.12.
SNIPPETS["with_break_to_copied_loop_exit"] = (SUPPRESSING_CM + """
def only_break(xs, log):
    while xs:
        with CM(log, xs.pop() == 1):
            if len(xs) % 2:
                raise ValueError
            break
    return len(log)

def break_in_if(xs, log):
    while xs:
        with CM(log, xs.pop() == 1):
            if len(xs) == 2:
                break
            log.append(len(xs))
    return len(log)

def for_break_in_if(xs, log):
    for x in xs:
        with CM(log, x == 1):
            if x == 3:
                break
            log.append(x)
    return len(log)

def run():
    out = []
    for fn in (only_break, break_in_if, for_break_in_if):
        for xs in ([], [1], [2, 1], [3, 1, 2], [0, 3, 1, 1], [1, 2, 3, 4, 5]):
            log = []
            try:
                r = fn(list(xs), log)
            except Exception as e:
                r = type(e).__name__
            out.append((r, log))
    return out
""", "run()")
EQUIVALENT_NOW |= {("with_break_to_copied_loop_exit", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: `else:` after the break
# A bare `except: pass` after clauses that match types: its pops of the exception simulate to
# nothing, so nothing is left after the clauses where the re-raise of an unmatched exception would
# be. Was refused (except clauses without a final re-raise) where the code after the statement is
# not copied into it (3.8, 3.9, 3.11, and 3.10/3.13 with a longer tail).
SNIPPETS["bare_except_pass_after_typed_clauses"] = (RAISES_BY_K + """
def last(k, log):
    try:
        h(k)
    except KeyError:
        log.append('key')
    except:
        pass
    log.append('after')
    return log

def both_pass(k, log):
    try:
        h(k)
    except KeyError:
        pass
    except:
        pass
    return k

def in_loop(k, log):
    for i in range(3):
        try:
            h(k + i)
        except KeyError as e:
            log.append(e.args)
        except:
            pass
        log.append(i)
    return log

def nested_in_clause(k, log):
    try:
        h(k)
    except (KeyError, ValueError):
        try:
            h(k - 1)
        except KeyError:
            log.append('inner')
        except:
            pass
    log.append('after')
    return log

def run():
    out = []
    for fn in (last, both_pass, in_loop, nested_in_clause):
        for k in range(4):
            log = []
            out.append((fn(k, log), log))
    return out
""", "run()")
EQUIVALENT_NOW |= {("bare_except_pass_after_typed_clauses", v) for v in ALL_VERSIONS}
# A try statement with several except clauses inside an except clause: 3.13 copies the end of the
# outer clause (`POP_EXCEPT; jump`) into each way out of the inner statement, so its clauses go on
# at copies of the same code (was refused as clauses that continue in different places, or as a
# block reached twice where the sides of a clause test met past the copies).
SNIPPETS["try_in_clause_several_clauses"] = ("""
def h(k):
    if k == 1:
        raise KeyError(k)
    if k == 2:
        raise ValueError(k)
    if k == 3:
        raise TypeError(k)
    return k

def three(k, log):
    try:
        h(k)
    except (ValueError, KeyError):
        try:
            h(k + 1)
        except KeyError:
            log.append(1)
        except ValueError:
            log.append(2)
        except:
            log.append(3)
    log.append('after')
    return log

def in_loop(k, log):
    for i in range(3):
        try:
            h(k + i)
        except (ValueError, KeyError):
            try:
                h(k + i + 1)
            except KeyError:
                log.append(1)
            except TypeError:
                pass
        log.append(i)
    return log

def with_else(k, log):
    try:
        h(k)
    except Exception:
        try:
            h(k + 1)
        except KeyError:
            log.append(1)
        except:
            pass
        else:
            log.append('else')
    log.append('after')
    return log

def run():
    out = []
    for fn in (three, in_loop, with_else):
        for k in range(5):
            log = []
            try:
                out.append(fn(k, log))
            except Exception as e:
                out.append(type(e).__name__)
            out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("try_in_clause_several_clauses", v) for v in ALL_VERSIONS}
# `continue` in an except clause of a try/finally statement in a loop: the clause runs the finally
# body's copy, then jumps to the next iteration. That clause's way on is the `continue` (not where
# the try statement goes on, which the body's normal path shows), and 3.12+ lay it out after the
# body's way out, which is still the statement's normal exit. Was refused (a way out of a
# try/finally statement without the compiler's copy of the finally body) on every version.
SNIPPETS["continue_in_clause_of_try_finally"] = (RAISES_BY_K + """
def after(a, log):
    for x in a:
        try:
            log.append(h(x))
        except KeyError:
            continue
        finally:
            log.append('f')
        log.append(x)
    return log

def last(a, log):
    for x in a:
        try:
            if x == 0:
                continue
            log.append(h(x))
        except KeyError:
            continue
        finally:
            log.append('f')
    return log

def nested(a, log):
    for x in a:
        for y in a:
            try:
                log.append(h(y))
            except KeyError:
                continue
            finally:
                log.append('f')
            log.append(y)
        log.append(x)
    return log

def run():
    out = []
    for fn in (after, last, nested):
        for a in ([], [0], [1], [2], [0, 1, 2, 3], [3, 2, 1, 0]):
            log = []
            try:
                out.append(fn(list(a), log))
            except Exception as e:
                out.append(type(e).__name__)
            out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("continue_in_clause_of_try_finally", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: `last` lays its jumps out otherwise
# A finally body whose last statement holds a conditional expression, left by `break` or
# `continue`: 3.10 and 3.12+ split the handler's copy there (the rest of it copied into both
# sides), while the way out's copy keeps the expression. Was refused (a way out of a try/finally
# statement without the compiler's copy of the finally body) on 3.10, 3.12 and 3.13.
SNIPPETS["conditional_expression_in_finally_way_out"] = ("""
def brk(a, c, log):
    for x in a:
        try:
            if x:
                break
            log.append(x)
        finally:
            log.append(1 if x else c)
    return log

def cont(a, c, log):
    for x in a:
        try:
            if x > 1:
                continue
            log.append(x)
        finally:
            log.append(x if x else c)
        log.append('after')
    return log

def run():
    out = []
    for fn in (brk, cont):
        for a in ([], [0], [1], [2], [0, 1, 2, 3], [3, 2, 1, 0]):
            log = []
            out.append(fn(list(a), 7, log))
            out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("conditional_expression_in_finally_way_out", v) for v in ("3.10", "3.11", "3.12", "3.13")}  # 3.8/3.9: not equivalent
# `return <conditional expression>` inside an if in a try/finally body whose finally body branches
# or loops: the expression's sides meet in the copy of the finally body that the return runs, after
# the body's end; that is where the expression ends, not at the body's normal exit. Was refused (a
# block reached twice) on every version.
SNIPPETS["conditional_expression_returned_through_branching_finally"] = ("""
def branch(a, b, log):
    try:
        if a:
            return a if b else 0
        log.append('body')
    finally:
        if b:
            log.append('finally')

def loop(a, b, log):
    try:
        if a:
            return a if b else 0
    finally:
        for x in b:
            log.append(x)

def clause(a, b, log):
    try:
        if a:
            return a if b else 0
        log.append(1 // len(b))
    except ZeroDivisionError:
        log.append('zero')
    finally:
        if b:
            log.append('finally')

def in_for(a, b, log):
    for x in range(a + 1):
        try:
            if x:
                return x if b else 0
        finally:
            if b:
                log.append(x)
    return log

def run():
    out = []
    for fn in (branch, loop, clause, in_for):
        for a in (0, 3):
            for b in ([], [1, 2]):
                log = []
                out.append(fn(a, b, log))
                out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("conditional_expression_returned_through_branching_finally", v) for v in ALL_VERSIONS}
# A try or with body that never ends normally (it ends in a raise), whose only way out is the
# `return` of a nested if, through the compiler's copy of the clean-up laid out before the raise:
# the ifs meet at the raise, past that way out. Was refused (a block reached twice) on every version.
SNIPPETS["body_ends_in_raise_after_nested_return"] = (NAMED_CM + """
def with_(a, b, log):
    with CM(log, 'w', False):
        if a:
            log.append('a')
            if b:
                return a
        raise KeyError(a)

def try_(a, b, log):
    try:
        if a:
            log.append('a')
            if b:
                return a
        raise KeyError(a)
    finally:
        log.append('finally')

def in_for(a, b, log):
    for x in range(2):
        with CM(log, str(x), False):
            if a:
                log.append(x)
                if b:
                    return a
            raise KeyError(x)

def run():
    out = []
    for fn in (with_, try_, in_for):
        for a in (0, 1):
            for b in (0, 1):
                log = []
                try:
                    out.append(fn(a, b, log))
                except KeyError as e:
                    out.append(repr(e))
                out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("body_ends_in_raise_after_nested_return", v) for v in ALL_VERSIONS}
# `return v` from inside a for loop or a with statement (in an except clause or the body) of a
# try/finally statement: its way out pops the iterator or calls __exit__ and pops the exception,
# leaving the stack of the region the return is in, then runs the copy of the finally body, whose
# statements were refused as below that stack (a statement below the stack of its region, on every
# version).
SNIPPETS["return_from_loop_or_with_through_finally"] = (RAISES_BY_K + NAMED_CM + """
def clause_for(k, a, log):
    try:
        log.append(h(k))
    except KeyError:
        for x in a:
            return x
    finally:
        log.append('finally')

def clause_for_if(k, a, log):
    try:
        log.append(h(k))
    except KeyError:
        for x in a:
            if x:
                return x
    finally:
        if log:
            log.append('finally')

def body_nested_for(k, a, log):
    try:
        for x in a:
            for y in range(x):
                return h(k) + y
    finally:
        log.append('finally')

def clause_with(k, a, log):
    try:
        log.append(h(k))
    except KeyError:
        with CM(log, 'w', False):
            if a:
                log.append(a[0])
            else:
                return log
    finally:
        log.append('finally')

def in_loop(k, a, log):
    for x in a:
        try:
            log.append(h(k))
        except KeyError:
            for y in a:
                return x
        finally:
            log.append(x)

def finally_returns(k, a, log):
    try:
        for x in a:
            return x
    finally:
        if k:
            return 9

def run():
    out = []
    for fn in (clause_for, clause_for_if, body_nested_for, clause_with, in_loop, finally_returns):
        for k in (0, 1, 2):
            for a in ([], [0, 2], [3, 1]):
                log = []
                try:
                    out.append(fn(k, list(a), log))
                except Exception as e:
                    out.append(repr(e))
                out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("return_from_loop_or_with_through_finally", v) for v in ("3.8", "3.9", "3.10", "3.11")}  # 3.12/3.13: clause_for_if's if is `if not x: continue`; 3.13 refuses it
# `else: continue` in a while loop, code after the if: 3.8/3.9 jump from the test straight to the
# loop's header (the `continue` is left dead). The else side is that `continue` where the sides
# meet after the if; it was structured as code from the header (refused: a block reached twice).
SNIPPETS["else_continue_in_while"] = ("""
def f(xs):
    out = []
    i = 0
    while i < len(xs):
        v = xs[i]
        i += 1
        if v > 5:
            out.append('big')
        elif v > 0:
            out.append('small')
        else:
            continue
        out.append(v)
    return out

def g(n, flags):
    out = []
    while n:
        n -= 1
        if flags[n % len(flags)]:
            if n % 2:
                out.append(n)
            else:
                continue
        out.append(-n)
    else:
        out.append('done')
    return out
""", "f([7, 0, 3, -1, 9]), g(7, [1, 0, 1])")
EQUIVALENT_NOW |= {("else_continue_in_while", v) for v in ALL_VERSIONS}
# Ifs that each return in an `except E as e:` clause of a try/finally statement (3.11): neither
# side goes on, and walking through handlers they met at the clause's own clean-up handler (around
# the unbinding of `e`), taken as where the first if ends (refused: a block reached twice).
SNIPPETS["as_clause_ifs_return_in_try_finally"] = (RAISES_BY_K + """
def f(k, a, b, log):
    try:
        log.append(h(k))
    except KeyError as e:
        if a:
            return b
        if b:
            return a
    except ValueError:
        log.append('value')
    finally:
        log.append('finally')

def run():
    out = []
    for k in (0, 1, 2):
        for a, b in ((0, 0), (0, 5), (4, 0)):
            log = []
            out.append(f(k, a, b, log))
            out.append(log)
    return out
""", "run()")
EQUIVALENT_NOW |= {("as_clause_ifs_return_in_try_finally", v) for v in ALL_VERSIONS}
# `if not test: break` in a while loop that ends the body of a for loop (3.12+): the while's exit
# is a bare jump back to the for loop's header, and the break jumps straight there. That side was
# structured as code from the header (refused: a block reached twice).
SNIPPETS["break_from_while_ending_for"] = ("""
def f(items, n, log):
    for j in items:
        while n:
            if not j % n:
                break
            log.append((j, n))
            n -= 1
    return log

def g(items, n, log):
    for j in items:
        k = n
        while k:
            k -= 1
            if not j:
                break
        log.append(k)
    return log

def run():
    return [f([3, 4, 6], 3, []), f([], 2, []), g([0, 1, 2], 2, [])]
""", "run()")
EQUIVALENT_NOW |= {("break_from_while_ending_for", v) for v in ALL_VERSIONS}

# `for y in [f(x)]` after a comprehension's first loop: 3.9+ compile a loop over a one-item list or
# tuple display as an assignment to the loop's target, which was refused (unusual comprehension
# body; 3.12+: an inlined comprehension of an unusual shape; moto's VPCEndPoint.groups). An
# assignment expression's target lives in the enclosing scope and stays one.
SNIPPETS["comprehension_one_item_loop"] = ("""
def pairs(xs, g):
    return [a + b for x in xs for a, b in [g(x)] if a]

def chained(xs):
    return [y + z for x in xs if x for y in [x * 2] for z in [y] if z]

def walrus(xs, g):
    return [y for x in xs if (w := g(x)) for y in [w]], w

def kinds(xs):
    return {y: x for x in xs for y in (x,)}, {y for x in xs for y in [x, x]}, list(y for x in xs for y in [x])

def nested(xs):
    return [[y for y in [x]] for x in xs]

def captured(xs):
    return [f() for x in xs for y in [x] for f in [lambda: y]]

def starred(xs):
    return [(*r,) for x in xs for *r, s in [x]]

ys = [y for x in range(3) for y in [x + 1]]

class K:
    zs = [y for x in range(3) for y in [x + 1]]

def run():
    return [pairs([1, 2], lambda x: (x - 1, x)), chained([0, 1, 2]), walrus([1, 0, 2], lambda x: x * 3), kinds([1, 2]),
            nested([1, 2]), captured([1, 2]), starred([(1, 2, 3)]), ys, K.zs]
""", "run()")
EQUIVALENT_NOW |= {("comprehension_one_item_loop", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A comprehension's condition `a or (b and c)`: 3.12 lays it out as `if not a: if not b: continue;
# if not c: continue` before the element, which was refused (moto, graphql's separate_operations).
SNIPPETS["comprehension_or_of_and_filter"] = ("""
def lists(xs, a, b, c, d):
    return ([x for x in xs if a or (b and (c or d))], [x for x in xs if (a or b) and (c or d)],
            [x for x in xs if not (a and b) or c], [x for x in xs if x is a or (b and c)])

def others(xs, a, b, c):
    return ({x: 1 for x in xs if x is a or (b and c)}, {x for x in xs if x is a or (b and c)},
            list(x for x in xs if x > a or (x < b and x != c)))

def run():
    out = []
    for a in (0, 1):
        for b in (0, 1):
            for c in (0, 1):
                out.append(lists([0, 1, 2], a, b, c, 1 - c))
                out.append(others([0, 1, 2], a, b, c))
    return out
""", "run()")
EQUIVALENT_NOW |= {("comprehension_or_of_and_filter", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A generator expression whose element is None yields the constant, which the generator's code
# printed as a bare `yield`: refused (unusual comprehension body; torch's _memory_profiler).
SNIPPETS["generator_of_none"] = ("""
def nones(xs):
    return tuple(None for _ in xs)

def mutable(flags, t):
    return tuple(flags or (None for _ in t))

def run():
    return [nones([1, 2]), mutable([], 'ab'), mutable([True], 'ab')]
""", "run()")
EQUIVALENT_NOW |= {("generator_of_none", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A comprehension's condition written over several lines: 3.10+ thread a jump to a jump only within
# a line, so the tests of `b and c` jump to the loop's `continue` jump and the last one, on that
# jump's line, to the loop itself; the condition's two sides were not joined and the function was
# refused on 3.10 and 3.11 (unusual comprehension body; torch's quack epi_composable). Printed on
# one line, it is decompiled but not equivalent there.
SNIPPETS["comprehension_condition_over_lines"] = ("""
class Args:
    def __init__(self, feeds, dim):
        self.feeds, self.dim = feeds, dim

def active(ops, args):
    return tuple(
        op
        for op in ops
        if getattr(args, op, None) is not None
        or (
            op == "m"
            and args.feeds
            and args.dim == 0
        )
    )

def run():
    return [active(['feeds', 'm', 'x'], Args(f, d)) for f in (None, 1) for d in (0, 1)]
""", "run()")
EQUIVALENT_NOW |= {("comprehension_condition_over_lines", v) for v in ("3.8", "3.9", "3.12", "3.13")}
DECOMPILED_NOW |= {("comprehension_condition_over_lines", v) for v in ("3.10", "3.11")}

# A guard for the join above: the test's jump to a `break` (a lone jump forward, which other code
# reaches too) stays apart from the inner loop's own test.
SNIPPETS["break_test_beside_loop_test"] = ("""
def nested_break(a, y):
    n = 0
    while a:
        while a:
            a -= 1
            n += 1
            if a < y or a != 9:
                break
    return n

def run():
    return [nested_break(12, 3), nested_break(3, 5), nested_break(0, 1)]
""", "run()")
EQUIVALENT_NOW |= {("break_test_beside_loop_test", v) for v in ("3.10", "3.11", "3.12", "3.13")}
DECOMPILED_NOW |= {("break_test_beside_loop_test", v) for v in ("3.8", "3.9")}  # 3.8/3.9: as nested ifs

# A condition over several lines ending a function, `(a and b) or (c and (d or e))`: 3.10+ give each
# copy of the implicit `return None` the line of the jump it replaces, so the false sides of `c`
# and `e` went to copies of different lines, taken for code of their own; the function was refused
# on 3.10-3.13 (a block reached twice; torch's prune._validate_pruning_amount_init).
SNIPPETS["condition_over_lines_ends_function"] = ("""
def validate(amount, Integral):
    if (isinstance(amount, Integral) and amount < 0) or (
        not isinstance(amount, Integral)
        and (float(amount) > 1.0 or float(amount) < 0.0)
    ):
        raise ValueError(amount)

def run():
    out = []
    for amount in (-1, 0, 3, 0.5, 1.5, -0.5, True):
        try:
            out.append(validate(amount, int))
        except ValueError as e:
            out.append(repr(e))
    return out
""", "run()")
EQUIVALENT_NOW |= {("condition_over_lines_ends_function", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A name a function declares global is stored with STORE_GLOBAL by the module too, which a
# module-level `global` reproduces: it was printed first, before the docstring (then a plain
# store to __doc__, not equivalent) and before `from __future__` imports (a SyntaxError; pyparsing's
# core module, whose _trim_arity declares two globals).
SNIPPETS["module_global_after_docstring_and_future"] = ('''
"""A module."""
from __future__ import annotations
calls = 0

def count():
    global calls
    calls += 1
    return calls

def run():
    return [count(), count(), __doc__]
''', "run()")
EQUIVALENT_NOW |= {("module_global_after_docstring_and_future", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# A `while True` whose only way back is an except clause's `continue` and whose try body returns:
# 3.11+ lay out the rest of the clause (its raise or return), a later clause's test and body, and
# the re-raise of an unmatched exception after the jump back, where they were taken for the code
# after the loop; the unmatched test became a `break` and the function was refused (stack
# underflow, CHECK_EXC_MATCH of an unusual stack; pyparsing's _trim_arity wrapper). Still refused
# on 3.10.
SNIPPETS["while_true_clause_continue_then_leaves"] = ("""
def retry_raise(f, limit, found=False):
    while True:
        try:
            return f(limit)
        except TypeError as te:
            if found:
                raise
            else:
                tb = te.__traceback__
                del tb
                if limit < 3:
                    limit += 1
                    continue
            raise
        except IndexError as ie:
            raise ValueError(limit) from ie

def retry_return(f, n):
    while True:
        try:
            return f(n)
        except TypeError:
            if n < 2:
                n += 1
                continue
            return -n

def retry_after(f, n):
    while True:
        try:
            f(n)
        except TypeError:
            if n < 2:
                n += 1
                continue
            raise
        return n

# (A guard: code after a loop inside an except clause is under the clause's handler too, and
# stays after the loop.)
def loop_in_clause(f, n):
    try:
        return f(n)
    except TypeError as e:
        while n < 3:
            n += 1
        else:
            n += 10
        for j in range(n):
            n += j
    except:
        pass
    return n

def g(n):
    if n < 2:
        raise TypeError(n)
    if n == 5:
        raise IndexError(n)
    return n * 10

def h(n):
    raise TypeError(n)

def run():
    out = []
    for fn in (retry_raise, retry_return, retry_after, loop_in_clause):
        for f, n in ((g, 0), (g, 5), (h, 0), (g, 3)):
            try:
                out.append(fn(f, n))
            except Exception as e:
                out.append(repr(e))
    return out
""", "run()")
EQUIVALENT_NOW |= {("while_true_clause_continue_then_leaves", v) for v in ("3.8", "3.9", "3.11", "3.12", "3.13")}

# A `while test:` body that goes back only by `continue` and otherwise returns (a search loop:
# if n in seen: continue / ... / return n): the code after the continue is laid out after the jump
# back, before the loop's exit, and was not taken for the body's; refused on every version (a
# block reached twice; torch's decomp_comms.find_all_gather_ancestor).
SNIPPETS["while_continue_otherwise_returns"] = ("""
def first_new(queue, seen, bump):
    while queue:
        n = queue.pop()
        if n in seen:
            continue
        entry = n
        if bump(n):
            entry = n + 1
        return entry
    return None

# (A guard: a break still leaves the loop past its else.)
def first_small(queue, seen):
    while queue:
        n = queue.pop()
        if n in seen:
            continue
        if n > 5:
            break
        return n
    else:
        return -1
    return -2

def run():
    odd = lambda n: n % 2
    return [first_new([1, 2, 3], {3}, odd), first_new([4, 3], {3}, odd), first_new([3], {3}, odd),
            first_small([1, 9], {3}), first_small([3, 2], {3}), first_small([3], {3})]
""", "run()")
EQUIVALENT_NOW |= {("while_continue_otherwise_returns", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

# Docstrings are written as the triple-quoted blocks of the source (they were one-line literals
# with \n escapes), and still read back as the same constants: 3.13 strips their indentation, so
# there the later lines are indented with the body again.
SNIPPETS["docstring_blocks"] = ('''
"""Module doc.

    Indented line.
"""

def plain():
    """Summary line.

    Body with 'quotes', "more quotes", a \\\\ and \\t escapes,
        deeper indentation.
    """
    return 1

class Box:
    """One line."""

    def method(self):
        """
        After the opening line.

        """
        return 2

def run():
    return [__doc__, plain.__doc__, Box.__doc__, Box.method.__doc__, plain(), Box().method()]
''', "run()")
EQUIVALENT_NOW |= {("docstring_blocks", v) for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}

@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(EQ_ORDER_SNIPPETS))
def test_tables_in_source_order(cli, tmp_path, version, name):
    """`uncompile verify` also compares co_consts and co_names, whose order tools/roundtrip_check.py
    leaves out: where the layout is ambiguous, that order picks the source."""
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    pyc = tmp_path / ("%s.pyc" % name)
    compile_pyc(exe, EQ_ORDER_SNIPPETS[name][0], pyc)
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_never_silently_wrong(cli, tmp_path, version, name):
    """Output is either equivalent (and computes the same) or an explicit, loud refusal."""
    exe, source, call, proc = decompile_and_check(cli, tmp_path, version, name)
    decompiled = proc.stdout
    if proc.returncode != 0:
        assert "could not decompile" in proc.stderr, proc.stderr
        assert "uncompile could not decompile" in decompiled
        compile(decompiled, "<decompiled>", "exec")
        assert (name, version) not in EQUIVALENT_NOW | DECOMPILED_NOW, "regression:\n" + proc.stderr
        return
    verdicts = verify(exe, tmp_path / ("%s.pyc" % name), decompiled, tmp_path)
    assert all(v["level"] != "failed" for v in verdicts), verdicts
    if call:
        same, err = run_both(exe, source, decompiled, call)
        assert same == "True", "results differ on %s:\n%s\n--- decompiled ---\n%s" % (version, err, decompiled)
    bad = [v for v in verdicts if v["level"] != "equivalent"]
    if (name, version) in EQUIVALENT_NOW:
        assert not bad, "no longer equivalent on %s:\n%s\n--- decompiled ---\n%s" % (version, bad, decompiled)


# A chain of 40 elifs whose branches each start with a test that raises (torch's
# GuardBuilder.get_guard_manager_from_source has some 50): the condition probes' records of what they
# read doubled at each branch, 24 GB before the fix. Decompiled within 1 GB of address space.
ELIF_CHAIN_OF_GUARDED_BRANCHES = "def f(self, source, T):\n    base = self.get(source)\n" + "".join(
    "    %s istype(source, T[%d]):\n        if not base:\n            raise AssertionError('m%d')\n"
    "        out = base.m%d(source=source)\n" % ("if" if i == 0 else "elif", i, i, i) for i in range(40)
) + "    else:\n        raise AssertionError('no')\n    return out\n"


# A chained assignment to 2,000 names (CPython's test_traceback has one of 800): COPY 1; STORE
# pairs, each of which the match decoder read as the start of a match statement, the next pair as
# an or-pattern in it: cubic time (800 names: 26 s) before. The timeout only guards against a hang.
LONG_CHAINED_ASSIGNMENT = "def f():\n    " + " = ".join("a%d" % i for i in range(2000)) + " = None\n    return a7\n"


# Strings with backslashes are written as raw literals where one spells the same value (regular
# expressions, Windows paths), and as escaped ones where none does: a quote of each kind, a
# character that needs an escape, an odd run of backslashes at the end.
RAW_STRINGS = r"""
import re
WORD = re.compile(r'\b\w+\b')
PATH = r'C:\Users\x'
EVEN_END = r'ends\\'
BOTH = 'it\'s \\ "q"'
ODD_END = 'odd\\'
TAB = 'tab\t\\'
PLAIN = 'no backslash'
"""
RAW_STRINGS_WRITTEN = [r"WORD = re.compile(r'\b\w+\b')", r"PATH = r'C:\Users\x'", r"EVEN_END = r'ends\\'",
                       r"""BOTH = 'it\'s \\ "q"'""", r"ODD_END = 'odd\\'", r"TAB = 'tab\t\\'", "PLAIN = 'no backslash'"]


def written_and_verified(cli, tmp_path, version, source, lines):
    """Decompiles `source` compiled by `version`'s interpreter with the CLI; checks that each of
    `lines` is a line of the output and that `uncompile verify` finds every code object
    equivalent. Returns the output and verify's stdout."""
    pyc = tmp_path / "module.pyc"
    compiled_pyc_or_skip(version, source, pyc)
    out = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=120).stdout
    for line in lines:
        assert line in out.splitlines(), (line, out)
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0 and "0 not equivalent" in proc.stdout, proc.stdout + proc.stderr
    return out, proc.stdout


@pytest.mark.parametrize("version", VERSIONS)
def test_backslashes_written_as_raw_strings(cli, tmp_path, version):
    _, verdicts = written_and_verified(cli, tmp_path, version, RAW_STRINGS, RAW_STRINGS_WRITTEN)
    assert "1 equivalent" in verdicts, verdicts


@pytest.mark.parametrize("version", VERSIONS)
def test_long_chained_assignment_is_read_once(cli, tmp_path, version):
    pyc = tmp_path / "chain.pyc"
    compiled_pyc_or_skip(version, LONG_CHAINED_ASSIGNMENT, pyc)
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "f (line 1): equivalent" in proc.stdout, proc.stdout


@pytest.mark.parametrize("version", VERSIONS)
def test_long_elif_chain_of_guarded_branches_stays_small(cli, tmp_path, version):
    import resource
    pyc = tmp_path / "chain.pyc"
    compiled_pyc_or_skip(version, ELIF_CHAIN_OF_GUARDED_BRANCHES, pyc)

    def limit():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
    proc = subprocess.run([cli, "verify", str(pyc)], capture_output=True, text=True, timeout=120, preexec_fn=limit)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "f (line 1): equivalent" in proc.stdout, proc.stdout


# A constant the printer cannot spell ((nan+nanj), which the compiler folds from 1e309j * 0) refuses
# the function holding it, not the module: the other definitions still come back.
UNPRINTABLE_IN_MODULE = """
def f():
    return 1e309j * 0

def g(x):
    return f'{x!r:>{x}}' + str(x)

class C:
    def h(self):
        return 1e309j * 0

    def k(self):
        return 2
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_unprintable_function_refused_alone(cli, tmp_path, version):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    pyc = tmp_path / "m.pyc"
    compile_pyc(exe, UNPRINTABLE_IN_MODULE, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1, proc.stderr
    assert "could not decompile f (line 2): a complex constant" in proc.stderr
    assert "h (line 9): a complex constant" in proc.stderr  # qualified as C.h from 3.11 on
    assert "def g(x):\n    return f'{x!r:>{x}}' + str(x)" in proc.stdout
    assert "def k(self):\n        return 2" in proc.stdout
    compile(proc.stdout, "<decompiled>", "exec")


@pytest.mark.parametrize("name, version", [(n, v) for n in sorted(UNSUPPORTED_YET) for v in UNSUPPORTED_YET[n][1]])
def test_unsupported_constructs_fail_loudly(cli, tmp_path, version, name):
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    source, _ = UNSUPPORTED_YET[name]
    pyc = tmp_path / ("%s.pyc" % name)
    compile_pyc(exe, source, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    if proc.returncode == 0:
        pytest.fail("expected an explicit failure while %s is unsupported; got:\n%s" % (name, proc.stdout))
    assert "could not decompile f" in proc.stderr
    assert "raise RuntimeError('uncompile could not decompile f" in proc.stdout
    compile(proc.stdout, "<decompiled>", "exec")  # still valid Python

EQUIVALENT_NOW |= {(name, v) for name in ("walrus_short_circuit", "walrus_while", "walrus_comprehension",
                                           "walrus_nested_and_values", "walrus_scopes",
                                           "walrus_comprehension_scopes")
                   for v in ("3.8", "3.9", "3.10", "3.11", "3.12", "3.13")}



PATCH_CELL_LOAD = r'''
import dis, importlib._bootstrap_external as ext, sys
src = "def f(x):\n    scale = x\n    def apply(y):\n        return y * scale\n    return log.g((scale,))\n"
module = compile(src, "cell_as_value.py", "exec")
f = next(c for c in module.co_consts if hasattr(c, "co_code"))
code = bytearray(f.co_code)
loads = [i for i in dis.get_instructions(f) if i.opname == "LOAD_DEREF" and i.argval == "scale"]
assert len(loads) == 1, loads
code[loads[0].offset] = dis.opmap["LOAD_FAST"]  # same slot: the cell itself, as 3.13's LOAD_CLOSURE
consts = tuple(f.replace(co_code=bytes(code)) if c is f else c for c in module.co_consts)
sys.stdout.buffer.write(ext._code_to_timestamp_pyc(module.replace(co_consts=consts)))
'''


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_cell_loaded_with_load_fast_is_not_its_value(version):
    # 3.11+ keeps cells in the fast-local slots and 3.13 compiles LOAD_CLOSURE to LOAD_FAST: a cell
    # so loaded and passed on (rewritten bytecode does) is the cell; printed as `scale` it would
    # pass the value. It is spelled `(lambda: scale).__closure__[0]`, which that version runs.
    import uncompile
    exe = interpreter(version)
    if exe is None:
        pytest.skip("Python %s is not installed (pyenv)" % version)
    pyc = subprocess.run([exe, "-c", PATCH_CELL_LOAD], capture_output=True, check=True).stdout
    source = str(uncompile.decompile(pyc))
    assert "log.g(((lambda: scale).__closure__[0],))" in source, source
    run = ("import sys\nclass Log:\n    def g(self, cells):\n        self.cells = cells\nlog = Log()\n" + source +
           "\nf(3)\nprint(type(log.cells[0]).__name__, log.cells[0].cell_contents)\n")
    out = subprocess.run([exe, "-c", run], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["cell", "3"], out
    # and the value-flow check (run by that interpreter, on its bytecode) takes the two as the same
    check = ("import importlib.util, marshal, sys, types\n"
             "spec = importlib.util.spec_from_file_location('value_flow', sys.argv[1])\n"
             "vf = importlib.util.module_from_spec(spec); spec.loader.exec_module(vf)\n"
             "def f_of(module): return next(c for c in module.co_consts if isinstance(c, types.CodeType))\n"
             "original = f_of(marshal.loads(sys.stdin.buffer.read()[16:]))\n"
             "decompiled = f_of(compile(sys.argv[2], 'decompiled', 'exec'))\n"
             "print(vf.same_value_flow(original, decompiled, lambda name: name == 'log'))\n")
    out = subprocess.run([exe, "-c", check, os.path.join(ROOT, "python", "uncompile", "_value_flow.py"), source],
                         input=pyc, capture_output=True, check=True).stdout.decode()
    assert out.startswith("(True"), out


# 3.8 compiles the dead code after a return, raise, break or continue that ends a finally body
# (the fuzzer's programs have much of it): its END_FINALLY lies past that code, where the finally
# pass did not look (refused as "BEGIN_FINALLY is not supported yet"). Decompiled now, without
# the dead code (so not equivalent), doing the same.
FINALLY_DEAD_CODE = """
def f(log, items):
    for x in items:
        try:
            log.append(x)
        finally:
            continue
            assert x, log
    return log

def g(log, x):
    try:
        log.append(x)
    finally:
        raise ValueError(x)
        log.append('dead')

def run():
    out = [f([], [1, 2])]
    try:
        g([], 3)
    except ValueError as e:
        out.append(repr(e))
    return out
"""



# More of 3.8's finally subroutines the finally pass left (random programs, seeds 5000-6009): a
# with or try statement in dead code after a return (all its markers unreached: that code goes),
# a finally body whose `return` follows a `break` (dead, found through the dead code), a return
# whose way out runs an outer finally body holding a loop with a branch back to its head, and
# finally bodies that never go on with finally bodies inside. Decompiled now (without the dead
# code, so not all equivalent), doing the same.
FINALLY_38_MORE = """
def dead_with(log, a):
    log.append(a)
    return a
    with a:
        log.append('dead')

def dead_try_in_loop(log, items):
    for x in items:
        log.append(x)
        return x
        try:
            log.append('dead')
        except ValueError:
            pass
        finally:
            continue

def break_then_dead_return(log, items):
    try:
        log.append(len(items))
    finally:
        for x in items:
            log.append(x)
            break
            return x
    return log

def return_through_loop_finally(log, a):
    try:
        try:
            log.append(10 // a)
        except ZeroDivisionError as e:
            log.append('zero')
        else:
            log.append('else')
        finally:
            return a
    finally:
        for i in range(3):
            if i:
                log.append(i)

""" + FINALLY_NEVER_GOES_ON + """
def run():
    out = []
    for fn, args in ((dead_with, ([], 1)), (dead_try_in_loop, ([], [1, 2])), (break_then_dead_return, ([], [3, 4])),
                     (return_through_loop_finally, ([], 0)), (return_through_loop_finally, ([], 2)),
                     (g, (2, [])), (k, (1, [])), (n, ([0, 1, 2], []))):
        try:
            out.append(fn(*args))
        except Exception as e:
            out.append(repr(e))
        out.append(args)
    return out
"""


# 3.8's finally subroutines around dead code (FINALLY_DEAD_CODE) and the shapes above: decompiled,
# and doing the same.
@pytest.mark.parametrize("source", [FINALLY_DEAD_CODE, FINALLY_38_MORE], ids=["dead_code", "more"])
def test_finally_subroutines_38(cli, tmp_path, source):
    exe = interpreter("3.8")
    if exe is None:
        pytest.skip("Python 3.8 is not installed (pyenv)")
    pyc = tmp_path / "m.pyc"
    compile_pyc(exe, source, pyc)
    proc = subprocess.run([cli, str(pyc)], capture_output=True, text=True, timeout=60)
    assert "could not decompile" not in proc.stderr, proc.stderr
    same, err = run_both(exe, source, proc.stdout, "run()")
    assert same == "True", err + proc.stdout



# Long text of several lines comes back as the triple-quoted block it was written as (its lines at
# the left margin where the text has none: indentation inside the quotes is part of the value);
# short text with a newline or two, and text with control characters, stays on one line.
MULTILINE_STRINGS = r'''
import re
USAGE = "usage: prog [options]\n\nOptions:\n  -h  show this help\n  -v  verbose\n"
PATTERN = re.compile(r"""
    (?P<name>\w+)   # a name
    \s*=\s*
    (?P<value>.*)   # its value
""", re.VERBOSE)
SHORT = "a\nb\n"
BELL = "first line of a long text\nsecond line of it\n\athird\n"
QUOTES = 'a long text with """ three quotes\nand a second line\nand a "third"'


def message(name):
    return "Dear %s,\n    thank you for your letter.\n    Kind regards\n" % name


class Template:
    def render(self):
        return """<html>
  <body>
    <p>text</p>
  </body>
</html>"""
'''
MULTILINE_STRINGS_WRITTEN = ['USAGE = """usage: prog [options]', 'PATTERN = re.compile(r"""', "SHORT = 'a\\nb\\n'",
                             "BELL = 'first line of a long text\\nsecond line of it\\n\\x07third\\n'",
                             '    return """Dear %s,', '        return """<html>', '  <body>']
MULTILINE_VALUES = r'''
import sys
spaces = [{}, {}]
for source, space in zip(sys.argv[1:3], spaces):
    exec(compile(open(source).read(), source, "exec"), space)
for space in spaces:
    space["message()"] = space["message"]("X")
    space["render()"] = space["Template"]().render()
names = ["USAGE", "SHORT", "BELL", "QUOTES", "message()", "render()"]
assert [spaces[0][n] for n in names] == [spaces[1][n] for n in names], "values differ"
assert spaces[0]["PATTERN"].pattern == spaces[1]["PATTERN"].pattern
print("same values")
'''


@pytest.mark.parametrize("version", VERSIONS)
def test_multiline_strings_written_as_blocks(cli, tmp_path, version):
    out, _ = written_and_verified(cli, tmp_path, version, MULTILINE_STRINGS, MULTILINE_STRINGS_WRITTEN)
    exe = interpreter(version)
    (tmp_path / "original.py").write_text(MULTILINE_STRINGS)
    (tmp_path / "decompiled.py").write_text(out)
    proc = subprocess.run([exe, "-c", MULTILINE_VALUES, str(tmp_path / "original.py"), str(tmp_path / "decompiled.py")],
                          capture_output=True, text=True, timeout=120)
    assert proc.stdout.strip() == "same values", proc.stdout + proc.stderr


# Tuples as the value of a return, yield or assignment are written without parentheses, as people
# write them; elsewhere (and with a starred item, which 3.8 refuses bare after `+=`) they keep them.
BARE_TUPLES = """
def f(a, b):
    x = a, b
    x += 1, 2
    y = (*a, b)
    for i in (1, 2):
        pass
    z = [(a, b)]
    w = (a,)
    v = yield a, 1
    return x, (y, z), w, v, a[1, 2]
"""
BARE_TUPLES_WRITTEN = ["    x = a, b", "    x += 1, 2", "    y = (*a, b)", "    for i in (1, 2):", "    z = [(a, b)]",
                       "    w = (a,)", "    v = (yield a, 1)", "    return x, (y, z), w, v, a[1, 2]"]


@pytest.mark.parametrize("version", VERSIONS)
def test_tuples_written_bare_where_people_write_them(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, BARE_TUPLES, BARE_TUPLES_WRITTEN)


# `if a: assert b` with b an `in`/`is` comparison: as one assert (`assert not (a and not b)` or
# `assert not a or b`) the optimizer folds a `not` into `not in`, another instruction; the `if`
# around the assert is the only spelling with the original's jumps.
GUARDED_ASSERTS = """
def f(d, valid):
    if "Version" in d:
        assert d["Version"] in valid
    return d


def g(d, x, y):
    if d and x is not None:
        assert y in d, "missing"
    if x:
        assert y is None
    return 1
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_assert_under_an_if_keeps_its_comparison(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, GUARDED_ASSERTS,
                         ["    if 'Version' in d:", "        assert d['Version'] in valid"])


# A try statement whose `else:` leaves (raise, return) while the except clauses go on: 3.8/3.9
# jump from the clauses past the else clause to the code after the statement. A bare
# `return <constant>` there (the function's own end, or a written return) is that code, not a
# return inside the clauses. 3.10 copies it into each clause instead, where it compiles like a
# return written there: its constant, entered after the else clause's, says which it is.
TRY_ELSE_LEAVES = """
def close(gen):
    try:
        gen.throw(GeneratorExit)
    except (GeneratorExit, StopIteration):
        pass
    else:
        raise RuntimeError("generator ignored GeneratorExit")


def pick(f):
    try:
        f()
    except ValueError:
        pass
    else:
        return 5
"""

TRY_ELSE_LEAVES_THEN_RETURN = """
def g(x):
    try:
        a = int(x)
    except ValueError:
        pass
    else:
        raise RuntimeError(a)
    return 2
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_try_else_that_leaves_stays_an_else(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, TRY_ELSE_LEAVES,
                         ["    except (GeneratorExit, StopIteration):", "        pass", "    else:",
                          "        raise RuntimeError('generator ignored GeneratorExit')", "        return 5"])


@pytest.mark.parametrize("version", VERSIONS)
def test_try_else_that_leaves_before_a_return(cli, tmp_path, version):
    # (3.12+ copy `return 2` into the clause too, and compile the else clause before the clauses:
    # there a return written in the clause is the same code, and nothing tells them apart.)
    upto_311 = ["        pass", "    return 2"] if version in ("3.8", "3.9", "3.10", "3.11") else []
    written_and_verified(cli, tmp_path, version, TRY_ELSE_LEAVES_THEN_RETURN,
                         ["    except ValueError:", "    else:", "        raise RuntimeError(a)"] + upto_311)


# 3.12+ write a loop's `if test: <rest of the body>` as a jump over a jump back. Each test of a
# compound condition gets one, of either polarity; read alike (in a generator function too, whose
# jumps back the StopIteration guard does not cover), they are one condition. A lone
# `if s in chars: continue` stays one: folded, it would need `not (s in chars)`.
LOOP_CONDITION_AROUND_REST = """
def fields(self, exclude=None, only=None):
    for name in self.fields:
        if (
            (exclude is None and only is None)
            or (exclude is not None and name not in exclude)
            or (only is not None and name in only)
        ):
            try:
                yield name, getattr(self, name)
            except AttributeError:
                pass


def visit(self, out, only):
    for name in self.fields:
        if only is not None and name in only:
            out(name)


def check(subscripts, symbols):
    for s in subscripts:
        if s in '.,->':
            continue
        if s not in symbols:
            raise ValueError(s)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_loop_condition_around_the_rest_of_the_body(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, LOOP_CONDITION_AROUND_REST,
                         ["        if exclude is None and only is None or exclude is not None and name not in exclude "
                          "or only is not None and name in only:",
                          "        if only is not None and name in only:",
                          "        if s in '.,->':", "            continue"])


# Finally bodies with loops, on every way out. A `break` out of a loop of the copy on the normal
# path, where the statement ends the function, jumps to the return after it: 3.10+ copy that
# return there. And 3.12+ leave the jump back of a loop test uncovered by the exception table in
# the finally body's exceptional copy too (covered by the clean-up handler around it).
FINALLY_LOOPS = """
def drain(a):
    try:
        a()
    except ValueError:
        return a
    finally:
        while a:
            if a.pop():
                break


def walk(a):
    try:
        return a
    finally:
        for j in a:
            while j:
                j = j.next


def each(a):
    try:
        a()
    except ValueError:
        return a
    finally:
        for j in a:
            while j:
                j = j.next
"""


@pytest.mark.parametrize("version", [pytest.param(v, marks=pytest.mark.xfail(
    v == "3.9", strict=True, reason="3.9's peephole turns the break's jump to the clause's return into that return: "
                                    "the clause's way out through the copy is not matched yet")) for v in VERSIONS])
def test_finally_bodies_with_loops_on_every_way_out(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, FINALLY_LOOPS,
                         ["            if a.pop():", "                break", "        for j in a:", "            while j:"])


# A try/finally whose body is a try statement that never goes on normally (its body and its
# clauses' inner statements raise) but whose outer clause does: the way on out of that clause is
# the finally body's normal way out, reached only through the clean-up handler of the inner
# clause (3.11+ exception tables).
FINALLY_AFTER_RAISING_CLAUSES = """
def convert(x):
    try:
        try:
            raise ValueError(x)
        except ValueError:
            raise KeyError(x)
    except KeyError:
        x = 3
    finally:
        x = 5
    return x
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_finally_after_a_try_whose_clauses_raise(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, FINALLY_AFTER_RAISING_CLAUSES,
                         ["    except KeyError:", "        x = 3", "    finally:", "        x = 5", "    return x"])


# A finally body `if t: raise` then more statements: 3.12+ lay out the normal path's copy with
# the rest as the if's `else:` (its jump goes past the raise), one statement where the handler's
# copy has two.
FINALLY_RAISE_THEN_MORE = """
def f(a, b, c):
    try:
        pass
    except ZeroDivisionError as e:
        try:
            pass
        finally:
            if a:
                raise a
            x = a
    except ValueError as e:
        pass
    return (x, b, c)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_finally_body_raising_under_an_if_then_going_on(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, FINALLY_RAISE_THEN_MORE,
                         ["            if a:", "                raise a", "            x = a"])


# A while loop whose test holds a short-circuit inside an operand after its first test
# (`while b and a[post or None]:`, traceback._levenshtein_distance): 3.10+ repeat the test at the
# bottom, where the `or` jumps as it does on top.
WHILE_TEST_WITH_INNER_SHORT_CIRCUIT = """
def trim(a, b, post):
    while b and a[post or None]:
        post -= 1
    return post


def trim2(a, b, post):
    while a[:post or None] and b[:post or None] and a[post - 1] == b[post - 1]:
        post -= 1
    return post
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_while_test_with_a_short_circuit_inside_an_operand(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, WHILE_TEST_WITH_INNER_SHORT_CIRCUIT,
                         ["    while b and a[post or None]:",
                          "    while a[:post or None] and b[:post or None] and a[post - 1] == b[post - 1]:"])


# `return <constant>` ending a try body: 3.8-3.10 load the constant after the body's POP_BLOCK,
# laid out before the handler where an `else:` of 3.10 (copied there) could be too; compiled
# before the clauses, it is the body's. Where the constant was used before the statement (3.10
# copies `return False` after the statement there too), the layout cannot tell and the code after
# the statement stays after it.
TRY_BODY_RETURNS_CONSTANT = """
def is_valid(value, version=4):
    try:
        check(value, version=version)
        return True
    except ValueError:
        return False


def usable(os):
    if not hasattr(os, 'spawn'):
        return False
    try:
        ver = os.confstr('X')
        if ver == 'glibc':
            return True
    except (AttributeError, ValueError):
        pass
    return False
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_try_body_ending_in_a_constant_return(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, TRY_BODY_RETURNS_CONSTANT,
                         ["        check(value, version=version)", "        return True", "    except ValueError:",
                          "        return False"])


# A with statement whose body returns, inside try statements: its __exit__ may suppress the
# exception, so the try body also goes on after it, to the try's normal exit.
WITH_RETURNING_IN_TRY = """
def locked_value(self):
    try:
        with self.lock:
            return self.value
    finally:
        self.cleanup()


def locked_or_none(self):
    try:
        with self.lock:
            return self.value
    except KeyError:
        return None
    finally:
        self.cleanup()


def value_or_nothing(self):
    try:
        return self.value
    except KeyError:
        pass
    finally:
        self.cleanup()


def counted(self):
    try:
        with self.lock:
            self.n += 1
        return self.n
    except KeyError:
        return None
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_with_returning_inside_try_statements(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, WITH_RETURNING_IN_TRY,
                                         ["        with self.lock:", "            return self.value",
                                          "    except KeyError:", "        pass", "        return None",
                                          "            self.n += 1", "        return self.n"])
    assert "5 equivalent" in verdicts, verdicts
    # (`except KeyError: pass` is value_or_nothing's clause, not a `return None`.)
    nothing = out[out.index("def value_or_nothing"):out.index("def counted")]
    assert "return None" not in nothing, out


# A guard on the last case of a match statement that ends a loop body: its false side is the jump
# back that the failed pattern's POP_TOP falls into (an `if` in the case body has a jump of its own).
GUARD_ON_LAST_CASE_IN_LOOP = """
def sizes(items):
    for item in items:
        match item:
            case -1:
                print(1)
            case int(size) if size > 3:
                print(size)
"""


@pytest.mark.parametrize("version", ["3.10", "3.11", "3.12", "3.13"])
def test_guard_on_last_case_in_loop(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, GUARD_ON_LAST_CASE_IN_LOOP,
                                         ["            case int(size) if size > 3:", "                print(size)"])
    assert "2 equivalent" in verdicts, verdicts


# `if t: continue` (or break) inside a with statement in a loop, then more of the with body:
# 3.8/3.9 write no dead jump over an else arm after the then-side's own jump, so there is no
# `else:` (which would compile to one more jump).
CONTINUE_INSIDE_WITH = """
def read_all(items, lock):
    for item in items:
        with lock:
            if not item:
                continue
            data = item.read()
        use(data)


def first_open(items, lock):
    while items:
        with lock, open(items.pop()) as fh:
            if fh:
                break
            x = 1
        use(x)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_continue_inside_with_has_no_else(cli, tmp_path, version):
    # (3.10+ copy the function's end into the break and need no dead jump: only equivalence there.)
    dead_jumps = version in ("3.8", "3.9")
    lines = ["                continue", "            data = item.read()", "                break", "            x = 1"]
    out, verdicts = written_and_verified(cli, tmp_path, version, CONTINUE_INSIDE_WITH, lines if dead_jumps else [])
    assert "3 equivalent" in verdicts, verdicts
    if dead_jumps:
        assert "else:" not in out, out


# A try statement in a loop whose except clauses end in `continue`, followed by more of the loop
# body: 3.12+ lay that code out before the handler, as they would an `else:`; names enter co_names
# in the order they are compiled, so the clause's OSError before st_size says the code came after.
CODE_AFTER_CLAUSES_THAT_CONTINUE = """
def checkcache(filenames, cache, os):
    for filename in filenames:
        size, mtime = cache[filename]
        try:
            stat = os.stat(filename)
        except OSError:
            cache.pop(filename, None)
            continue
        if size != stat.st_size:
            cache.pop(filename, None)


def first_readable(filenames):
    data = None
    for filename in filenames:
        try:
            with open(filename) as fp:
                data = fp.read()
            break
        except OSError:
            pass
    return data
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_code_after_clauses_that_continue(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, CODE_AFTER_CLAUSES_THAT_CONTINUE, [])
    assert "3 equivalent" in verdicts, verdicts
    if version in ("3.12", "3.13"):
        assert "        if size != stat.st_size:" in out.splitlines(), out
    # (first_readable's `break` ends the try body: 3.8-3.10 compile an `else:` after the clauses,
    # reached by a jump past them, so a break laid out before the handler is the body's. 3.11+
    # compile both the same: only equivalence there.)
    if version in ("3.8", "3.9", "3.10"):
        readable = out[out.index("def first_readable"):]
        assert "            break" in readable.splitlines() and "else:" not in readable, out


# try/except/else followed by a short return, which 3.12+ copy into the clause (after its
# POP_EXCEPT) and the else clause: one return after the statement, not a return in each.
TAIL_COPIED_INTO_CLAUSE_AND_ELSE = """
def push(self, exit):
    _cb_type = type(exit)
    try:
        exit_method = _cb_type.__exit__
    except AttributeError:
        self._push_exit_callback(exit)
    else:
        self._push_cm_exit(exit, exit_method)
    return exit
"""


# (3.10 copies the return too, into the clause only; it still comes back as the clause's own
# return with the else code after the statement, one jump longer: not yet.)
@pytest.mark.parametrize("version", ["3.8", "3.9", "3.11", "3.12", "3.13"])
def test_tail_copied_into_clause_and_else(cli, tmp_path, version):
    copies_return = version in ("3.12", "3.13")
    lines = ["    else:", "        self._push_cm_exit(exit, exit_method)", "    return exit"]
    out, verdicts = written_and_verified(cli, tmp_path, version, TAIL_COPIED_INTO_CLAUSE_AND_ELSE,
                                         lines if copies_return else [])
    assert "2 equivalent" in verdicts, verdicts
    if copies_return:
        assert out.count("return exit") == 1, out


# try statements in finally bodies. `try: pass` whose finally body starts with a try statement:
# the body's NOP before the inner try stands outside every table entry (3.11+), or the POP_BLOCK
# is followed by the inner SETUP_FINALLY (3.9/3.10); both lost the outer statement. And a short
# ending after the inner try, which 3.10+ copy with the handler's re-raise into the inner except
# clauses (the handler's copy then reads it in each clause and an else clause), or which follows
# clauses that return (the normal path's copy reads it as an else clause): both were refused.
TRY_STATEMENTS_IN_FINALLY_BODIES = """
def cleanup_quietly(a, log):
    try:
        pass
    finally:
        try:
            a.close()
        except OSError:
            pass
        log.append(8)


def release(a, log):
    try:
        a.run()
    finally:
        try:
            a.close()
        except OSError as e:
            log.append(e)
        except KeyError:
            pass
        a.closed = True


def release_or_give_up(a, log):
    try:
        log.append(a.start())
    finally:
        try:
            a.flush()
        except OSError:
            return 3
        log.append(7)
        log.append(8)


def drain(a, log):
    while a.more():
        try:
            a.run()
        finally:
            try:
                a.close()
            except OSError:
                pass
            a.closed = True


def closing_inside(a, log):
    try:
        pass
    finally:
        with a:
            log.append(1)
        log.append(8)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_try_statements_in_finally_bodies(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, TRY_STATEMENTS_IN_FINALLY_BODIES, [])
    assert "6 equivalent" in verdicts, verdicts
    quiet = out[out.index("def cleanup_quietly"):out.index("def release")]
    assert "    try:\n        pass\n    finally:\n        try:" in quiet, out
    # (One copy of the ending, after the inner try statement, no else clause.)
    released = out[out.index("def release("):out.index("def release_or_give_up")]
    assert released.count("a.closed = True") == 1 and "else:" not in released, out


# A try statement inside an except clause, followed by a short ending of the function, which
# 3.12+ copy, with the enclosing clause's POP_EXCEPT, into each way out of the inner statement
# (3.10 too, through jumps): the inner body's way out read as an `else:` holding
# that copy, and clauses going on at two copies were refused ("continue in different places").
TRY_IN_CLAUSE_BEFORE_SHORT_ENDING = """
def load_or_reset(self, path):
    try:
        self.load(path)
    except ValueError:
        try:
            for name in self.names:
                self.reset(name)
        except OSError:
            pass
    del self.cache


def load_quietly(self, path):
    try:
        self.load(path)
    except ValueError:
        try:
            self.reset(path)
        except OSError:
            pass
        except KeyError as e:
            self.log(e)
    self.ready = True


def load_or_forget(self, path):
    cached = self.cache
    try:
        self.load(path)
    except ValueError:
        try:
            cached.clear()
        except (OSError, KeyError):
            self.failed = True
    del cached
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_try_in_clause_before_short_ending(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, TRY_IN_CLAUSE_BEFORE_SHORT_ENDING, [])
    assert "4 equivalent" in verdicts, verdicts
    for name, ending in (("load_or_reset", "    del self.cache"), ("load_quietly", "    self.ready = True"),
                         ("load_or_forget", "    del cached")):
        text = out[out.index("def " + name):]
        text = text[:text.index("\n\n\n")] if "\n\n\n" in text else text
        assert text.count(ending.strip()) == 1 and "else:" not in text and ending in text.splitlines(), out


# try/except followed by short code that ends the function, which 3.10 copies whole (`del
# self.cache; return None`, four instructions) into each clause after its POP_EXCEPT: the clauses'
# copies read as an `else:` holding that code, the clauses keeping their copies.
CODE_AFTER_TRY_COPIED_INTO_CLAUSES = """
def reload(self, path):
    try:
        self.load(path)
    except ValueError:
        self.reset(path)
    del self.cache


def reload_or_log(self, path):
    try:
        self.load(path)
    except ValueError:
        self.reset(path)
    except OSError as e:
        self.log(e)
    del self.cache
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_code_after_try_copied_into_clauses(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, CODE_AFTER_TRY_COPIED_INTO_CLAUSES, ["    del self.cache"])
    assert "3 equivalent" in verdicts, verdicts
    assert out.count("del self.cache") == 2 and "else:" not in out, out


# An assert that ends a loop body: 3.12+ jump to the raise when its test is false and back to the
# next iteration when true (3.12 lays the raise out after that jump back); it came back as
# `if test: continue` with `assert False, msg` after (and 3.11+ printed the second one's test as
# `not (not a <= b or b is None)`). And a finally body ending with nested
# conditional expressions, whose handler copy 3.10+ split into ifs at each jump to the copied
# store: refused.
ASSERT_ENDING_LOOP_AND_NESTED_CONDITIONAL_IN_FINALLY = """
def check_all(items, limit):
    for item in items:
        assert item.size < limit, item


def check_pairs(pairs):
    while pairs:
        a, b = pairs.pop()
        assert a <= b and b is not None, (a, b)


def choose(self, a, b, c):
    try:
        self.run()
    finally:
        self.mode = (b if a else c) if self.ready else a
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_assert_ending_loop_and_nested_conditional_in_finally(cli, tmp_path, version):
    # (3.10 and 3.12 also copy the store into the normal path's jumps: the finally body then reads
    # as the ifs, the same code.)
    lines = [] if version in ("3.10", "3.12") else ["        self.mode = (b if a else c) if self.ready else a"]
    if version != "3.8":  # (3.8 loads the global AssertionError: an `if ...: raise` is the same code)
        lines += ["        assert item.size < limit, item",
                  # (The `not` goes onto the leaves: the None test, a jump on None 3.11+, takes it.)
                  "        assert a <= b and b is not None, (a, b)"]
    out, verdicts = written_and_verified(cli, tmp_path, version, ASSERT_ENDING_LOOP_AND_NESTED_CONDITIONAL_IN_FINALLY, lines)
    assert "4 equivalent" in verdicts, verdicts
    assert "continue" not in out and "assert False" not in out, out


# A try body ending with `if t: A` (or an elif chain), its clauses returning, and a return of a
# constant after the statement: 3.10+ copy that return into the jump out of the body, past the
# protected range, where a return written in the body compiles the same. It read as the body's
# own return (and an elif chain came back as separate ifs): the constants' order, True after the
# clause's False, says the source had it after the statement.
RETURN_AFTER_TRY_COPIED_INTO_BODY = """
def is_ascii_string(value):
    try:
        if isinstance(value, str):
            value.encode('ascii')
        elif isinstance(value, bytes):
            value.decode('ascii')
    except UnicodeDecodeError:
        return False
    return True


def loads(self, a):
    try:
        if a:
            self.load()
    except ValueError:
        return False
    return True


def in_body(self, a):
    try:
        if a:
            self.load()
            return True
    except ValueError:
        return False
    return True
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_return_after_try_copied_into_body(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, RETURN_AFTER_TRY_COPIED_INTO_BODY,
                                         ["        elif isinstance(value, bytes):"])
    assert "4 equivalent" in verdicts, verdicts
    assert out.count("return True") == 4, out


# Conditions of comprehensions that 3.12+ inline into the function: their tests were built from
# the loop's jumps after the function's statement tests had their `not`s placed, so a filter came
# back as `not (k and not k in keys)` (CONTAINS_OP 1 where the source had 0: not equivalent) and
# a None test as `not item is None`.
INLINED_COMPREHENSION_FILTER_NEGATIONS = """
def retain(self, keys):
    self.seen = {key: seen for key, seen in self.seen.items() if not key.startswith('temporary:') or key in keys}


def present(parts):
    return [item for item in parts if item is not None]
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_inlined_comprehension_filter_negations(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, INLINED_COMPREHENSION_FILTER_NEGATIONS, [
        "    self.seen = {key: seen for key, seen in self.seen.items() if not key.startswith('temporary:') or key in keys}",
        "    return [item for item in parts if item is not None]"])
    assert "(0 not decompiled)" in verdicts, verdicts


# `break` out of a `while True:` loop that ends a function: 3.10+ copy the function's `return
# None` into the break's jump, which read as a `return None` in the loop (the same code, but for
# where None sits in the constants where a docstring comes first). A return written in the loop
# stays one.
BREAK_OUT_OF_LOOP_ENDING_FUNCTION = """
def drain(self, response):
    '''Read blocks until the buffer runs out.'''
    buf = self.read(response)
    walker = 0
    while True:
        if len(buf) - walker < 8:
            break
        header = buf[walker:walker + 8]
        walker += self.unpack('>BxxxL', header)
        yield buf[walker:]


def wait(self):
    '''Wait for the worker.'''
    while True:
        if self.poll():
            return
        self.sleep('idle')
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_break_out_of_loop_ending_function(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, BREAK_OUT_OF_LOOP_ENDING_FUNCTION, ["            break"])
    assert "3 equivalent" in verdicts, verdicts
    assert out.count("break") == 1, out
    assert "            return" in out.splitlines() or "            return None" in out.splitlines(), out


# A conditional expression with a comprehension in a side, which 3.12+ inline: the compiler
# copies the code after it (a return, the rest of a call) into the side that jumps there, and
# that side's loop hid the copy; it read as an if statement with two returns (`LOAD_CONST 0;
# RETURN_VALUE` where the source had `RETURN_CONST 0`: not equivalent) or two calls.
CONDITIONAL_EXPRESSION_WITH_INLINED_COMPREHENSION = """
def empty(self):
    if self.stream.tell():
        return False
    return all([child.empty() for child in self.children]) if self.children else True


def count(items, ready):
    return 0 if ready else len([x for x in items if x])


def report(self, items, ready):
    self.log(names=[str(x) for x in items] if ready else None)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_conditional_expression_with_inlined_comprehension(cli, tmp_path, version):
    lines = ["    self.log(names=[str(x) for x in items] if ready else None)"]
    if version not in ("3.8", "3.9", "3.10"):  # (which compile the returned one as two returns)
        lines += ["    return all([child.empty() for child in self.children]) if self.children else True",
                  "    return 0 if ready else len([x for x in items if x])"]
    written_and_verified(cli, tmp_path, version, CONDITIONAL_EXPRESSION_WITH_INLINED_COMPREHENSION, lines)


# A try statement whose except clauses all leave goes on only from its body: 3.11+ compile an
# `else:` before the clauses and lay it out where the code after the statement starts, the same
# code. The else read as statements after the try (co_names in another order: not equivalent);
# the tables say which statements the source had in the else.
ELSE_OF_CLAUSES_THAT_BREAK = """
def drain(edges, active):
    while True:
        try:
            popped = edges.pop()
        except IndexError:
            break
        else:
            active.remove(popped)
        notify(edges)


def first_free(slots, used, log):
    while True:
        try:
            slot = slots.pop()
        except IndexError:
            slot = None
            break
        else:
            used.discard(slot)
        if slot not in used:
            break
    log.write('picked %s' % slot)
    log.flush()
    return slot
"""
ELSE_OF_CLAUSES_THAT_RETURN = """
def is_mount(path):
    try:
        s1 = os.lstat(path)
    except (OSError, ValueError):
        return False
    else:
        if stat.S_ISLNK(s1.st_mode):
            return False
    return compare(path, s1)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_else_of_clauses_that_leave(cli, tmp_path, version):
    # (3.8/3.9 lay out the loop's clause that breaks so that the first function does not come
    # back equivalent yet: left out there.)
    source = ELSE_OF_CLAUSES_THAT_RETURN if version in ("3.8", "3.9") else ELSE_OF_CLAUSES_THAT_BREAK + ELSE_OF_CLAUSES_THAT_RETURN
    out, _ = written_and_verified(cli, tmp_path, version, source, ["    return compare(path, s1)"])
    if version not in ("3.8", "3.9", "3.10"):  # (which compile the else after the clauses: the same code)
        assert out.count("    else:") == 3 and "            active.remove(popped)" in out.splitlines(), out
        assert "            used.discard(slot)" in out.splitlines(), out


# Consecutive conditions of a comprehension that 3.12+ inline, `if not (a in b or c in d)`: the
# jumps of two guards, each `if x in y: continue`. Read as one condition each, `if not a in b if
# not c in d`, they compile to `not in` (CONTAINS_OP 1 where the source had 0: not equivalent).
INLINED_COMPREHENSION_JOINED_GUARDS = """
def independent(stack, closure, x):
    return [t for t in stack if not (t in closure[x] or x in closure[t])]
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_inlined_comprehension_joined_guards(cli, tmp_path, version):
    written_and_verified(cli, tmp_path, version, INLINED_COMPREHENSION_JOINED_GUARDS,
                         ["    return [t for t in stack if not (t in closure[x] or x in closure[t])]"])


# The last test of a condition around the rest of a loop body, `if a and not b():` (3.12+): its
# jump back when b() is true is written as a jump over the jump back, which was read as `if b():
# continue` inside `if a:`, the same code but not as written (argparse, dataclasses, inspect).
# It is now folded like the tests before it that go back when they fail.
LAST_TEST_OF_CONDITION_AROUND_LOOP_BODY_REST = """
def get_default(self, dest):
    for action in self._actions:
        if action.dest == dest and action.default is not None:
            return action.default
    return self._defaults.get(dest, None)


def check(self, a, nbrs, match):
    for n in nbrs:
        if n in self.core and not match(nbrs[n], a):
            return False
    return True


def validate(self, names, domain):
    for name in names:
        if isinstance(name, str) and isinstance(domain, str):
            if name == domain:
                continue
            if not name.endswith('.' + domain):
                yield name
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_last_test_of_condition_around_loop_body_rest(cli, tmp_path, version):
    lines = ["        if action.dest == dest and action.default is not None:",
             "        if n in self.core and not match(nbrs[n], a):"]
    if version not in ("3.8", "3.9"):  # (which compile `if not (a and b) or c: continue` the same)
        # (A `continue` statement's jump back has its own line: the test before it stays an if.)
        lines += ["            if name == domain:", "                continue"]
    written_and_verified(cli, tmp_path, version, LAST_TEST_OF_CONDITION_AROUND_LOOP_BODY_REST, lines)


# 3.10 starts the block after a with statement's body with a line-less POP_BLOCK, so where the
# code after the statement ends the function, each way the body ends gets its own copy of the
# __exit__ call and that code. The copies read as a `return` in each branch of the body (not
# equivalent: the branches' POP_BLOCKs and jumps differ), or not at all.
WITH_BODY_ENDS_IN_COPIES_OF_FUNCTION_END = """
def save(self, obj):
    with obj.raw() as m:
        if self.in_band:
            if m.readonly:
                self.save_bytes(m.tobytes())
            else:
                self.save_bytearray(m.tobytes())
        else:
            self.write(m)
            if m.readonly:
                self.write(m.readonly)


def fetch(self, cmd):
    with self.open(cmd) as conn:
        while True:
            data = conn.recv(8)
            if not data:
                break
            self.callback(data)
        if self.tls is not None and isinstance(conn, self.tls):
            conn.unwrap()
    return self.response()


def wait(self, cm, ready, done):
    with cm:
        if ready:
            done()
    ready = not ready
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_with_body_ends_in_copies_of_function_end(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, WITH_BODY_ENDS_IN_COPIES_OF_FUNCTION_END, [
        "        if self.tls is not None and isinstance(conn, self.tls):",
        "        if ready:",
        "    ready = not ready",
    ])
    assert "4 equivalent" in verdicts, verdicts
    assert "return None" not in out, out


# A `break` out of a while loop inside an except clause or a with statement, where short code
# after the statement ends the function (`x = 0` and the implicit return): 3.10 writes a copy of
# the clause's (or __exit__'s) end and that code in place of the break's jump, as it does for the
# loop's own exits. The copy read as
# the loop's `else:` ending in `return None` (not equivalent), or was refused.
BREAK_INTO_COPY_OF_STATEMENT_END = """
def retry(self, attempts, ok):
    try:
        self.connect()
    except OSError as e:
        while attempts:
            if ok(e):
                break
    attempts = 0


def poll(self, cm, ready):
    with cm:
        while self.pending:
            if ready():
                break
    ready = None
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_break_into_copy_of_statement_end(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, BREAK_INTO_COPY_OF_STATEMENT_END, [
        "                break", "    attempts = 0", "    ready = None"])
    assert "3 equivalent" in verdicts, verdicts
    assert "        else:" not in out.splitlines() and "return None" not in out, out  # (no loop else)


# A then-side that ends in a `continue` statement of its own (on its own line, the jump back alone
# in its block), with more code after the if: no `else:`. Read as if/else sharing one `continue`
# after it, 3.10+ compile a jump forward to that continue where the source jumps back (not
# equivalent); the code after the if also read as an else arm it never was.
CONTINUE_ENDING_THEN_SIDE = """
def parse_parts(parts, sep, append):
    for part in parts:
        if isinstance(part, str):
            if sep in part:
                for split_part in part.split(sep):
                    if split_part:
                        append(split_part)
                continue
            append(part)
            continue
        raise TypeError(part)


def unified(groups, a):
    for group in groups:
        for tag, i1, i2 in group:
            if tag == 'equal':
                for line in a[i1:i2]:
                    yield ' ' + line
                continue
            if tag in ('replace', 'delete'):
                for line in a[i1:i2]:
                    yield '-' + line
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_continue_ending_then_side(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, CONTINUE_ENDING_THEN_SIDE, [
        "                continue", "            append(part)", "            if tag in ('replace', 'delete'):"])
    assert "3 equivalent" in verdicts, verdicts  # (the lines above say: no else arms)


# `break` out of a function's final `while True:` where the code after the loop is short: 3.10+
# copy that code (`return x`) in place of the break's jump, so it read as a return inside the loop,
# and the loop's code after it as the else arm of an if. The copy's lines are the function's last,
# after every op of the loop; a return written in the loop comes before the rest of the loop.
BREAK_BEFORE_COPIED_RETURN = """
def parse(p, name):
    section = None
    while True:
        c = p.next()
        if c is None:
            break
        if c == " ":
            if section == "AS":
                section = "ALIAS"
            elif section == "NAME":
                section = "AS"
            continue
        if section is None:
            section = "NAME"
        p.append(c)
    return section


def scan(data, j):
    while True:
        c = data[j:j + 1]
        if not c:
            return -1
        if c == '>':
            return j + 1
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_break_before_copied_return(cli, tmp_path, version):
    source = BREAK_BEFORE_COPIED_RETURN
    if version in ("3.8", "3.9"):  # (whose dead jump back after `return j + 1` reads as an else arm)
        source = source[:source.index("def scan")]
    out, verdicts = written_and_verified(cli, tmp_path, version, source, [
        "            break", "            continue", "    return section"] +
        ([] if version in ("3.8", "3.9") else ["            return j + 1"]))
    assert "0 not equivalent" in verdicts, verdicts
    assert "else:" not in out, out


# A with statement in a finally body: the compiler copies the finally body into each way out of
# the try statement, each copy with its own with statement and its own copies of that statement's
# end (3.10). The copies of different finally copies are alike op for op, but each belongs to its
# own with statement: shared across them, the finally copies no longer matched (refused).
WITH_IN_FINALLY_BODY_COPIES = """
def cleanup(self, a, c):
    try:
        self.run(a)
    except Exception:
        try:
            self.log(a)
        finally:
            if c:
                return c
    finally:
        with self.lock:
            if self.pending > 0:
                self.flush()
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_with_in_finally_body_copies(cli, tmp_path, version):
    _, verdicts = written_and_verified(cli, tmp_path, version, WITH_IN_FINALLY_BODY_COPIES,
                                       ["        with self.lock:", "            if self.pending > 0:"])
    assert "2 equivalent" in verdicts, verdicts


# A try body that ends in `return <constant>`, `continue` or `break`, with an except clause that
# goes on to the code after the statement. 3.8-3.10 load the constant after the body's POP_BLOCK
# and lay the jump out there too, before the handler: that is the body's own statement (an
# `else:` follows the clauses). It read as an `else:` (not equivalent). 3.10 also copies the
# code after the statement into a clause that returns (read there, not equivalent), and writes no
# jump after a clause that falls into that code: where the code ends in a branch (a loop's test,
# an if, the jump back), the clause was refused. 3.12+ copy `return x` into the clause too, where
# an `else:` that returns kept it (not equivalent).
BODY_ENDS_BEFORE_CLAUSE_GOES_ON = """
def first(path, x):
    try:
        x = open(path)
        return True
    except OSError:
        log(x)
    return x


def only(items, x):
    for item in items:
        try:
            x -= item
            continue
        except ZeroDivisionError:
            return 2
        except Exception:
            log(x)
        if x:
            log(3)


def poll(a, x):
    while a:
        try:
            x -= 1
            return 1
        except ZeroDivisionError:
            return 2
        except Exception:
            log(x)
        log(3)
    log(4)


def check(a, x):
    try:
        x -= 1
        return 1
    except ZeroDivisionError:
        return 2
    except Exception:
        log(x)
    if x:
        log(3)
    return x


def scan(items, x):
    for item in items:
        try:
            x -= item
            break
        except ZeroDivisionError:
            break
        except Exception:
            log(x)
        log(3)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_body_ends_before_clause_goes_on(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, BODY_ENDS_BEFORE_CLAUSE_GOES_ON, [
        "        return True", "            continue", "            return 1", "        return 1",
        "        log(x)", "    return x", "            break", "        log(3)"])
    assert "6 equivalent" in verdicts, verdicts
    # (3.11+ compile such a last statement of the body as they compile an `else:` clause.)
    if version in ("3.8", "3.9", "3.10"):
        assert "else:" not in out, out


# A while loop with an `else:` clause, the last statement of a for loop's body: a `break` jumps
# past the else clause, to the end of the for body, and the compiler threads that jump straight
# to the for loop's next iteration. An except clause that breaks so, and one that goes on after
# the try statement, were read as clauses that go on in two places (refused).
THREADED_BREAK_FROM_CLAUSE = """
def retry(items, limit, x):
    for item in items:
        n = 0
        while n < limit:
            n += 1
            try:
                x -= item
                break
            except ZeroDivisionError as e:
                break
            except Exception:
                log(x)
            log(n)
        else:
            x = None
    return x
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_threaded_break_from_clause(cli, tmp_path, version):
    _, verdicts = written_and_verified(cli, tmp_path, version, THREADED_BREAK_FROM_CLAUSE,
                                       ["                break", "            log(n)", "        else:", "            x = None"])
    assert "2 equivalent" in verdicts, verdicts


# A for loop after a with statement whose body returns (reached only when __exit__ suppresses an
# exception), the last statement of an if's body: 3.12+ lay the code after the if out before the
# with statement's handler, so the loop's exit is a bare jump back to it, and the compiler threads
# a `break` (after the POP_TOP of the iterator) straight there. It was refused (a backward jump
# that is not a loop).
FOR_BREAK_THROUGH_BACK_JUMP = """
def lookup(key, table, default, x, y):
    if key in table:
        with table.lock:
            return table[key]
        for alias in table.aliases:
            break
    return (x, y, default)


def first_alias(key, table, default):
    if key in table:
        with table.lock:
            return table[key]
        for alias in table.aliases:
            break
    return default
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_for_break_through_back_jump(cli, tmp_path, version):
    # (`return default` is short enough to be copied in place of the second function's `break`:
    # that read as `return default` inside the loop, not equivalent.)
    out, verdicts = written_and_verified(cli, tmp_path, version, FOR_BREAK_THROUGH_BACK_JUMP,
                                         ["        for alias in table.aliases:", "            break"])
    assert "3 equivalent" in verdicts, verdicts
    assert out.count("            break") == 2, out


# A for loop with an `else:` clause, followed by a short return: 3.10+ copy that return in place
# of the `break`'s jump past the else clause (POP_TOP of the iterator, then the copy). It read as
# a `return` inside the loop and the else clause as code after the loop (not equivalent: socket
# `getfqdn`, locale `getdefaultlocale`, typing on 3.10/3.12/3.13).
FOR_ELSE_BREAK_COPIES_RETURN = """
def find(items, key):
    for item in items:
        if item == key:
            break
    else:
        item = None
    return item


def fqdn(names, hostname):
    for name in names:
        if '.' in name:
            break
    else:
        name = hostname
    return name.lower()
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_for_else_break_copies_return(cli, tmp_path, version):
    out, verdicts = written_and_verified(cli, tmp_path, version, FOR_ELSE_BREAK_COPIES_RETURN, [
        "            break", "    else:", "        item = None", "    return item", "        name = hostname",
        "    return name.lower()"])
    assert "3 equivalent" in verdicts, verdicts
    assert out.count("return") == 2, out


# A try statement that ends a loop's body, with one except clause that leaves by `break` (or
# `continue`) and one that falls off its end. 3.8/3.9 thread the falling clause's jump to the next
# iteration, the same jump a `continue` makes; a written `continue` leaves the compiler's dead jump
# after it, the falling clause none. The falling clause read as `continue` (not equivalent).
CLAUSE_FALLS_TO_NEXT_ITERATION = """
def drain(queue, n):
    while n < 4:
        try:
            queue.get()
        except ValueError:
            break
        except Exception:
            pass


def skip(items):
    for x in items:
        try:
            handle(x)
        except ValueError:
            continue
        except Exception:
            log(x)
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_clause_falls_to_next_iteration(cli, tmp_path, version):
    # (3.10+ compile the `break` as a copy of the function's implicit return, read as that
    # return: equivalence is the check there.)
    old = version in ("3.8", "3.9")
    out, verdicts = written_and_verified(cli, tmp_path, version, CLAUSE_FALLS_TO_NEXT_ITERATION,
                                         ["            break", "            pass", "            continue"] if old else [])
    assert "3 equivalent" in verdicts, verdicts
    if old:
        assert out.count("continue") == 1, out
