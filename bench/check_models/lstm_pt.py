import torch


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lstm = torch.nn.LSTM(64, 256, num_layers=2, batch_first=True)

    def forward(self, x):
        return self.lstm(x)[0]
