"""The equivalence checker: run an MXNet model and its PyTorch translation with the same
weights on the same inputs and compare what they compute.

Importing this package needs numpy; the families need torch, and the MXNet side mxnet.
"""
