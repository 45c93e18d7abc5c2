"""xlate: translate MXNet/Gluon code to PyTorch, and check the translation numerically."""
from xlate.engine import InputError, convert_source
from xlate.report import Diagnostic, FileResult

__version__ = "0.1.0"
__all__ = ["convert_source", "InputError", "Diagnostic", "FileResult", "__version__"]
