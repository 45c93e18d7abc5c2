"""Development corpora of real Gluon code nobody tuned xlate to: what a conversion leaves (issue 21).

    .venv/bin/python bench/package_corpus.py                                   # every corpus, this repo's xlate
    .venv/bin/python bench/package_corpus.py --xlate /work/wt/base --json before.json > before.txt
    .venv/bin/python bench/package_corpus.py --only dgl-mxnet --no-imports --no-models

The corpora are fetched by hand under CORPUS_ROOT (default /work/corpus; see bench/README.md)
and never committed; a missing one is skipped with a message, and without mxnet or torch the
script says so and exits 0. The converter is the one of the xlate tree given with --xlate
(default: the repository holding this script), run as a user runs it, in a subprocess:

    PYTHONPATH=<xlate tree> python -m xlate convert CORPUS/<name> -o WORK/<name>/out \\
        --format json --exit-zero -j 1

The measuring code (xlate.check.leftovers, xlate.check's model comparison) is always this
repository's, so BEFORE and AFTER figures of two converters are measured the same way.

Per corpus it prints (and writes with --json):
  size        files, lines, files that use MXNet (an import, absolute or relative, that
              resolves to mxnet or gluonnlp; mxnet-gluon's own package is `mxnet.gluon`);
  report      the report's convert rate (MXNet references converted / found), items by
              level, the manual codes left, and the causes of manual items (code + the construct
              named in the message) with one file:line each;
  silent      modules that use MXNet and come back byte-identical with no report item at all,
              and MXNet references left in the output with no manual/review item at their
              original line (xlate/check/leftovers.py, Note [silent misses]; in pass-through
              modules every leftover is silent);
  F lines     output lines calling `F.<op>` where F is still MXNet's operator namespace (and of
              those, how many have a manual/review item at their original line or statement): the
              F parameter of a method still named hybrid_forward, an F parameter of another
              function (F passed to a helper), an F taken from an attribute or a call, an F
              imported/assigned from MXNet, an F the output uses but no longer defines, or a
              torch.nn.functional `F` whose attribute torch.nn.functional lacks;
  classes     Gluon blocks of the original (a base that is a subclass of mxnet.gluon.Block,
              checked on the installed mxnet, or another block of the corpus) that define
              forward/hybrid_forward: those whose converted class is a torch module (a base in
              torch, one of xlate's `_mx_` helpers, or another such class) but defines no
              `forward`, and those left without a torch base;
  parse       output files that parse (ast), next to the originals that parse;
  imports     package and test corpora: every module imported in a fresh subprocess (60 s),
              the original with mxnet installed, the converted one with a meta-path blocker
              that raises ImportError for mxnet and gluonnlp; third-party modules not installed
              here (and, for dgl-mxnet, dgl's core outside the corpus) are stubbed the same way
              on both sides (the stubs each module needed are listed); counts, and the modules
              that import before but not after, grouped by normalised error. Script corpora are
              only parsed: importing a script runs it;
  models      mxnet-gluon's model_zoo.vision (and gluon-face's model zoo): the Gluon model and
              the converted one built in one subprocess per model, random asymmetric weights
              (xlate.check.sides.mx_prepare), the checker's weight pairing
              (xlate.check.mapping.transfer), inference outputs at float32 tolerances, and for
              models marked `grad` xlate.check.pair.check_models in noise mode: builds /
              forward runs / pairs / outputs match / gradients match; where gradients differ,
              the same weights and input in float64 on both sides (greatest relative differences);
              imgclsmob's sample of model classes (bench/README.md), each built by its factory.

Harness plumbing, not xlate's output: mxnet-gluon's original modules are imported as the
installed `mxnet.gluon.*` when the corpus is byte-identical with it (checked; a relative import
above `gluon/` needs its parent package); the converted `gluon/` is copied under an empty
package `mxnet_pt/` (relative imports above `gluon/` reach it, not MXNet); for the model
comparison a converted package is copied as `<name>_pt` with its absolute imports of itself
renamed on their own lines, as bench/model_zoo.py does. For the leftover and class analyses of
mxnet-gluon, relative imports are read as the absolute `mxnet.gluon...` names they denote.

Always exits 0 unless the harness itself breaks: it measures, it does not gate.
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
PYTHON = sys.executable
MX_TOPS = ("mxnet", "gluonnlp")

# -- the corpora --------------------------------------------------------------------------
# kind: package (import every module of `packages`), tests (import every module), scripts (parse).
# packages: top-level folders of the corpus imported as packages; the rest is parsed only.
# absolute: how the original's top package is named where it is installed (mxnet-gluon).
# stub_inside: packages whose modules outside the corpus are stubbed (dgl's core, not installed).
# models: (original getter module, getter, [(name, input shape, gradients checked[, getter kwargs])]).
S32, G32 = [1, 3, 32, 32], [2, 3, 32, 32]
I224, SEG = [1, 3, 224, 224], {"in_size": [64, 64]}
IMGCLSMOB_MODELS = [
    ("airnet.airnet50_1x64d_r2", I224, False), ("bamresnet.bam_resnet18", I224, False),
    ("cgnet.cgnet_cityscapes", [1, 3, 64, 64], False, SEG), ("dabnet.dabnet_cityscapes", [1, 3, 64, 64], False, SEG),
    ("deeplabv3.deeplabv3_resnetd50b_voc", [1, 3, 64, 64], False, {**SEG, "aux": False}),
    ("diaresnet.diaresnet10", [2, 3, 224, 224], True), ("dpn.dpn68", I224, False),
    ("fastscnn.fastscnn_cityscapes", [1, 3, 64, 64], False, {**SEG, "aux": False}),
    ("fishnet.fishnet99", I224, False), ("hrnet.hrnet_w18_small_v1", I224, False),
    ("ibppose_coco.ibppose_coco", [1, 3, 64, 64], False, SEG), ("inceptionv3.inceptionv3", [1, 3, 299, 299], False),
    ("lednet.lednet_cityscapes", [1, 3, 64, 64], False, SEG), ("mixnet.mixnet_s", I224, False),
    ("mobilenetv2.mobilenetv2_w1", [2, 3, 224, 224], True), ("ntsnet_cub.ntsnet_cub", [1, 3, 448, 448], False, {"aux": False}),
    ("pnasnet.pnasnet5large", [1, 3, 331, 331], False), ("proxylessnas_cub.proxylessnas_cpu_cub", I224, False),
    ("regnet.regnetx002", [2, 3, 224, 224], True), ("resnesta.resnestabc14", I224, False),
    ("resnetd.resnetd50b", I224, False), ("scnet.scnet50", I224, False), ("seresnet.seresnet10", [2, 3, 224, 224], True),
    ("shakeshakeresnet_cifar.shakeshakeresnet20_2x16d_cifar10", G32, True),
    ("simplepose_coco.simplepose_resnet18_coco", [1, 3, 64, 48], False, {"in_size": [64, 48]}),
    ("spnasnet.spnasnet", I224, False), ("vovnet.vovnet27s", I224, False), ("wrn_cifar.wrn16_10_cifar10", G32, True)]
CORPORA: dict[str, dict] = {
    "mxnet-gluon": dict(
        kind="package", packages=["gluon"], absolute={"gluon": "mxnet.gluon"}, parent_pt="mxnet_pt",
        source="apache/mxnet tag 1.9.1 (3f8f3be9), python/mxnet/gluon/ -> mxnet-gluon/gluon/",
        models=("gluon.model_zoo.vision", "get_model", [
            ("resnet18_v1", G32, True), ("resnet18_v2", G32, True), ("vgg11", S32, False),
            ("alexnet", [2, 3, 64, 64], True), ("densenet121", [1, 3, 224, 224], False),
            ("squeezenet1.0", [1, 3, 224, 224], False), ("mobilenet1.0", S32, False),
            ("mobilenetv2_1.0", S32, False), ("inceptionv3", [1, 3, 299, 299], False)])),
    "mxnet-gluon-tests": dict(
        kind="tests", source="apache/mxnet tag 1.9.1 (3f8f3be9), tests/python/unittest/test_gluon*.py"),
    # import_inits_only: only the packages' __init__ modules are imported (each imports its modules; one subprocess a
    # module on both sides for GluonCV's 323 would take most of an hour); import_exclude: folders not imported.
    "gluoncv-v0.10.0": dict(
        kind="package", packages=["gluoncv"], import_inits_only=True, import_exclude=["gluoncv/torch/"],
        source="dmlc/gluon-cv tag v0.10.0 (3862e2db), gluoncv/ (its model zoo: bench/model_zoo.py)"),
    "gluoncv-scripts": dict(kind="scripts", source="dmlc/gluon-cv tag v0.10.0 (3862e2db), scripts/"),
    "gluonnlp-scripts": dict(kind="scripts", source="dmlc/gluon-nlp branch v0.10.x (b4d7c0ff), scripts/"),
    "dgl-mxnet": dict(
        kind="package", packages=["dgl"], stub_inside=["dgl"],
        source="dmlc/dgl tag v1.1.3 (6e2c0f48), python/dgl/nn/mxnet/ and python/dgl/backend/mxnet/ "
               "-> dgl-mxnet/dgl/nn/mxnet/, dgl-mxnet/dgl/backend/mxnet/, with docstring-only stand-ins for "
               "dgl/__init__.py, dgl/nn/__init__.py, dgl/backend/__init__.py (DGL's load its C core)"),
    "gluon-face": dict(
        kind="package", packages=["gluonfr"],
        source="THUFutureLab/gluon-face tag v1.0.2 (c06ed032), gluonfr/ examples/ scripts/",
        models=("gluonfr.model_zoo", "get_model", [
            ("mobilefacenet", [2, 3, 112, 112], True, {"classes": 10}),
            ("l_se_resnet18v2", [1, 3, 112, 112], False, {"classes": 10}),
            ("attentionfacenet56", [1, 3, 112, 112], False, {"classes": 10})])),
    "insightface-arcface": dict(
        kind="scripts",
        source="deepinsight/insightface master (7fadd420), recognition/arcface_mxnet/ (MXNet symbol API and Gluon)"),
    # models with getter None: each name is `module.factory` under the models package, called with its kwargs.
    # The sample (bench/README.md): every 5th file of gluoncv2/models/ (sorted; not __init__, common, model_store),
    # its first factory in __all__; a network taking a second, non-image input (jasperdr, visemenet) is replaced by
    # the next file's. The _test() input size of each file, segmentation nets at in_size 64x64; gradients for 6.
    "imgclsmob": dict(
        kind="package", packages=["gluoncv2"],
        source="osmr/imgclsmob master (c1a844dd), gluon/gluoncv2/ -> imgclsmob/gluoncv2/",
        models=("gluoncv2.models", None, IMGCLSMOB_MODELS)),
    "jonggon-gluon": dict(
        kind="scripts", source="JONGGON/Mxnet_Tutorial master (9892dbd), Gluon/ (one user's Gluon tutorials, 2017-18)"),
    "cookbook": dict(
        kind="scripts", source="gilbertfrancois/mxnet-cookbook master (c10ebd9), src/ (run: example_runs.py --set cookbook)"),
    "packt": dict(
        kind="scripts", source="PacktPublishing/Deep-Learning-with-MXNet-Cookbook master (165248a), a Gluon tutorial "
                               "book (2023): its notebooks as scripts and its modules (bench/packt_extract.py)"),
    "mxnet-examples": dict(
        kind="scripts",
        source="apache/mxnet tag 1.9.1 (3f8f3be9), example/: every folder holding a .py that mentions gluon"),
    # deps: a folder under the corpus root put on the children's sys.path (pip install --target: pydantic<2, pandas,
    # toolz, tqdm for gluonts; not xlate's dependencies). import_mx_only: only modules that use MXNet are imported.
    "gluonts": dict(
        kind="package", packages=["gluonts"], deps="_deps", import_mx_only=True,
        source="awslabs/gluonts tag v0.11.12 (773a6ffd), src/gluonts/ less nursery/ and torch/ -> gluonts/gluonts/",
        factories=("package_models", "GLUONTS")),
    # gluonnlp's own source: the corpus's package is named like an MXNet-side top (MX_TOPS), so there `gluonnlp` is
    # the tree's, never MXNet's (own_tops). Plumbing: the Cython tokenizer built from the same .pyx is copied from the
    # installed gluonnlp 0.10.0 (`data/fast_bert_tokenizer.*.so`); xlate copies it into the output as any other file.
    "gluonnlp-pkg": dict(
        kind="package", packages=["gluonnlp"],
        source="dmlc/gluon-nlp branch v0.10.x (b4d7c0ff), src/gluonnlp/ -> gluonnlp-pkg/gluonnlp/, with the installed "
               "0.10.0's fast_bert_tokenizer .so (same .pyx)",
        factories=("package_models", "GLUONNLP")),
    # gluonts v0.6.9: models under model/, distribution/block/kernels under mx/, every model MXNet. Its deps folder
    # adds setuptools (pkg_resources, imported by gluonts/__init__) and ujson to _deps's.
    "gluonts-v0.6": dict(
        kind="package", packages=["gluonts"], deps="_deps06", import_mx_only=True,
        source="awslabs/gluonts tag v0.6.9 (68c79be5), src/gluonts/ less torch/ -> gluonts-v0.6/gluonts/",
        factories=("package_models", "GLUONTS_V06")),
    # gluonts v0.10.10: models still under model/ (as in v0.6), blocks, distributions and the trainer under mx/ (as in
    # v0.11); the v0.6 factories' paths hold, with v0.10's signatures (GLUONTS_V010).
    "gluonts-v0.10": dict(
        kind="package", packages=["gluonts"], deps="_deps06", import_mx_only=True,
        source="awslabs/gluonts tag v0.10.10 (b9834270), src/gluonts/ less nursery/ and torch/ -> gluonts-v0.10/gluonts/, _version.py as the released wheel writes it (__version__ = \"0.10.10\")",
        factories=("package_models", "GLUONTS_V010")),
    # kept out of tuning (issue 21: versions nobody tuned to): gluonts v0.8.1, the v0.6/v0.10 layout
    "gluonts-v0.8": dict(
        kind="package", packages=["gluonts"], deps="_deps06", import_mx_only=True,
        source="awslabs/gluonts tag v0.8.1 (20f5ba16), src/gluonts/ less nursery/ and torch/ -> gluonts-v0.8/gluonts/ "
               "(git archive fills _static_version.py's refnames, so the version resolves without git)",
        factories=("package_models", "GLUONTS_V08")),
    # kept out of tuning: gluonts v0.13.9, the v0.11 layout (models under mx/model/); its MXNet part only (the
    # PyTorch models under torch/ and nursery/ removed, as for v0.11)
    "gluonts-v0.13": dict(
        kind="package", packages=["gluonts"], deps="_deps", import_mx_only=True,
        source="awslabs/gluonts tag v0.13.9 (a3ac8600), src/gluonts/ less nursery/ and torch/ -> gluonts-v0.13/gluonts/",
        factories=("package_models", "GLUONTS_V013")),
    "sockeye22": dict(
        kind="package", packages=["sockeye"], deps="_deps",
        source="awslabs/sockeye tag 2.2.8 (cbe9bff8), sockeye/ -> sockeye22/sockeye/ (kept out of tuning)",
        factories=("package_models", "SOCKEYE22")),
    # gluonnlp-based BERT/GPT-2 scoring, half MXNet, half PyTorch (transformers' masked-LM classes): transformers and
    # mosestokenizer, not installed here, are stubbed on both sides (stub_missing)
    "mlm-scoring": dict(
        kind="package", packages=["mlm"], stub_missing=True, deps="_deps",
        source="awslabs/mlm-scoring master (a8fd29f), src/mlm/ -> mlm-scoring/mlm/, tests/, examples/ (every .py; "
               "kept out of tuning)",
        factories=("package_models", "MLM")),
    "sockeye2": dict(
        kind="package", packages=["sockeye"], deps="_deps",
        source="awslabs/sockeye tag 2.3.24 (35dd717a), sockeye/ (Gluon; sockeye 3 is PyTorch)",
        factories=("package_models", "SOCKEYE")),
    "sockeye21": dict(
        kind="package", packages=["sockeye"], deps="_deps",
        source="awslabs/sockeye tag 2.1.7 (the first 2.x tag kept), sockeye/ -> sockeye21/sockeye/",
        factories=("package_models", "SOCKEYE21")),
    # sknlp: a Gluon/gluonnlp text-classification package written for MXNet 1.4 and gluonnlp 0.6, with its own
    # pytest suite under tests/ (run converted by hand: bench/README.md).
    "sknlp": dict(
        kind="package", packages=["sknlp"], deps=["_depsknlp", "_deps"],
        source="nanaya-tachibana/sknlp-mxnet (657460f), every .py (sknlp/, tests/, two scripts)",
        factories=("package_models", "SKNLP")),
    # flat: folders whose modules import each other by bare name (the scripts put their folders on sys.path
    # themselves); each is a sys.path root, its modules imported by bare name, before from the corpus and
    # after from the converted tree. models_flat: the same for the model factories alone.
    "spos": dict(
        kind="package", packages=[], flat=["", "utils", "quantization", "MicroNetChallenge"],
        source="CanyonWind/Single-Path-One-Shot-NAS-MXNet (364cd33), every .py",
        factories=("package_models", "SPOS"),
        # MXNet 1.9.1's oneDNN kernels fail in the supernets' backward ("could not construct a sub-memory", with
        # MXNet alone): the MXNet side of the models runs MXNet's own CPU kernels
        mx_env={"MXNET_MKLDNN_ENABLED": "0"}),
    # handwriting OCR (bench/htr_extract.py): ocr/ is the package; get_models.py and the notebooks as scripts
    # (notebooks/, parsed only: each reads the IAM dataset or downloads parameters)
    "htr": dict(
        kind="package", packages=["ocr"],
        source="awslabs/handwritten-text-recognition-for-apache-mxnet master (d0079cb), ocr/ get_models.py, "
               "its 9 notebooks as scripts under notebooks/",
        factories=("package_models", "HTR")),
    # MXNetSeg's models build their backbones with GluonCV's model zoo (resnet18_v1b ...): GluonCV v0.10.0 (the
    # gluoncv-v0.10.0 corpus) is on the originals' path and converted with the same converter for the converted
    # side; _segdeps: a stand-in matplotlib (mxnetseg.utils imports pyplot; not installed here); _deps: tqdm and
    # portalocker, _zoodeps: scipy (what gluoncv imports). The import stage stubs gluoncv on both sides as any
    # package not installed.
    "mxnetseg": dict(
        kind="package", packages=["mxnetseg"],
        source="BebDong/MXNetSeg master (43cdb70), mxnetseg/ scripts/ (less scripts/NYUv2/labels40.mat)",
        model_deps=["gluoncv-v0.10.0", "_segdeps", "_deps", "_zoodeps"], convert_deps={"gluoncv": "gluoncv-v0.10.0"},
        factories=("package_models", "MXNETSEG")),
    # CenterNet's own folders are top-level packages imported by absolute name (`from models.hourglass import`); the
    # scripts at its root (train*.py, demo.py, opts.py ...) and unit_test/ are parsed only (bench/centernet_tests.py
    # runs the unit tests).
    "centernet": dict(
        kind="package", packages=["models", "detectors", "utils", "dataset"],
        source="Guanghan/mxnet-centernet master (82f6ccf)",
        factories=("package_models", "CENTERNET")),
    # AutoGluon's MXNet-era package: tabular NN (Gluon HybridBlocks and a Gluon training loop), its own model_zoo,
    # text classification on gluonnlp's BERT, vision tasks on GluonCV. Its third-party imports (ConfigSpace, dask,
    # distributed, psutil, gluoncv, lightgbm ...) are stubbed on both sides where not installed; _depsknlp brings
    # scikit-learn and scipy, _deps pandas and tqdm. Its package __init__ imports every task, so one module's
    # failure is every module's: import_mx_only keeps the import stage to the modules that use MXNet.
    "autogluon015": dict(
        kind="package", packages=["autogluon"], deps=["_depsknlp", "_deps"], import_mx_only=True, stub_missing=True,
        source="autogluon/autogluon tag v0.0.15 (the MXNet-era package), autogluon/ tests/, with a one-line "
               "autogluon/version.py (setup.py writes it at install) and bo_algorithm.py's NamedTuple without its second "
               "base (Python >= 3.9 refuses it; marked on its line)",
        factories=("package_models", "AUTOGLUON")),
    # MXNet-Detector: six detectors, each folder a root of its own whose scripts import its package `core` by
    # absolute name (`from core import Yolov3`), so six packages named `core` (roots). core/__init__ imports GluonCV's
    # dataloader and VOC metric, matplotlib, onnx and plotly at module level: GluonCV v0.10.0 as for mxnetseg;
    # _detdeps holds docstring-only stand-ins for onnx and plotly (not installed here).
    "mxdet": dict(
        kind="package", packages=["core"], roots=["Center", "Efficient", "GaussianYoloV3", "RETINA", "SSD", "YoloV3"],
        source="DeepFocuser/MXNet-Detector master (de94796), every .py (less the reference PDF and datasets)",
        deps=["_detdeps", "_segdeps", "_deps"],
        model_deps=["gluoncv-v0.10.0", "_zoodeps"], convert_deps={"gluoncv": "gluoncv-v0.10.0"},
        factories=("package_models", "MXDET")),
    # the code of a published MXNet book (chapters: symbol/Module API, Gluon, GluonCV); scripts in folders with
    # hyphens, parsed only (example_runs.py --set mxbook runs the Gluon ones on synthetic data)
    "mxbook": dict(
        kind="scripts", source="miraclewkf/MXNet-Deep-Learning-in-Action master (HEAD), every .py (data blobs absent)",
        models_flat=[""], factories=("package_models", "MXBOOK")),
    # scripts individual users wrote (issue 21's "new users' scripts"); runs: example_runs.py --set dlmx / rlgluon
    "dlmx": dict(
        kind="scripts", source="wshuail/Deep_Learning_with_MXNet master (dd29436), every .py (d2l-style Gluon scripts, "
                               "a symbol-API folder)"),
    "rlgluon": dict(
        kind="scripts", source="MHaneferd/mxnet.gluon master (3016ee1), every .py (Gluon A2C/DQN on ViZDoom or ASCII games)"),
    "ganmx": dict(
        kind="scripts", source="CoinCheung/GAN-mxnet master (f73e238), every .py (GANs in the symbol/Module API; "
                               "a Gluon data pipeline)"),
    # a Gluon quantization-aware-training library: top-level packages nn/ and quantize/ beside tests/ (pytest, its
    # modules put `..` on sys.path and import `quantize`, `nn` by absolute name) and examples/ (parsed only)
    "quantmx": dict(
        kind="package", packages=["nn", "quantize"], models_flat=["", "tests"],
        source="hey-yahei/Quantization.MXNet master (HEAD), every .py",
        factories=("package_models", "QUANTMX")),
    # BMXNet v2's examples: Gluon models of binary networks written for BMXNet, a fork of MXNet whose gluon.nn has
    # QConv2D, QDense, QActivation, activated_conv, set_binary_layer_config and NDArray.det_sign; MXNet 1.9.1 has
    # none of them, so the binary models build on neither side (the fork's operators are reported at their lines).
    # binary_models/, datasets/, util/ are packages imported by absolute name from the root; the scripts at the root,
    # mnist/ and model_converter/ are parsed only.
    "bmx2": dict(
        kind="package", packages=["binary_models", "datasets", "util"],
        source="hpi-xnor/BMXNet-v2-examples master (a5cd3be), every .py",
        factories=("package_models", "BMX2")),
    # one user's logo classifier: scripts (trainer/, data/), GluonCV's model zoo and cv2 imported at the top
    # (stubbed where not installed); data blobs absent
    "matchbox": dict(
        kind="scripts", source="gregbugaj/mxnet-matchbox master (44f7bf6), every .py (data archives absent)",
        models_flat=["trainer"], stub_missing=True, factories=("package_models", "MATCHBOX")),
    # federated learning over sockets: Tools/, Fed_Client/, Fed_Server/ are packages from the root, Algorithm/ a
    # folder without __init__.py imported as `from Algorithm import CNN` (a namespace package) and its modules by
    # bare name in the models (models_flat)
    "fedlearn": dict(
        kind="package", packages=["Tools", "Fed_Client", "Fed_Server"],
        source="dunzeng/FeaderatedLearning-Mxnet master (3988775), every .py (MNIST blobs absent)",
        models_flat=["", "Algorithm", "Algorithm/CNNs"], factories=("package_models", "FEDLEARN")),
    # MXFusion: probabilistic programming on Gluon (F as a value in every distribution/function/kernel, HybridBlocks for
    # inference); its pytest suite under testing/ (imported as modules here; run converted: bench/README.md). _zoodeps
    # brings scipy; networkx is in the venv; GPy (5 test modules compare with it) is stubbed on both sides.
    "mxfusion": dict(
        kind="package", packages=["mxfusion"], deps=["_zoodeps"], stub_missing=True,
        source="amzn/MXFusion master (af6223e, 2019), every .py (mxfusion/, testing/, setup.py, docs/conf.py)"),
    # a Gluon CRNN OCR package: top-level packages imported by absolute name from the root (`from models.modules
    # import *`; the model picks its parts by eval of a config name); train.py/predict.py at the root parsed only.
    # gluoncv (the ResNet-FPN backbone) and the data tools' lmdb/anyconfig are stubbed where not installed.
    "crnngluon": dict(
        kind="package", packages=["models", "base", "data_loader", "trainer", "utils"], models_flat=[""],
        stub_missing=True, source="WenmuZhou/crnn.gluon master (cef4483), every .py (config, fonts, alphabet absent)",
        factories=("package_models", "CRNNGLUON")),
    # gluon-detector: SSD, RetinaNet, CenterNet and YOLOv3 on COCO with NVIDIA DALI pipelines. lib/ is the package
    # (its scripts insert the repository's root into sys.path and import `lib.*`; lib/anchor/, lib/data/mscoco/ and
    # lib/modelzoo/yolo/ have no __init__.py: namespace packages); tools/ parsed only. The networks cut a GluonCV
    # backbone's symbol graph into a SymbolBlock (lib/modelzoo/feature.py): GluonCV v0.10.0 as for mxnetseg.
    # nvidia.dali and pycocotools, not installed here, are stubbed on both sides (stub_missing).
    "gluondet": dict(
        kind="package", packages=["lib"], stub_missing=True,
        source="wshuail/gluon-detector master (2f77234, 2019-10-08), every .py (lib/, tools/) and cfgs/",
        model_deps=["gluoncv-v0.10.0", "_segdeps", "_deps", "_zoodeps"], convert_deps={"gluoncv": "gluoncv-v0.10.0"},
        factories=("package_models", "GLUONDET")),
    # Gluon-Box: an mmdetection-style FCOS detector on Gluon (backbones, FPN neck, anchor-free heads, losses, a
    # registry of modules built from config dicts). gbox/ and utils/ are top-level packages of the root; gbox's
    # __init__ imports its subpackages Python-2 style (`from core import *`). pycocotools stubbed (stub_missing).
    # Four of its files do not parse (work in progress): keep_going converts with --keep-going, as a user would.
    "gluonbox": dict(
        kind="package", packages=["gbox", "utils"], stub_missing=True, keep_going=True,
        source="KunyFox/Gluon-Box master (155b166, 2021-01-24), every .py"),
    # GluonOCR: text detection (DB, EAST, CLRS) and recognition (CRNN, attention) on its own backbones; the package
    # gluonocr/ (scripts/ parsed only). Its backbones and CLRS import GluonCV (HardSwish, the box decoders; the SSD
    # target generator) at module level: GluonCV v0.10.0 for the models, as for mxnetseg; shapely, imgaug,
    # pyclipper, lmdb and editdistance (its data tools and post-processing) are stubbed where not installed.
    "gluonocr": dict(
        kind="package", packages=["gluonocr"], stub_missing=True,
        source="Davids929/gluon-ocr master (5ac697c, 2020-12-03), every .py (doc/simfang.ttf absent)",
        model_deps=["gluoncv-v0.10.0", "_segdeps", "_deps", "_zoodeps"], convert_deps={"gluoncv": "gluoncv-v0.10.0"},
        factories=("package_models", "GLUONOCR")),
    # ResNeSt's Gluon half (split-attention ResNets, DropBlock, its own image transforms; the PyTorch half is
    # left out): resnest/ with an empty __init__, resnest/gluon/ the package, scripts/gluon/ and tests/ parsed only
    "resnest": dict(
        kind="package", packages=["resnest"],
        source="zhanghang1989/ResNeSt master (1dfb3e8), resnest/__init__.py resnest/gluon/ scripts/gluon/ "
               "tests/test_gluon.py",
        factories=("package_models", "RESNEST")),
    # Attentional Feature Fusion (open-aff): model/ and utils/ are packages imported by absolute name from the
    # root (its two training scripts, parsed only); the repository's own PyTorch port (aff_pytorch/) left out
    "openaff": dict(
        kind="package", packages=["model", "utils"], stub_missing=True,
        source="YimianDai/open-aff master (0bcfd8a), every .py but aff_pytorch/",
        factories=("package_models", "OPENAFF")),
    # Xfer: transfer learning by repurposing a trained MXNet model (the Module API: feature extraction, fine
    # tuning, random freezing) and a Gluon Bayesian neural network with its own variational distributions (prob/)
    "xfer": dict(
        kind="package", packages=["xfer"], stub_missing=True,
        source="amzn/xfer master (860ec41), xfer-ml/xfer, xfer-ml/tests, setup.py, docs/conf.py"),
    # a Faster R-CNN written in Gluon before GluonCV had one: rcnn/ (anchor and proposal targets as registered
    # CustomOps called through F.Custom, MultiProposal, box decoders, losses with advanced indexing), dataset/
    # and utils/ beside it; the training and test scripts at the root parsed only
    "fasterrcnn": dict(
        kind="package", packages=["rcnn", "dataset", "utils"], stub_missing=True,
        source="WalterMa/gluon-faster-rcnn master (0e786f5), every .py",
        factories=("package_models", "FASTERRCNN")),
    # GANs in Gluon (DCGAN, WGAN, CycleGAN, conditional GAN, BEGAN), one folder each, without __init__.py: each
    # folder's scripts import `model` by bare name; the factories import dcgan/wgan/cyclegan as namespace
    # packages from the root (`dcgan.model`), which their modules allow (they import only mxnet)
    "gluongan": dict(
        kind="scripts", source="nuppt/gluon-gan master (0b53eda), every .py",
        models_flat=[""], stub_missing=True, factories=("package_models", "GLUONGAN")),
    # AWS SageMaker examples' MXNet/Gluon entry-point scripts (train loops with kvstore, model_fn/transform_fn
    # serving functions), every .py importing mxnet, in their folders (runs: example_runs.py --set smgluon)
    "smgluon": dict(
        kind="scripts", source="aws/amazon-sagemaker-examples 9c1491f9a (2023-07, before the MXNet examples were "
                               "pruned) every .py importing mxnet, and 75abc11d6 (2021-06) for horovod_mnist and dgl_kge"),
}


def missing_frameworks() -> list[str]:
    import importlib.util

    return [m for m in ("mxnet", "torch", "libcst") if importlib.util.find_spec(m) is None]


# -- 1. conversion -------------------------------------------------------------------------
def convert(src: Path, out: Path, xlate_tree: Path, timeout: float, keep_going: bool = False) -> dict:
    """`python -m xlate convert SRC -o OUT --format json --exit-zero -j 1` with the chosen tree
    (`--keep-going` for a corpus with files that do not parse: the others are written)."""
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, PYTHONPATH=str(xlate_tree), OMP_NUM_THREADS="1")
    cmd = [PYTHON, "-m", "xlate", "convert", str(src), "-o", str(out), "--format", "json", "--exit-zero",
           "-j", "1"] + (["--keep-going"] if keep_going else [])
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=timeout, cwd=str(out.parent))
        code, err = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as e:
        code, err = "timeout", (e.stderr or b"").decode(errors="replace") if isinstance(e.stderr, bytes) else (e.stderr or "")
    seconds = time.perf_counter() - start
    report = None
    start_at = err.find("{")
    if start_at >= 0:
        try:
            report, _ = json.JSONDecoder().raw_decode(err[start_at:])
        except json.JSONDecodeError:
            report = None
    crash = None
    if (code != 0 and not (keep_going and code == 2)) or report is None:  # 2: files that do not parse, listed
        crash = f"exit code {code}; stderr tail: {err[-1500:]}"
    return {"exit_code": code, "seconds": round(seconds, 1), "report": report or {"files": [], "summary": {}},
            "crash": crash}


# -- 2. static analyses of one file -------------------------------------------------------
def module_name(rel: str) -> str:
    parts = list(Path(rel).with_suffix("").parts)
    if parts and parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def absolute_module(rel: str, absolute: dict[str, str]) -> str:
    """The dotted name of a module of the corpus, with its top package renamed (mxnet-gluon)."""
    name = module_name(rel)
    top, _, rest = name.partition(".")
    if top in absolute:
        return absolute[top] + ("." + rest if rest else "")
    return name


def resolve_from(node: ast.ImportFrom, rel: str, absolute: dict[str, str]) -> str:
    if node.level == 0:
        return node.module or ""
    if (node.module or "").split(".")[-1] == "_mx_compat":
        absolute = {}  # xlate's helper module of the converted tree, never MXNet's (mxnet-gluon's `gluon/`)
    package = absolute_module(rel, absolute).split(".")
    if not rel.endswith("__init__.py"):
        package = package[:-1]
    base = package[:len(package) - (node.level - 1)] if node.level - 1 <= len(package) else []
    return ".".join(base + ([node.module] if node.module else []))


def import_table(tree: ast.AST, rel: str, absolute: dict[str, str]) -> dict[str, str]:
    """local name -> the dotted name it was imported as (every import of the file, any scope)."""
    table: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname:
                    table[a.asname] = a.name
                else:
                    table[a.name.split(".")[0]] = a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            mod = resolve_from(node, rel, absolute)
            for a in node.names:
                if a.name != "*":
                    table[a.asname or a.name] = f"{mod}.{a.name}" if mod else a.name
    return table


def mx_tops(cfg: dict) -> tuple:
    """The tops that are MXNet's side for a corpus: gluonnlp's own source is the tree, not MXNet."""
    return tuple(t for t in MX_TOPS if t not in cfg.get("packages", ()))


def uses_mxnet(tree: ast.AST, rel: str, absolute: dict[str, str], own: frozenset = frozenset(),
               tops: tuple = MX_TOPS) -> bool:
    """An import that resolves to mxnet or gluonnlp (`tops`). In a module that only re-exports (imports, a
    docstring, `__all__`), an import of the corpus's own modules does not count: mxnet-gluon's
    package `__init__` modules (`from ..block import *`, `from .basic_layers import *`) name the
    tree's own modules `mxnet.gluon.*` and use no MXNet of their own."""
    if not _reexports_only(tree):
        own = frozenset()
    for node in ast.walk(tree):
        mods = []
        if isinstance(node, ast.Import):
            mods = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            mods = [resolve_from(node, rel, absolute)]
        if any(m.split(".")[0] in tops and m not in own for m in mods):
            return True
    return False


