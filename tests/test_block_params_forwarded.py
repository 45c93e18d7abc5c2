"""A block of the tree whose constructor hands its `params=` on to Gluon's (`super().__init__(prefix=prefix,
params=params)`): a caller passing another block's parameters (gluonnlp's one-step decoder, built with
`params=decoder.collect_params()`) meant one set of weights, and the converted block makes its own.
That is a review item at the call, never a silent `fixed`; naming arguments alone stay `fixed`."""
import textwrap

import pytest

from xlate.convert.engine import convert_source

FORWARDED = ["params=params", "prefix=prefix, params=params", "params=shared"]
NAMING_ONLY = ["prefix=prefix", "prefix='e_', params=None", "**kwargs"]


def _mx101(args: str) -> str:
    src = textwrap.dedent(f'''
        from mxnet import gluon
        shared = None
        class Dec(gluon.HybridBlock):
            def __init__(self, prefix=None, params=None, **kwargs):
                super().__init__({args})
        ''')
    result = convert_source(src)
    assert "super().__init__()" in result.output
    return next(d.status for d in result.diagnostics if d.code == "MX101")


@pytest.mark.parametrize("args", FORWARDED)
def test_params_handed_on_is_a_review_item(args):
    assert _mx101(args) == "review"


@pytest.mark.parametrize("args", NAMING_ONLY)
def test_naming_arguments_alone_stay_fixed(args):
    assert _mx101(args) == "fixed"
