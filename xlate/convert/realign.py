"""Continuation lines that lined up under an opening bracket line up again after a rewrite.

Note [visual indents]
Code aligns the lines of a bracket with its opening (PEP 8's visual indent):

    trainer = gluon.Trainer(net.collect_params(), 'sgd',
                            {'learning_rate': 0.1})

A rewrite that changes the text before the bracket (`_mx_Trainer(`, `_mx_Dense(` for
`nn.Dense(`, `seq.append(` for `seq.add(`) leaves the second line where it was, so the port
read askew wherever a call was renamed. After a file is converted, every call or display (list,
tuple, set, dict) that opens on a line the conversion changed, with its first item on that
line, whose items starting lines below all start at one column other than the one after the
bracket, has those lines moved to that column, and every line inside the bracket with them, so
nested alignments keep their shape; brackets are taken outermost first. Only leading spaces
move. Left as they are: a line inside a string, a line indented with tabs, a bracket whose
items below start at different columns or whose next line starts no item of it (nor of a
bracket opened on the same line: `f(g(\n    a),\n  b)` hangs g's arguments, laid out by hand),
lines whose text is in the original as it was (a block only dedented, whose lines all moved
together), and the helpers pasted into the file, laid out as written. It reads the output with
`ast` (C speed; a tokenizer pass cost a third of a conversion).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

_MAX_SHIFT = 60  # a bracket further off than this was laid out some other way
_OPENERS = {ast.List: "[", ast.Set: "{", ast.Dict: "{", ast.Tuple: "("}


@dataclass
class _Bracket:
    row: int  # 1-based, as ast
    col: int
    end_row: int
    items: list  # (row, col) of the items starting a line below the bracket's own


def realign(source: str, output: str) -> str:
    """`output` with the visual indents of the lines it changed from `source` straightened; the
    helpers pasted into it (top-level `_mx_*` definitions, as written) are left alone."""
    if output == source or "\n" not in output:
        return output
    lines = output.splitlines(keepends=True)
    original = {line.strip() for line in source.splitlines()}
    changed = {i + 1 for i, line in enumerate(lines) if line.strip() not in original}
    # a bracket left open at a line's end: most converted files have none on a changed line
    if not any(_opens(lines[r - 1]) for r in changed):
        return output
    try:  # the pasted helpers (top-level `_mx_*` definitions, as written) read as blank lines: half a file's parse
        tree = ast.parse("".join("\n" if helper else line for line, helper in zip(lines, _helper_rows(lines))))
    except SyntaxError:
        return output
    strings, brackets = set(), []
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        todo.extend(ast.iter_child_nodes(node))
        if isinstance(node, (ast.Constant, ast.JoinedStr)) and node.end_lineno > node.lineno:
            strings.update(range(node.lineno + 1, node.end_lineno + 1))
        found = _bracket(node, lines, changed)
        if found is not None:
            brackets.append(found)
    if not brackets:
        return output
    owner = {}  # row -> the innermost bracket one of whose items starts it (brackets nest: later wins)
    for b in sorted(brackets, key=lambda b: (b.row, b.col)):
        for row, _ in b.items:
            owner[row] = b
    shift: dict[int, int] = {}
    for b in sorted(brackets, key=lambda b: (b.row, b.col)):  # outer brackets first
        items = [(r, c) for r, c in b.items if r not in strings]
        below = next((r for r in range(b.row + 1, b.end_row + 1) if r not in strings and lines[r - 1].strip()), None)
        inner = owner.get(below)
        if not items or b.row not in changed or inner is None or not (inner is b or inner.row == b.row):
            continue
        starts = {c + shift.get(r, 0) for r, c in items}
        if len(starts) != 1:
            continue
        delta = b.col + shift.get(b.row, 0) + 1 - starts.pop()
        if delta == 0 or abs(delta) > _MAX_SHIFT:
            continue
        span = [r for r in range(b.row + 1, b.end_row + 1) if r not in strings and lines[r - 1].strip()]
        if any(not _can_move(lines[r - 1], shift.get(r, 0) + delta) for r in span):
            continue
        for r in span:
            shift[r] = shift.get(r, 0) + delta
    for r, delta in shift.items():
        line = lines[r - 1]
        lines[r - 1] = " " * delta + line if delta > 0 else line[-delta:]
    return "".join(lines) if shift else output


def _bracket(node: ast.AST, lines: list, changed: set):
    """The call or display `node` as a bracket whose first item is on its own line (else None)."""
    if isinstance(node, ast.Call):
        row, col, items = node.func.end_lineno, node.func.end_col_offset, [*node.args, *node.keywords]
    elif type(node) in _OPENERS:
        row, col = node.lineno, node.col_offset
        items = [k if k is not None else v for k, v in zip(node.keys, node.values)] if isinstance(node, ast.Dict) \
            else node.elts
    else:
        return None
    if row not in changed or node.end_lineno == row or not items \
            or min((i.lineno, i.col_offset) for i in items)[0] != row:
        return None  # one line, or no item on the bracket's own line (a hanging indent, relative to its line)
    text = lines[row - 1]
    col = _chars(text, col)
    if col >= len(text) or text[col] != _OPENERS.get(type(node), "("):
        return None  # `f (x)`, a tuple without brackets
    below = []
    for i in items:
        if i.lineno > row:
            at = _chars(lines[i.lineno - 1], i.col_offset)
            if not lines[i.lineno - 1][:at].strip():
                below.append((i.lineno, at))
    return _Bracket(row, col, node.end_lineno, below)


def _helper_rows(lines: list):
    """For each line, whether it belongs to a top-level `def _mx_*` / `class _mx_*` (with its
    decorators): from its first line to the next line that starts at column 0."""
    inside = False
    for i, line in enumerate(lines):
        if line[:1] not in (" ", "\t", "\n", "\r", "#", ""):
            inside = line.startswith(("def _mx_", "class _mx_", "async def _mx_")) or (
                line.startswith("@") and any(n.startswith(("def _mx_", "class _mx_")) for n in lines[i + 1:i + 4]))
        yield inside


def _opens(line: str) -> bool:
    """More brackets open than close on the line (strings ignored: a guess that only saves a parse)."""
    return sum(line.count(c) for c in "([{") > sum(line.count(c) for c in ")]}")


def _chars(line: str, offset: int) -> int:
    """ast's column (UTF-8 bytes) as a column of characters."""
    return offset if line.isascii() else len(line.encode()[:offset].decode(errors="replace"))


def _can_move(line: str, delta: int) -> bool:
    """The line starts with spaces only, at least -delta of them where it moves left."""
    lead = len(line) - len(line.lstrip(" "))
    return line[lead:lead + 1] != "\t" and (delta >= 0 or lead >= -delta)