def _reexports_only(tree: ast.AST) -> bool:
    for stmt in tree.body:
        if isinstance(stmt, (ast.Import, ast.ImportFrom)) or (
                isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)):
            continue
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] \
            if isinstance(stmt, ast.AugAssign) else []
        if not targets or not all(isinstance(t, ast.Name) and t.id == "__all__" for t in targets):
            return False
    return True


_REL_FROM = re.compile(r"^(\s*from\s+)(\.+)([\w.]*)(\s+import\b)")


def absolutize(text: str, rel: str, absolute: dict[str, str]) -> str:
    """Relative imports as the absolute names they denote, each on its own line (same lines)."""
    if not absolute:
        return text
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text
    lines = text.splitlines(keepends=True)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level:
            i = node.lineno - 1
            target = resolve_from(node, rel, absolute)
            if target:
                lines[i] = _REL_FROM.sub(lambda m: f"{m.group(1)}{target}{m.group(4)}", lines[i], count=1)
    return "".join(lines)


def dotted(node) -> str | None:
    """`a.b.c` for a Name/Attribute chain, as xlate reads it."""
    from xlate.convert.kinds import ast_dotted
    return ast_dotted(node)


_MX_BLOCK_CACHE: dict[str, bool] = {}


def is_mx_block(name: str) -> bool:
    """Whether a dotted name is a subclass of mxnet.gluon.Block (looked up on the installed mxnet)."""
    if name not in _MX_BLOCK_CACHE:
        ok = False
        if name.split(".")[0] in MX_TOPS:
            import importlib

            try:
                import mxnet

                parts = name.split(".")
                obj = None
                for i in range(len(parts), 0, -1):
                    try:
                        obj = importlib.import_module(".".join(parts[:i]))
                        for attr in parts[i:]:
                            obj = getattr(obj, attr)
                        break
                    except (ImportError, AttributeError):
                        obj = None
                        continue
                ok = isinstance(obj, type) and issubclass(obj, mxnet.gluon.Block)
            except Exception:
                ok = False
        _MX_BLOCK_CACHE[name] = ok
    return _MX_BLOCK_CACHE[name]


