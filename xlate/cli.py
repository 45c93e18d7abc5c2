"""`xlate convert`, `xlate check`, `xlate convert-weights`, `xlate rules`, `xlate rule CODE`."""
from __future__ import annotations

import argparse
import ast
import re
import contextlib
import difflib
import functools
import os
import signal
import sys
from pathlib import Path
from typing import Optional, Sequence

EXIT_OK, EXIT_MANUAL, EXIT_ERROR = 0, 1, 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for Ctrl-C


class UsageError(Exception):
    pass


def _parser() -> argparse.ArgumentParser:
    from xlate import __version__

    p = argparse.ArgumentParser(prog="xlate", description="Translate MXNet/Gluon code to PyTorch.")
    p.add_argument("--version", action="version", version=f"xlate {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    c = sub.add_parser("convert", help="convert files or directories",
                       description="Convert MXNet/Gluon source to PyTorch source and report every rewrite. "
                                   "The report goes to stderr in every mode; stdout carries only the "
                                   "converted code (no -o) or the diff (--diff).")
    c.add_argument("paths", nargs="+", metavar="PATH", help="files or directories to convert")
    c.add_argument("-o", "--output", metavar="OUT",
                   help="output file (one input file) or directory (mirrors the input tree)")
    c.add_argument("--in-place", action="store_true", help="overwrite the inputs")
    c.add_argument("--diff", action="store_true", help="print a unified diff and write nothing")
    c.add_argument("--select", metavar="CODES", help="comma-separated rule codes or prefixes to apply (MX0,MX501)")
    c.add_argument("--ignore", metavar="CODES", help="comma-separated rule codes or prefixes to skip")
    c.add_argument("--format", choices=("text", "json"), default="text", help="report format")
    c.add_argument("--other-files", choices=("copy", "skip"), default="copy",
                   help="for a directory: copy non-Python files into the output tree, or skip them")
    c.add_argument("-j", "--jobs", type=int, default=0, help="files converted at once, by this process and N-1 worker processes (default: CPU count)")
    c.add_argument("--hybridize", choices=("drop", "compile"), default="drop",
                   help="net.hybridize(): remove it (default) or write net.compile() (MX600)")
    c.add_argument("--multi-device", choices=("single", "distributed"), default="single",
                   help="a loop over a list of contexts (split_and_load, MX560): one process running every slice "
                        "on the first device (default), or one process per context launched with torchrun, "
                        "gradients summed over processes (gloo on CPU, nccl on CUDA)")
    c.add_argument("--helpers", choices=("module", "inline"),
                   help="where converted code finds xlate's helpers: a _mx_compat.py module beside the output "
                        "(the default for a directory and for -o FILE), or pasted into each file (the default "
                        "on stdout, --in-place and --diff of one file)")
    c.add_argument("--exit-zero", action="store_true",
                   help="exit 0 even when manual items remain (errors still exit 2)")
    c.add_argument("--keep-going", action="store_true",
                   help="write every file that converts even when others do not (those are listed, "
                        "and the exit code is still 2); by default nothing is written then")
    k = sub.add_parser("check", help="compare an MXNet model with its PyTorch translation",
                       description="Run both models with the same weights on the same inputs and compare "
                                   "outputs and gradients. Importing the model files runs their code.")
    k.add_argument("--mx", metavar="FILE.py:NAME", help="the MXNet model: a class, a function that builds it, "
                                                          "or a model instance the file builds; a file in a package "
                                                          "imports as its package's module, or give package.module:NAME")
    k.add_argument("--pt", metavar="FILE.py:NAME", help="the PyTorch model: a class, a function that builds it, "
                                                          "or a model instance the file builds; a file in a package "
                                                          "imports as its package's module, or give package.module:NAME")
    k.add_argument("--record", metavar="DIR", help="also store what MXNet computed as a golden reference")
    k.add_argument("--against", metavar="DIR",
                   help="check the PyTorch side alone against a golden reference (no MXNet needed)")
    k.add_argument("--input", action="append", default=[], metavar="SPEC",
                   help="an input, in call order: x:float32[4,7,3] or ids:int64[4,7]<10 (repeat for several)")
    k.add_argument("--mx-args", default="{}", metavar="JSON", help="keyword arguments for the MXNet constructor")
    k.add_argument("--pt-args", default="{}", metavar="JSON", help="keyword arguments for the PyTorch constructor")
    k.add_argument("--steps", type=int, default=0, metavar="K",
                   help="then train both for K optimizer steps (needs --mx-step and --pt-step); with --rules: "
                        "the steps each Trainer/optimizer/loss case takes (default 3)")
    k.add_argument("--mx-step", metavar="FILE.py:NAME",
                   help="make_step(model, **step_args) -> step(*inputs, *labels) -> loss, MXNet side")
    k.add_argument("--pt-step", metavar="FILE.py:NAME",
                   help="make_step(model, **step_args) -> step(*inputs, *labels) -> loss, PyTorch side")
    k.add_argument("--label", action="append", default=[], metavar="SPEC",
                   help="an input for the step functions only (labels), after the model's inputs")
    k.add_argument("--mx-step-args", default="{}", metavar="JSON", help="keyword arguments for --mx-step")
    k.add_argument("--pt-step-args", default="{}", metavar="JSON", help="keyword arguments for --pt-step")
    k.add_argument("--seed", type=int, default=0, help="seed for inputs, weights and head gradients")
    k.add_argument("--keep-weights", action="store_true",
                   help="compare the weights both models hold (loaded by their files) instead of drawing "
                        "random ones, then run the comparison on them")
    k.add_argument("--device", choices=("auto", "cpu", "cuda"), default="auto",
                   help="device for the PyTorch side (MXNet always runs on the CPU)")
    _tolerance_options(k)
    k.add_argument("--format", choices=("text", "json"), default="text")
    k.add_argument("--junit", metavar="FILE", help="also write a JUnit XML report")
    k.add_argument("--rules", action="store_true",
                   help="self-check: every layer family's samples and every NDArray/device rule's cases "
                        "on hypothesis-drawn shapes")
    k.add_argument("--examples", type=int, default=5, metavar="N", help="with --rules: configurations per sample")
    k.add_argument("--family", action="append", metavar="NAME", 
                   help="with --rules: only this family, ndarray, losses, devices, numpy, training or a rule code "
                        "(repeatable)")
    w = sub.add_parser("convert-weights", help="convert an MXNet parameter file to a PyTorch state_dict",
                       description="Load an MXNet parameter file into the Gluon model, map it onto the PyTorch "
                                   "translation with the checker's per-family tables, prove the result loads with "
                                   "strict=True, and only then write it (atomically). Importing the model files "
                                   "runs their code.")
    w.add_argument("params", metavar="PARAMS",
                   help="the MXNet parameter file (from save_parameters, save_params or export)")
    w.add_argument("--mx", metavar="FILE.py:NAME", help="the MXNet model: a class, a function that builds it, "
                                                          "or a model instance the file builds")
    w.add_argument("--pt", metavar="FILE.py:NAME", help="the PyTorch model: a class, a function that builds it, "
                                                          "or a model instance the file builds")
    w.add_argument("--zoo", metavar="NAME", help="a network of Gluon's model zoo (resnet18_v1, mobilenetv2_0.25, ...): "
                                                 "--mx is mxnet.gluon.model_zoo.vision.get_model(NAME), --pt the "
                                                 "translation's (_mx_vision_get_model), both with --mx-args")
    w.add_argument("-o", "--output", metavar="OUT.pt", help="the state_dict file to write (torch.save)")
    w.add_argument("--mx-args", default="{}", metavar="JSON", help="keyword arguments for the MXNet constructor")
    w.add_argument("--pt-args", default="{}", metavar="JSON", help="keyword arguments for the PyTorch constructor")
    w.add_argument("--input", action="append", default=[], metavar="SPEC",
                   help="an input (x:float32[4,7,3]); one forward pass fixes lazy modules' shapes; needed by --check")
    w.add_argument("--check", action="store_true",
                   help="also run xlate check's comparison on the converted weights (every tensor, outputs, "
                        "gradients, a training step); nothing is written if they differ")
    w.add_argument("--seed", type=int, default=0, help="seed for the --input arrays")
    _tolerance_options(w, " for --check")
    sub.add_parser("rules", help="list the rule catalogue")
    r = sub.add_parser("rule", help="explain one rule")
    r.add_argument("code", metavar="MXnnn")
    return p


