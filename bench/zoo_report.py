"""Summaries for bench/model_zoo.py: where each failure is in the converted code, what the
report says at that line, totals by cause, root causes and silent misses."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from pathlib import Path

from xlate.check.leftovers import LineMap


class Tree:
    """The original and converted texts and the report's items, by path relative to the package."""

    def __init__(self, package: Path, converted: Path, report: dict):
        self.package, self.converted = package, converted
        self.diagnostics: dict[str, list[dict]] = defaultdict(list)
        for f in report.get("files", []):
            rel = _relative(f["path"], package)
            for d in f.get("diagnostics", []):
                self.diagnostics[rel].append(d)
        self._maps: dict[str, LineMap] = {}
        self._defs: dict[str, list] = {}

    def texts(self) -> tuple[dict[str, str], dict[str, str]]:
        originals = {str(p.relative_to(self.package)): p.read_text(encoding="utf-8")
                     for p in self.package.rglob("*.py")}
        converted = {str(p.relative_to(self.converted)): p.read_text(encoding="utf-8")
                     for p in self.converted.rglob("*.py")}
        return originals, converted

    def original_line(self, rel: str, out_line: int) -> int | None:
        if rel not in self._maps:
            try:
                a = (self.package / rel).read_text(encoding="utf-8")
                b = (self.converted / rel).read_text(encoding="utf-8")
            except OSError:
                return None
            self._maps[rel] = LineMap(a, b)
        cands = self._maps[rel].candidates(out_line)
        if not cands:
            return None
        flagged = [c for c in cands if self.items_at(rel, c, fixed=False)]
        return (flagged or cands)[0]

    def function_items(self, rel: str, line: int) -> list[dict]:
        """manual/review items elsewhere in the innermost function of the original around `line`
        (a value reported where it is defined fails where it is used)."""
        import ast

        if rel not in self._defs:
            try:
                tree = ast.parse((self.package / rel).read_text(encoding="utf-8"))
                self._defs[rel] = [(n.lineno, n.end_lineno) for n in ast.walk(tree)
                                   if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
            except (OSError, SyntaxError):
                self._defs[rel] = []
        spans = [(a, b) for a, b in self._defs[rel] if a <= line <= b]
        if not spans:
            return []
        a, b = max(spans)  # the innermost: it starts last
        return [d for d in self.diagnostics.get(rel, []) if a <= d["line"] <= b and d["line"] != line
                and d["status"] != "fixed" and d["code"] != "MX002"]

    def items_at(self, rel: str, line: int, fixed: bool = True) -> list[dict]:
        return [d for d in self.diagnostics.get(rel, []) if d["line"] == line and (fixed or d["status"] != "fixed")]


def _relative(path: str, package: Path) -> str:
    p = Path(path)
    try:
        return str(p.resolve().relative_to(package.resolve()))
    except ValueError:
        return str(p)


def locate(results: dict, tree: Tree) -> None:
    """Adds `at` (converted file:line, original line, the report's items there) to failures."""
    for r in results.values():
        if r.get("side") == "converted" and r.get("file"):
            for file, line, func, code in r.get("frames", []):  # innermost first
                if tree.original_line(file, line):  # not in a pasted helper: the user's code
                    if (file, line) != (r["file"], r["line"]):
                        r["helper"] = f"{r['file']}:{r['line']} in {r.get('frames', [[0, 0, '?']])[0][2]}"
                        r.update(file=file, line=line, code=code)
                    break
            orig = tree.original_line(r["file"], r["line"])
            items = tree.items_at(r["file"], orig, fixed=False) if orig else []
            r["original_line"] = orig
            r["report_at_line"] = [f"{d['code']} [{d['status']}] {d['message'][:140]}" for d in items]
            if orig and not items:
                codes = Counter(f"{d['code']} [{d['status']}]" for d in tree.function_items(r["file"], orig))
                r["report_in_function"] = [f"{c} x{n}" for c, n in codes.most_common(4)]
            r["at"] = f"{r['file']}:{r['line']}" + (f" (orig {orig})" if orig else " (xlate's helper code)") \
                + (f", raised in xlate's helper at {r['helper']}" if r.get("helper") else "")
        elif r.get("side") == "original" and r.get("file"):
            r["at"] = f"original {r['file']}:{r['line']}"


def _short(cls: str) -> str:
    return cls.replace("mxnet.gluon.nn.basic_layers.", "nn.").replace("mxnet.gluon.nn.conv_layers.", "nn.") \
        .replace("mxnet.gluon.nn.activations.", "nn.").replace("mxnet.gluon.", "gluon.")


def normalise(message: str) -> str:
    message = re.sub(r"0x[0-9a-fA-F]+", "0x?", message)
    message = re.sub(r"(?<![\w.])\d+(?![\w])", "N", message)
    return message[:200]


def signature(r: dict) -> str:
    blocks = r.get("mx_blocks_inside") or []
    if blocks and r["cause"] not in ("match", "gluon-fails-to-build"):
        classes = sorted({_short(b["class"]) for b in blocks})
        return f"MXNet block left inside a torch module ({', '.join(classes[:4])})"
    return normalise(r.get("error", "") or r["cause"])


def root_causes(results: dict) -> list[dict]:
    groups: dict[str, dict] = {}
    for name, r in sorted(results.items()):
        if r["cause"] == "match" or failed_at(r) == 0:
            continue
        key = signature(r)
        g = groups.setdefault(key, {"cause": key, "models": [], "locations": Counter(), "report": Counter(),
                                    "stages": Counter()})
        g["models"].append(name)
        g["stages"][r["cause"]] += 1
        if r.get("at"):
            g["locations"][r["at"]] += 1
        for item in r.get("report_at_line", []):
            g["report"][item[:60]] += 1
        if r.get("at") and not r.get("report_at_line") and r.get("side") == "converted":
            g["report"]["(no manual/review item at this line)"] += 1
    ordered = sorted(groups.values(), key=lambda g: (-len(g["models"]), g["cause"]))
    for g in ordered:
        g["locations"] = dict(g["locations"].most_common())
        g["report"] = dict(g["report"].most_common())
        g["stages"] = dict(g["stages"])
    return ordered


STAGES = ["gluon-build", "converted-import", "converted-build", "forward", "pairing", "compare", "gradients",
          "done"]
CAUSE_STAGE = {"gluon-fails-to-build": "gluon-build", "converted-import-fails": "converted-import",
               "converted-build-fails": "converted-build", "forward-fails": "forward",
               "weight-pairing-fails": "pairing", "outputs-differ": "compare", "gradients-differ": "gradients",
               "match": "done"}


def failed_at(r: dict) -> int:
    """Index in STAGES of the stage a model stopped at (a timeout or crash: where it was)."""
    stage = CAUSE_STAGE.get(r["cause"]) or r.get("stage")
    return STAGES.index(stage) if stage in STAGES else 0


def headline(results: dict, models: list) -> dict:
    counts = Counter(r["cause"] for r in results.values())
    at = [failed_at(r) for r in results.values()]
    reached = {label: sum(i > STAGES.index(stage) for i in at) for label, stage in (
        ("imports", "converted-import"), ("builds", "converted-build"), ("runs", "forward"),
        ("pairs", "pairing"), ("outputs match", "compare"))}
    grad_names = {m[0] for m in models if m[3]}
    grad_built = [n for n in grad_names if n in results and failed_at(results[n]) > 0]
    return {"models": len(results), "gluon_builds": sum(i > 0 for i in at), "reached": reached,
            "match": counts["match"], "gradient_models": len(grad_built),
            "gradient_match": sum(results[n]["cause"] == "match" for n in grad_built),
            "gradient_within_noise": sum(results[n]["cause"] == "match" and bool(results[n].get("noise_excused"))
                                         for n in grad_built),
            "by_cause": {c: counts[c] for c in counts}}


# -- printing -----------------------------------------------------------------------------
def print_table(results: dict) -> None:
    order = {c: i for i, c in enumerate(["match", "outputs-differ", "gradients-differ", "weight-pairing-fails",
                                         "forward-fails", "converted-build-fails", "converted-import-fails",
                                         "timeout", "crash", "harness-error", "gluon-fails-to-build"])}
    rows = sorted(results.items(), key=lambda kv: (order.get(kv[1]["cause"], 99), kv[0]))
    print(f"{'model':38} {'input':14} {'cause':22} {'s':>5}  where / error")
    for name, r in rows:
        print(f"{name:38} {r.get('input', ''):14} {r['cause']:22} {r.get('seconds', 0):5.1f}  ", end="")
        if r.get("first_attempt_crashed"):
            print(f"(first attempt crashed: {r['first_attempt_crashed']}) ", end="")
        if r["cause"] == "match":
            extra = f"max |diff| {r.get('max_abs_difference', 0):.2g}"
            if r.get("gradient_checks"):
                extra += f", {r['gradient_checks']} gradient/training checks: {r.get('gradient_verdict', 'equal')}"
                if r.get("noise_excused"):
                    extra += (f" ({r['strict_failures']} differ strictly, {r['noise_excused']} within noise, "
                              f"at most {r['noise_worst_ratio']:.3g}x PyTorch float32's deviation)")
            print(extra)
            continue
        print(r.get("at", ""))
        print(f"{'':38}   {r.get('error', '')[:150]}")
        if r.get("report_at_line"):
            print(f"{'':38}   report there: {r['report_at_line'][0][:130]}")
        elif r.get("side") == "converted":
            elsewhere = ", ".join(r.get("report_in_function", [])) or "nothing"
            print(f"{'':38}   report there: nothing manual/review (elsewhere in the function: {elsewhere})")
        if r.get("divergence"):
            print(f"{'':38}   first diverging layer: {str(r['divergence'])[:150]}")
        if r.get("kink"):
            print(f"{'':38}   {r['kink'][:260]}")
        if r.get("gradient_checks") and r["cause"] == "gradients-differ":
            print(f"{'':38}   noise mode (K={r['noise_k']:g}): differs; {r['strict_failures']} of "
                  f"{r['gradient_checks']} differ strictly, {r['noise_excused']} of them within float32 noise")


def print_silent(items: list, limit: int) -> dict:
    silent = [lo for lo in items if not lo.reported]
    by_kind = Counter(lo.kind for lo in items)
    silent_kind = Counter(lo.kind for lo in silent)
    only_fixed = sum(lo.only_fixed for lo in silent)
    print(f"MXNet left in the output: {len(items)} ({', '.join(f'{k} {n}' for k, n in by_kind.most_common())})")
    near = sum(lo.near for lo in silent)
    print(f"  silent misses (no manual/review item at that original line): {len(silent)} "
          f"({', '.join(f'{k} {n}' for k, n in silent_kind.most_common()) or 'none'}); "
          f"of them {only_fixed} at a line the report calls fixed, {near} with an item within 2 lines")
    names = Counter((lo.kind, lo.name) for lo in silent)
    if names:
        print("  most frequent silent names: " + ", ".join(f"{n} [{k}] x{c}" for (k, n), c in names.most_common(12)))
    step = max(1, len(silent) // max(limit, 1))
    for lo in silent[::step][:limit]:
        orig = f" (orig {lo.in_line})" if lo.in_line else " (no original line)"
        print(f"    {lo.path}:{lo.out_line}{orig} [{lo.kind}] {lo.name}: {lo.text[:90]}"
              f"{'  (an item within 2 lines)' if lo.near else ''}")
    return {"leftovers": len(items), "silent": len(silent), "by_kind": dict(by_kind),
            "silent_by_kind": dict(silent_kind), "silent_only_fixed_at_line": only_fixed, "silent_near": near,
            "silent_names": {f"{n} [{k}]": c for (k, n), c in names.most_common()}}
