"""torchrun program: every rank compiles and dumps into the same directory (gloo backend)."""
import sys
import warnings

import torch
import torch.distributed as dist

import uncompile


def step(x, w):
    y = torch.tanh(x @ w)
    print("graph break")
    return y.sum()


def main(dump_dir):
    warnings.simplefilter("ignore")
    dist.init_process_group("gloo")
    torch.manual_seed(dist.get_rank())
    w = torch.randn(4, 4, requires_grad=True)
    with uncompile.prepare_debug(dump_dir):
        loss = torch.compile(step, backend="aot_eager")(torch.randn(2, 4), w)
        loss.backward()
        dist.all_reduce(w.grad)
    dist.destroy_process_group()


if __name__ == "__main__":
    main(sys.argv[1])
