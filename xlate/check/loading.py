"""What `FILE.py:NAME` may name, and how the checker gets a model or a step function from it.

Note [what a reference names]
`--mx`, `--pt` and convert-weights' references name, in the file, one of:
- a model class, called with `--mx-args`/`--pt-args` as keyword arguments;
- a function that returns a model (a factory), called the same way;
- a model instance built when the file is imported (`net = nn.HybridSequential()` at module
  level). It takes no arguments: there is nothing to pass them to.
The checker then overwrites every weight with random values on the MXNet side and copies
them into the PyTorch side (or, with keep_weights, compares what both hold), sets dropout
rates to 0 and moves the model: it changes the object it is given. A class or a factory gives
a new object per call; an instance is new per import, and every load imports the file again
into a module of its own. An instance that the file imports from another module is the
exception (Python runs a module once per process): the second check would get the object the
first one changed (its dropout rates already 0 on both sides, where comparing them catches a
wrong rate). So one object is handed out once per process, and a second load of the same
object is refused with a message that says to name a class or a factory.

`--mx-step`/`--pt-step` name `make_step`, called as `make_step(model, **step_args)` with the
model positionally; it returns `step(*inputs, *labels) -> loss`.

Note [models in packages]
Real model zoos are packages: `zoo/models/resnet.py` says `from .common import conv3x3`, which
Python runs only inside its package ("attempted relative import with no known parent package"
when the file is run alone). A reference may name such a file, or the module itself as
`package.module:NAME` (found from the current directory, then sys.path, without importing
anything to find it). A file is in a package when its folder holds an `__init__.py`; the
package's root is the topmost folder of that chain. It is imported as that package's module,
`<alias>.zoo.models.resnet`, under an alias made for each load (`_xlate_check_<n>`, a package
whose path is the root's parent folder): each load runs the package anew, as a plain file is
run anew, and the MXNet package and its translation, both called `zoo`, stay apart where they
import their own modules relatively. The root's parent folder is on sys.path while it imports,
so an absolute import of the package's own name (`from zoo.common import ...`) works too, but
reaches the one `zoo` Python imported first in the process: relative imports are what keeps the
two sides apart.

Note [training at import]
Tutorial scripts build the model and train it at module level, so importing them (which the
checker must do) runs the training first: minutes, a data set download, or a failure. Each
import reads the file statically first (module-level statements outside functions, classes
and `if __name__ == "__main__":` that call training APIs, or call a function of the file that
does) and is timed; what is found becomes advice in the report and in a load error: keep the
model in a class or a factory and the training under `if __name__ == "__main__":`.
"""
from __future__ import annotations

import ast
import importlib
import importlib.machinery
import importlib.util
import inspect
import itertools
import os
import re
import sys
import time
import types
import weakref
from pathlib import Path
from typing import Any, Optional

# An import slower than this is said in the advice, whatever the file's statements look like.
SLOW_IMPORT_S = 10.0

# method calls that only training does: loss.backward(), trainer.step(n), optimizer.zero_grad(),
# with autograd.record():, model.fit(...)
TRAINING_METHODS = {"backward", "step", "zero_grad", "record", "fit"}
# a call to a function named like training: train(...), train_ch3(...), fit(...), train_epoch(...)
TRAINING_FUNCTION = re.compile(r"(train|fit)(_\w*)?$")
NOT_TRAINING = re.compile(r"split|data|loader|iter|set|transform")  # train_test_split, train_data()

_HANDED_OUT: "weakref.WeakSet[Any]" = weakref.WeakSet()  # instances already given to a check


class LoadError(Exception):
    """A model that cannot be loaded or built: exit code 2, with file and reason."""


def load(ref: str, kwargs: dict, *, framework: Optional[str] = None,
         advice: Optional[list[str]] = None) -> Any:
    """The model `FILE.py:NAME` names (see Note [what a reference names]); `framework`
    ("mxnet" or "pytorch") is what it must be; advice about the file goes into `advice`."""
    path, name = _split(ref)
    module, notes = _import(path)
    _extend(advice, notes)
    try:
        obj = _attribute(module, path, name)
        model = _build(ref, name, obj, kwargs, framework)
    except LoadError as e:
        raise LoadError("\n".join([str(e), *notes])) from e.__cause__
    if _is_model(model):
        if model in _HANDED_OUT:
            raise LoadError(f"{ref}: gives the same {type(model).__name__} object a previous load in this process "
                            f"got and changed (it comes from a module Python imported once); name a class or a "
                            f"function that builds the model, so that each check gets its own")
        _HANDED_OUT.add(model)
    return model


