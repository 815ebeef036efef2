"""Programs for bench/torch_verified.py: the shapes of code torch.compile meets in research code
(graph breaks in loops and branches, try/with, closures, comprehensions, match, walrus, torch.cond,
generators, side effects on lists, dicts, globals and module state, returned closures, unpacking,
disabled callees, .item() loops, f-strings, nested compiled functions, a small transformer-ish
module). Each case: a factory of the callable, and the calls made of it.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

G = {"scale": 2.0}

def p_loop_break(x):
    out = []
    for i in range(3):
        x = x * 2 + i
        if i == 1:
            print("break here")
        out.append(x.sum())
    return torch.stack(out), {"last": x}

def p_data_dep(x):
    y = x.sin()
    if y.sum() > 0:
        return y * 2
    return y - 1

def p_try(x):
    try:
        y = x.cos()
        z = y / 0.5
    except ZeroDivisionError:
        z = x
    finally:
        w = z + 1
    return w

def p_with(x):
    with torch.no_grad():
        y = x * 3
    with torch.autocast("cpu", enabled=False):
        z = y.relu()
    return z + x

def p_kwargs(x, *args, scale=3, **kw):
    r = x * scale
    for a in args:
        r = r + a
    for k, v in sorted(kw.items()):
        r = r - v
    return r

def make_closure():
    count = 0
    def inner(x):
        nonlocal count
        count += 1
        return x + count
    return inner

def p_comprehension(x):
    parts = [x[i] * i for i in range(x.shape[0]) if i % 2 == 0]
    d = {str(i): p.sum() for i, p in enumerate(parts)}
    return sum(parts), d

def p_match(x, mode):
    match mode:
        case "a":
            return x + 1
        case ("b", n):
            return x * n
        case {"k": v}:
            return x - v
        case _:
            return x

def p_walrus(x):
    if (s := x.sum()) is not None:
        y = x / (s.abs() + 1)
    return [y, s]

def p_explicit_break(x):
    y = x + 1
    torch._dynamo.graph_break()
    z = y * y
    torch._dynamo.graph_break()
    return z.mean()

def p_cond(x):
    return torch.cond(x.sum() > 0, lambda t: t.sin(), lambda t: t.cos(), (x,))

def gen(x):
    for i in range(3):
        yield x * i

def p_generator(x):
    return sum(gen(x))

def p_while(x):
    i = 0
    while i < 4:
        x = x + i
        i += 1
        if i == 2:
            continue
        x = x * 0.5
    else:
        x = x - 1
    return x

class Block(nn.Module):
    def __init__(self):
        super().__init__()
        self.l1 = nn.Linear(8, 16); self.l2 = nn.Linear(16, 8); self.calls = 0
    def forward(self, x):
        self.calls += 1
        h = F.gelu(self.l1(x))
        if self.training:
            h = F.dropout(h, 0.0)
        return self.l2(h) + x

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.blocks = nn.ModuleList([Block() for _ in range(2)])
        self.norm = nn.LayerNorm(8)
    def forward(self, x, mask=None):
        for b in self.blocks:
            x = b(x)
        if mask is not None:
            x = x.masked_fill(mask, 0.0)
        return self.norm(x)

def p_attention(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)

def p_inplace(x):
    y = x.clone()
    y.add_(1).mul_(2)
    y[0] = 0
    return y

def p_print_in_loop(xs):
    total = 0
    for x in xs:
        total = total + x.sum()
        if total > 100:
            print("big")
    return total


STATE = {"n": 0}
COUNTER = 0

def q_side_effects(x, log: list, d: dict):
    global COUNTER
    y = x * 2
    log.append(y.sum())
    d["k"] = y.mean()
    d.pop("drop", None)
    COUNTER += 1
    STATE["n"] += 1
    return y + COUNTER

class Stepper(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(4, 4)
        self.step = 0
        self.cache = []
    def forward(self, x):
        self.step += 1
        h = self.lin(x)
        self.cache.append(h.detach())
        self.last = h
        return h * self.step

def q_return_closure(x):
    scale = x.sum()
    def apply(y):
        return y * scale
    return apply(x), apply

def q_chunks(x):
    a, b = x.chunk(2)
    c, *rest = x.unbind(0)
    return torch.cat([*rest, a.flatten(), b.flatten(), c])

def q_disabled_helper(x):
    y = x.sin()
    z = helper_disabled(y)
    return z.cos() + y

@torch.compiler.disable
def helper_disabled(t):
    return t * 3

def q_item_loop(x):
    n = int(x.abs().sum().item()) % 3 + 1
    for _ in range(n):
        x = x + 1
    return x

def q_isinstance(x, maybe=None):
    if isinstance(maybe, (list, tuple)):
        x = x + len(maybe)
    if hasattr(x, "shape") and x.dim() == 2:
        x = x.t()
    return x

def q_fstring(x, name="layer"):
    key = f"{name}_{x.shape[0]}"
    return {key: x + 1, "n": len(key)}

def q_genexpr(xs):
    return sum(t.sum() for t in xs) + max(t.max() for t in xs)

def q_raise(x):
    try:
        if x.shape[0] > 100:
            raise ValueError("too big")
        y = x + 1
    except ValueError as e:
        y = x - 1
    return y

def q_nested_compile(x):
    return inner_compiled(x) + 1

@torch.compile(backend="aot_eager")
def inner_compiled(t):
    return t * 2


def reset_state():
    """Module state the programs change, as at import (each mode starts from it)."""
    global COUNTER
    COUNTER = 0
    STATE["n"] = 0
    G["scale"] = 2.0


def cases():
    """(name, make the callable, [(args, kwargs), ...] its calls, whether grad mode applies)."""
    torch.manual_seed(0)
    x = torch.randn(4, 8)
    q = torch.randn(2, 4, 16, 8)
    y = torch.randn(4, 4)
    return [
        ("loop_break", lambda: p_loop_break, [((x,), {})], True),
        ("data_dep", lambda: p_data_dep, [((x,), {}), ((-x.abs(),), {})], True),
        ("try_finally", lambda: p_try, [((x,), {})], True),
        ("with", lambda: p_with, [((x,), {})], True),
        ("kwargs", lambda: p_kwargs, [((x, x, x), {"scale": 2, "b": 1.0, "a": 2.0})], True),
        ("closure_nonlocal", make_closure, [((x,), {}), ((x,), {})], True),
        ("comprehension", lambda: p_comprehension, [((x,), {})], True),
        ("match", lambda: p_match, [((x, "a"), {}), ((x, ("b", 3)), {}), ((x, {"k": 2.0}), {}), ((x, None), {})], True),
        ("walrus", lambda: p_walrus, [((x,), {})], True),
        ("explicit_break", lambda: p_explicit_break, [((x,), {})], True),
        ("cond", lambda: p_cond, [((x,), {})], True),
        ("generator", lambda: p_generator, [((x,), {})], True),
        ("while_else", lambda: p_while, [((x,), {})], True),
        ("inplace", lambda: p_inplace, [((x,), {})], True),
        ("print_in_loop", lambda: p_print_in_loop, [(([x, x * 50, x],), {})], True),
        ("dynamic_shapes", lambda: p_data_dep, [((torch.randn(3, 5),), {}), ((torch.randn(6, 5),), {}),
                                                ((torch.randn(9, 5),), {})], True),
        ("attention", lambda: p_attention, [((q, q * 0.5, q + 1), {})], True),
        ("module", lambda: Net(), [((x,), {}), ((x, x > 0), {})], True),
        ("side_effects", lambda: q_side_effects, [((y, [], {"drop": 1}), {})], False),
        ("module_state", lambda: Stepper(), [((y,), {}), ((y,), {})], False),
        ("return_closure", lambda: q_return_closure, [((y,), {})], False),
        ("unpacking", lambda: q_chunks, [((y,), {})], False),
        ("disabled_callee", lambda: q_disabled_helper, [((y,), {})], False),
        ("item_loop", lambda: q_item_loop, [((y,), {}), ((y * 2,), {})], False),
        ("isinstance", lambda: q_isinstance, [((y,), {"maybe": [1, 2]}), ((y,), {})], False),
        ("fstring", lambda: q_fstring, [((y,), {})], False),
        ("genexpr", lambda: q_genexpr, [(([y, y + 1, y * 2],), {})], False),
        ("raise_except", lambda: q_raise, [((y,), {})], False),
        ("nested_compile", lambda: q_nested_compile, [((y,), {})], False),
    ]
