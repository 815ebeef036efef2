"""Dump once, then run from the dump: the pdb test sets breakpoints in the dumped files."""
import os
import sys
import warnings

import torch

import uncompile


def f(x):
    y = x.sin()
    print("graph break")
    return y.cos()


def g(x):
    return (x * 2).relu()


def main(dump_dir):
    warnings.simplefilter("ignore")
    cf = torch.compile(f, backend="eager")
    cg = torch.compile(g, backend="inductor")
    x = torch.randn(4)
    with uncompile.prepare_debug(dump_dir):
        cf(x)
        cg(x)
    breaks = os.environ.get("UNCOMPILE_TEST_BREAKS")
    if breaks:  # the pdb test: stop at these dumped lines while the program runs from the dump
        import pdb
        debugger = pdb.Pdb()
        for item in breaks.split(";"):
            path, line = item.rsplit(":", 1)
            assert debugger.set_break(path, int(line)) is None, item
        debugger.set_trace()
    with uncompile.debug():
        cf(x)
        cg(x)
    print("DONE")


if __name__ == "__main__":
    main(sys.argv[1])
