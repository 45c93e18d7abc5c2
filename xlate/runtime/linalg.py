"""MXNet's linalg operators (`linalg.potrf`, `linalg_trsm`, ...; rule MX803), batched over the
leading axes like MXNet's: the matrices are the last two axes.

# Note [triangle orders]
# extracttrian/maketrian pack a triangle into a vector and back. MXNet (1.9.1, measured) packs a
# lower triangle row by row and an upper one column by column, that is, as the lower triangle of
# the transpose; offset > 0 selects the upper triangle above the diagonal, offset < 0 the lower
# one below it (`lower` then is ignored), offset 0 leaves the choice to `lower`.
"""
import torch


def _mx_la_op(A, transpose):
    return A.transpose(-1, -2) if transpose else A


def _mx_linalg_gemm(A=None, B=None, C=None, transpose_a=False, transpose_b=False, alpha=1.0, beta=1.0, axis=-2,
                    out=None, name=None):
    """MXNet's linalg.gemm: alpha * op(A) @ op(B) + beta * C over the last two axes."""
    _mx_no_out(out)
    if axis != -2 and axis != A.dim() - 2:
        raise NotImplementedError(f"linalg.gemm with axis={axis} is not translated: move the matrix axes last")
    return alpha * torch.matmul(_mx_la_op(A, transpose_a), _mx_la_op(B, transpose_b)) + beta * C


def _mx_linalg_potrf(A=None, out=None, name=None):
    """MXNet's linalg.potrf: the lower Cholesky factor L of a symmetric positive definite A = L L^T."""
    _mx_no_out(out)
    return torch.linalg.cholesky(A)


def _mx_linalg_potri(A=None, out=None, name=None):
    """MXNet's linalg.potri: given the lower Cholesky factor L of B, the inverse of B = L L^T."""
    _mx_no_out(out)
    return torch.cholesky_inverse(torch.tril(A))


def _mx_linalg_trsm(A=None, B=None, transpose=False, rightside=False, lower=True, alpha=1.0, out=None, name=None):
    """MXNet's linalg.trsm: X with op(A) X = alpha B (X op(A) = alpha B with rightside), A triangular
    (its `lower` or upper triangle is read, the other ignored)."""
    _mx_no_out(out)
    tri = torch.tril(A) if lower else torch.triu(A)
    tri = _mx_la_op(tri, transpose)
    return torch.linalg.solve_triangular(tri, alpha * B, upper=(lower == bool(transpose)), left=not rightside)


def _mx_linalg_trmm(A=None, B=None, transpose=False, rightside=False, lower=True, alpha=1.0, out=None, name=None):
    """MXNet's linalg.trmm: alpha * op(A) @ B (B @ op(A) with rightside), A's `lower` (or upper)
    triangle only."""
    _mx_no_out(out)
    tri = _mx_la_op(torch.tril(A) if lower else torch.triu(A), transpose)
    return alpha * (torch.matmul(B, tri) if rightside else torch.matmul(tri, B))


def _mx_linalg_syrk(A=None, transpose=False, alpha=1.0, out=None, name=None):
    """MXNet's linalg.syrk: alpha * A @ A^T (alpha * A^T @ A with transpose)."""
    _mx_no_out(out)
    At = A.transpose(-1, -2)
    return alpha * (torch.matmul(At, A) if transpose else torch.matmul(A, At))


def _mx_linalg_sumlogdiag(A=None, out=None, name=None):
    """MXNet's linalg.sumlogdiag: the sum of the logs of the diagonal, per matrix; one matrix gives
    shape (1,), as MXNet has no 0-d arrays."""
    _mx_no_out(out)
    total = torch.log(torch.diagonal(A, dim1=-2, dim2=-1)).sum(-1)
    return total.reshape(1) if total.dim() == 0 else total


def _mx_linalg_extractdiag(A=None, offset=0, out=None, name=None):
    """MXNet's linalg.extractdiag: the diagonal `offset` of each matrix."""
    _mx_no_out(out)
    return torch.diagonal(A, offset=offset, dim1=-2, dim2=-1)


def _mx_linalg_makediag(A=None, offset=0, out=None, name=None):
    """MXNet's linalg.makediag: square matrices with the vectors of A on the diagonal `offset`."""
    _mx_no_out(out)
    return torch.diag_embed(A, offset=offset)


def _mx_trian_index(n, offset, lower, device):
    """The rows and columns MXNet packs a triangle of an n x n matrix in (Note [triangle orders])."""
    rows, cols = torch.tril_indices(n, n, offset=-abs(offset), device=device)
    low = offset < 0 or (offset == 0 and lower)
    return (rows, cols) if low else (cols, rows)


def _mx_linalg_extracttrian(A=None, offset=0, lower=True, out=None, name=None):
    """MXNet's linalg.extracttrian: a triangle of each matrix as a vector (Note [triangle orders])."""
    _mx_no_out(out)
    rows, cols = _mx_trian_index(A.shape[-1], offset, lower, A.device)
    return A[..., rows, cols]


def _mx_linalg_maketrian(A=None, offset=0, lower=True, out=None, name=None):
    """MXNet's linalg.maketrian: the triangular matrices extracttrian packed into A's last axis
    (Note [triangle orders]); the matrices are n + |offset| square, n(n + 1)/2 the vector's length."""
    _mx_no_out(out)
    m = A.shape[-1]
    n = int(round(((8 * m + 1) ** 0.5 - 1) / 2))
    if n * (n + 1) // 2 != m:
        raise ValueError(f"linalg.maketrian: {m} elements are no triangle")
    size = n + abs(offset)
    rows, cols = _mx_trian_index(size, offset, lower, A.device)
    out_ = A.new_zeros(tuple(A.shape[:-1]) + (size, size))
    out_[..., rows, cols] = A
    return out_


def _mx_linalg_syevd(A=None, out=None, name=None):
    """MXNet's linalg.syevd: (U, L) with U's rows the eigenvectors and L the eigenvalues ascending;
    each eigenvector's sign is MXNet's: its entry of largest magnitude is positive."""
    _mx_no_out(out)
    values, vectors = torch.linalg.eigh(A)
    U = vectors.transpose(-1, -2)
    biggest = torch.gather(U, -1, U.abs().argmax(-1, keepdim=True))
    return [U * torch.where(biggest < 0, -1.0, 1.0).to(U.dtype), values]


def _mx_linalg_inverse(A=None, out=None, name=None):
    """MXNet's linalg.inverse."""
    _mx_no_out(out)
    return torch.linalg.inv(A)


def _mx_linalg_det(A=None, out=None, name=None):
    """MXNet's linalg.det."""
    _mx_no_out(out)
    return torch.linalg.det(A)


def _mx_linalg_slogdet(A=None, out=None, name=None):
    """MXNet's linalg.slogdet: (sign, log |det|)."""
    _mx_no_out(out)
    sign, logabs = torch.linalg.slogdet(A)
    return [sign, logabs]