def class_infos(tree: ast.AST, rel: str, absolute: dict[str, str]) -> list[dict]:
    table = import_table(tree, rel, absolute)
    own = absolute_module(rel, absolute)
    infos, seen = [], Counter()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ClassDef):
            continue
        seen[node.name] += 1  # tests define `Net` in many functions: the nth class of that name
        bases = []
        for b in node.bases:
            d = dotted(b)
            if d is None:
                continue
            head, _, rest = d.partition(".")
            bases.append((table.get(head, head) + ("." + rest if rest else ""), d.split(".")[-1]))
        methods = {n.name for n in node.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        infos.append({"name": node.name, "nth": seen[node.name], "line": node.lineno, "bases": bases, "methods": methods,
                      "qualified": f"{own}.{node.name}"})
    return infos


def inherits_forward(cls: dict, out_classes: dict) -> bool:
    """A base of the converted tree (by qualified name, through its bases) defines `forward`: sockeye's
    `Encoder.forward` calls `self.hybrid_forward(...)`, which its subclasses define and keep."""
    by_name = {c["qualified"]: c for c in out_classes.values()}

    def bases(c):  # a base of the same module is named bare
        module = c["qualified"].rsplit(".", 1)[0]
        return [full if full in by_name else f"{module}.{full}" for full, _ in c["bases"]]

    todo, seen = bases(cls), set()
    while todo:
        base = by_name.get(todo.pop())
        if base is None or base["qualified"] in seen:
            continue
        seen.add(base["qualified"])
        if "forward" in base["methods"]:
            return True
        todo += bases(base)
    return False


def gluon_blocks(classes: dict[str, list[dict]]) -> set[tuple[str, str, int]]:
    """(rel, class name, nth of that name) of every Gluon block of the corpus: its own name or a base is a
    subclass of mxnet.gluon.Block, or a base is (by name) another block of the corpus."""
    blocks: set[tuple[str, str]] = set()
    names: set[str] = set()
    for rel, infos in classes.items():
        for c in infos:
            if is_mx_block(c["qualified"]) or any(is_mx_block(full) for full, _ in c["bases"]):
                blocks.add((rel, c["name"], c["nth"]))
                names.add(c["name"])
    changed = True
    while changed:
        changed = False
        for rel, infos in classes.items():
            for c in infos:
                if (rel, c["name"], c["nth"]) not in blocks and any(last in names for _, last in c["bases"]):
                    blocks.add((rel, c["name"], c["nth"]))
                    names.add(c["name"])
                    changed = True
    return blocks


def torch_classes(classes: dict[tuple, dict]) -> set[tuple]:
    """Output classes that are torch modules: a base resolves to torch, is one of xlate's
    helpers (`_mx_Dense`), or is (by name) another such class of the tree."""
    found = {key for key, c in classes.items()
             if any(full.split(".")[0] == "torch" or last.startswith("_mx_") for full, last in c["bases"])}
    names = {key[1] for key in found}
    changed = True
    while changed:  # noqa: the same fixed point as gluon_blocks
        changed = False
        for key, c in classes.items():
            if key not in found and any(last in names for _, last in c["bases"]):
                found.add(key)
                names.add(key[1])
                changed = True
    return found


def _reported_lines(original: str, converted: str, diagnostics: list, out_lines: list) -> dict:
    """Output line -> whether a manual or review item is at its original line or statement (else,
    for a changed block, anywhere in it), as xlate.check.leftovers counts a leftover reported."""
    from xlate.check import leftovers as lo_mod
    lm, spans = lo_mod.LineMap(original, converted), lo_mod.statement_lines(original)
    by_line: dict[int, list] = defaultdict(list)
    for d in diagnostics:
        by_line[d["line"]].append(d)
    found = {}
    for out_line in out_lines:
        cands = lm.candidates(out_line) or lm.block(out_line)
        cands = {ln for c in cands for ln in spans.get(c, [c])}
        found[out_line] = any(d["status"] != "fixed" for c in cands for d in by_line.get(c, []))
    return found


def f_lines(tree: ast.AST, absolute_table: dict[str, str]) -> list[tuple[int, str, str]]:
    """(line, reason, op) for each output line that calls `F.<op>` with F still MXNet's namespace."""
    import torch.nn.functional as tnf

    functional = set(dir(tnf))
    module_binding = _binding(tree.body, absolute_table)
    found: dict[int, tuple[str, str]] = {}

    def visit(node, scopes):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            params = {a.arg for a in args.posonlyargs + args.args + args.kwonlyargs}
            if args.vararg:
                params.add(args.vararg.arg)
            if args.kwarg:
                params.add(args.kwarg.arg)
            name = getattr(node, "name", "<lambda>")
            body = node.body if isinstance(node.body, list) else [node.body]
            scope = ("param", name) if "F" in params else _binding(body, absolute_table)
            scopes = scopes + [scope]
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            d = dotted(node.func)
            if d and d.startswith("F."):
                reason = _f_reason(scopes[::-1] + [module_binding], d, functional)
                if reason:
                    found.setdefault(node.lineno, (reason, d))
        for child in ast.iter_child_nodes(node):
            visit(child, scopes)

    visit(tree, [])
    return sorted((line, r, op) for line, (r, op) in found.items())


def _binding(body: list, table: dict[str, str]):
    """How a block of statements (not nested functions) binds F: None when it does not."""
    for stmt in body:
        for node in _walk_no_functions(stmt):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for a in node.names:
                    if (a.asname or a.name) == "F":
                        target = table.get("F", a.name)
                        return ("import", target)
            elif isinstance(node, (ast.Assign, ast.For, ast.With, ast.AnnAssign)) and any(
                    isinstance(n, ast.Name) and n.id == "F" and isinstance(n.ctx, ast.Store)
                    for t in _targets(node) for n in ast.walk(t)):
                if not (isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "F"
                                                             for t in node.targets)):
                    return ("assign", "<unpacked>")  # `x, F = helper(...)`, `for F in ...`
                d = dotted(node.value)
                if d:
                    head, _, rest = d.partition(".")
                    full = table.get(head, head) + ("." + rest if rest else "")
                    return ("assign", full)
                return ("assign", "<expression>")
    return None