def load_step(ref: str, model: Any, kwargs: dict, *, advice: Optional[list[str]] = None):
    """`make_step(model, **kwargs)` from `FILE.py:NAME`: the step function of one side."""
    path, name = _split(ref)
    module, notes = _import(path)
    _extend(advice, notes)
    make_step = _attribute(module, path, name)
    expected = f"{name}(model, **step_args) returning step(*inputs, *labels) -> loss"
    if not callable(make_step) or _is_model(make_step):
        raise LoadError(f"{ref}: is a {type(make_step).__name__}; expected a function {expected}")
    try:
        inspect.signature(make_step).bind(model, **kwargs)
    except TypeError as e:
        raise LoadError(f"{ref}: the checker calls {expected}, the model as the first positional argument; "
                        f"{name}{_signature(make_step)} does not take that ({e})") from None
    except ValueError:  # no signature to read (a builtin): let the call say
        pass
    try:
        step = make_step(model, **kwargs)
    except Exception as e:
        raise LoadError("\n".join([f"{ref}: {name}(model) failed: {type(e).__name__}: {e}", *notes])) from e
    if not callable(step):
        raise LoadError(f"{ref}: {name}(model) returned a {type(step).__name__}; expected a function "
                        f"step(*inputs, *labels) -> loss")
    return step


_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
_ALIASES = itertools.count(1)


def _split(ref: str) -> tuple[Path, str]:
    path_text, _, name = ref.rpartition(":")
    if not path_text or not name:
        raise LoadError(f"{ref}: expected FILE.py:NAME or package.module:NAME")
    path = Path(path_text)
    if path.is_file():
        return path, name
    if _DOTTED.fullmatch(path_text) and not path_text.endswith(".py"):
        found = module_file(path_text)
        if found is None:
            raise LoadError(f"{path_text}: no such file, nor a module of that name in the current directory or on "
                            f"sys.path")
        return found, name
    raise LoadError(f"{path}: no such file")


def module_file(dotted: str, search: Optional[list] = None) -> Optional[Path]:
    """The file of module `dotted` (`zoo.models.resnet`: `zoo/models/resnet.py` or
    `.../resnet/__init__.py`) in the first folder of `search` (default: the current directory,
    then sys.path) that has it; nothing is imported to find it."""
    parts = dotted.split(".")
    for folder in search if search is not None else [os.getcwd(), *sys.path]:
        base = Path(folder or os.getcwd()).joinpath(*parts)
        for candidate in (base.with_name(parts[-1] + ".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate
    return None


def package_root(path: Path) -> Optional[Path]:
    """The topmost folder of the chain of `__init__.py` folders holding `path`; None for a
    file that is in no package (Note [models in packages])."""
    folder, root = path.resolve().parent, None
    while (folder / "__init__.py").is_file() and folder.name.isidentifier():
        root, folder = folder, folder.parent
    return root


def _import(path: Path) -> tuple[Any, list[str]]:
    """The file run as a module of its own (a new one per call; a file in a package as that
    package's module, Note [models in packages]), and the advice about it."""
    notes = trains_on_import(path)
    root = package_root(path)
    folders = [str(path.resolve().parent)] + ([str(root.parent)] if root is not None else [])
    sys.path[:0] = folders
    start = time.monotonic()
    try:
        module = _run_file(path) if root is None else _run_in_package(path, root)
    except Exception as e:
        raise LoadError("\n".join([f"{path}: importing it failed: {type(e).__name__}: {e}", *notes])) from e
    finally:
        del sys.path[:len(folders)]
    took = time.monotonic() - start
    if took >= SLOW_IMPORT_S and not notes:
        notes.append(f"advice: importing {path} took {took:.0f} s; if it trains or loads data at module level, "
                     f"{_PATTERN}")
    return module, notes


def _run_file(path: Path):
    spec = importlib.util.spec_from_file_location(f"_xlate_check_{abs(hash(path.resolve()))}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run_in_package(path: Path, root: Path):
    """`path` imported as its package's module under a new alias (Note [models in packages])."""
    alias = f"_xlate_check_{next(_ALIASES)}"
    parent = types.ModuleType(alias)
    parent.__spec__ = importlib.machinery.ModuleSpec(alias, None, is_package=True)
    parent.__path__ = parent.__spec__.submodule_search_locations = [str(root.parent)]
    sys.modules[alias] = parent
    relative = path.resolve().relative_to(root.parent).with_suffix("").parts
    dotted = ".".join(relative[:-1] if relative[-1] == "__init__" else relative)
    try:
        return importlib.import_module(f"{alias}.{dotted}")
    except BaseException:  # a package that does not import leaves nothing behind
        for name in [n for n in sys.modules if n == alias or n.startswith(alias + ".")]:
            del sys.modules[name]
        raise


def _attribute(module, path: Path, name: str):
    try:
        return getattr(module, name)
    except AttributeError:
        raise LoadError(f"{path}: has no {name}") from None


def _build(ref: str, name: str, obj, kwargs: dict, framework: Optional[str]):
    wanted = {"mxnet": "a Gluon Block", "pytorch": "a torch.nn.Module"}.get(framework or "", "a model")
    if _is_model(obj):
        if kwargs:
            raise LoadError(f"{ref}: is a model instance ({type(obj).__name__}), built when the file is imported; "
                            f"it takes no constructor arguments ({', '.join(kwargs)}): name its class, or a "
                            f"function that builds it, to pass them")
        model = obj
    elif callable(obj):
        try:
            inspect.signature(obj).bind(**kwargs)
        except TypeError as e:
            kind = "class" if inspect.isclass(obj) else "function"
            raise LoadError(f"{ref}: the {kind} {name}{_signature(obj)} cannot be called with the arguments "
                            f"given ({', '.join(kwargs) or 'none'}): {e}; pass them as JSON with --mx-args/--pt-args, "
                            f"e.g. '{{\"units\": 8}}'") from None
        except ValueError:
            pass
        try:
            model = obj(**kwargs)
        except Exception as e:
            raise LoadError(f"{ref}: building it failed: {type(e).__name__}: {e}") from e
    else:
        raise LoadError(f"{ref}: is a {type(obj).__name__}; expected {wanted} class, a function that returns "
                        f"one, or a model instance")
    side = _framework(model)
    if side is None or (framework and side != framework):
        what = f"{name}(...)" if model is not obj else name
        raise LoadError(f"{ref}: {what} is a {type(model).__name__}, not {wanted}")
    return model


def _signature(fn) -> str:
    try:
        return str(inspect.signature(fn))
    except (TypeError, ValueError):
        return "(...)"


def _framework(obj) -> Optional[str]:
    """"mxnet" for a Gluon Block, "pytorch" for a torch module, else None (asks only the
    frameworks the model file itself imported)."""
    block = getattr(sys.modules.get("mxnet.gluon.block"), "Block", None)
    if block is not None and isinstance(obj, block):
        return "mxnet"
    module = getattr(sys.modules.get("torch.nn.modules.module"), "Module", None)
    if module is not None and isinstance(obj, module):
        return "pytorch"
    return None


def _is_model(obj) -> bool:
    return not inspect.isclass(obj) and _framework(obj) is not None


def _extend(advice: Optional[list[str]], notes: list[str]) -> None:
    if advice is not None:
        advice.extend(n for n in notes if n not in advice)


# -- Note [training at import] -------------------------------------------------------------------
_PATTERN = ("keep the model in a class or a function that builds it, and the training under "
            "`if __name__ == \"__main__\":` (README, 'Checking a translation'), then name the class or function")


def trains_on_import(path: Path) -> list[str]:
    """Advice when the file's module-level statements call training APIs (at most three shown)."""
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, UnicodeDecodeError, SyntaxError):  # importing it will say what is wrong
        return []
    training = _training_functions(tree)
    found = []
    for stmt in _module_level(tree.body):
        for node in _calls(stmt):
            name = _called_name(node)
            local = node.func.id if isinstance(node.func, ast.Name) and node.func.id in training else None
            if name or local:
                found.append(f"line {node.lineno}: `{_short(ast.get_source_segment(source, node) or name)}`")
    if not found:
        return []
    shown = ", ".join(found[:3]) + (f" and {len(found) - 3} more" if len(found) > 3 else "")
    return [f"advice: {path} trains when imported ({shown}), and the checker must import it, so every check "
            f"runs that training first; {_PATTERN}"]


def _training_functions(tree: ast.Module) -> set[str]:
    """Module-level functions that train when called: a training call in their body, or a
    call to another such function (`def main(): ... trainer.step(...)` then `main()`)."""
    defs = {d.name: d for d in tree.body if isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef))}
    calls = {name: [c for stmt in d.body for c in _calls_in(stmt)] for name, d in defs.items()}
    training = {name for name, cs in calls.items() if any(_called_name(c) for c in cs)}
    changed = True
    while changed:  # callers of training functions, to a fixed point
        changed = False
        for name, cs in calls.items():
            if name not in training and any(isinstance(c.func, ast.Name) and c.func.id in training for c in cs):
                training.add(name)
                changed = True
    return training


