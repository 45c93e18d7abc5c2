"""Lines aligned under an opening bracket stay aligned after a rewrite renames what precedes it
(Note [visual indents] in xlate/convert/realign.py)."""
from __future__ import annotations

import ast

from hypothesis import given, settings
from hypothesis import strategies as st

from xlate.convert.engine import convert_source
from xlate.convert.realign import realign

SOURCE = """\
from mxnet import gluon
from mxnet.gluon import nn
net = nn.Dense(3,
               in_units=2)
trainer = gluon.Trainer(net.collect_params(), 'sgd',
                        {'learning_rate': 0.1})
loader = gluon.data.DataLoader(gluon.data.ArrayDataset(x,
                                                       y),
                               batch_size=2)
other = nn.Dense(
    4, in_units=3)
"""


def test_renamed_calls_keep_their_arguments_under_the_bracket():
    out = convert_source(SOURCE).output
    lines = out.splitlines()
    lines = lines[next(i for i, ln in enumerate(lines) if ln.startswith("net = ")):]  # past the helpers
    for opener, arg in (("_mx_Dense(", "in_units=2)"), ("_mx_Trainer(", "{'learning_rate'"),
                        ("_mx_ArrayDataset(", "y)"), ("_mx_DataLoader(", "batch_size=2)")):
        row = next(i for i, ln in enumerate(lines) if opener in ln)
        below = next(ln for ln in lines[row + 1:] if ln.strip().startswith(arg))
        assert below.index(arg) == lines[row].index(opener) + len(opener), out
    assert "_mx_Dense(\n    4, in_units=3)" in out  # a hanging indent is relative to its line: left as it is


def test_lines_it_did_not_change_strings_tabs_and_hand_layouts_stay():
    source = "f(a,\n  b)\ns = g(\"\"\"x\n  y\"\"\",\n  z)\n"
    output = "ff(a,\n  b)\ns = gg(\"\"\"x\n  y\"\"\",\n  z)\n"
    # each bracket's lines start after it; the line inside the string keeps its place
    assert realign(source, output) == "ff(a,\n   b)\ns = gg(\"\"\"x\n  y\"\"\",\n       z)\n"
    assert realign(source, source) == source
    assert realign(source, "ff(a,\n\t\tb)\n") == "ff(a,\n\t\tb)\n"
    hand = "ff(g(\n    a),\n  b)\n"  # g's arguments hang: the outer bracket is laid out by hand
    assert realign("f(g(\n    a),\n  b)\n", hand) == hand
    apart = "ff(a,\n  b,\n    c)\n"  # lines at two columns: laid out by hand
    assert realign("f(a,\n  b,\n    c)\n", apart) == apart


NAMES = st.sampled_from(["nn.Dense", "gluon.Trainer", "gluon.data.DataLoader", "gluon.nn.Conv2D", "nd.relu", "f"])
ARGS = st.tuples(st.lists(st.sampled_from(["x", "1", "[a,\n b]"]), max_size=2),
                 st.lists(st.sampled_from(["shape=(0, -1)", "dim=1", "in_units=2"]), max_size=2, unique=True)).map(
    lambda both: both[0] + both[1]).filter(lambda args: len(args) >= 1)


@settings(max_examples=40, deadline=None)
@given(NAMES, NAMES, ARGS, st.integers(0, 2))
def test_converted_visual_indents_line_up_and_convert_again_to_themselves(outer, inner, args, depth):
    """Drawn calls, nested, their arguments one a line under the bracket: after conversion each
    argument line of a renamed call starts one column after its bracket, the code parses, and
    converting it again changes nothing."""
    head = "from mxnet import nd, gluon\nimport mxnet as mx\nfrom mxnet.gluon import nn\nF = nd\n"
    call = f"{inner}(" + "a" + ")" if depth else "a"
    prefix = "y = " + f"{outer}("
    pad = " " * len(prefix)
    body = list(args)
    text = prefix + call + ",\n" + ",\n".join(pad + a.replace("\n", "\n" + pad + " ") for a in body) + ")\n"
    source = head + text
    ast.parse(source)
    out = convert_source(source).output
    ast.parse(out)
    assert convert_source(out).output == out
    lines = out.splitlines()
    row = next((i for i, ln in enumerate(lines) if ln.startswith("y = ")), None)
    if row is None or "(" not in lines[row]:
        return
    opened = []  # the brackets the line leaves open (the drawn code has no strings)
    for col, ch in enumerate(lines[row]):
        if ch in "([{":
            opened.append(col)
        elif ch in ")]}":
            opened.pop()
    if opened and lines[row].rstrip().endswith(","):
        nxt = lines[row + 1]
        assert len(nxt) - len(nxt.lstrip()) == opened[-1] + 1, out
