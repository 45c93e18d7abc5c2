"""MXNet training steps for the step mutants: L2Loss + SGD (momentum, wd), and Adam with wd."""
from mxnet import autograd, gluon


def Net():
    net = gluon.nn.HybridSequential()
    net.add(gluon.nn.Dense(6, activation="tanh", in_units=5), gluon.nn.Dense(3, in_units=6))
    return net


def make_step(model, optimizer="sgd"):
    loss = gluon.loss.L2Loss()
    options = ({"learning_rate": 0.1, "momentum": 0.9, "wd": 1e-3} if optimizer == "sgd"
               else {"learning_rate": 0.05, "wd": 1e-2})
    trainer = gluon.Trainer(model.collect_params(), optimizer, options)

    def step(x, y):
        with autograd.record():
            l = loss(model(x), y)
        l.backward()
        trainer.step(x.shape[0])
        return l.mean()

    return step


def make_adam_step(model):
    return make_step(model, "adam")
