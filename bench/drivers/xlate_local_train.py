import os, sys
import numpy as np
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import Tools.utils  # Client_data_handler reads Tools.utils through `import Tools`, as Client.py imports it first
from Algorithm.MLP import MLP
from Fed_Client.Client_data_handler import Client_data_handler
rng = np.random.RandomState(0)
np.save("data.npy", rng.rand(64, 1, 28, 28).astype("float32"))
np.save("label.npy", rng.randint(0, 10, 64).astype("float32"))
handler = Client_data_handler(MLP(), (1, 1, 28, 28), {"data": "data.npy", "label": "label.npy"})
handler.local_train(batch_size=16, learning_rate=0.1, epoch=2)
gradient = handler.get_gradient()
print("layers", len(gradient["weight"]), "gradient shapes", [tuple(w.shape) for w in gradient["weight"]])
