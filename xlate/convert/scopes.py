"""What name resolution is made of, below both the scope collector (collect.py) and the analysis
(names.py): MXNet's re-exports and their canonical spellings, the Scope record, and the tables both
read."""
from __future__ import annotations

import ast
import unicodedata
from dataclasses import dataclass, field
from typing import Optional

from xlate.convert import held_modules


# MXNet's re-exports, longest prefix first; each resolves to one canonical spelling.
_REEXPORTS = [
    ("mxnet.nd", "mxnet.ndarray"),
    ("mxnet.sym", "mxnet.symbol"),
    ("mxnet.init", "mxnet.initializer"),
    # the rest of mxnet/__init__.py's short names for its modules (`from . import image as img`): `mx.img.imresize`
    # is `mx.image.imresize`, `mx.rnd.seed` `mx.random.seed`, `mx.kv.create` `mx.kvstore.create`
    ("mxnet.img", "mxnet.image"),
    ("mxnet.rnd", "mxnet.random"),
    ("mxnet.kv", "mxnet.kvstore"),
    ("mxnet.mod", "mxnet.module"),
    ("mxnet.mon", "mxnet.monitor"),
    ("mxnet.viz", "mxnet.visualization"),
    # mxnet/contrib/ndarray.py and symbol.py: the namespaces the `_contrib_*` operators are also registered in
    # (the same operators: `from mxnet.contrib.ndarray import MultiBoxPrior, box_nms`, the OCR package's SSD)
    ("mxnet.contrib.nd", "mxnet.ndarray.contrib"),
    ("mxnet.contrib.ndarray", "mxnet.ndarray.contrib"),
    ("mxnet.contrib.sym", "mxnet.symbol.contrib"),
    ("mxnet.contrib.symbol", "mxnet.symbol.contrib"),
    ("mxnet.ndarray.ndarray", "mxnet.ndarray"),
    ("mxnet.ndarray.op", "mxnet.ndarray"),
    ("mxnet.ndarray.utils", "mxnet.ndarray"),  # save, load, array
    ("mxnet.io.io", "mxnet.io"),  # NDArrayIter, DataBatch, DataDesc
    ("mxnet.cpu", "mxnet.context.cpu"),
    ("mxnet.gpu", "mxnet.context.gpu"),
    ("mxnet.Context", "mxnet.context.Context"),
    ("mxnet.num_gpus", "mxnet.context.num_gpus"),
    ("mxnet.NDArray", "mxnet.ndarray.NDArray"),
    ("mxnet.random.uniform", "mxnet.ndarray.random.uniform"),
    ("mxnet.random.normal", "mxnet.ndarray.random.normal"),
    ("mxnet.random.randint", "mxnet.ndarray.random.randint"),
    ("mxnet.random.shuffle", "mxnet.ndarray.random.shuffle"),
    ("mxnet.random.multinomial", "mxnet.ndarray.random.multinomial"),
    ("mxnet.gluon.nn.Block", "mxnet.gluon.Block"),
    ("mxnet.gluon.nn.HybridBlock", "mxnet.gluon.HybridBlock"),
    ("mxnet.gluon.nn.SymbolBlock", "mxnet.gluon.SymbolBlock"),
    ("mxnet.gluon.block", "mxnet.gluon"),
    ("mxnet.gluon.trainer", "mxnet.gluon"),
    ("mxnet.gluon.parameter", "mxnet.gluon"),
    ("mxnet.gluon.nn.basic_layers", "mxnet.gluon.nn"),
    ("mxnet.gluon.nn.conv_layers", "mxnet.gluon.nn"),
    ("mxnet.gluon.nn.activations", "mxnet.gluon.nn"),
    ("mxnet.gluon.rnn.rnn_layer", "mxnet.gluon.rnn"),
    ("mxnet.gluon.rnn.rnn_cell", "mxnet.gluon.rnn"),
    # the training loop's modules (issue 9): classes re-exported by their packages
    ("mxnet.optimizer.optimizer", "mxnet.optimizer"),
    ("mxnet.gluon.data.dataloader", "mxnet.gluon.data"),
    ("mxnet.gluon.data.dataset", "mxnet.gluon.data"),
    ("mxnet.gluon.data.sampler", "mxnet.gluon.data"),
    ("mxnet.gluon.data.vision.datasets", "mxnet.gluon.data.vision"),
    ("mxnet.gluon.contrib.estimator.estimator", "mxnet.gluon.contrib.estimator"),
    # the numpy dialect (Note [numpy dialect]): one spelling for mx.np / npx and what re-exports them
    ("mxnet.np", "mxnet.numpy"),
    ("mxnet.npx", "mxnet.numpy_extension"),
    ("mxnet.ndarray.np", "mxnet.numpy"),
    ("mxnet.ndarray.numpy", "mxnet.numpy"),
    ("mxnet.ndarray.npx", "mxnet.numpy_extension"),
    ("mxnet.ndarray.numpy_extension", "mxnet.numpy_extension"),
    ("mxnet.symbol.np", "mxnet.numpy"),
    ("mxnet.symbol.numpy", "mxnet.numpy"),
    ("mxnet.symbol.npx", "mxnet.numpy_extension"),
    ("mxnet.symbol.numpy_extension", "mxnet.numpy_extension"),
    ("mxnet.numpy.ndarray.ndarray", "mxnet.numpy.ndarray"),
    ("mxnet.util.set_np", "mxnet.numpy_extension.set_np"),
    ("mxnet.util.reset_np", "mxnet.numpy_extension.reset_np"),
    ("mxnet.use_np", "mxnet.util.use_np"),
    ("mxnet.test_utils.use_np", "mxnet.util.use_np"),
    ("mxnet.gluon.contrib.rnn.rnn_cell", "mxnet.gluon.contrib.rnn"),
    # gluon.contrib's modules whose every public name (`__all__`) its package re-exports (measured on MXNet
    # 1.9.1; tests/test_names.py checks each pair of this list against the installed MXNet): code imports them
    # from the defining module too (CenterNet: `from mxnet.gluon.contrib.cnn.conv_layers import
    # DeformableConvolution`, MXNetSeg: `contrib.nn.basic_layers.SyncBatchNorm`)
    ("mxnet.gluon.contrib.cnn.conv_layers", "mxnet.gluon.contrib.cnn"),
    ("mxnet.gluon.contrib.nn.basic_layers", "mxnet.gluon.contrib.nn"),
    ("mxnet.gluon.contrib.rnn.conv_rnn_cell", "mxnet.gluon.contrib.rnn"),
    ("mxnet.gluon.contrib.data.sampler", "mxnet.gluon.contrib.data"),
    ("mxnet.gluon.contrib.estimator.batch_processor", "mxnet.gluon.contrib.estimator"),
    ("mxnet.gluon.contrib.estimator.event_handler", "mxnet.gluon.contrib.estimator"),
    # Gluon's model zoo: vision/__init__.py imports * from each network's module (MX175)
    ("mxnet.gluon.model_zoo.vision.alexnet", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.densenet", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.inception", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.mobilenet", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.resnet", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.squeezenet", "mxnet.gluon.model_zoo.vision"),
    ("mxnet.gluon.model_zoo.vision.vgg", "mxnet.gluon.model_zoo.vision"),
    # gluonnlp 0.10's public names (its modules re-export them one level up)
    ("gluonnlp.model.transformer", "gluonnlp.model"),
    ("gluonnlp.model.attention_cell", "gluonnlp.model"),
    ("gluonnlp.model.bert", "gluonnlp.model"),
    ("gluonnlp.model.language_model", "gluonnlp.model"),
    ("gluonnlp.model.train.language_model", "gluonnlp.model.train"),
    ("gluonnlp.model.block", "gluonnlp.model"),
    ("gluonnlp.model.sequence_sampler", "gluonnlp.model"),
    ("gluonnlp.data.batchify.batchify", "gluonnlp.data.batchify"),
    ("gluonnlp.data.batchify.language_model", "gluonnlp.data.batchify"),
    ("gluonnlp.data.sampler", "gluonnlp.data"),
    ("gluonnlp.data.transforms", "gluonnlp.data"),
    ("gluonnlp.data.utils", "gluonnlp.data"),
    ("gluonnlp.vocab.vocab", "gluonnlp.vocab"),
    ("gluonnlp.Vocab", "gluonnlp.vocab.Vocab"),
]
# MXNet 2.0's homes of 1.x modules, which 1.9.1 lacks: code written for both imports from one and falls back
# to the other (GluonCV's metrics: `try: from mxnet.metric import EvalMetric` `except ImportError: from
# mxnet.gluon.metric import EvalMetric`), and the two bindings name one class
MXNET2_MOVES = [("mxnet.gluon.metric", "mxnet.metric")]
_REEXPORTS += MXNET2_MOVES
_REEXPORTS += held_modules.reexports()  # `from mxnet.metric import ndarray` is mxnet.ndarray
_REEXPORTS.sort(key=lambda pair: -pair[0].count("."))


def canonical(dotted: str) -> str:
    """The name MXNet documents for a re-exported one (`mxnet.nd.zeros` -> `mxnet.ndarray.zeros`)."""
    found = _CANONICAL.get(dotted)
    if found is None:
        found = _CANONICAL[dotted] = _canonical(dotted)
    return found


_CANONICAL: dict[str, str] = {}


# A module re-exported by its package whose package binds the module's own name to something else:
# vision/__init__.py's `from .alexnet import *` rebinds `vision.alexnet`, the module, to the function
# alexnet (measured on MXNet 1.9.1; tests/test_names.py checks the list against the installed MXNet).
# The name itself is that object, not the package (a network built with `vision.alexnet()` was
# reported as `mxnet.gluon.model_zoo.vision` with no rule); names below it are the module's.
SHADOWED_MODULES = frozenset({"mxnet.gluon.model_zoo.vision.alexnet"})


def _canonical(dotted: str) -> str:
    for _ in range(4):
        for prefix, target in _REEXPORTS:
            if dotted == prefix and prefix in SHADOWED_MODULES:
                continue
            if dotted == prefix or dotted.startswith(prefix + "."):
                dotted = target + dotted[len(prefix):]
                break
        else:
            return dotted
    return dotted


def ident(name: str) -> str:
    """An identifier as Python reads it (NFKC-normalised: `ｎｄ` is `nd`), as `ast` gives it;
    LibCST keeps the spelling of the source."""
    return name if name.isascii() else unicodedata.normalize("NFKC", name)

ARRAY_ARGUMENT = ast.Constant(value=None)  # the value of an input of a Gluon block's forward
ScopeKey = tuple  # tuple of (name, occurrence) pairs


BLOCK_CLASSES = ("mxnet.gluon.Block", "mxnet.gluon.HybridBlock")
PARAMETER_CLASSES = ("mxnet.gluon.Parameter", "mxnet.gluon.parameter.Parameter")  # MX117 translates them


def _paired(target, value) -> list:
    """The elements of a tuple or list display assigned to a tuple or list target of as many
    names, one for each (neither side starred); else None for each."""
    if isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts) and not any(
            isinstance(e, ast.Starred) for e in (*value.elts, *target.elts)):
        return list(value.elts)
    return [None] * len(target.elts)