def _targets(node) -> list:
    if isinstance(node, ast.Assign):
        return node.targets
    if isinstance(node, (ast.For, ast.AnnAssign)):
        return [node.target]
    return [i.optional_vars for i in node.items if i.optional_vars is not None]


def _walk_no_functions(node):
    yield node
    for child in ast.iter_child_nodes(node):
        if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            yield from _walk_no_functions(child)


def _f_reason(scopes, call: str, functional: set) -> str | None:
    op = call.split(".")[1]
    for scope in scopes:
        if scope is None:
            continue
        kind, what = scope
        if kind == "param":
            return "F kept: method still hybrid_forward" if what == "hybrid_forward" \
                else "F passed to a helper function (a parameter of another function)"
        top = what.split(".")[0]
        if what in ("torch.nn.functional", "torch.nn.functional.F") or what.endswith("torch.nn.functional"):
            return None if op in functional else "F is torch.nn.functional but lacks the op"
        if top in MX_TOPS:
            return f"F {'imported' if kind == 'import' else 'assigned'} from MXNet ({what})"
        if kind == "assign":
            return "F taken from an attribute or a call"
        return None  # another module named F (dgl's backend): not MXNet's
    return "F used but no longer defined (its parameter went)"


# -- 3. imports, in subprocesses ---------------------------------------------------------------
# stand-ins for third-party modules not installed here: a class of any name, callable, a base, a decorator
STUB_CLASSES = r'''
class StubMeta(type):
    def __getattr__(cls, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return StubMeta(name, (Stub,), {})
    def __call__(cls, *a, **k):
        if len(a) == 1 and not k and callable(a[0]) and not isinstance(a[0], StubMeta):
            return a[0]  # used as a decorator
        return super().__call__(*a, **k)
    def __iter__(cls):
        return iter(())
    def __mro_entries__(cls, bases):
        return (cls,)

class Stub(metaclass=StubMeta):
    def __init__(self, *a, **k): pass
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return StubMeta(name, (Stub,), {})
    def __call__(self, *a, **k):
        return a[0] if len(a) == 1 and not k and callable(a[0]) else Stub()
    def __iter__(self): return iter(())

class StubModule(types.ModuleType):
    def __getattr__(self, name):
        if name.startswith("__"):
            raise AttributeError(name)
        return StubMeta(name, (Stub,), {})

class StubLoader(importlib.abc.Loader):
    def create_module(self, spec):
        m = StubModule(spec.name)
        m.__path__ = []
        return m
    def exec_module(self, module): pass
'''
IMPORT_CHILD = r'''
import importlib, importlib.abc, importlib.machinery, importlib.util, json, sys, traceback, types
cfg = json.loads(sys.argv[1])
sys.path[len(sys.path):] = cfg["deps"]
clean_path = list(sys.path)
sys.path[:0] = cfg["roots"]
blocked = set(cfg["blocked"])
stub_inside = cfg["stub_inside"]
own_tops = set(cfg["own_tops"])
used = []

class Blocker(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in own_tops and top in blocked:  # the tree's own package named like one (gluonnlp): only from the roots
            if name == top and importlib.machinery.PathFinder.find_spec(top, cfg["roots"]) is None:
                raise ModuleNotFoundError(f"No module named {name!r} (blocked: not in the tree)", name=name)
            return None
        if top in blocked:
            raise ModuleNotFoundError(f"No module named {name!r} (blocked: MXNet is not installed)", name=name)
        return None

''' + STUB_CLASSES + r'''

def installed(top):
    return importlib.machinery.PathFinder.find_spec(top, clean_path) is not None or top in sys.builtin_module_names

def importer():
    """The file of the code running the import statement (past importlib's own frames)."""
    f = sys._getframe(2)
    while f is not None and (f.f_code.co_filename.startswith(("<frozen", "<string>"))
                             or "importlib" in f.f_code.co_filename):
        f = f.f_back
    return f.f_code.co_filename if f is not None else ""

class Stubber(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in blocked:
            return None
        if not any(importer().startswith(r) for r in cfg["roots"]):
            return None  # an installed library probing for an optional module: its own business
        if any(name == p or name.startswith(p + ".") for p in stub_inside) or \
                (top not in own_tops and not installed(top)):
            used.append(name)
            return importlib.util.spec_from_loader(name, StubLoader(), is_package=True)
        return None

if blocked:
    sys.meta_path.insert(0, Blocker())
sys.meta_path.append(Stubber())
result = {"ok": False}
try:
    import warnings; warnings.simplefilter("ignore")
    importlib.import_module(cfg["module"])
    result["ok"] = True
except BaseException as e:
    first = e
    while first.__context__ is not None and first.__cause__ is None and not first.__suppress_context__:
        first = first.__context__
    text = [ln.strip() for ln in str(first).strip().splitlines() if ln.strip()]
    if type(first).__name__ == "MXNetError" and text:
        text = [t for t in text if "Check failed" in t or t.startswith("MXNetError")][-1:] or text[-1:]
    result["error"] = f"{type(first).__name__}: {text[0] if text else ''}"[:300]
    frames = [f for f in traceback.extract_tb(first.__traceback__) if any(f.filename.startswith(r) for r in cfg["roots"])]
    if frames:
        f = frames[-1]
        root = next(r for r in cfg["roots"] if f.filename.startswith(r))
        result["where"] = f"{f.filename[len(root):].lstrip('/')}:{f.lineno}"
        result["code"] = (f.line or "").strip()[:160]
result["stubs"] = sorted({u.split(".")[0] if u.split(".")[0] not in stub_inside else u for u in used})
print("\x00RESULT" + json.dumps(result))
'''


