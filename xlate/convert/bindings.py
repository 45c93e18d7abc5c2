"""Other libraries' MXNet bindings imported by a converted program (Note [MXNet bindings of other libraries]).

Note [MXNet bindings of other libraries]
Distributed training, data loading and logging libraries ship one module per framework:
`horovod.mxnet`, `byteps.mxnet`, `nvidia.dali.plugin.mxnet`, MXBoard. None of them is MXNet's own
namespace, so the import went through conversion as any third-party import does, silently: the
converted program still imports MXNet through them (an ImportError without mxnet) and hands them
torch tensors where they take NDArrays. Each such import is reported at its line with the
library's PyTorch module and what differs in its API; a module path with a component named
`mxnet` that xlate does not know is reported too, without a counterpart. The tree's own modules
(a backend subpackage `nn/mxnet/`, Note [a package named mxnet]) are its code, converted with it.
"""
from __future__ import annotations

import ast
from typing import Optional

from xlate.convert import astwalk

CODE = "MX902"
_KNOWN = {
    "horovod.mxnet": "Horovod's PyTorch binding is `horovod.torch`: `init`, `rank`, `local_rank`, `size` and "
                     "`broadcast_parameters(params, root_rank=0)` as here (it takes `model.state_dict()`); "
                     "`hvd.DistributedTrainer(params, opt)` becomes `hvd.DistributedOptimizer(optimizer, "
                     "named_parameters=model.named_parameters())` over a torch optimizer",
    "byteps.mxnet": "BytePS's PyTorch binding is `byteps.torch`: `DistributedTrainer` becomes "
                    "`DistributedOptimizer(optimizer, named_parameters=...)` over a torch optimizer",
    "nvidia.dali.plugin.mxnet": "DALI's PyTorch plugin is `nvidia.dali.plugin.pytorch`: its `DALIGenericIterator` "
                                "yields a list of dicts of torch tensors (`batch[0]['data']`) where the MXNet one "
                                "yields DataBatch objects (`batch[0].data[0]`)",
    "dgl.nn.mxnet": "DGL's PyTorch layers are `dgl.nn.pytorch` (the same class names: GraphConv, GATConv, ...; "
                    "DGL picks its backend from DGLBACKEND=pytorch)",
    "smdebug.mxnet": "SageMaker Debugger's PyTorch hook is `smdebug.pytorch` (`Hook`, `register_block` is "
                     "`register_module`)",
    "mxboard": "MXBoard's counterpart is `torch.utils.tensorboard.SummaryWriter` (`add_scalar`, `add_histogram`, "
               "`add_image` take the same names; tensors where MXBoard took NDArrays)",
}


def binding_of(module: str) -> Optional[str]:
    """The MXNet binding `module` is part of (a key of _KNOWN, or the path up to its `mxnet` component)."""
    parts = module.split(".")
    for known in _KNOWN:
        if module == known or module.startswith(known + "."):
            return known
    if parts[0] in ("mxnet", "gluonnlp", "gluoncv") or "mxnet" not in parts[1:]:
        return None
    return ".".join(parts[:parts.index("mxnet", 1) + 1])


def imported_bindings(tree: ast.Module) -> list[tuple[int, int, str]]:
    """(line, column, binding) for each absolute import of another library's MXNet binding."""
    found = []
    for node in astwalk.walk(tree):
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names if a.name == "mxnet"]
        else:
            continue
        for module in modules:
            binding = binding_of(module)
            if binding is not None:
                found.append((node.lineno, node.col_offset + 1, binding))
                break
    return found


def message(binding: str) -> str:
    known = _KNOWN.get(binding)
    if known is not None:
        return f"`{binding}` is {'a library' if binding == 'mxboard' else 'another library'}'s MXNet binding, " \
               f"which imports MXNet and takes NDArrays: {known}"
    return (f"`{binding}` looks like another library's MXNet binding (a module named `mxnet` inside it): it imports "
            f"MXNet and takes NDArrays; use the library's PyTorch module")
