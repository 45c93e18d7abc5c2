"""Hand ports in plain torch for bench/gpu_bench.py: what a person porting these models by hand
writes, the networks the converted models compute.

The GPU machine has no torchvision and no transformers, so the reference networks are written
here, as those libraries write them:
- `resnet50`: torchvision's ResNet-50 (Bottleneck with the stride on the 3x3 conv, in-place
  ReLUs), module for module and name for name; GluonCV's resnet50_v1b is this network (its
  state_dict has the same keys).
- `densenet121`: torchvision's DenseNet-121 (each dense layer concatenates the list of earlier
  features; names as torchvision's). GluonCV ends with AvgPool2D(7) where torchvision pools
  adaptively: the same at 224x224, the only size GluonCV's densenet121 runs at.
- `mobilenet_v2`: torchvision's MobileNetV2 features (InvertedResidual, no expansion conv when
  t=1, ReLU6) with GluonCV's head: a 1x1 convolution without bias where torchvision has
  Dropout and a Linear, so that the two compute the same function and their outputs can be
  compared before they are timed.
- `Bert`: a BertModel-shaped encoder (batch-major, separate query/key/value Linears,
  `scaled_dot_product_attention`, post-LayerNorm, GELU, a tanh pooler) with gluonnlp's one
  difference kept: the embeddings' dropout comes before their LayerNorm.
- `lstm`: `nn.LSTM(..., batch_first=True)`, its output sequence.
"""
from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


