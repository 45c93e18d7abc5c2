"""MXNet's modules that MXNet's own modules hold as attributes (`from . import ndarray` in
metric.py), so a package can reach them through another module (`from mxnet.metric import
ndarray`, gluonts' trainer, then `ndarray.sum(loss)`): each is a re-export of the module it holds
(xlate.convert.names._REEXPORTS). Measured on MXNet 1.9.1: every attribute of every public
`mxnet.*` module that is one of these modules, under a name other than its own path (the ONNX
converters' internals left out). The keys are the modules held, the values the holders' paths
below `mxnet.`, each ending with the attribute's name."""
_HELD_MODULES = {
    "mxnet.ndarray": """contrib.io.nd contrib.quantization.ndarray contrib.text.embedding.nd executor.ndarray
executor_manager.nd gluon.block.ndarray gluon.contrib.data.text.nd gluon.contrib.nn.basic_layers.nd
gluon.data.dataloader.nd gluon.data.dataset.ndarray gluon.data.vision.datasets.nd gluon.loss.ndarray
gluon.nn.basic_layers.nd gluon.parameter.ndarray gluon.rnn.rnn_cell.ndarray
gluon.rnn.rnn_layer.ndarray gluon.utils.ndarray image.nd image.detection.nd image.image.nd
initializer.ndarray metric.ndarray model.nd module.base_module.ndarray module.bucketing_module.nd
module.executor_group.nd module.module.nd module.python_module.nd monitor.ndarray
numpy_extension.image.nd rnn.ndarray rnn.io.ndarray rnn.rnn_cell.ndarray""",
    "mxnet.symbol": """gluon.block.symbol gluon.contrib.cnn.conv_layers.symbol gluon.nn.basic_layers.sym
gluon.nn.conv_layers.symbol gluon.parameter.symbol gluon.rnn.rnn_cell.symbol
gluon.rnn.rnn_layer.symbol model.sym module.bucketing_module.sym operator.symbol rnn.symbol
rnn.rnn_cell.symbol""",
    "mxnet.initializer": """gluon.block.initializer gluon.nn.activations.initializer gluon.parameter.initializer rnn.init
rnn.rnn_cell.init""",
    "mxnet.autograd": """gluon.contrib.estimator.batch_processor.autograd gluon.parameter.autograd""",
    "mxnet.context": """gluon.contrib.nn.basic_layers.context gluon.data.dataloader.context gluon.parameter.context
module.bucketing_module.ctx module.executor_group.ctx module.module.ctx operator.context""",
    "mxnet.optimizer": """gluon.trainer.opt kvstore.kvstore.opt model.opt module.module.opt""",
    "mxnet.io": """image.io image.detection.io image.image.io model.io numpy_extension.image.io""",
    "mxnet.random": """initializer.random""",
    "mxnet.metric": """model.metric module.base_module.metric""",
    # more of the same measurement, for modules user code reaches this way: gluon-gan's CycleGAN crops with
    # `transforms.image.random_crop(...)` (Gluon's transforms module holds mxnet.image)
    "mxnet.image": """gluon.data.vision.datasets.image gluon.data.vision.transforms.image""",
    "mxnet.gluon.nn": """gluon.model_zoo.vision.alexnet.nn gluon.model_zoo.vision.densenet.nn
gluon.model_zoo.vision.inception.nn gluon.model_zoo.vision.mobilenet.nn gluon.model_zoo.vision.resnet.nn
gluon.model_zoo.vision.squeezenet.nn gluon.model_zoo.vision.vgg.nn""",
    "mxnet.kvstore": """model.kvs""",
    "mxnet.recordio": """gluon.data.dataset.recordio gluon.data.vision.datasets.recordio image.recordio
image.image.recordio numpy_extension.image.recordio""",
}


def reexports() -> list[tuple[str, str]]:
    return [(f"mxnet.{held}", target) for target, holders in _HELD_MODULES.items() for held in holders.split()]