def _tolerance_options(parser, scope: str = "") -> None:
    """The checker's tolerances and noise mode, the same for `check` and `convert-weights --check`."""
    parser.add_argument("--rtol", type=float, help=f"relative tolerance{scope} (default: torch.testing's for the dtype)")
    parser.add_argument("--atol", type=float, help=f"absolute tolerance{scope} (default: torch.testing's for the dtype)")
    parser.add_argument("--noise-floor", nargs="?", const="", default=None, metavar="K",
                        help=f"noise mode{scope}: also run the PyTorch model in float64 and judge what differs by how "
                             "far each side is from it; MXNet passes within K times PyTorch float32's own deviation "
                             "(default K: 50, measured; Note [noise floor] in xlate/check/noise.py). For deep models "
                             "in training mode, and gradients that are zero in exact arithmetic (a convolution's bias "
                             "before a BatchNorm), where float32 rounding alone makes the sides differ")


def _tolerances(args):
    """(Tolerance or None, NoiseFloor or None) from --rtol/--atol/--noise-floor."""
    from xlate.check.compare import Tolerance

    if (args.rtol is None) != (args.atol is None):
        raise UsageError("give both --rtol and --atol, or neither")
    return (Tolerance(args.rtol, args.atol) if args.rtol is not None else None), _noise_floor(args.noise_floor)