def deps_of(cfg: dict, corpus: Path) -> list[str]:
    """The corpus's third-party folders (`deps`: one name or a list) under the corpus root."""
    deps = cfg.get("deps") or []
    return [str(corpus.parent / d) for d in ([deps] if isinstance(deps, str) else deps)]


def import_one(module: str, roots: list[Path], blocked: list[str], stub_inside: list[str], own_tops: list[str],
               timeout: float, deps: list[str] = ()) -> dict:
    cfg = {"module": module, "roots": [str(r) for r in roots], "blocked": blocked, "stub_inside": stub_inside,
           "own_tops": own_tops, "deps": list(deps)}
    env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_CPU_WORKER_NTHREADS="1",
               PYTHONWARNINGS="ignore", PYTHONPATH="", MPLBACKEND="Agg")
    try:
        proc = subprocess.run([PYTHON, "-c", IMPORT_CHILD, json.dumps(cfg)], capture_output=True, text=True,
                              timeout=timeout, env=env, cwd=str(roots[0]), start_new_session=True)
    except subprocess.TimeoutExpired:
        return {"ok": False, "error": f"Timeout: import took over {timeout:.0f} s", "stubs": []}
    for line in proc.stdout.splitlines():
        if line.startswith("\x00RESULT"):
            return json.loads(line[len("\x00RESULT"):])
    tail = [ln for ln in proc.stderr.strip().splitlines() if ln.strip()][-1:] or [f"exit code {proc.returncode}"]
    return {"ok": False, "error": f"Crash: {tail[0][:300]}", "stubs": []}


def normalise_error(error: str) -> str:
    e = re.sub(r"/[^\s'\"]*/", "", error)
    e = re.sub(r"0x[0-9a-f]+", "0x?", e)
    e = re.sub(r"\d+", "N", e)
    return e[:160]


def run_imports(name: str, cfg: dict, corpus: Path, out: Path, work: Path, timeout: float, verbose: bool,
                mx_files: set = frozenset(), reuse: dict | None = None) -> dict:
    """Every module of the corpus's packages (or every test module), before and after; `reuse`:
    module -> its original's import result from an earlier run (--reuse-before: the originals and
    the harness are the same, only the converter differs)."""
    reuse = reuse or {}
    if cfg["kind"] == "tests":
        rels = sorted(p.relative_to(corpus).as_posix() for p in corpus.glob("*.py"))
    elif cfg.get("flat"):
        rels = sorted(p.relative_to(corpus).as_posix() for f in cfg["flat"] for p in (corpus / f).glob("*.py")
                      if p.name != "__init__.py")
    else:
        rels = sorted(p.relative_to(corpus).as_posix() for root in cfg.get("roots", [""])
                      for top in cfg.get("packages", []) for p in (corpus / root / top).rglob("*.py"))
    if cfg.get("import_mx_only"):
        rels = [r for r in rels if r in mx_files]
    if cfg.get("import_inits_only"):
        rels = [r for r in rels if r.endswith("__init__.py")]
    rels = [r for r in rels if not r.startswith(tuple(cfg.get("import_exclude", ())))]
    deps = deps_of(cfg, corpus)
    own_tops = sorted({Path(r).parts[0].removesuffix(".py") for r in
                       (p.relative_to(corpus).as_posix() for p in corpus.iterdir())})
    stub_inside = cfg.get("stub_inside", [])
    absolute = cfg.get("absolute", {})
    plumbing = []
    shadow = sorted(set(own_tops) & set(MX_TOPS))
    if shadow:
        plumbing.append(f"{', '.join(shadow)} is the tree's own package: imported from the corpus (before) and from "
                        f"the converted tree only (after; the installed one blocked)")
    # the original side
    before_root, before_name = corpus, module_name
    if absolute:
        same = all(_same_as_installed(corpus, top, absolute[top]) for top in absolute)
        if same:
            plumbing.append(f"originals imported as the installed {', '.join(absolute.values())} "
                            f"(byte-identical with the corpus)")
            before_name = lambda rel: absolute_module(rel, absolute)  # noqa: E731
        else:
            plumbing.append("the corpus differs from the installed mxnet: originals imported from the corpus")
    # the converted side
    after_root = out
    if cfg.get("parent_pt"):
        after_root = work / "importable-after"
        if after_root.exists():
            shutil.rmtree(after_root)
        (after_root / cfg["parent_pt"]).mkdir(parents=True)
        (after_root / cfg["parent_pt"] / "__init__.py").write_text("")
        for top in cfg["packages"]:
            shutil.copytree(out / top, after_root / cfg["parent_pt"] / top)
        plumbing.append(f"converted tree copied under an empty package `{cfg['parent_pt']}/`")
    after_name = (lambda rel: f"{cfg['parent_pt']}.{module_name(rel)}") if cfg.get("parent_pt") else module_name
    before_roots, after_roots = [before_root], [after_root]
    if cfg.get("flat"):  # modules by bare name, every flat folder a sys.path root (as the scripts arrange it)
        before_name = after_name = lambda rel: Path(rel).stem  # noqa: E731
        before_roots, after_roots = [corpus / f for f in cfg["flat"]], [out / f for f in cfg["flat"]]
        own_tops = sorted(set(own_tops) | {Path(r).stem for r in rels})
        plumbing.append(f"flat modules, imported by bare name with {', '.join(f or '.' for f in cfg['flat'])} on sys.path")
    roots_of = lambda rel: ([before_roots, after_roots], before_name, after_name)  # noqa: E731
    if cfg.get("roots"):  # several sys.path roots, each with its own packages named alike (`core` of each detector)
        plumbing.append(f"{', '.join(cfg['roots'])}: each a sys.path root of its own, imported one at a time")
        own_tops = sorted({Path(p).stem for root in cfg["roots"] for p in os.listdir(corpus / root)})

        def roots_of(rel):
            root, sub = rel.split("/", 1)
            return [[corpus / root], [out / root]], lambda _: module_name(sub), lambda _: module_name(sub)
    rows = []
    for i, rel in enumerate(rels):
        (b_roots, a_roots), b_name, a_name = roots_of(rel)
        b = reuse.get(rel) or import_one(b_name(rel), b_roots, [], stub_inside, own_tops, timeout, deps)
        a = import_one(a_name(rel), a_roots, list(MX_TOPS), stub_inside,
                       own_tops + ([cfg["parent_pt"]] if cfg.get("parent_pt") else []), timeout, deps) \
            if (out / rel).is_file() else {"ok": False, "error": "missing: no converted file", "stubs": []}
        rows.append({"module": rel, "before": b, "after": a})
        if verbose:
            print(f"    import [{i + 1}/{len(rels)}] {rel}: before {'ok' if b['ok'] else b['error'][:60]}; "
                  f"after {'ok' if a['ok'] else a['error'][:60]}", flush=True)
    lost = [r for r in rows if r["before"]["ok"] and not r["after"]["ok"]]
    groups: dict[str, list] = defaultdict(list)
    for r in lost:  # the error, and the line of the converted tree that raised it
        groups[f"{normalise_error(r['after']['error'])} at {r['after'].get('where', '?')}"].append(r)
    before_fail = Counter(normalise_error(r["before"]["error"]) for r in rows if not r["before"]["ok"])
    return {
        "modules": len(rows), "before": sum(r["before"]["ok"] for r in rows),
        "after": sum(r["after"]["ok"] for r in rows), "before_not_after": len(lost),
        "after_not_before": sum(r["after"]["ok"] and not r["before"]["ok"] for r in rows),
        "lost_by_error": [{"error": e, "count": len(rs), "modules": [r["module"] for r in rs],
                           "example": f"{rs[0]['module']}; the line: {rs[0]['after'].get('code', '')}".strip()}
                          for e, rs in sorted(groups.items(), key=lambda kv: -len(kv[1]))],
        "lost_by_error_only": Counter(normalise_error(r["after"]["error"]) for r in lost).most_common(),
        "before_failures": before_fail.most_common(),
        "stubs_before": sorted({s for r in rows for s in r["before"].get("stubs", [])}),
        "stubs_after": sorted({s for r in rows for s in r["after"].get("stubs", [])}),
        "plumbing": plumbing, "rows": rows,
    }


def _same_as_installed(corpus: Path, top: str, dotted_name: str) -> bool:
    import importlib.util

    spec = importlib.util.find_spec(dotted_name.split(".")[0])
    if spec is None or not spec.submodule_search_locations:
        return False
    installed = Path(list(spec.submodule_search_locations)[0]).joinpath(*dotted_name.split(".")[1:])
    for p in (corpus / top).rglob("*.py"):
        q = installed / p.relative_to(corpus / top)
        if not q.is_file() or q.read_bytes() != p.read_bytes():
            return False
    return True


