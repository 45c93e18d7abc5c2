"""MXNet's own Gluon examples (apache/mxnet 1.9.1 `example/`) run converted, on synthetic or toy data
(issue 21; the corpus `mxnet-examples` of bench/package_corpus.py, which measures the conversion).

    .venv/bin/python bench/example_runs.py [--corpus /work/corpus/mxnet-examples] [--xlate TREE] [--json OUT]

Each example's folder is converted as a user converts it (`python -m xlate convert FOLDER -o OUT`, the
converter of --xlate, default this repository) and the script runs twice in a fresh subprocess with a
time limit: the original with MXNet, and the converted one with `import mxnet` and `import gluonnlp`
made to fail (a meta-path blocker), so a converted script that still needs MXNet fails. Command lines
shrink the runs (one epoch, small batches). Datasets are synthetic: MNIST's four idx files are
written (256 training and 32 test images of random pixels) under $MXNET_HOME/datasets/mnist and
./data, and on both sides the download functions are stubbed to return the file that is there and
the SHA-1 check to pass (harness plumbing: MXNet and the converted `_mx_compat` would fetch the real
files), and matplotlib, not installed here, is stubbed on both sides. A run counts when the original runs too; the
numbers each side prints are compared in order (each converted one to the precision torch printed it with, 4 decimals,
and rtol 1e-4 beyond that; how an array is stored, MXNet's `<NDArray 2x3 @cpu(0)>` or torch's `dtype=`, left out): they agree where the program draws no random numbers.
Exits 0 unless the harness itself breaks.
"""
from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
# (folder under the corpus, script in it, arguments, synthetic data, seconds allowed)
EXAMPLES = [
    ("gluon/lstm_crf", "lstm_crf.py", [], None, 240),
    ("gluon/mnist", "mnist.py", ["--epochs", "1", "--batch-size", "16", "--log-interval", "2"], "mnist", 120),
    ("restricted-boltzmann-machine", "binary_rbm_gluon.py",
     ["--num-hidden", "16", "--k", "2", "--batch-size", "16", "--num-epoch", "1", "--ais-batch-size", "4",
      "--ais-num-batch", "1", "--ais-intermediate-steps", "2", "--ais-burn-in-steps", "2", "--no-cuda",
      "--data-loader-num-worker", "0"], "mnist", 180),
    ("gluon/dc_gan", "dcgan.py", ["--dataset", "mnist", "--batch-size", "16", "--nepoch", "1", "--ngf", "8", "--ndf", "8",
                                  "--nz", "8", "--niter", "1000", "--inception_score", "", "--check-point", ""],
     "mnist", 180),
    ("gluon", "image_classification.py", ["--dataset", "dummy", "--model", "resnet18_v1", "--epochs", "1",
                                          "--batch-size", "2", "--mode", "imperative", "--log-interval", "50"],
     None, 480),
]

# gilbertfrancois/mxnet-cookbook (HEAD c10ebd9, `src/`, fetched by hand as /work/corpus/cookbook): scripts one
# user wrote to learn Gluon, each with its settings as module constants. The substitutions shrink
# them (one epoch, small batches, no GPU, no worker processes) in a copy of the folder made before
# conversion, so both sides run the same edited text.
SHRINK = {r"^(N_)?EPOCHS = \d+": r"\g<1>EPOCHS = 1", r"^NUM_EPOCHS = \d+": "NUM_EPOCHS = 1",
          r"^N_GPUS = \d+": "N_GPUS = 0", r"^N_WORKERS = \d+": "N_WORKERS = 0",
          r"^PER_DEVICE_BATCH_SIZE = \d+": "PER_DEVICE_BATCH_SIZE = 16", r"^BATCH_SIZE = \d+": "BATCH_SIZE = 16"}