class _Terminated(BaseException):
    """SIGTERM, raised where the main thread is (like KeyboardInterrupt for SIGINT)."""


def _interruptible(command):
    """Ctrl-C exits 130 without a traceback; SIGTERM unwinds the same way (so temporary files
    and staging folders are removed on the way out, where Python would die at once and leave
    them) and exits 143. What was being written is cleaned up by the writers' own handlers."""
    @functools.wraps(command)
    def run(argv: Optional[Sequence[str]] = None) -> int:
        def terminate(signum, frame):
            raise _Terminated()

        try:
            previous = signal.signal(signal.SIGTERM, terminate)
        except ValueError:  # not the main thread (main() called from a thread): signals stay as they are
            previous = None
        try:
            return command(argv)
        except KeyboardInterrupt:
            return _interrupted(EXIT_INTERRUPTED)
        except _Terminated:
            return _interrupted(128 + signal.SIGTERM)
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)

    return run


def _interrupted(code: int) -> int:
    from xlate.convert.parsing import converting

    if converting():
        # A conversion thread is still in LibCST's native parser: an interpreter shutting down
        # around it aborts (SIGABRT). Everything to clean up has been cleaned up by now.
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


@_interruptible
def main(argv: Optional[Sequence[str]] = None) -> int:
    args = _parser().parse_args(argv)
    try:
        if args.command == "rules":
            return _rules()
        if args.command == "rule":
            return _rule(args.code)
        if args.command == "check":
            return _check(args)
        if args.command == "convert-weights":
            return _convert_weights(args)
        return _convert(args)
    except UsageError as e:
        print(f"xlate: error: {e}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_ERROR


def _codes(text: Optional[str]) -> Optional[list[str]]:
    if not text:
        return None
    codes = [c.strip().upper() for c in text.split(",") if c.strip()]
    bad = [c for c in codes if not c.startswith("MX") or not c[2:].isdigit() or len(c) > 5]
    if bad:
        raise UsageError(f"not a rule code or prefix: {', '.join(bad)}")
    from xlate.convert import catalogue

    known = [r.code for r in catalogue.load()]
    unknown = [c for c in codes if not any(k.startswith(c) for k in known)]
    if unknown:
        raise UsageError(f"no rule has the code or prefix {', '.join(unknown)}; `xlate rules` lists them")
    return codes


def _convert(args) -> int:
    from xlate.convert import catalogue
    from xlate.convert.engine import InputError
    from xlate.convert.files import convert_all, publish_tree, write_all
    from xlate.convert import tree
    from xlate.convert.parsing import no_gc
    from xlate.convert.progress import on_terminal
    from xlate.convert.report import FileResult, format_json, format_text

    select, ignore = _codes(args.select), _codes(args.ignore)
    modes = sum(bool(m) for m in (args.output, args.in_place, args.diff))
    if modes > 1:
        raise UsageError("choose one of -o/--output, --in-place and --diff")
    inputs = [Path(p) for p in args.paths]
    for p in inputs:
        if not p.exists():
            raise UsageError(f"{p}: no such file or directory")
    dirs = [p for p in inputs if p.is_dir()]
    out = Path(args.output) if args.output else None
    if dirs and not (out or args.in_place or args.diff):
        raise UsageError("converting a directory needs -o OUT, --in-place or --diff")
    if out and len(inputs) > 1:
        raise UsageError("-o takes one input (a file or a directory)")
    if out and dirs:
        src = dirs[0].resolve()
        dest = out.resolve()
        if dest == src or src in dest.parents:
            raise UsageError(f"{out}: the output directory is inside the input tree {dirs[0]}")
        if out.exists() and not out.is_dir():
            raise UsageError(f"{out}: exists and is not a directory")
    if out and not dirs and out.is_dir():
        raise UsageError(f"{out}: is a directory; give a file name for one input file")
    if out and not dirs and out.exists() and os.path.samefile(out, inputs[0]):
        raise UsageError(f"{out}: is the input file; use --in-place to overwrite it")

    # Note [helper placement]: a tree, and one file written to a file, import the helpers from
    # a _mx_compat.py beside them; stdout, --diff and --in-place of one file carry their own
    as_module = args.helpers == "module" or (args.helpers is None and bool(dirs or out))
    if as_module and not dirs and not (out or args.in_place or args.diff):
        raise UsageError("--helpers module writes _mx_compat.py beside the output: give -o OUT, --in-place or --diff")
    placement: list[str] = []
    while True:
        with no_gc():  # Note [no cyclic GC while converting]
            try:
                jobs, copies, trees = _jobs(inputs, out, args, as_module)
            except InputError as e:
                print(f"{e}", file=sys.stderr)
                return EXIT_ERROR
            workers = args.jobs or (os.cpu_count() or 1)
            progress = on_terminal(sys.stderr, len(jobs))  # None unless stderr is a terminal
            with progress or contextlib.nullcontext():
                results = convert_all(jobs, select=select, ignore=ignore, workers=workers,
                                      options={"hybridize": args.hybridize, "multi_device": args.multi_device},
                                      progress=progress, trees=trees)
        errors = [r for r in results if isinstance(r, InputError)]
        if errors and not args.keep_going:
            for e in errors:
                print(f"{e}", file=sys.stderr)
            more = "; --keep-going writes the files that convert" if len(results) > len(errors) else ""
            print(f"xlate: {len(errors)} file(s) could not be converted; nothing was written{more}", file=sys.stderr)
            return EXIT_ERROR
        converted = [(j, r) for j, r in zip(jobs, results) if isinstance(r, FileResult)]
        try:  # the tree's helper module(s), where converted files import them from
            modules = _helper_modules(converted, (out or dirs[0]) if dirs else None,
                                      on_path=bool(dirs) and tree.path_top(dirs[0].resolve()) == dirs[0].resolve())
        except tree.HelperModuleConflict as e:
            if as_module and args.helpers is None and not dirs:  # only the default chose the module
                as_module = False
                placement.append(f"Helpers: not in a module: {e.path} is not xlate's; pasted instead.")
                continue
            print(f"xlate: error: {e}; nothing was written", file=sys.stderr)
            return EXIT_ERROR
        break
    if modules:  # a converted _mx_compat.py of the input gives way to the merged module
        converted = [(j, r) for j, r in converted if (j.target or j.source) not in modules]
    placement += _placement(converted, modules)
    done: list[FileResult] = [r for _, r in converted]

    to_stdout = not (out or args.in_place or args.diff)
    report_stream = sys.stderr  # in every mode: stdout carries code or diffs, or nothing
    if args.diff:
        pairs = [(r.path, r.source, r.output) for r in done]
        pairs += [(str(path), _read_text(path) or "", text) for path, text in modules.items()]
        for path, old, new in pairs:
            for line in difflib.unified_diff(_lines(old), _lines(new), fromfile=f"a/{path}", tofile=f"b/{path}"):
                # `patch` and `git apply` need this marker after a last line without newline
                sys.stdout.write(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    elif to_stdout:
        for r in done:
            _write_stdout(r)
    else:
        try:
            if out and dirs:
                publish_tree(out, [(j.target, r.data) for j, r in converted] + list(modules.items()), copies)
            else:  # every file is written under a temporary name before the first is renamed
                write_all([(j.target, r.data) for j, r in converted if r.changed or not args.in_place]
                          + list(modules.items()))
        except OSError as e:
            print(f"xlate: error: cannot write {e.filename or out}: {e.strerror or e}", file=sys.stderr)
            return EXIT_ERROR

    notes = {r.code: r.notes for r in catalogue.load()}
    text = format_json(done, notes, helpers=placement) if args.format == "json" else \
        format_text(done, notes, helpers=placement)
    report_stream.write(text)
    if errors:  # --keep-going
        return _not_converted(errors)
    return EXIT_MANUAL if any(r.manual for r in done) and not args.exit_zero else EXIT_OK


def _jobs(inputs: list[Path], out: Optional[Path], args, as_module: bool) -> tuple[list, list, list]:
    """The files to convert, the other files to copy, and the trees (root, its Python files)
    whose package pass gives their files' contexts (Note [package facts])."""
    from xlate.convert import tree
    from xlate.convert.files import Job, walk
    from xlate.convert.placement import HelperImport

    jobs: list[Job] = []
    copies: list[tuple[Path, Path]] = []
    trees: list[tuple[Path, list[Path]]] = []
    for p in inputs:
        if p.is_dir():
            py, other = walk(p, check_other=bool(out) and args.other_files == "copy")
            for f in py:
                target = (out / f.relative_to(p)) if out else (f if args.in_place else None)
                jobs.append(Job(f, str(f), target, tree.helper_import(p, f) if as_module else None, tree=len(trees)))
            trees.append((p, py))
            if out and args.other_files == "copy":
                copies.extend((f, out / f.relative_to(p)) for f in other)
        else:
            jobs.append(Job(p, str(p), out if out else (p if args.in_place else None),
                            HelperImport(level=None) if as_module else None))
    return jobs, copies, trees


def _helper_modules(converted, root, on_path: bool = False) -> dict:
    """Helper module path -> text, beside where the converted files go (or would go, for --diff);
    `root`: where a converted tree goes (its output folder, or the tree itself), else None; `on_path`:
    the tree's root is the folder sys.path holds, even with an `__init__.py` (Note [a root on sys.path])."""
    from xlate.convert import tree

    sources = {(j.target or j.source).resolve(): r.source for j, r in converted}

    def read(path: Path):
        # the tree being converted may hold one (a second conversion); else what is on disk
        return sources.get(path.resolve(), _read_text(path) if path.exists() else None)

    return tree.plan_modules([(j.target or j.source, r) for j, r in converted], read, root, on_path=on_path)


_DEFINED = re.compile(r"^(?:def|class)[ \t]+(_mx_\w+)", re.MULTILINE)


def _placement(converted, modules: dict) -> list[str]:
    """Report lines: where the converted files' helpers went."""
    from xlate.convert import tree
    from xlate.runtime import sources

    lines = []
    for path, text in sorted(modules.items()):
        users = sum(1 for j, r in converted if r.helpers and r.helper_import is not None
                    and path.parent in tree.module_folders(j.target or j.source, r.helper_import))
        # the names its definitions give (parsing thousands of helper lines per folder cost 0.6 s)
        count = sum(1 for name in _DEFINED.findall(text) if name in sources())
        lines.append(f"Helpers: {count} in {path} (imported by {users} file{'s' * (users != 1)}).")
    for j, r in converted:
        if r.helpers and r.helper_import is None:
            last = ast.parse(r.output).body[-1]
            where = "after its code" if getattr(last, "name", None) in sources() else \
                "after its imports (a top-level statement runs them on import)"
            lines.append(f"Helpers: {len(r.helpers)} pasted into {j.target or r.path}, {where}.")
    return lines


def _read_text(path: Path):
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write_stdout(result) -> None:
    """The converted code, in its file's own encoding (a latin-1 file declares latin-1)."""
    if result.encoding == "utf-8" or not hasattr(sys.stdout, "buffer"):
        sys.stdout.write(result.output)
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(result.data)
    sys.stdout.buffer.flush()


def _not_converted(errors: list) -> int:
    """--keep-going: the files left out, after the report of those converted."""
    print(f"xlate: {len(errors)} file(s) could not be converted and were not written:", file=sys.stderr)
    for e in errors:
        print(f"  {e}", file=sys.stderr)
    return EXIT_ERROR


def _lines(text: str) -> list[str]:
    """Lines as Python (and `patch`) count them: str.splitlines also breaks at \\f, \\x1c, \\u2028..."""
    lines = [line + "\n" for line in text.split("\n")]
    last = lines.pop()[:-1]
    return lines + [last] if last else lines


def _check(args) -> int:
    import json

    if args.rules:
        return _check_rules(args)
    if not (args.mx or args.pt or args.against or args.input):
        return _check_project(args)
    if args.against:
        if args.mx or args.record or args.input or args.keep_weights:
            raise UsageError("--against replays a recorded reference: it takes no --mx, --record, --input "
                             "or --keep-weights")
    elif not (args.mx and args.pt and args.input):
        raise UsageError("give --mx, --pt and at least one --input (or --against DIR)")
    if args.steps and not (args.mx_step and args.pt_step):
        raise UsageError("--steps needs --mx-step and --pt-step")
    try:
        from xlate.check import output
        from xlate.check.inputs import SpecError, parse
        from xlate.check.mapping import MappingError
        from xlate.check.pair import LoadError, Steps, check_against, check_pair
    except ImportError as e:
        needs = "torch and numpy" if args.against else "torch, numpy and mxnet"
        raise UsageError(f"xlate check needs {needs} ({e}); install xlate[check] or xlate[dev]")
    try:
        specs = [parse(s) for s in args.input]
        labels = tuple(parse(s) for s in args.label)
        mx_kwargs, pt_kwargs = json.loads(args.mx_args), json.loads(args.pt_args)
        step_args = json.loads(args.mx_step_args), json.loads(args.pt_step_args)
    except SpecError as e:
        raise UsageError(str(e))
    except json.JSONDecodeError as e:
        raise UsageError(f"--mx-args/--pt-args: not JSON: {e}")
    tolerance, noise_floor = _tolerances(args)
    device = _device(args.device)
    try:
        if args.against:
            result = check_against(Path(args.against), args.pt, pt_kwargs=pt_kwargs if args.pt_args != "{}" else None,
                                   device=device, tolerance=tolerance, noise_floor=noise_floor)
        else:
            result = check_pair(args.mx, args.pt, specs, mx_kwargs=mx_kwargs, pt_kwargs=pt_kwargs,
                                seed=args.seed, device=device, tolerance=tolerance, noise_floor=noise_floor,
                                record=Path(args.record) if args.record else None, keep_weights=args.keep_weights,
                                steps=Steps(args.mx_step, args.pt_step, args.steps, *step_args, labels) if args.steps else None)
    except (LoadError, MappingError) as e:
        print(f"xlate check: {e}", file=sys.stderr)
        return EXIT_ERROR
    shown = ", ".join(str(s) for s in specs) or f"recorded in {args.against}"
    render = output.as_json if args.format == "json" else output.text
    sys.stdout.write(render(result, shown, args.seed))
    if args.junit:
        from xlate.convert.files import write_atomic

        write_atomic(Path(args.junit), output.junit(result))
    return EXIT_OK if result.ok else EXIT_MANUAL


def _noise_floor(text: Optional[str]):
    """--noise-floor: absent -> None (strict); without K -> the measured default K."""
    if text is None:
        return None
    from xlate.check.noise import NoiseFloor

    if not text:
        return NoiseFloor()
    try:
        return NoiseFloor(float(text))
    except ValueError:
        raise UsageError(f"--noise-floor K must be a positive number, got {text!r}")


def _convert_weights(args) -> int:
    """`xlate convert-weights PARAMS --mx ... --pt ... -o OUT`: see xlate/weights.py."""
    import json

    if args.zoo:  # Gluon's model zoo on both sides (xlate/weights.py, Note [zoo references])
        args.mx, args.pt = args.mx or f"zoo:{args.zoo}", args.pt or f"zoo:{args.zoo}"
        if args.pt_args == "{}":
            args.pt_args = args.mx_args
    if not (args.mx and args.pt and args.output):
        raise UsageError("convert-weights needs --mx FILE.py:NAME, --pt FILE.py:NAME and -o OUT (--zoo NAME: a network "
                         "of Gluon's model zoo on both sides)")
    if args.check and not args.input:
        raise UsageError("--check needs at least one --input")
    if not args.check and (args.rtol is not None or args.atol is not None or args.noise_floor is not None):
        raise UsageError("--rtol, --atol and --noise-floor set how --check compares: give --check too")
    try:
        from xlate.weights import ConvertError, convert_weights  # first: restores numpy aliases mxnet needs
        import mxnet  # noqa: F401
        import torch  # noqa: F401
        from xlate.check import output
        from xlate.check.inputs import SpecError, parse
    except ImportError as e:
        raise UsageError(f"xlate convert-weights needs torch, numpy and mxnet ({e}); install xlate[dev]")
    try:
        specs = [parse(s) for s in args.input]
        mx_kwargs, pt_kwargs = json.loads(args.mx_args), json.loads(args.pt_args)
    except SpecError as e:
        raise UsageError(str(e))
    except json.JSONDecodeError as e:
        raise UsageError(f"--mx-args/--pt-args: not JSON: {e}")
    tolerance, noise_floor = _tolerances(args)
    try:
        summary = convert_weights(Path(args.params), args.mx, args.pt, Path(args.output), mx_kwargs=mx_kwargs,
                                  pt_kwargs=pt_kwargs, inputs=specs, seed=args.seed, check=args.check,
                                  tolerance=tolerance, noise_floor=noise_floor)
    except ConvertError as e:
        print(f"xlate convert-weights: {e}\nnothing was written", file=sys.stderr)
        return EXIT_ERROR
    except OSError as e:
        print(f"xlate convert-weights: cannot write {e.filename or args.output}: {e.strerror or e}\n"
              f"nothing was written", file=sys.stderr)
        return EXIT_ERROR
    except Exception as e:  # a bug in xlate (user code errors are ConvertErrors): exit 2, not 1
        import traceback

        traceback.print_exc()
        print(f"xlate convert-weights: internal error, please report it: {type(e).__name__}: {e}\n"
              f"nothing was written", file=sys.stderr)
        return EXIT_ERROR
    if summary.check is not None:
        sys.stdout.write(output.text(summary.check, ", ".join(str(s) for s in specs), args.seed))
        if not summary.check.ok:
            print(f"xlate convert-weights: the check failed; {args.output} was not written", file=sys.stderr)
            return EXIT_MANUAL
    sys.stdout.write(summary.format())
    return EXIT_OK


def _check_rules(args) -> int:
    """`xlate check --rules`: the catalogue's numerical claims, on drawn configurations."""
    if args.mx or args.pt or args.against or args.input or args.record or args.mx_step or args.pt_step:
        raise UsageError("--rules checks the built-in samples: it takes no --mx, --pt, --input, --against, "
                         "--record, --mx-step or --pt-step")
    if args.examples < 1:
        raise UsageError("--examples must be at least 1")
    if args.steps < 0:
        raise UsageError("--steps must be at least 1")
    try:
        from xlate.check import selfcheck
    except ImportError as e:
        raise UsageError(f"xlate check --rules needs torch, numpy, mxnet and hypothesis ({e}); install xlate[dev]")
    try:
        report = selfcheck.run(examples=args.examples, seed=args.seed, device=_device(args.device),
                               families=args.family, steps=args.steps or None)
    except ValueError as e:
        raise UsageError(str(e))
    sys.stdout.write(report.format())
    return EXIT_OK if report.ok else EXIT_MANUAL


def _check_project(args) -> int:
    """`xlate check` alone: every pair in [tool.xlate.check] of the nearest pyproject.toml."""
    import json

    from xlate.check.config import ConfigError, find, load

    try:
        config = load(find(Path.cwd()))
    except ConfigError as e:
        raise UsageError(str(e))
    worst = EXIT_OK
    for pair in config.pairs:
        argv = ["check", "--pt", pair.pt, "--pt-args", json.dumps(pair.pt_args),
                "--seed", str(config.seed), "--device", args.device if args.device != "auto" else config.device,
                "--format", args.format]
        if pair.against:
            argv += ["--against", pair.against]
        else:
            argv += ["--mx", pair.mx, "--mx-args", json.dumps(pair.mx_args)]
            for spec in pair.inputs:
                argv += ["--input", spec]
        if args.rtol is not None:
            argv += ["--rtol", str(args.rtol), "--atol", str(args.atol)]
        if args.noise_floor is not None:  # "" (the default K) or the K given
            argv += ["--noise-floor"] + ([args.noise_floor] if args.noise_floor else [])
        rc = main(argv)
        worst = max(worst, rc)
    return worst


def _device(choice: str) -> str:
    import torch

    if choice == "cuda" and not torch.cuda.is_available():
        raise UsageError("--device cuda: no CUDA device is available")
    if choice == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    return choice


def _rules() -> int:
    from xlate.convert import catalogue
    from xlate.convert.catalogue import FAMILIES

    family = None
    for r in catalogue.load():
        if r.family != family:
            family = r.family
            print(f"\n{family}xx  {FAMILIES[family]}")
        print(f"  {r.code}  {r.name:<32} [{r.applicability}]  {r.summary}")
    return EXIT_OK


def _rule(code: str) -> int:
    from xlate.convert import catalogue

    rule = catalogue.by_code().get(code.upper())
    if rule is None:
        raise UsageError(f"no rule {code}; `xlate rules` lists them")
    print(f"{rule.code} {rule.name} [{rule.applicability}]\n")
    print(f"What it does\n  {rule.summary}\n")
    if rule.notes:
        print("Why it matters\n  " + "\n  ".join(rule.notes.splitlines()) + "\n")
    if rule.matches:
        print("Matches\n  " + ", ".join(rule.matches) + "\n")
    for i, ex in enumerate(rule.examples, 1):
        print(f"Example {i}, before:\n{_indent(ex.before)}\nafter:\n{_indent(ex.after)}")
    return EXIT_OK


def _indent(text: str) -> str:
    return "\n".join("    " + line if line else "" for line in text.strip("\n").splitlines()) + "\n"
