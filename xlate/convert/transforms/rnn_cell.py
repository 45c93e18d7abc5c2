"""gluon.rnn cells, their containers and modifier cells (and contrib.rnn's LSTMPCell and
VariationalDropoutCell) -> the `_mx_<Cell>(...)` helper with the call's own arguments (Note
[recurrent cells] in xlate/runtime/cells.py): Gluon's step convention, `unroll` and
`begin_state`, torch's tensors."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la

_INITS = ("i2h_weight_initializer", "h2h_weight_initializer", "i2h_bias_initializer", "h2h_bias_initializer")
# Gluon 1.9.1's parameter order
SIGNATURES = {
    "RNNCell": ("hidden_size", "activation", *_INITS, "input_size", "prefix", "params"),
    "LSTMCell": ("hidden_size", *_INITS, "input_size", "prefix", "params", "activation", "recurrent_activation"),
    "GRUCell": ("hidden_size", *_INITS, "input_size", "prefix", "params"),
    "LSTMPCell": ("hidden_size", "projection_size", "i2h_weight_initializer", "h2h_weight_initializer",
                  "h2r_weight_initializer", "i2h_bias_initializer", "h2h_bias_initializer", "input_size", "prefix",
                  "params"),
    "SequentialRNNCell": ("prefix", "params"),
    "HybridSequentialRNNCell": ("prefix", "params"),
    "BidirectionalCell": ("l_cell", "r_cell", "output_prefix"),
    "ResidualCell": ("base_cell",),
    "ZoneoutCell": ("base_cell", "zoneout_outputs", "zoneout_states"),
    "DropoutCell": ("rate", "axes", "prefix", "params"),
    "VariationalDropoutCell": ("base_cell", "drop_inputs", "drop_states", "drop_outputs"),
}
_REQUIRED = {"RNNCell": ("hidden_size",), "LSTMCell": ("hidden_size",), "GRUCell": ("hidden_size",),
             "LSTMPCell": ("hidden_size", "projection_size"), "BidirectionalCell": ("l_cell", "r_cell"),
             "ResidualCell": ("base_cell",), "ZoneoutCell": ("base_cell",), "DropoutCell": ("rate",),
             "VariationalDropoutCell": ("base_cell",)}


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    site.bind(*SIGNATURES[short])
    if "params" in SIGNATURES[short]:
        la.naming(site)
    missing = [name for name in _REQUIRED.get(short, ()) if not site.has(name)]
    if missing:
        raise Manual(f"{short} needs {', '.join(f'`{m}`' for m in missing)}")
    la.named_inits(site, *(n for n in SIGNATURES[short] if n.endswith("_initializer")))
    site.fixed(f"`{short}(...)` -> `_mx_{short}(...)`: Gluon's cell on torch tensors, with Gluon's step "
               f"(`out, states = cell(x, states)`), `unroll` and `begin_state`")
    return site.verbatim()
