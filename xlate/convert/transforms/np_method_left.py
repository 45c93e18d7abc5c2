"""A method NumPy shares, on an mx.np array, that no dialect rule translates: NDArray's rule
would be wrong there (Note [numpy dialect] in xlate/convert/names.py), so it is left."""
from xlate.convert.rulectx import Manual, Site


def transform(site: Site):
    method = site.matched.lstrip(".")
    raise Manual(f"`.{method}` on an mx.np array follows NumPy, not NDArray (whose rule would be wrong "
                 "here), and no rule translates it yet: write the torch form by hand")