def _module_level(body: list[ast.stmt]):
    """Statements that run at import: not in functions or classes, nor under `if __name__ == "__main__":`."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(stmt, ast.If) and _is_main_guard(stmt.test):
            yield from _module_level(stmt.orelse)
            continue
        yield stmt


def _is_main_guard(test: ast.expr) -> bool:
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = [test.left, test.comparators[0]]
    return (any(isinstance(s, ast.Name) and s.id == "__name__" for s in sides)
            and any(isinstance(s, ast.Constant) and s.value == "__main__" for s in sides))


def _calls(node: ast.AST):
    """Calls in `node` that run when it runs: not inside a def, class or lambda it contains."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(child, ast.If) and _is_main_guard(child.test):
            for stmt in child.orelse:
                yield from _calls_in(stmt)
            continue
        if isinstance(child, ast.Call):
            yield child
        yield from _calls(child)


def _calls_in(node: ast.AST):
    if isinstance(node, ast.Call):
        yield node
    yield from _calls(node)


def _called_name(call: ast.Call) -> Optional[str]:
    func = call.func
    if isinstance(func, ast.Attribute):
        if func.attr in TRAINING_METHODS:
            return func.attr
        name = func.attr
    elif isinstance(func, ast.Name):
        name = func.id
    else:
        return None
    if TRAINING_FUNCTION.match(name) and not NOT_TRAINING.search(name):
        return name
    return None


def _short(text: str, width: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= width else text[:width - 3] + "..."
