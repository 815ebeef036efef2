"""A small program for the dump tests: a function with a graph break and a recompile, and a module."""
import sys
import warnings

import torch

import uncompile


def f(x):
    y = x.sin()
    print("graph break")
    return y.cos() * 2


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(4, 4)

    def forward(self, x):
        return torch.relu(self.fc(x))


def main(dump_dir, backend="eager"):
    torch.manual_seed(0)
    warnings.simplefilter("ignore")
    with uncompile.prepare_debug(dump_dir):
        cf = torch.compile(f, backend=backend)
        cf(torch.randn(4))
        cf(torch.randn(8))
        torch.compile(Net(), backend=backend)(torch.randn(2, 4))


if __name__ == "__main__":
    main(sys.argv[1], *sys.argv[2:])