COOKBOOK = [
    ("linear_regression", "linear_regression_gluon.py", [], None, 120),
    ("linear_regression_1d", "lr_1d_gluon.py", [], None, 120),
    ("linear_regression_1d", "lr_1d_gluon_optim.py", [], None, 120),
    ("custom_layer", "dense_normalized_gluon.py", [], None, 120),
    ("custom_loss", "makeloss_gluon.py", [], None, 120),
    ("gan", "gan_gluon.py", [], "mnist", 240),
    ("gan", "dcgan_gluon.py", [], "mnist", 240),
    ("gan", "wgan_gluon.py", [], "mnist", 240),
    ("image_classifier", "mnist_gluon.py", [], "fashion-mnist", 240),
    ("image_classifier", "mnist_gluon_mod.py", [], "fashion-mnist", 240),
    ("export_import_model", "main.py", [], None, 120),
]
# miraclewkf/MXNet-Deep-Learning-in-Action (fetched by hand as /work/corpus/mxbook): the book's scripts that run on
# the data they make themselves: chapter 6's layers called imperatively on arange inputs (their printed numbers
# are deterministic, so the tails compare), chapter 11's Gluon blocks and transforms, chapter 3's Module API on
# random data (symbol API: reported, not translated; mx.gpu(0) there and in nn_hybridblock.py fails in MXNet here).
_CH6, _CH11 = "chapter6-layer-and-network", "chapter11-Gluon/11.1-GluonBasis"
MXBOOK = [(_CH6, f"{name}.py", [], None, 120) for name in (
    "activation", "batchnorm", "concat", "convolution", "elementwisesum", "fullyconnected", "lossfunction",
    "pooling")] + [
    (f"{_CH11}/11.1.2-nn-API", "nn_block.py", [], None, 180),
    (f"{_CH11}/11.1.2-nn-API", "nn_hybridblock.py", [], None, 180),
    (f"{_CH11}/11.1.2-nn-API", "nn_sequential.py", [], None, 120),
    (f"{_CH11}/11.1.1-data-API", "data_vision_transforms.py", [], None, 120),
    ("chapter3-baseKnowledge-of-MXNet", "Module_code3-2.py", [], None, 120),
]
# dunzeng/FeaderatedLearning-Mxnet (fetched by hand as /work/corpus/fedlearn): its clients talk to a server over
# sockets and read MNIST, so a driver (bench/drivers/xlate_local_train.py, copied into the project's root before
# conversion, and converted with it) runs one client's local training as Client.py does: the handler built on the project's MLP,
# trained two epochs on 64 random images, then the gradient it would send. Xavier's draws and the shuffled
# iterator make the numbers differ between the sides; the run itself is what counts.
FEDLEARN = [("", "xlate_local_train.py", [], None, 180)]
# wshuail/Deep_Learning_with_MXNet (dd29436, fetched by hand as /work/corpus/dlmx): one user's d2l-style scripts, run
# from the repository's root with it on sys.path (`from utils import ...`, the user's own `utils` package); Fashion-MNIST
# read from '../data/fashion_mnist' (synthetic idx files there). Shrunk to one epoch. The symbol scripts of 5-Symbol/
# are reported, not translated (the CIFAR-10 pickles they read are absent): not run.
_DLMX_SHRINK = {r"^(\s*)epochs = \d+": r"\g<1>epochs = 1", r"epochs=\d+\)": "epochs=1)",
                r"^(\s*)num_examples = 1000$": r"\g<1>num_examples = 100"}
DLMX = [("", f"{folder}/{name}.py", [], data, 480) for folder, name, data in (
    ("1-Supervised_Learning", "1.0-linear_regression", None),
    ("1-Supervised_Learning", "1.1-linear_regression_with_gluon", None),
    ("1-Supervised_Learning", "1.2-logistic_regression", "fashion-mnist"),
    ("1-Supervised_Learning", "1.3-linear_regression_with_gluon", "fashion-mnist"),
    ("1-Supervised_Learning", "1.4-perceptron", "fashion-mnist"),
    ("1-Supervised_Learning", "1.5-perceptron_with_gluon", "fashion-mnist"),
    ("1-Supervised_Learning", "1.6-regularization", None),
    ("1-Supervised_Learning", "1.7-regularization_with_gluon", None),
    ("1-Supervised_Learning", "1.8-dropout", "fashion-mnist"),
    ("1-Supervised_Learning", "1.9-dropout_with_gluon", "fashion-mnist"),
    ("2-Basic_Gluon", "2.0-build_network", None), ("2-Basic_Gluon", "2.1-initialize_parameters", None),
    ("2-Basic_Gluon", "2.2-serialization", None), ("2-Basic_Gluon", "2.3-customized_layer", None),
    ("3-CNN", "3.0-basic_cnn", "fashion-mnist"), ("3-CNN", "3.1-cnn_with_gluon", "fashion-mnist"),
    ("3-CNN", "3.2-normalization", "fashion-mnist"), ("3-CNN", "3.3-normalization_with_gluon", "fashion-mnist"),
    ("3-CNN", "3.4-AlexNet", "fashion-mnist:16"), ("3-CNN", "3.5-VGG", "fashion-mnist:16"),
    ("3-CNN", "3.6-NiN", "fashion-mnist:16"), ("3-CNN", "3.7-GoogleNet", "fashion-mnist:16"),
    ("3-CNN", "3.8-ResNet", "fashion-mnist:16"), ("3-CNN", "3.9-DenseNet", "fashion-mnist:16"),
    ("4-Optimization", "1.0-SGD", None))]
