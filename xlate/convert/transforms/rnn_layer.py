"""gluon.rnn RNN/LSTM/GRU -> `_mx_RNN/_mx_LSTM/_mx_GRU(...)` with the call's own arguments
(Note [recurrent call convention] in xlate/runtime/rnn.py): torch's class, Gluon's constructor
and Gluon's return values, so the call sites stay as they are."""
from xlate.convert.rulectx import NOT_LITERAL, Manual, Site
from xlate.convert.transforms import layer_args as la

_COMMON = ("layout", "dropout", "bidirectional")
_INITS = ("i2h_weight_initializer", "h2h_weight_initializer", "i2h_bias_initializer", "h2h_bias_initializer")
# Gluon 1.9.1's parameter order; its **kwargs take HybridBlock's prefix/params and use_sequence_length
SIGNATURES = {
    "RNN": ("hidden_size", "num_layers", "activation", *_COMMON, *_INITS, "input_size", "dtype"),
    "LSTM": ("hidden_size", "num_layers", *_COMMON, "input_size", *_INITS, "projection_size",
             "h2r_weight_initializer", "state_clip_min", "state_clip_max", "state_clip_nan", "dtype"),
    "GRU": ("hidden_size", "num_layers", *_COMMON, "input_size", *_INITS, "dtype"),
}
_KWARGS = ("prefix", "params", "use_sequence_length")


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    site.bind(*SIGNATURES[short], *_KWARGS)
    la.naming(site)
    if not site.has("hidden_size"):
        raise Manual(f"{short} needs `hidden_size`")
    layout = site.literal("layout", "TNC")
    if layout is not NOT_LITERAL and layout not in ("TNC", "NTC"):
        raise Manual(f"layout={layout!r}: Gluon takes 'TNC' or 'NTC' only")
    activation = site.literal("activation", "relu")
    if activation is not NOT_LITERAL and activation not in ("relu", "tanh"):
        raise Manual(f"activation={activation!r}: Gluon's RNN takes 'relu' or 'tanh'")
    # MXNet ignores state_clip_nan unless a clip range is given (its docstring; the run-time helper
    # decides where the range is a run-time value): sknlp's `LSTM(..., state_clip_nan=True)` is a plain LSTM
    ranged = any(site.literal(name, None) is not None for name in ("state_clip_min", "state_clip_max"))
    if site.literal("state_clip_nan", False) is not False and ranged:
        raise Manual("state_clip_nan=True: cuDNN's NaN clipping is not translated (MXNet's CPU build cannot "
                     "run it, so it could not be measured); clip NaNs in the state by hand")
    la.named_inits(site, *_INITS, "h2r_weight_initializer")
    cudnn = [name for name in ("use_sequence_length", "state_clip_min", "state_clip_max")
             if site.has(name) and site.literal(name) not in (None, False)]
    if cudnn:
        site.review(f"`{short}(...)` -> `_mx_{short}(...)`; {', '.join(cudnn)} get cuDNN's meaning (MXNet's CPU "
                    f"build ignores them: no CPU reference confirms the numbers)")
    else:
        site.fixed(f"`{short}(...)` -> `_mx_{short}(...)`: torch's nn.{short} with Gluon's arguments and return "
                   f"values (`layer(x)` the output alone, `layer(x, states)` `(output, states list)`)")
    return site.verbatim()
