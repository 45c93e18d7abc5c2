"""The converter: MXNet/Gluon source in, PyTorch source and a report out.

`names` resolves what a name means from the file's imports; `engine` runs the pipeline for
one file (`converter` is its LibCST pass, with `statements`; `imports` the import
bookkeeping; `positions` the report's line and column); `files` reads, converts and writes
trees; the rules come from `catalogue` and act through `rulectx` (`table` for renames,
`transforms/` for structural rewrites). Nothing here imports torch or mxnet: the helpers
converted code needs are read as text from xlate.runtime.
"""