# MHaneferd/mxnet.gluon (3016ee1, /work/corpus/rlgluon): one user's Gluon reinforcement-learning scripts (A2C, A2C with
# an LSTM, DQN). The ASCII ones bring their own environment; the ViZDoom ones get bench/rl_stubs/ on both sides (a
# seeded stand-in for vizdoom's DoomGame, skimage's resize/rgb2gray and tqdm's trange: not installed here). Shrunk to a
# few episodes / steps. They sample actions at random, so their printed numbers differ between the sides.
_RL_SHRINK = {r"^EPISODES = \d+": "EPISODES = 3", r"^DISPLAY_COUNT = \d+": "DISPLAY_COUNT = 1",
              r"^LEARNING_STEPS = \d+": "LEARNING_STEPS = 20", r"^epochs = \d+": "epochs = 1",
              r"^learning_steps_per_epoch = \d+": "learning_steps_per_epoch = 40",
              r"^test_episodes_per_epoch = \d+": "test_episodes_per_epoch = 2", r"^batch_size = \d+": "batch_size = 8",
              r"^episodes_to_watch = \d+": "episodes_to_watch = 1", r"^frame_repeat = \d+": "frame_repeat = 1",
              r"(?m)^(\s*)sleep\((\d|\.)": r"\g<1>(lambda *a: None)(\2"}
RLGLUON = [(folder, script, [], None, 240) for folder, script in (
    ("gluon-a2c-ascii-env", "gluon-a2c.py"), ("gluon-a2c-lstm-ascii-fps", "gluon-a2c-lstm-ascii.py"),
    ("gluon-a2c-doom-vizdoom", "gluon-a2c-vizdoom.py"), ("gluon-a2c-vizdoom-LSTM", "gluon-a2c-lstm-vizdoom.py"),
    ("gluon-dqn-doom-vizdoom", "gluon-dqn-vizdoom.py"), ("AWS-mxnet-gluon-doom", "AWS-test.py"))]
# CoinCheung/GAN-mxnet (f73e238, /work/corpus/ganmx): GANs in the symbol/Module API (reported, not translated: not
# run) fed by a Gluon data pipeline, which a driver (bench/drivers/ganmx_data.py, copied into the tree before
# conversion) runs on synthetic MNIST under ~/.mxnet/datasets/mnist (HOME points into the run's folder).
GANMX = [("", "ganmx_data.py", [], "mnist", 240), ("CGAN", "ganmx_data.py", [], "mnist", 240)]
# AWS SageMaker examples' Gluon entry points (/work/corpus/smgluon, bench/package_corpus.py's corpus "smgluon"): run as
# SageMaker runs them, with its SM_* environment (one host, no GPU, SM_CHANNEL_* holding synthetic MNIST as `sm-mnist`
# lays it out); the debugger demos read MNIST/Fashion-MNIST from $MXNET_HOME. Shrunk to one epoch and small batches;
# the spot-training demo's last step reads SageMaker's debugger configuration (/opt/ml), dropped. Xavier's draws and
# shuffling differ between the sides, so the numbers printed differ; the run is what counts.
_SM_ENV = {"SM_MODEL_DIR": "{cwd}/model", "SM_CHANNEL_TRAINING": "{cwd}/sm", "SM_CHANNEL_TESTING": "{cwd}/sm",
           "SM_CURRENT_HOST": "algo-1", "SM_HOSTS": '["algo-1"]', "SM_NUM_GPUS": "0", "SM_NUM_CPUS": "1"}
