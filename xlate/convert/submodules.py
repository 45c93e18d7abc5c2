"""Standard-library submodules a module read only because `import mxnet` loaded them.

Note [submodules MXNet imported]
`import mxnet` imports, as a side effect, standard-library submodules such as
`multiprocessing.pool`, `urllib.request`, `json.decoder`; a module that says only `import
multiprocessing` and then reads `multiprocessing.pool.Pool` works under MXNet and nowhere else.
Once the converted module no longer imports MXNet (removed, or guarded where MXNet is missing),
that read raises AttributeError on import (sockeye's data_io: `pool: multiprocessing.pool.Pool`
in a signature, which took 23 of its 40 modules with it). In a module that imported MXNet,
each `pkg.sub` read through a plain top-level `import pkg` of a standard-library package, where
`pkg.sub` is a submodule the module does not import itself, gets its own `import pkg.sub` after
`import pkg`: importing a standard-library submodule that exists changes nothing else.
Only the submodules that `import mxnet` (1.9.1, on CPython 3.11) loads and that a plain `import
pkg` does not (MXNET_LOADED, measured so): `unittest.main` is the package's own function, and a
module that reads it never needed MXNet for it.
"""
from __future__ import annotations

import ast
import re
import sys


# sorted(set(sys.modules) after `import mxnet` - before), standard-library `pkg.sub` only, less
# those a fresh `python -I -c "import pkg"` already has as attributes
MXNET_LOADED = frozenset("""collections.abc distutils.version email.base64mime email.charset email.encoders
email.errors email.feedparser email.header email.headerregistry email.iterators email.message email.parser
email.quoprimime email.utils encodings.idna http.client http.cookiejar http.cookies importlib.abc
importlib.machinery importlib.metadata importlib.readers importlib.resources importlib.util
multiprocessing.connection multiprocessing.pool multiprocessing.queues multiprocessing.resource_sharer
multiprocessing.util urllib.error urllib.parse urllib.request urllib.response""".split())

# Both words of such a `pkg.sub` read are in the text (an identifier is never split), so a text
# that lacks them needs no parse: most converted modules (the parse was a tenth of a conversion)
_ROOTS = re.compile(r"\b(" + "|".join(sorted({d.split(".")[0] for d in MXNET_LOADED})) + r")\b")
_SUBS = {root: re.compile(r"\b(" + "|".join(sorted(d.split(".")[1] for d in MXNET_LOADED if d.startswith(root + ".")))
                          + r")\b") for root in {d.split(".")[0] for d in MXNET_LOADED}}


def _may_read(output: str) -> bool:
    return any(_SUBS[root].search(output) for root in set(_ROOTS.findall(output)))


def import_submodules(output: str) -> str:
    """`output` with `import pkg.sub` after `import pkg` for each such read (Note [submodules MXNet imported])."""
    if not _may_read(output):
        return output
    try:
        tree = ast.parse(output)
    except SyntaxError:
        return output
    plain: dict[str, ast.Import] = {}
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            imported.add(node.module)
            imported.update(f"{node.module}.{a.name}" for a in node.names)
    for node in tree.body:
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.asname is None and "." not in a.name and a.name in sys.stdlib_module_names:
                    plain.setdefault(a.name, node)
    if not plain:
        return output
    wanted: dict[int, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in plain:
            dotted = f"{node.value.id}.{node.attr}"
            if dotted not in imported and dotted in MXNET_LOADED:
                wanted.setdefault(plain[node.value.id].end_lineno, set()).add(dotted)
    if not wanted:
        return output
    lines = output.splitlines(keepends=True)
    for end in sorted(wanted, reverse=True):
        indent = lines[end - 1][:len(lines[end - 1]) - len(lines[end - 1].lstrip())]
        lines[end:end] = [f"{indent}import {name}  # MXNet's import loaded it (Note [submodules MXNet imported])\n"
                          for name in sorted(wanted[end])]
    return "".join(lines)
