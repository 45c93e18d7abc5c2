"""mxnet-centernet's own unit_test/ scripts run converted (issue 21; the corpus `centernet` of
bench/package_corpus.py, which measures the conversion).

    .venv/bin/python bench/centernet_tests.py [--corpus /work/corpus/centernet] [--xlate TREE] [--json OUT]

The whole repository is converted as a user converts it (`python -m xlate convert CORPUS -o OUT`, the
converter of --xlate, default this repository): the tests import `models.*`, `opts` and each other by
absolute name. Each script under unit_test/ runs twice in a fresh subprocess from the repository's root,
with no arguments and a time limit: the original with MXNet, and the converted one with `import mxnet`
made to fail (bench/example_runs.py's runner: a meta-path blocker; matplotlib stubbed). The scripts' own
`sys.path.insert` of their authors' folders name folders that do not exist here. A script counts when
the original runs (exit 0): the COCO/KITTI loaders and the validation scripts need data sets that are not
here. The scripts draw their inputs at random, so only exit statuses and last lines are reported.
Exits 0 unless the harness itself breaks.
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from example_runs import REPO, RUNNER, convert_with, run, summarise  # noqa: E402


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--corpus", type=Path, default=Path("/work/corpus/centernet"))
    p.add_argument("--xlate", type=Path, default=REPO)
    p.add_argument("--json", type=Path)
    p.add_argument("--timeout", type=float, default=180.0)
    args = p.parse_args(argv)
    if not (args.corpus / "unit_test").is_dir():
        print(f"no corpus at {args.corpus}: nothing to run")
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        runner = work / "runner.py"
        runner.write_text(RUNNER)
        out = work / "converted"
        conv = convert_with(args.xlate, args.corpus, out, work)
        print(f"convert: exit {conv.returncode}", flush=True)
        for script in sorted((args.corpus / "unit_test").glob("*.py")):
            row = {"script": script.name}
            for side, root, blocked in (("original", args.corpus, "open"), ("converted", out, "blocked")):
                home = work / side / "mxnet_home"
                home.mkdir(parents=True, exist_ok=True)
                env = dict(os.environ, MXNET_HOME=str(home), OMP_NUM_THREADS="2", PYTHONPATH="",
                           PYTHONWARNINGS="ignore", MPLBACKEND="Agg")
                row[side] = run([sys.executable, str(runner), blocked, str(root / "unit_test" / script.name)], root,
                                env, args.timeout)
                if side == "original" and row[side]["exit"] != 0:
                    break  # needs what is not here: not counted, the converted side not run
            rows.append(row)
            o, c = row["original"], row.get("converted")
            print(f"{script.name}: original exit {o['exit']} ({o['seconds']} s)"
                  + (f", converted exit {c['exit']} ({c['seconds']} s)" if c else "")
                  + f"\n    original:  {' | '.join(o['tail'])[:300]}"
                  + (f"\n    converted: {' | '.join(c['tail'])[:300]}" if c else ""), flush=True)
    summarise(rows, "scripts", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