_SM_SHRINK = {r"^    validate\(\)$": "    pass", r'"--epochs", type=int, default=\d+': '"--epochs", type=int, default=1'}
SMGLUON = [
    ("sagemaker-python-sdk/mxnet_gluon_mnist", "mnist.py", ["--batch-size", "16", "--log-interval", "4"],
     "sm-mnist", 240),
    ("frameworks/mxnet/code", "train.py", ["--batch-size", "16", "--log-interval", "4"], "sm-mnist", 240),
    ("sagemaker-debugger/mnist_tensor_plot/scripts", "mxnet_gluon_save_all_demo.py", ["--batch-size", "16"],
     "mnist,fashion-mnist", 240),
    ("sagemaker-debugger/mxnet_realtime_analysis/scripts", "mnist_gluon_realtime_visualize_demo.py",
     ["--batch-size", "16"], "fashion-mnist", 240),
    ("sagemaker-debugger/mxnet_spot_training", "mxnet_gluon_spot_training.py",
     ["--batch-size", "16", "--checkpoint-path", "."], "mnist", 240),
]
# (corpus folder, runs, substitutions applied to the script before conversion, options): root_on_path puts the
# converted (or original) folder on sys.path, as its user runs it; stubs: folders under bench/ on sys.path on both sides;
# drivers: files of bench/drivers/ copied into the folder's root before conversion; home: HOME set to the run's folder
SETS = {"mxnet-examples": (Path("/work/corpus/mxnet-examples"), EXAMPLES, {}, {}),
        "cookbook": (Path("/work/corpus/cookbook/src"), COOKBOOK, SHRINK, {}),
        "mxbook": (Path("/work/corpus/mxbook"), MXBOOK, {}, {}),
        "dlmx": (Path("/work/corpus/dlmx"), DLMX, _DLMX_SHRINK, {"root_on_path": True}),
        "rlgluon": (Path("/work/corpus/rlgluon"), RLGLUON, _RL_SHRINK, {"stubs": ["rl_stubs"]}),
        "ganmx": (Path("/work/corpus/ganmx"), GANMX, {}, {"root_on_path": True, "drivers": ["ganmx_data.py"],
                                                         "home": True}),
        "fedlearn": (Path("/work/corpus/fedlearn"), FEDLEARN, {}, {"drivers": ["xlate_local_train.py"]}),
        "smgluon": (Path("/work/corpus/smgluon"), SMGLUON, _SM_SHRINK, {"env": _SM_ENV})}

RUNNER = r'''
import runpy, sys, os
blocked, script, args = sys.argv[1] == "blocked", sys.argv[2], sys.argv[3:]
if blocked:
    class _Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("mxnet", "gluonnlp"):
                raise ImportError(f"{name} is blocked: the converted script must not need it")
    sys.meta_path.insert(0, _Blocker())
import importlib.util
from unittest import mock
for absent in ("matplotlib", "mpl_toolkits", "mxboard", "sklearn", "tqdm"):  # plots, logs, toy data: not installed here, stubbed on both sides
    if importlib.util.find_spec(absent) is None:
        sys.modules[absent] = mock.MagicMock()
for sub in ("matplotlib.pyplot", "mpl_toolkits.mplot3d"):
    if isinstance(sys.modules.get(sub.split(".")[0]), mock.MagicMock):
        sys.modules[sub] = getattr(sys.modules[sub.split(".")[0]], sub.split(".")[1])
sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
sys.path.insert(0, os.getcwd())
def there(url, path=None, **kwargs):  # the synthetic file is where the download would put it
    return os.path.join(path, url.split("/")[-1]) if path and not path.endswith(".gz") else path
if not blocked:
    import mxnet.gluon.data.vision.datasets as d
    d.download, d.check_sha1 = there, (lambda *a: True)
else:  # every `_mx_compat` the converted tree holds (one per package: `utils/_mx_compat.py` beside the top one)
    import importlib.machinery

    class _Stubbing(importlib.machinery.PathFinder):
        @classmethod
        def find_spec(cls, name, path=None, target=None):
            spec = super().find_spec(name, path, target)
            if spec is not None and name.rsplit(".", 1)[-1] == "_mx_compat" and spec.loader is not None:
                run = spec.loader.exec_module
                def exec_module(module, run=run):
                    run(module)
                    module._mx_download, module._mx_check_sha1 = there, (lambda *a: True)
                spec.loader.exec_module = exec_module
            return spec
    sys.meta_path.insert(1, _Stubbing)
sys.argv = [script] + args
runpy.run_path(script, run_name="__main__")
'''