# -- 4. models, one subprocess each ------------------------------------------------------------
# what both children start with: their paths, and an exception's first line and converted frame
CHILD_PRELUDE = r'''
import importlib, json, os, sys, traceback
cfg = json.loads(sys.argv[1])
sys.path[:0] = cfg["paths"]
def first(e):
    while e.__context__ is not None and e.__cause__ is None and not e.__suppress_context__:
        e = e.__context__
    lines = [l.strip() for l in str(e).splitlines() if l.strip()]
    if type(e).__name__ == "MXNetError" and lines:
        lines = [l for l in lines if "Check failed" in l or l.startswith("MXNetError")][-1:] or lines[-1:]
    frames = [f for f in traceback.extract_tb(e.__traceback__) if cfg["pt_root"] in f.filename]
    where = f"{frames[-1].filename.split(cfg['pt_root'])[-1]}:{frames[-1].lineno} {(frames[-1].line or '').strip()[:120]}" if frames else ""
    if os.environ.get("XLATE_BENCH_TRACEBACK"):
        traceback.print_exception(e)
    return {"error": f"{type(e).__name__}: {lines[0] if lines else ''}"[:300], "where": where}
'''
MODEL_CHILD = CHILD_PRELUDE + r'''
def build(package):  # a getter called with the model's name, or (getter None) the factory `module.fn` of the package
    if cfg["getter"]:
        return getattr(importlib.import_module(package), cfg["getter"])(cfg["name"], **cfg["kwargs"])
    module, fn = cfg["name"].rsplit(".", 1)
    return getattr(importlib.import_module(package + "." + module), fn)(**cfg["kwargs"])
def float64_check(net, pt, spec):
    # Where float32 gradients differ beyond the noise judge, the same weights and input (check_models'
    # draw for seed 0) on both sides in float64, training mode, one backward with a drawn cotangent: the
    # greatest relative difference of the output, the input's gradient and the sorted norms of the
    # parameters' gradients (a norm is the same whatever layout the pairing gives a tensor). Near 1e-12:
    # the translation computes what Gluon does, and the float32 difference is rounding, MXNet's or torch's.
    import copy, numpy as np, torch, mxnet as mx
    from xlate.check.inputs import draw
    from xlate.check.sides import mx_prepare
    from xlate.check.mapping import transfer
    try:
        rng = np.random.default_rng(0)
        arrays = [draw(spec, rng)]
        transfer(net, pt, mx_prepare(net, arrays, rng))
        net.cast("float64")
        pt64 = copy.deepcopy(pt).double().train()
        x = arrays[0].astype("float64")
        mx_x = mx.nd.array(x, dtype="float64")
        mx_x.attach_grad()
        with mx.autograd.record():
            y = net(mx_x)
        y = y[0] if isinstance(y, (list, tuple)) else y
        g = np.random.default_rng(1).standard_normal(y.shape)
        y.backward(mx.nd.array(g, dtype="float64"))
        tx = torch.tensor(x, requires_grad=True)
        ty = pt64(tx)
        ty = ty[0] if isinstance(ty, (list, tuple)) else ty
        ty.backward(torch.tensor(g))
        def rel(a, b):
            return float(np.abs(a - b).max() / max(np.abs(a).max(), 1e-30))
        mx_norms = sorted(float(np.linalg.norm(p.grad().asnumpy())) for p in net.collect_params().values()
                          if p.grad_req != "null")
        pt_norms = sorted(float(p.grad.norm()) for p in pt64.parameters() if p.grad is not None)
        norms = rel(np.array(mx_norms), np.array(pt_norms)) if len(mx_norms) == len(pt_norms) else float("inf")
        return {"output": rel(y.asnumpy(), ty.detach().numpy()), "input_gradient": rel(mx_x.grad.asnumpy(), tx.grad.numpy()),
                "parameter_gradient_norms": norms}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {str(e)[:200]}"}
def run():
    import numpy as np, torch
    torch.set_num_threads(1)
    from xlate.check.inputs import InputSpec, draw
    from xlate.check.sides import mx_prepare, mx_run, pt_run
    spec = InputSpec("x", "float32", tuple(cfg["input"]))
    rng = np.random.default_rng(0)
    arrays = [draw(spec, rng)]
    stage = "gluon-build"
    try:
        net = build(cfg["mx_module"])
        drawn = mx_prepare(net, arrays, rng)
        mx_out = mx_run(net, arrays, train=False)[0]
    except Exception as e:
        return {"stage": stage, **first(e)}
    try:
        stage = "converted-import"
        mod = importlib.import_module(cfg["pt_module"])
        stage = "converted-build"
        pt = build(cfg["pt_module"])
        if not isinstance(pt, torch.nn.Module):
            return {"stage": stage, "error": f"not a torch.nn.Module: {type(pt).__module__}.{type(pt).__name__}"}
        stage = "forward"
        pt_run(pt, arrays, "cpu", train=False)
        stage = "pairing"
        from xlate.check.mapping import transfer
        transfer(net, pt, drawn)
        stage = "compare"
        pt_out = pt_run(pt, arrays, "cpu", train=False)[0]
        from xlate.check.compare import measure, tolerance_for
        if len(pt_out) != len(mx_out):
            return {"stage": stage, "error": f"{len(pt_out)} outputs where Gluon gives {len(mx_out)}"}
        for i, (e, a) in enumerate(zip(mx_out, pt_out)):
            mismatch, _ = measure(f"output {i}", e, a, tolerance_for(e.dtype))
            if mismatch is not None:
                return {"stage": stage, "error": mismatch.format()[:300]}
        if cfg["grad"]:
            stage = "gradients"
            from xlate.check.noise import NoiseFloor
            from xlate.check.pair import check_models
            checked = check_models(net, pt, [spec], seed=0, noise_floor=NoiseFloor())
            bad = [c for c in checked.checks if not c.ok]
            if bad:
                return {"stage": stage, "error": f"{len(bad)} of {len(checked.checks)} checks differ; first: {bad[0].mismatch.format()[:200]}",
                        "float64": float64_check(net, pt, spec)}
        return {"stage": "done"}
    except Exception as e:
        return {"stage": stage, **first(e)}
print("\x00RESULT" + json.dumps(run(), default=str))
'''
STAGES = ["gluon-build", "converted-import", "converted-build", "forward", "pairing", "compare", "gradients", "done"]


def make_importable(out: Path, top: str, root: Path, parent: str | None, also: tuple = ()) -> Path:
    """The converted package as `<top>_pt` (absolute imports of `top`, and of the packages in `also`,
    renamed on their lines), or under `parent/` for mxnet-gluon. Returns the folder to put on sys.path."""
    if root.exists():
        shutil.rmtree(root)
    if parent:
        (root / parent).mkdir(parents=True)
        (root / parent / "__init__.py").write_text("")
        shutil.copytree(out / top, root / parent / top)
        return root
    shutil.copytree(out / top, root / f"{top}_pt")
    for path in (root / f"{top}_pt").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in (top, *also):
            pattern = re.compile(rf"^(\s*from\s+){name}\b|\bimport(\s+){name}\b")
            bare = re.compile(rf"^([ \t]*)import[ \t]+{name}((?:\.\w+)*)[ \t]*(#.*)?$")  # binds `name`: keep it
            text = "".join(bare.sub(lambda m: f"{m.group(1)}import {name}_pt{m.group(2)}; import {name}_pt as {name}", ln)
                           for ln in text.splitlines(keepends=True))
            text = "".join(pattern.sub(lambda m: (m.group(1) + f"{name}_pt") if m.group(1) else
                                       f"import{m.group(2)}{name}_pt", ln) for ln in text.splitlines(keepends=True))
        path.write_text(text, encoding="utf-8")
    return root


def run_models(cfg: dict, corpus: Path, out: Path, work: Path, timeout: float, limit: int | None,
               verbose: bool) -> dict:
    mx_module, getter, models = cfg["models"]
    top = mx_module.split(".")[0]
    parent = cfg.get("parent_pt")
    pt_root = make_importable(out, top, work / "importable-models", parent)
    if cfg.get("absolute"):
        mx_path, mx_name = [], cfg["absolute"][top] + mx_module[len(top):]
    else:
        mx_path, mx_name = [str(corpus)], mx_module
    pt_name = f"{parent}.{mx_module}" if parent else f"{top}_pt" + mx_module[len(top):]
    rows = []
    for name, shape, grad, *kw in models[:limit]:
        c = {"kwargs": kw[0] if kw else {}, "paths": [str(REPO)] + mx_path + [str(pt_root)], "mx_module": mx_name, "pt_module": pt_name,
             "getter": getter, "name": name, "input": shape, "grad": grad, "pt_root": str(pt_root)}
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_CPU_WORKER_NTHREADS="1",
                   PYTHONWARNINGS="ignore", PYTHONPATH="", MXNET_HOME=str(work / "mxnet_home"))
        start = time.perf_counter()
        try:
            proc = subprocess.run([PYTHON, "-c", MODEL_CHILD, json.dumps(c)], capture_output=True, text=True,
                                  timeout=timeout, env=env, cwd=str(work), start_new_session=True)
            res = next((json.loads(ln[len("\x00RESULT"):]) for ln in proc.stdout.splitlines()
                        if ln.startswith("\x00RESULT")), None) or \
                {"stage": "crash", "error": f"exit code {proc.returncode}: {proc.stderr.strip()[-300:]}"}
        except subprocess.TimeoutExpired:
            res = {"stage": "timeout", "error": f"no answer in {timeout:.0f} s"}
        res.update(model=name, grad=grad, seconds=round(time.perf_counter() - start, 1))
        rows.append(res)
        if verbose:
            print(f"    model {name}: {res['stage']} {res.get('error', '')[:100]}", flush=True)

    def reached(stage):
        return sum(r["stage"] in STAGES and STAGES.index(r["stage"]) > STAGES.index(stage) for r in rows)

    gluon = [r for r in rows if r["stage"] != "gluon-build"]
    return {"models": len(rows), "gluon_builds": len(gluon), "imports": reached("converted-import"),
            "builds": reached("converted-build"), "forward_runs": reached("forward"), "pairs": reached("pairing"),
            "outputs_match": reached("compare"), "gradient_models": sum(r["grad"] for r in gluon),
            "gradients_match": sum(r["grad"] and r["stage"] == "done" for r in rows),
            "rows": rows, "skipped": [m[0] for m in models[limit:]] if limit else []}


# -- 4b. real model classes built by factories (bench/package_models.py), one subprocess each --
# stub_missing (a corpus option): top-level packages not installed here that the corpus's modules (original or
# converted) import are stubbed as in the import stage (AutoGluon's package __init__ imports ConfigSpace, dask ...)
FACTORY_STUBS = r"""
import importlib.abc, importlib.machinery, importlib.util, types
""" + STUB_CLASSES + r"""
class Stubber(importlib.abc.MetaPathFinder):
    roots = [cfg["corpus"], cfg["pt_root"]]
    def find_spec(self, name, path=None, target=None):
        top = name.split(".")[0]
        if top in ("mxnet", "gluonnlp", "torch") or top in sys.builtin_module_names or \
                importlib.machinery.PathFinder.find_spec(top) is not None:
            return None
        f = sys._getframe(1)
        while f is not None and (f.f_code.co_filename.startswith(("<frozen", "<string>"))
                                 or "importlib" in f.f_code.co_filename):
            f = f.f_back
        if f is None or not f.f_code.co_filename.startswith(tuple(self.roots)):
            return None
        return importlib.util.spec_from_loader(name, StubLoader(), is_package=True)
if cfg.get("stub_missing"):
    sys.meta_path.append(Stubber())
"""
FACTORY_CHILD = CHILD_PRELUDE + FACTORY_STUBS + r"""
def call_args(xs, extra, array):
    # the drawn inputs with `extra`: appended (a list), or inserted at their positions (a dict); a
    # list value is a constant float32 array of that side, given without a gradient (DeepAR's
    # past_is_pad: MXNet 1.9.1 crashes computing its gradient)
    if not isinstance(extra, dict):
        return [*xs, *extra]
    args = list(xs)
    for at, value in sorted((int(k), v) for k, v in extra.items()):
        args.insert(at, array(value) if isinstance(value, list) else value)
    return args
def wrapped(net, extra, torch_side, call=None):
    # `call`: a lambda (net, *inputs) run as the forward (a decoder given the states its own method makes)
    if not extra and not call:
        return net
    fn = call or (lambda net, *xs: net(*xs))
    if torch_side:
        import torch
        class Wrap(torch.nn.Module):
            def __init__(self, net):
                super().__init__()
                self.net = net
            def forward(self, *xs):
                return fn(self.net, *call_args(xs, extra, lambda v: torch.tensor(v, dtype=torch.float32)))
    else:
        import mxnet as mx
        class Wrap(mx.gluon.Block):
            def __init__(self, net):
                super().__init__(prefix="")
                self.net = net
            def forward(self, *xs):
                return fn(self.net, *call_args(xs, extra, lambda v: mx.nd.array(v, dtype="float32")))
    return Wrap(net)
def setup(imp, torch_side):
    # an entry's `setup` source defines setup(imp, torch_side) -> names its build reads (harness plumbing: stand-ins
    # for what downloads)
    if not cfg.get("setup"):
        return {}
    scope = {}
    exec(cfg["setup"], scope)
    return scope["setup"](imp, torch_side) or {}
def run():
    import numpy as np, torch
    torch.set_num_threads(1)
    import xlate.check.pair as pair
    from xlate.check.inputs import parse, draw
    from xlate.check.noise import NoiseFloor
    fixed = cfg["fixed"]
    def drawn(spec, rng):  # inputs whose values mean something (lengths, masks) are given
        value = draw(spec, rng)  # drawn anyway: the same random stream for the others
        return np.asarray(fixed[spec.name], dtype=spec.dtype) if spec.name in fixed else value
    pair.draw = drawn
    specs = [parse(s) for s in cfg["inputs"]]
    extra = cfg["extra"]
    stage = "original-build"
    flat = cfg.get("flat")
    if flat:  # bare module names: the corpus's folders first, then (modules purged) the converted tree's
        sys.path[:0] = flat[0]
    try:
        imp = lambda rel: importlib.import_module(cfg["top"] + "." + rel) if not flat else importlib.import_module(rel)
        names = setup(imp, False)
        call = cfg.get("call")
        zeros = call and importlib.import_module("mxnet").nd.zeros  # `zeros` in a call: mx.nd.zeros, as translated
        net = wrapped(eval(cfg["build"], {"imp": imp, **names}), extra, False, call and eval(call, {"imp": imp, "zeros": zeros}))
        stage = "converted-import"
        imp = lambda rel: importlib.import_module(cfg["top"] + "_pt." + rel) if not flat else importlib.import_module(rel)
        if flat:
            for name, m in list(sys.modules.items()):
                if (getattr(m, "__file__", None) or "").startswith(cfg["corpus"] + "/"):
                    del sys.modules[name]
            sys.path[:] = flat[1] + [p for p in sys.path if not p.startswith(cfg["corpus"] + "/") and p != cfg["corpus"]]
        if "imp('" in cfg["build"]:  # a build from a script's statements (setup) imports no module first
            imp(cfg["build"].split("imp('")[1].split("'")[0])
        stage = "converted-build"
        names = setup(imp, True)
        zeros = call and getattr(imp("_mx_compat"), "_mx_zeros", None)  # `mx.nd.zeros` as a value (MX204), where used
        pt = wrapped(eval(cfg["build"], {"imp": imp, **names}), extra, True, call and eval(call, {"imp": imp, "zeros": zeros}))
        if not isinstance(pt, torch.nn.Module):
            return {"stage": stage, "error": f"not a torch.nn.Module: {type(pt).__module__}.{type(pt).__name__}"}
        stage = "check"
        result = pair.check_models(net, pt, specs, seed=0, noise_floor=NoiseFloor())
        inf = [c for c in result.checks if c.what.startswith("inference")]
        rest = [c for c in result.checks if not c.what.startswith("inference")]
        bad = [c for c in result.checks if not c.ok]
        out = {"stage": "done" if not bad else "compare" if any(not c.ok for c in inf) else "gradients",
               "inference": f"{sum(c.ok for c in inf)}/{len(inf)}", "training": f"{sum(c.ok for c in rest)}/{len(rest)}"}
        if bad:
            out["error"] = f"{len(bad)} of {len(result.checks)} checks differ; first: {bad[0].mismatch.format()[:200]}"
            if os.environ.get("XLATE_BENCH_TRACEBACK"):
                print("\n".join(c.mismatch.format()[:300] for c in bad), file=sys.stderr)
        return out
    except Exception as e:
        return {"stage": stage, **first(e)}
print("\x00RESULT" + json.dumps(run(), default=str))
"""


