"""Never change results: outputs and gradients under prepare_debug and debug() equal those without,
bit for bit, across backend x grad x dynamic x function/module (24 configurations)."""
import itertools
import warnings

import pytest

torch = pytest.importorskip("torch")

import uncompile  # noqa: E402


def fn(x, w):
    y = torch.tanh(x @ w)
    if y.sum() > 0:          # data-dependent branch: a graph break, then a resume function
        y = y * 2
    return (y.sin() + x).mean(dim=1)


class Mod(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = torch.nn.Linear(8, 8)
        self.fc2 = torch.nn.Linear(8, 3)

    def forward(self, x):
        h = torch.relu(self.fc1(x))
        torch._dynamo.graph_break()
        return self.fc2(h).softmax(dim=-1)


def _run(backend, grad, dynamic, kind, dump_dir=None):
    """Three calls (shapes 4, 6, 4): the second recompiles (or runs the dynamic entry)."""
    torch._dynamo.reset()
    torch.manual_seed(0)
    if kind == "module":
        target = Mod()
        params = list(target.parameters())
        call = torch.compile(target, backend=backend, dynamic=dynamic)
    else:
        w = torch.randn(8, 8)
        params = [w.requires_grad_(grad)]
        compiled = torch.compile(fn, backend=backend, dynamic=dynamic)
        call = lambda x: compiled(x, w)  # noqa: E731
    inputs = [torch.randn(n, 8) for n in (4, 6, 4)]
    results = []
    for i, x in enumerate(inputs):
        x.requires_grad_(grad)
        for p in params:
            p.grad = None
        if dump_dir is None:
            out = call(x)
        elif i == 0:
            with uncompile.prepare_debug(dump_dir):
                out = call(x)
        else:
            with uncompile.debug():
                out = call(x)
        if grad:
            out.sum().backward()
            results.append((out.detach(), x.grad, [p.grad for p in params if p.requires_grad]))
        else:
            results.append((out, None, []))
    torch._dynamo.reset()
    return results


CONFIGS = list(itertools.product(["eager", "aot_eager", "inductor"], [False, True], [False, True],
                                 ["function", "module"]))


@pytest.mark.parametrize("backend,grad,dynamic,kind", CONFIGS,
                         ids=["-".join([b, "grad" if g else "nograd", "dynamic" if d else "static", k])
                              for b, g, d, k in CONFIGS])
def test_bit_identical(backend, grad, dynamic, kind, tmp_path):
    plain = _run(backend, grad, dynamic, kind)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        dumped = _run(backend, grad, dynamic, kind, str(tmp_path))
    assert (tmp_path / "manifest.json").exists()
    for (o1, g1, p1), (o2, g2, p2) in zip(plain, dumped):
        assert torch.equal(o1, o2)
        if grad:
            assert torch.equal(g1, g2)
            assert len(p1) == len(p2) and all(torch.equal(a, b) for a, b in zip(p1, p2))