def mnist_files(folder: Path, train: int = 256) -> None:
    """MNIST's four idx files, gzipped, of random pixels and labels (256 training, 32 test images:
    the RBM example shows 15 batches of 15; fewer training images where a set says `fashion-mnist:N`)."""
    import numpy as np

    rng = np.random.default_rng(0)
    folder.mkdir(parents=True, exist_ok=True)
    for prefix, n in (("train", train), ("t10k", 32)):
        images = rng.integers(0, 256, (n, 28, 28), dtype=np.uint8)
        labels = rng.integers(0, 10, n, dtype=np.uint8)
        with gzip.open(folder / f"{prefix}-images-idx3-ubyte.gz", "wb") as f:
            f.write(struct.pack(">IIII", 2051, n, 28, 28) + images.tobytes())
        with gzip.open(folder / f"{prefix}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(struct.pack(">II", 2049, n) + labels.tobytes())


def convert_with(xlate: Path, src: Path, out: Path, work: Path) -> subprocess.CompletedProcess:
    """`python -m xlate convert SRC -o OUT` with the converter of the tree `xlate`, run from `work`:
    `-m` puts the working directory before PYTHONPATH, so run from a checkout it would be that
    checkout's converter whatever `xlate` says."""
    return subprocess.run([sys.executable, "-m", "xlate", "convert", str(src), "-o", str(out), "--exit-zero", "-j", "1"],
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(xlate)), cwd=str(work))


def summarise(rows: list, noun: str, json_path) -> None:
    """The closing count (those that run in MXNet, and how many of them run converted) and the JSON."""
    ran = [r for r in rows if r["original"]["exit"] == 0]
    print(f"\n{len(rows)} {noun}; {len(ran)} run in MXNet; {sum(r['converted']['exit'] == 0 for r in ran)} of them run "
          f"converted without MXNet, {sum(bool(r.get('same_numbers')) for r in ran)} printing MXNet's numbers (programs that "
          "draw random numbers print others)")
    if json_path:
        json_path.write_text(json.dumps(rows, indent=1, default=str))


def run(cmd, cwd: Path, env: dict, timeout: float) -> dict:
    start = time.perf_counter()
    try:
        # a newline for each `input("Press Enter ...")` a script waits on
        proc = subprocess.run(cmd, cwd=str(cwd), env=env, capture_output=True, text=True, timeout=timeout,
                              input="\n" * 100)
        code, out = proc.returncode, (proc.stdout + proc.stderr)
    except subprocess.TimeoutExpired as e:
        code, out = "timeout", str(e.stdout or "")[-500:]
    lines = [ln for ln in out.splitlines() if ln.strip() and "Warning" not in ln]
    return {"exit": code, "seconds": round(time.perf_counter() - start, 1), "tail": lines[-3:],
            "numbers": numbers(lines)}


_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)")
_NOT_DATA = re.compile(r"<NDArray[^>]*>|dtype=[\w.]+|device=[\w:'\"()]+|requires_grad=\w+|grad_fn=<\w+>")


def numbers(lines: list) -> list:
    """The numbers a run printed, in order, with what only says how an array is stored left out (MXNet's
    `<NDArray 2x3 @cpu(0)>`, torch's `dtype=`/`device=`/`grad_fn=`): what two runs of the same program
    on MXNet and converted must print alike. Each is (value, half a unit of its last printed digit): torch
    prints 4 decimals where MXNet prints NumPy's shortest form (float16 `1.2` is torch's `1.2002`)."""
    found = []
    for ln in lines:
        for text in _NUMBER.findall(_NOT_DATA.sub(" ", ln)):
            mantissa, _, exponent = text.lower().partition("e")
            decimals = len(mantissa.partition(".")[2])
            found.append((float(text), 0.5 * 10.0 ** (int(exponent or 0) - decimals)))
    return found