def run_factories(cfg: dict, corpus: Path, out: Path, work: Path, timeout: float, verbose: bool,
                  xlate_tree: Path = REPO, convert_timeout: float = 1800) -> dict:
    """Real model classes of the corpus built by bench/package_models.py's factories, compared (inference
    outputs, then input and parameter gradients) with check_models in noise mode.

    model_deps: folders under the corpus root on both sides' path (an MXNet package the models build on,
    plain dependencies). convert_deps {top: folder}: such an MXNet package converted with the same
    converter, as a user converting the corpus converts it too, copied as `<top>_pt`; the corpus's converted
    imports of `top` are renamed to it on their lines (harness plumbing, as for the corpus itself)."""
    import importlib

    sys.path.insert(0, str(HERE))
    module, attr = cfg["factories"]
    entries = getattr(importlib.import_module(module), attr)
    deps = deps_of(cfg, corpus) + [str(corpus.parent / d) for d in cfg.get("model_deps", [])]
    for dep_top, folder in cfg.get("convert_deps", {}).items():
        dep_out = work / "deps-out" / folder
        conv = convert(corpus.parent / folder, dep_out, xlate_tree, convert_timeout)
        if conv["crash"] and verbose:
            print(f"    converting {folder}: {conv['crash'][:300]}", flush=True)
        deps.append(str(make_importable(dep_out, dep_top, work / f"importable-{dep_top}", None)))
    flat, roots = None, cfg.get("models_flat", cfg.get("flat"))  # models_flat: only the models by bare name
    if roots:
        top, pt_root, paths = "", out, [str(REPO)] + deps
        flat = [[str(corpus / f).rstrip("/") for f in roots], [str(out / f).rstrip("/") for f in roots]]
    elif cfg.get("roots"):  # each entry names its root (`root`), made importable there as `<top>_pt`
        top, pt_root, paths = cfg["packages"][0], None, None
    else:
        top = cfg["packages"][0]
        pt_root = make_importable(out, top, work / "importable-models", None, tuple(cfg.get("convert_deps", {})))
        if not (corpus / top / "__init__.py").is_file():
            # a folder imported as a namespace package from the repository's root (CenterNet's `models`): its
            # converted files import the helper module by absolute name, found at the converted root; last on the
            # path, so that the corpus's own names still resolve to the originals
            deps.append(str(out))
        paths = [str(REPO), str(corpus), str(pt_root)] + deps
    rows = []
    for e in entries:
        if cfg.get("roots"):
            pt_root = make_importable(out / e["root"], top, work / f"importable-{e['root']}", None,
                                      tuple(cfg.get("convert_deps", {})))
            paths = [str(REPO), str(corpus / e["root"]), str(pt_root)] + deps
        c = {"paths": paths, "top": top, "build": e["build"], "flat": flat, "corpus": str(corpus),
             "inputs": e["inputs"], "fixed": e.get("fixed", {}), "extra": e.get("extra", []), "pt_root": str(pt_root),
             "call": e.get("call"), "setup": e.get("setup"), "stub_missing": cfg.get("stub_missing", False)}
        env = dict(os.environ, OMP_NUM_THREADS="1", MKL_NUM_THREADS="1", MXNET_CPU_WORKER_NTHREADS="1",
                   PYTHONWARNINGS="ignore", PYTHONPATH="", MXNET_HOME=str(work / "mxnet_home"))
        env.update(cfg.get("mx_env", {}), **e.get("mx_env", {}))  # an entry's own: a kernel switch one model needs
        try:
            proc = subprocess.run([PYTHON, "-c", FACTORY_CHILD, json.dumps(c)], capture_output=True, text=True,
                                  timeout=timeout, env=env, cwd=str(work), start_new_session=True)
            res = next((json.loads(ln[len("\x00RESULT"):]) for ln in proc.stdout.splitlines()
                        if ln.startswith("\x00RESULT")), None) or \
                {"stage": "crash", "error": f"exit code {proc.returncode}: {proc.stderr.strip()[-300:]}"}
        except subprocess.TimeoutExpired:
            res = {"stage": "timeout", "error": f"no answer in {timeout:.0f} s"}
        res.update(model=e["name"], grad=True)
        rows.append(res)
        if verbose:
            print(f"    model {e['name']}: {res['stage']} {res.get('error', '')[:100]}", flush=True)
    order = ["original-build", "converted-import", "converted-build", "check", "compare", "gradients", "done"]

    def reached(stage):
        return sum(r["stage"] in order and order.index(r["stage"]) > order.index(stage) for r in rows)

    built = [r for r in rows if r["stage"] != "original-build"]
    return {"models": len(rows), "gluon_builds": len(built), "imports": reached("converted-import"),
            "builds": reached("converted-build"), "forward_runs": reached("check"), "pairs": reached("check"),
            "outputs_match": reached("compare"), "gradient_models": len(built),
            "gradients_match": sum(r["stage"] == "done" for r in rows), "rows": rows, "skipped": []}


# -- 5. one corpus -----------------------------------------------------------------------------
_TICKED = re.compile(r"`([^`]*)`")
CONSTRUCT_CODES = {"MX003", "MX323", "MX562", "MX616", "MX790", "MX900", "MX905"}  # the first `...` is the API


def cause_of(d: dict) -> str:
    """A manual item's cause: its code and the construct its message names (an MXNet name or a
    method), with variable names left out."""
    m = _TICKED.search(d["message"])
    if d["code"] == "MX002":
        return "MX002 MXNet import kept for code left to translate"
    if m and (d["code"] in CONSTRUCT_CODES or re.match(r"^(mxnet|gluoncv|gluonnlp|mx)\.|^\.", m.group(1))):
        return f"{d['code']} {re.sub(r'[(].*', '', m.group(1))}"
    text = _TICKED.sub("`_`", d["message"])
    return f"{d['code']} {re.sub(r'[0-9]+', 'N', text)[:90]}"


def measure(name: str, cfg: dict, corpus: Path, opts) -> dict:
    from xlate.check import leftovers as lo_mod

    work = opts.work / name
    out = work / "out"
    print(f"\n== {name}: {cfg['source']}", flush=True)
    conv = convert(corpus, out, opts.xlate, opts.convert_timeout, cfg.get("keep_going", False))
    report = conv["report"]
    rec: dict = {"corpus": name, "source": cfg["source"], "kind": cfg["kind"], "convert_seconds": conv["seconds"],
                 "exit_code": conv["exit_code"], "converter_crash": conv["crash"]}
    absolute = cfg.get("absolute", {})
    diags: dict[str, list[dict]] = {}
    for f in report.get("files", []):
        try:
            rel = Path(f["path"]).resolve().relative_to(corpus.resolve()).as_posix()
        except ValueError:
            rel = f["path"]
        diags[rel] = f["diagnostics"]

    # size, mxnet use, parse, silent pass-through
    rels = sorted(p.relative_to(corpus).as_posix() for p in corpus.rglob("*.py"))
    originals, outputs = {}, {}
    size = {"files": len(rels), "lines": 0, "mxnet_files": 0, "parse_before": 0, "parse_after": 0,
            "missing_outputs": 0}
    passthrough, mx_files, trees, out_trees = [], set(), {}, {}
    own = frozenset(absolute_module(r, absolute) for r in rels)  # the corpus's own modules, as imported
    for rel in rels:
        src = (corpus / rel).read_bytes()
        text = src.decode("utf-8", errors="replace")
        originals[rel] = text
        size["lines"] += text.count("\n")
        try:
            trees[rel] = ast.parse(text)
            size["parse_before"] += 1
        except SyntaxError:
            trees[rel] = None
        if trees[rel] is not None and uses_mxnet(trees[rel], rel, absolute, own, mx_tops(cfg)):
            mx_files.add(rel)
        o = out / rel
        if not o.is_file():
            size["missing_outputs"] += 1
            continue
        ob = o.read_bytes()
        outputs[rel] = ob.decode("utf-8", errors="replace")
        try:
            out_trees[rel] = ast.parse(outputs[rel])
            size["parse_after"] += 1
        except SyntaxError:
            out_trees[rel] = None
        if rel in mx_files and ob == src and not diags.get(rel):
            passthrough.append(rel)
    size["mxnet_files"] = len(mx_files)
    rec["size"] = size

    # the report
    s = report.get("summary", {})
    manual = [(rel, d) for rel, ds in diags.items() for d in ds if d["status"] == "manual"]
    causes: dict[str, list] = defaultdict(list)
    for rel, d in manual:
        causes[cause_of(d)].append(f"{rel}:{d['line']}")
    rec["report"] = {
        "summary": s, "codes_manual": Counter(d["code"] for _, d in manual).most_common(),
        "causes_manual": [{"cause": c, "count": len(v), "example": v[0]}
                          for c, v in sorted(causes.items(), key=lambda kv: -len(kv[1]))[:25]],
    }

    # silent: pass-through modules, and leftovers with no report at their line
    local = frozenset(cfg.get("packages", [])) - set(absolute)
    orig_abs = {r: absolutize(t, r, absolute) for r, t in originals.items() if r in outputs}
    out_abs = {r: absolutize(t, r, absolute) for r, t in outputs.items()}
    items = lo_mod.find(orig_abs, out_abs, diags, local)
    pt_items = []
    for rel in passthrough:
        pt_items += lo_mod.leftovers(out_abs[rel], rel, orig_abs[rel], local)
    silent = [x for x in items if not x.reported]
    by_kind = Counter(x.kind for x in silent)
    silent_names: dict[str, list] = defaultdict(list)
    for x in silent + pt_items:
        silent_names[f"{x.kind} {x.name}"].append(f"{x.path}:{x.out_line}")
    rec["silent"] = {
        "passthrough_modules": len(passthrough), "passthrough": passthrough,
        "leftovers": len(items), "leftovers_reported": len(items) - len(silent), "leftovers_silent": len(silent),
        "silent_only_fixed_at_line": sum(x.only_fixed for x in silent),
        "silent_near_an_item": sum(x.near for x in silent), "silent_by_kind": by_kind.most_common(),
        "leftovers_in_passthrough": len(pt_items),
        "top": [{"what": k, "count": len(v), "example": v[0]}
                for k, v in sorted(silent_names.items(), key=lambda kv: -len(kv[1]))[:15]],
    }

    # F lines
    rows = []
    for rel, tree in out_trees.items():
        if tree is None or (rel not in mx_files and not diags.get(rel)):
            continue
        table = import_table(tree, rel, absolute)
        lines = outputs[rel].splitlines()
        found = f_lines(tree, table)
        reported = _reported_lines(originals.get(rel, ""), outputs[rel], diags.get(rel, []),
                                   [line for line, _, _ in found]) if found else {}
        for line, reason, op in found:
            rows.append({"where": f"{rel}:{line}", "reason": reason, "op": op, "reported": reported[line],
                         "text": lines[line - 1].strip()[:120] if line <= len(lines) else ""})
    by_op: dict[str, list] = defaultdict(list)
    for r in rows:
        by_op[f"{r['reason']}: {r['op']}"].append(r)
    rec["f_lines"] = {
        "count": len(rows), "by_reason": Counter(r["reason"] for r in rows).most_common(),
        "reported": sum(r["reported"] for r in rows),
        "silent": [f"{r['where']} {r['text']}" for r in rows if not r["reported"]],
        "files": len({r["where"].rsplit(':', 1)[0] for r in rows}),
        "top": [{"what": k, "count": len(v), "example": f"{v[0]['where']} {v[0]['text']}"}
                for k, v in sorted(by_op.items(), key=lambda kv: -len(kv[1]))[:15]],
    }

    # classes
    classes = {rel: class_infos(t, rel, absolute) for rel, t in trees.items() if t is not None}
    blocks = gluon_blocks(classes)
    out_classes: dict[tuple[str, str], dict] = {}
    for rel, t in out_trees.items():
        if t is not None:
            for c in class_infos(t, rel, absolute):
                out_classes[(rel, c["name"], c["nth"])] = c
    with_forward = [(rel, c) for rel, infos in classes.items() for c in infos
                    if (rel, c["name"], c["nth"]) in blocks and c["methods"] & {"forward", "hybrid_forward"}]
    torch_based = torch_classes(out_classes)
    left_gluon, no_forward = [], []
    for rel, c in with_forward:
        oc = out_classes.get((rel, c["name"], c["nth"]))
        if oc is None:
            continue
        if (rel, c["name"], c["nth"]) not in torch_based:
            left_gluon.append(f"{rel}:{c['line']} {c['name']}")
        elif "forward" not in oc["methods"] and not inherits_forward(oc, out_classes):
            why = "hybrid_forward kept" if "hybrid_forward" in oc["methods"] else "no forward"
            no_forward.append(f"{rel}:{oc['line']} {c['name']} ({why})")
    rec["classes"] = {"gluon_blocks": len(blocks), "blocks_with_forward": len(with_forward),
                      "left_not_torch": len(left_gluon), "converted_without_forward": len(no_forward),
                      "without_forward": no_forward[:40], "left_gluon": left_gluon[:40]}

    # imports
    if cfg["kind"] in ("package", "tests") and not opts.no_imports and out.is_dir():
        reuse = {}
        if opts.reuse_before and opts.reuse_before.is_file():
            earlier = json.loads(opts.reuse_before.read_text())
            for r in earlier.get("corpora", []):
                if r["corpus"] == name and r.get("imports"):
                    reuse = {row["module"]: row["before"] for row in r["imports"]["rows"]}
        rec["imports"] = run_imports(name, cfg, corpus, out, work, opts.import_timeout, opts.verbose, mx_files, reuse)
        if reuse:
            rec["imports"]["plumbing"].append(f"originals' import results reused from {opts.reuse_before}")
    # models
    if cfg.get("models") and not opts.no_models and out.is_dir():
        rec["models"] = run_models(cfg, corpus, out, work, opts.model_timeout, opts.models_limit, opts.verbose)
    elif cfg.get("factories") and not opts.no_models and out.is_dir():
        rec["models"] = run_factories(cfg, corpus, out, work, opts.model_timeout, opts.verbose, opts.xlate,
                                       opts.convert_timeout)
    print_corpus(rec)
    return rec


