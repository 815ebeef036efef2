"""Two torchrun ranks (gloo) dump into one directory; each rank's files are told apart and intact."""
import os
import shutil
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("torch.distributed")

from test_torch_dump import check_manifest  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.slow
def test_two_ranks_share_a_dump_dir(tmp_path):
    torchrun = os.path.join(os.path.dirname(sys.executable), "torchrun")
    if not os.path.exists(torchrun):
        pytest.skip("torchrun is not installed beside %s" % sys.executable)
    env = dict(os.environ, OMP_NUM_THREADS="1")
    subprocess.run([torchrun, "--nproc_per_node=2", "--standalone",
                    os.path.join(HERE, "torch_programs", "ranks.py"), str(tmp_path)],
                   check=True, capture_output=True, env=env, timeout=600)
    for rank in (0, 1):
        manifest = check_manifest(tmp_path, "manifest.rank%d.json" % rank)
        assert manifest["rank"] == rank and manifest["world_size"] == 2
        assert manifest["functions"] and all(f["dir"].endswith(".rank%d" % rank) for f in manifest["functions"])
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".tmp")]
    assert not os.path.exists(tmp_path / "manifest.json")