def same_numbers(original: list, converted: list) -> bool:
    """The same numbers: each converted one to the precision torch printed it with, rtol 1e-4 beyond that (MXNet
    prints NumPy's shortest form, which stands for the array's value; a float16 `1.2` is 1.2002, printed so by
    torch, and differs)."""
    return len(original) == len(converted) and all(abs(x - y) <= uy + 1e-4 * abs(x) + 1e-5
                                                   for (x, _), (y, uy) in zip(original, converted))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--set", choices=sorted(SETS), default="mxnet-examples")
    p.add_argument("--corpus", type=Path, help="the set's folder (default: where the set says)")
    p.add_argument("--xlate", type=Path, default=REPO)
    p.add_argument("--json", type=Path)
    p.add_argument("--only", action="append")
    args = p.parse_args(argv)
    default_corpus, examples, shrink, options = SETS[args.set]
    args.corpus = args.corpus or default_corpus
    if not args.corpus.is_dir():
        print(f"no corpus at {args.corpus}: nothing to run")
        return 0
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        runner = work / "runner.py"
        runner.write_text(RUNNER)
        for folder, script, argv_, data, timeout in examples:
            if args.only and script not in args.only:
                continue
            src = args.corpus / folder
            drivers = options.get("drivers", [])
            if not (src / script).is_file() and script not in drivers:
                print(f"{folder}/{script}: missing")
                continue
            stem = script.replace("/", "_").replace(".py", "")
            if shrink or drivers:  # a shrunken copy of the folder (with the drivers), converted and run on both sides
                copy = work / "shrunk" / folder.replace("/", "_") / stem
                shutil.copytree(src, copy)
                for driver in drivers:
                    shutil.copy(HERE / "drivers" / driver, copy / driver)
                text = (copy / script).read_text(encoding="utf-8")
                for pattern, replacement in shrink.items():
                    text = re.sub(pattern, replacement, text, flags=re.M)
                (copy / script).write_text(text, encoding="utf-8")
                src = copy
            out = work / "converted" / folder.replace("/", "_") / stem
            conv = convert_with(args.xlate, src, out, work)
            row = {"example": f"{folder}/{script}".lstrip("/"), "convert_exit": conv.returncode}
            for side, where, blocked in (("original", src, "open"), ("converted", out, "blocked")):
                cwd = work / "run" / side / folder.replace("/", "_") / stem
                cwd.mkdir(parents=True, exist_ok=True)
                home = cwd / "mxnet_home"
                for spec in (data or "").split(","):
                    dataset, _, count = spec.partition(":")
                    if dataset in ("mnist", "fashion-mnist"):
                        for there_ in (home / "datasets" / dataset, cwd / "data",
                                       cwd.parent / "data" / dataset.replace("-", "_"),
                                       cwd / "home" / ".mxnet" / "datasets" / dataset):
                            mnist_files(there_, int(count or 256))
                    elif dataset == "sm-mnist":  # SageMaker's channel: the files at its top and in train/, test/
                        for there_ in (cwd / "sm", cwd / "sm" / "train", cwd / "sm" / "test"):
                            mnist_files(there_, int(count or 256))
                extra_env = {k: v.format(cwd=cwd) for k, v in options.get("env", {}).items()}
                if extra_env:
                    (cwd / "model").mkdir(exist_ok=True)
                path = [str(HERE / stub) for stub in options.get("stubs", [])]
                path += [str(where)] if options.get("root_on_path") else []
                env = dict(os.environ, MXNET_HOME=str(home), OMP_NUM_THREADS="1", PYTHONPATH=os.pathsep.join(path),
                           PYTHONWARNINGS="ignore", MPLBACKEND="Agg", **extra_env, **({"HOME": str(cwd / "home")}
                                                                         if options.get("home") else {}))
                row[side] = run([sys.executable, str(runner), blocked, str(where / script), *argv_], cwd, env, timeout)
            rows.append(row)
            o, c = row["original"], row["converted"]
            printed = same_numbers(o.pop("numbers"), c.pop("numbers"))
            row["same_numbers"] = o["exit"] == 0 == c["exit"] and printed
            print(f"{row['example']}: original exit {o['exit']} ({o['seconds']} s), converted exit {c['exit']} "
                  f"({c['seconds']} s), the same numbers printed: {row['same_numbers']}"
                  f"\n    original:  {' | '.join(o['tail'])[:300]}\n    converted: "
                  f"{' | '.join(c['tail'])[:300]}", flush=True)
    summarise(rows, "examples", args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
