"""`np.meshgrid(x, y)` -> `_mx_np_meshgrid(x, y)` (MX732): NumPy's 'xy' indexing by default where
torch.meshgrid's is 'ij', a list of copies where torch gives expanded views of the inputs."""
from xlate.convert.rulectx import Site


def transform(site: Site):
    return site.node.with_changes(func=site.emit("_mx_np_meshgrid"))
