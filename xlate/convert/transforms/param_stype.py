"""Reading a Gluon Parameter's storage type (`p.grad_stype`, `p._grad_stype`, `p._stype`) ->
`'default'`: a translated parameter and its gradient are dense tensors (MX105 reviews a sparse
gradient storage where it is declared)."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    site.fixed(f"`{site.code(site.original).strip()}` -> `'default'`: a translated parameter and its gradient are "
               "dense (a 'row_sparse' gradient storage is reviewed where the parameter is declared, MX105)")
    return site.emit("'default'")