# -- ResNet-50 (torchvision) -----------------------------------------------------------------
class Bottleneck(nn.Module):
    expansion = 4

    def __init__(self, inplanes, planes, stride=1, downsample=None):
        super().__init__()
        self.conv1 = nn.Conv2d(inplanes, planes, 1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride, 1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.conv3 = nn.Conv2d(planes, planes * 4, 1, bias=False)
        self.bn3 = nn.BatchNorm2d(planes * 4)
        self.relu = nn.ReLU(inplace=True)
        self.downsample = downsample

    def forward(self, x):
        identity = x if self.downsample is None else self.downsample(x)
        out = self.relu(self.bn1(self.conv1(x)))
        out = self.relu(self.bn2(self.conv2(out)))
        out = self.bn3(self.conv3(out))
        out += identity
        return self.relu(out)


class ResNet50(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        self.inplanes = 64
        self.conv1 = nn.Conv2d(3, 64, 7, 2, 3, bias=False)
        self.bn1 = nn.BatchNorm2d(64)
        self.relu = nn.ReLU(inplace=True)
        self.maxpool = nn.MaxPool2d(3, 2, 1)
        self.layer1 = self._make_layer(64, 3)
        self.layer2 = self._make_layer(128, 4, 2)
        self.layer3 = self._make_layer(256, 6, 2)
        self.layer4 = self._make_layer(512, 3, 2)
        self.avgpool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(2048, num_classes)

    def _make_layer(self, planes, blocks, stride=1):
        downsample = None
        if stride != 1 or self.inplanes != planes * 4:
            downsample = nn.Sequential(nn.Conv2d(self.inplanes, planes * 4, 1, stride, bias=False),
                                       nn.BatchNorm2d(planes * 4))
        layers = [Bottleneck(self.inplanes, planes, stride, downsample)]
        self.inplanes = planes * 4
        layers += [Bottleneck(self.inplanes, planes) for _ in range(1, blocks)]
        return nn.Sequential(*layers)

    def forward(self, x):
        x = self.maxpool(self.relu(self.bn1(self.conv1(x))))
        x = self.layer4(self.layer3(self.layer2(self.layer1(x))))
        return self.fc(torch.flatten(self.avgpool(x), 1))


# -- MobileNetV2 (torchvision's features, GluonCV's head) -------------------------------------
def conv_bn_relu6(inp, out, kernel=3, stride=1, groups=1):
    return nn.Sequential(nn.Conv2d(inp, out, kernel, stride, (kernel - 1) // 2, groups=groups, bias=False),
                         nn.BatchNorm2d(out), nn.ReLU6(inplace=True))


class InvertedResidual(nn.Module):
    def __init__(self, inp, oup, stride, expand_ratio):
        super().__init__()
        hidden = inp * expand_ratio
        self.use_res_connect = stride == 1 and inp == oup
        layers = [conv_bn_relu6(inp, hidden, kernel=1)] if expand_ratio != 1 else []
        layers += [conv_bn_relu6(hidden, hidden, stride=stride, groups=hidden),
                   nn.Conv2d(hidden, oup, 1, bias=False), nn.BatchNorm2d(oup)]
        self.conv = nn.Sequential(*layers)

    def forward(self, x):
        return x + self.conv(x) if self.use_res_connect else self.conv(x)


class MobileNetV2(nn.Module):
    def __init__(self, num_classes=1000):
        super().__init__()
        settings = [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                    (6, 320, 1, 1)]
        features = [conv_bn_relu6(3, 32, stride=2)]
        inp = 32
        for t, c, n, s in settings:
            for i in range(n):
                features.append(InvertedResidual(inp, c, s if i == 0 else 1, t))
                inp = c
        features.append(conv_bn_relu6(inp, 1280, kernel=1))
        self.features = nn.Sequential(*features)
        self.classifier = nn.Conv2d(1280, num_classes, 1, bias=False)  # GluonCV's head

    def forward(self, x):
        x = F.adaptive_avg_pool2d(self.features(x), 1)
        return torch.flatten(self.classifier(x), 1)


# -- DenseNet-121 (torchvision) ---------------------------------------------------------------
class DenseLayer(nn.Module):
    def __init__(self, num_input_features, growth_rate=32, bn_size=4):
        super().__init__()
        self.norm1 = nn.BatchNorm2d(num_input_features)
        self.relu1 = nn.ReLU(inplace=True)
        self.conv1 = nn.Conv2d(num_input_features, bn_size * growth_rate, 1, bias=False)
        self.norm2 = nn.BatchNorm2d(bn_size * growth_rate)
        self.relu2 = nn.ReLU(inplace=True)
        self.conv2 = nn.Conv2d(bn_size * growth_rate, growth_rate, 3, 1, 1, bias=False)

    def forward(self, inputs):
        concated = torch.cat(inputs, 1)
        bottleneck = self.conv1(self.relu1(self.norm1(concated)))
        return self.conv2(self.relu2(self.norm2(bottleneck)))


class DenseBlock(nn.ModuleDict):
    def __init__(self, num_layers, num_input_features, growth_rate=32):
        super().__init__()
        for i in range(num_layers):
            self.add_module(f"denselayer{i + 1}", DenseLayer(num_input_features + i * growth_rate, growth_rate))

    def forward(self, init_features):
        features = [init_features]
        for layer in self.values():
            features.append(layer(features))
        return torch.cat(features, 1)


class Transition(nn.Sequential):
    def __init__(self, num_input_features, num_output_features):
        super().__init__()
        self.norm = nn.BatchNorm2d(num_input_features)
        self.relu = nn.ReLU(inplace=True)
        self.conv = nn.Conv2d(num_input_features, num_output_features, 1, bias=False)
        self.pool = nn.AvgPool2d(2, 2)


class DenseNet121(nn.Module):
    def __init__(self, num_classes=1000, growth_rate=32, block_config=(6, 12, 24, 16), num_init_features=64):
        super().__init__()
        self.features = nn.Sequential()
        self.features.add_module("conv0", nn.Conv2d(3, num_init_features, 7, 2, 3, bias=False))
        self.features.add_module("norm0", nn.BatchNorm2d(num_init_features))
        self.features.add_module("relu0", nn.ReLU(inplace=True))
        self.features.add_module("pool0", nn.MaxPool2d(3, 2, 1))
        num = num_init_features
        for i, num_layers in enumerate(block_config):
            self.features.add_module(f"denseblock{i + 1}", DenseBlock(num_layers, num, growth_rate))
            num += num_layers * growth_rate
            if i != len(block_config) - 1:
                self.features.add_module(f"transition{i + 1}", Transition(num, num // 2))
                num //= 2
        self.features.add_module("norm5", nn.BatchNorm2d(num))
        self.classifier = nn.Linear(num, num_classes)

    def forward(self, x):
        out = F.relu(self.features(x), inplace=True)
        return self.classifier(torch.flatten(F.adaptive_avg_pool2d(out, 1), 1))


# -- BERT (BertModel's shape, scaled_dot_product_attention) -----------------------------------
class BertLayer(nn.Module):
    def __init__(self, units, hidden_size, num_heads, dropout, eps):
        super().__init__()
        self.num_heads, self.p = num_heads, dropout
        self.query, self.key, self.value = (nn.Linear(units, units) for _ in range(3))
        self.attention_output = nn.Linear(units, units)
        self.attention_norm = nn.LayerNorm(units, eps=eps)
        self.intermediate = nn.Linear(units, hidden_size)
        self.output = nn.Linear(hidden_size, units)
        self.output_norm = nn.LayerNorm(units, eps=eps)
        self.dropout = nn.Dropout(dropout)

    def heads(self, x):
        n, t, c = x.shape
        return x.view(n, t, self.num_heads, c // self.num_heads).transpose(1, 2)

    def forward(self, x):
        n, t, c = x.shape
        context = F.scaled_dot_product_attention(self.heads(self.query(x)), self.heads(self.key(x)),
                                                 self.heads(self.value(x)),
                                                 dropout_p=self.p if self.training else 0.0)
        context = context.transpose(1, 2).reshape(n, t, c)
        x = self.attention_norm(x + self.dropout(self.attention_output(context)))
        return self.output_norm(x + self.dropout(self.output(F.gelu(self.intermediate(x)))))


class Bert(nn.Module):
    """`Bert(...)(ids, token_types)` -> (sequence output (N, T, C), pooled output (N, C))."""

    def __init__(self, vocab_size=30522, units=768, hidden_size=3072, num_layers=12, num_heads=12, max_length=512,
                 token_types=2, dropout=0.1, eps=1e-12):
        super().__init__()
        self.word_embeddings = nn.Embedding(vocab_size, units)
        self.token_type_embeddings = nn.Embedding(token_types, units)
        self.position_embeddings = nn.Embedding(max_length, units)
        self.embedding_norm = nn.LayerNorm(units, eps=eps)
        self.dropout = nn.Dropout(dropout)
        self.layers = nn.ModuleList(BertLayer(units, hidden_size, num_heads, dropout, eps) for _ in range(num_layers))
        self.pooler = nn.Linear(units, units)

    def forward(self, ids, token_types):
        positions = torch.arange(ids.shape[1], device=ids.device)
        x = self.word_embeddings(ids) + self.token_type_embeddings(token_types) + self.position_embeddings(positions)
        x = self.embedding_norm(self.dropout(x))  # gluonnlp's order (BertModel: LayerNorm, then dropout)
        for layer in self.layers:
            x = layer(x)
        return x, torch.tanh(self.pooler(x[:, 0]))

    def load_converted(self, converted) -> None:
        """The weights of gluonnlp's BERT as xlate's runtime builds it (`_mx_BERTModel`), by name."""
        src = converted.state_dict()
        names = {"word_embeddings.weight": "word_embed.0.weight",
                 "token_type_embeddings.weight": "token_type_embed.0.weight",
                 "position_embeddings.weight": "encoder.position_weight",
                 "embedding_norm.weight": "encoder.layer_norm.weight", "embedding_norm.bias": "encoder.layer_norm.bias",
                 "pooler.weight": "pooler.weight", "pooler.bias": "pooler.bias"}
        cell = {"query.weight": "attention_cell.query_weight", "query.bias": "attention_cell.query_bias",
                "key.weight": "attention_cell.key_weight", "key.bias": "attention_cell.key_bias",
                "value.weight": "attention_cell.value_weight", "value.bias": "attention_cell.value_bias",
                "attention_output.weight": "proj.weight", "attention_output.bias": "proj.bias",
                "attention_norm.weight": "layer_norm.weight", "attention_norm.bias": "layer_norm.bias",
                "intermediate.weight": "ffn.ffn_1.weight", "intermediate.bias": "ffn.ffn_1.bias",
                "output.weight": "ffn.ffn_2.weight", "output.bias": "ffn.ffn_2.bias",
                "output_norm.weight": "ffn.layer_norm.weight", "output_norm.bias": "ffn.layer_norm.bias"}
        for i in range(len(self.layers)):
            names.update({f"layers.{i}.{k}": f"encoder.transformer_cells.{i}.{v}" for k, v in cell.items()})
        dst = self.state_dict()
        if set(dst) != set(names) or not set(names.values()) <= set(src):
            raise ValueError(f"BERT weights do not pair: hand {sorted(set(dst) ^ set(names))[:4]}, "
                             f"converted {sorted(set(names.values()) - set(src))[:4]}")
        with torch.no_grad():
            for k, v in dst.items():
                if v.shape != src[names[k]].shape:
                    raise ValueError(f"{k}: {tuple(v.shape)} against {names[k]}: {tuple(src[names[k]].shape)}")
                v.copy_(src[names[k]])


class LSTM(nn.LSTM):
    """nn.LSTM over batch-major input, giving the output sequence (`out, _ = self.lstm(x)`)."""

    def forward(self, x):
        return super().forward(x)[0]


def lstm(hidden_size=512, num_layers=2):
    return LSTM(hidden_size, hidden_size, num_layers, batch_first=True)