def _missing_fallback(node: ast.Assign) -> bool:
    """The except branch of a kept MXNet import that a conversion guarded (Note [kept MXNet
    imports] in xlate/convert/imports.py)."""
    value = node.value
    return len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) and isinstance(value, ast.Call) \
        and isinstance(value.func, ast.Name) and value.func.id == "_mx_missing"


@dataclass
class Scope:
    key: ScopeKey
    parent: Optional["Scope"]
    is_class: bool = False
    imports: dict = field(default_factory=dict)  # name -> canonical dotted module/object
    other: set = field(default_factory=set)  # names bound by anything but an import
    values: dict = field(default_factory=dict)  # name -> [ast.expr | None]
    star_mx: list = field(default_factory=list)  # `from mxnet.x import *` (line numbers)
    star_local: list = field(default_factory=list)  # `from .x import *` of the tree's own modules
    mx_params: set = field(default_factory=set)  # hybrid_forward's F: MXNet's namespace, passed in
    gluon: bool = False  # a class deriving from a Gluon block (here or in a class of this file)
    mx_bases: tuple = ()  # canonical names of its MXNet base classes
    block_bases: tuple = ()  # positions of its bases that are MXNet's Block/HybridBlock themselves
    derived_base: bool = False  # another base is a class (of this tree) deriving from a Gluon block
    attrs: dict = field(default_factory=dict)  # class scopes: `self.<attr> = value` in its methods
    node: Optional[ast.AST] = None  # the def or class statement (None for the module)
    declared: dict = field(default_factory=dict)  # `global`/`nonlocal` names -> the scope they live in
    nonlocals: set = field(default_factory=set)  # `nonlocal` names: homed once every scope is known
    grad_reads: set = field(default_factory=set)  # names read as `name.grad` here (arrays with a gradient)
    index_names: set = field(default_factory=set)  # names in an index: `x[name]`, `x[name, :]`, `x[t[i]]`
    # names a rule rewrites an index of when they hold an MXNet array: `name[i] = v` (MX006), `name[::-1]` (MX007)
    item_writes: set = field(default_factory=set)
    element_reads: set = field(default_factory=set)  # `name[i, j]`: two or more indices, no slice (MX017)
    aliases: set = field(default_factory=set)  # `F = mx.ndarray` in a function: Note [namespace aliases]
    method_receivers: set = field(default_factory=set)  # `name.method(...)`: an NDArray's is hot (cold.py)


# Note [course libraries]
# Textbook code imports its course's helper library with an MXNet backend (`from d2l import
# mxnet as d2l`, `import d2l.mxnet`). Its functions are MXNet code written against the same
# dialect, and another backend's module (d2l.torch) has different functions and signatures:
# the import is reported, never rewritten; the advice is to convert the library itself with
# xlate and import the converted module. Such an import makes the file one xlate converts.
COURSE_LIBRARIES = ("d2l.mxnet",)


def course_library(dotted: str) -> bool:
    return any(dotted == lib or dotted.startswith(lib + ".") for lib in COURSE_LIBRARIES)


# nn.Module methods a Gluon block does not have (it has collect_params): what they give is torch's
TORCH_MODULE_METHODS = frozenset("parameters named_parameters buffers named_buffers modules named_modules "
                                 "children named_children state_dict".split())
