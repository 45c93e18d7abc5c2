"""mx.np's dtypes and constants (NumPy's own objects, re-exported) -> torch's. (Called, as in
`np.float32(v)`, they make NumPy scalars: no rule, reported as MX900.)"""
from xlate.convert.rulectx import Site

_DTYPES = {"float16": "float16", "float32": "float32", "float64": "float64", "int8": "int8", "int16": "int16",
           "int32": "int32", "int64": "int64", "uint8": "uint8", "bool": "bool", "bool_": "bool"}
_CONSTANTS = {"pi": "torch.pi", "e": "torch.e", "inf": "torch.inf", "nan": "torch.nan", "newaxis": "None",
              "ndarray": "torch.Tensor"}


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[1]
    return site.emit(f"torch.{_DTYPES[name]}" if name in _DTYPES else _CONSTANTS[name])