# -- 6. printing -------------------------------------------------------------------------------
def pct(a, b) -> str:
    return f"{100 * a / b:.1f}% ({a}/{b})" if b else "n/a"


def print_corpus(r: dict) -> None:
    z, s = r["size"], r["report"]["summary"]
    print(f"converted in {r['convert_seconds']} s, exit code {r['exit_code']}"
          + (f"; CONVERTER CRASH: {r['converter_crash'][:300]}" if r["converter_crash"] else ""))
    print(f"size: {z['files']} files, {z['lines']} lines, {z['mxnet_files']} use MXNet; "
          f"parse: {z['parse_before']} before, {z['parse_after']} after; {z['missing_outputs']} outputs missing")
    print(f"report: convert rate {pct(s.get('converted', 0), s.get('found', 0))}; "
          f"{s.get('changed')} files changed; fixed {s.get('fixed')}, review {s.get('review')}, manual {s.get('manual')}")
    print("  manual by code: " + ", ".join(f"{c} {n}" for c, n in r["report"]["codes_manual"][:12]))
    print("  manual items by cause:")
    for c in r["report"]["causes_manual"][:10]:
        print(f"    {c['count']:4d}  {c['cause'][:100]}  (e.g. {c['example']})")
    si = r["silent"]
    print(f"silent: {si['passthrough_modules']} MXNet modules passed through unchanged with no item; "
          f"leftovers {si['leftovers']} ({si['leftovers_reported']} reported, {si['leftovers_silent']} silent: "
          f"{si['silent_only_fixed_at_line']} where the line has only fixed items, {si['silent_near_an_item']} "
          f"near a manual/review item); {si['leftovers_in_passthrough']} more in pass-through modules")
    if si["silent_by_kind"]:
        print("  silent by kind: " + ", ".join(f"{k} {n}" for k, n in si["silent_by_kind"]))
    for t in si["top"][:10]:
        print(f"    {t['count']:4d}  {t['what'][:90]}  (e.g. {t['example']})")
    f = r["f_lines"]
    print(f"F lines left: {f['count']} in {f['files']} files ({f['reported']} with a manual/review item at their "
          f"line, {len(f['silent'])} silent); by reason: " + (", ".join(f"{k} {n}" for k, n in f["by_reason"]) or "-"))
    for t in f["silent"][:10]:
        print(f"    silent: {t[:120]}")
    for t in f["top"][:10]:
        print(f"    {t['count']:4d}  {t['what'][:80]}  (e.g. {t['example'][:110]})")
    c = r["classes"]
    print(f"classes: {c['gluon_blocks']} Gluon blocks, {c['blocks_with_forward']} define a forward; "
          f"{c['left_not_torch']} left as Gluon (no torch base); {c['converted_without_forward']} converted without "
          f"forward" + (f" (e.g. {c['without_forward'][0]})" if c["without_forward"] else ""))
    im = r.get("imports")
    if im:
        print(f"imports: {im['modules']} modules; {im['before']} import before (mxnet installed), {im['after']} after "
              f"(mxnet/gluonnlp blocked); {im['before_not_after']} before but not after, "
              f"{im['after_not_before']} after but not before")
        print(f"  stubbed (not installed here): before {', '.join(im['stubs_before']) or '-'}; "
              f"after {', '.join(im['stubs_after']) or '-'}")
        for p in im["plumbing"]:
            print(f"  plumbing: {p}")
        for e, n in im["lost_by_error_only"][:10]:
            print(f"    {n:4d}  {e[:120]}")
        print("  by the converted line that raised it:")
        for g in im["lost_by_error"][:10]:
            print(f"    {g['count']:4d}  {g['error'][:100]}  (e.g. {g['example'][:140]})")
        if im["before_failures"]:
            print("  failing before: " + "; ".join(f"{e[:80]} x{n}" for e, n in im["before_failures"][:5]))
    elif r["kind"] == "scripts":
        print("imports: not run (script corpus: importing runs the script); parse counts above")
    m = r.get("models")
    if m:
        print(f"models: {m['models']} ({m['gluon_builds']} build in Gluon): converted import {m['imports']}, "
              f"build {m['builds']}, forward {m['forward_runs']}, pair {m['pairs']}, outputs match "
              f"{m['outputs_match']}; gradients match {m['gradients_match']} of {m['gradient_models']}"
              + (f"; skipped {', '.join(m['skipped'])}" if m["skipped"] else ""))
        for row in m["rows"]:
            print(f"    {row['model']}: {row['stage']}"
                  + (f" (inference {row['inference']}, training {row['training']})" if "inference" in row else "")
                  + f"  {row.get('error', '')[:110]}  {row.get('where', '')[:100]}"
                  + (f"\n      float64, the same weights and input: greatest relative difference {row['float64']}"
                     if row.get("float64") else ""))


def print_table(records: list[dict]) -> None:
    print("\n| corpus | files | lines | MXNet files | rate | fixed/review/manual | pass-through | silent leftovers "
          "| F lines | blocks w/o forward | parse after | imports before/after/lost | models build/run/match/grad |")
    print("|" + "---|" * 13)
    for r in records:
        z, s, si = r["size"], r["report"]["summary"], r["silent"]
        im, m = r.get("imports"), r.get("models")
        print(f"| {r['corpus']} | {z['files']} | {z['lines']} | {z['mxnet_files']} | "
              f"{pct(s.get('converted', 0), s.get('found', 0))} | {s.get('fixed')}/{s.get('review')}/{s.get('manual')} | "
              f"{si['passthrough_modules']} | {si['leftovers_silent']} (+{si['leftovers_in_passthrough']}) | "
              f"{r['f_lines']['count']} | {r['classes']['converted_without_forward']} | "
              f"{z['parse_after']}/{z['parse_before']} | "
              + (f"{im['before']}/{im['after']}/{im['before_not_after']} of {im['modules']}" if im else "-")
              + " | " + (f"{m['builds']}/{m['forward_runs']}/{m['outputs_match']}/{m['gradients_match']} of "
                         f"{m['models']}" if m else "-") + " |")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--corpus-root", type=Path, default=Path(os.environ.get("XLATE_CORPUS_ROOT", "/work/corpus")))
    p.add_argument("--only", action="append", help="a corpus name (repeatable); default: all of them")
    p.add_argument("--xlate", type=Path, default=REPO,
                   help="the xlate tree whose converter runs (default: this repository, %(default)s)")
    p.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "xlate-package-corpus")
    p.add_argument("--json", type=Path, help="write every figure to this JSON file")
    p.add_argument("--no-imports", action="store_true")
    p.add_argument("--reuse-before", type=Path,
                   help="a JSON this harness wrote: reuse its originals' import results (same corpus, same harness)")
    p.add_argument("--no-models", action="store_true")
    p.add_argument("--models-limit", type=int, help="only the first N models of each corpus")
    p.add_argument("--convert-timeout", type=float, default=1200.0)
    p.add_argument("--import-timeout", type=float, default=60.0)
    p.add_argument("--model-timeout", type=float, default=240.0)
    p.add_argument("-v", "--verbose", action="store_true")
    opts = p.parse_args(argv)

    gone = missing_frameworks()
    if gone:
        print(f"package_corpus: skipped: {', '.join(gone)} not installed (the figures need mxnet and torch)")
        return 0
    unknown = [n for n in opts.only or [] if n not in CORPORA]
    if unknown:
        print(f"package_corpus: unknown corpus {', '.join(unknown)}; known: {', '.join(CORPORA)}")
        return 2
    opts.xlate = opts.xlate.resolve()
    if not (opts.xlate / "xlate" / "__init__.py").is_file():
        print(f"package_corpus: {opts.xlate} holds no xlate package")
        return 2
    opts.work = opts.work.resolve()
    opts.work.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(REPO))
    head = subprocess.run(["git", "-C", str(opts.xlate), "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    print(f"converter: {opts.xlate} (commit {head or '?'}); corpora under {opts.corpus_root}")
    records, started = [], time.perf_counter()
    for name in opts.only or list(CORPORA):
        corpus = opts.corpus_root / name
        if not corpus.is_dir() or not any(corpus.rglob("*.py")):
            print(f"\n== {name}: skipped: {corpus} is absent (see bench/README.md for fetching it)")
            continue
        records.append(measure(name, CORPORA[name], corpus, opts))
    if records:
        print_table(records)
    total = time.perf_counter() - started
    print(f"\ntotal {total:.0f} s")
    if opts.json:
        opts.json.write_text(json.dumps({"xlate": str(opts.xlate), "commit": head, "seconds": round(total),
                                         "corpora": records}, indent=1, default=str))
        print(f"wrote {opts.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
