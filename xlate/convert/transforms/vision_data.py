"""`gluon.data.vision` datasets and transforms: left for a human, with the torchvision
counterpart and what differs (MX562)."""
from xlate.convert.rulectx import Manual, Site

_DATASET = ("Gluon yields (H, W, C) uint8 NDArrays and float32 labels, torchvision PIL images and int labels "
            "unless its transform= says otherwise")
_COUNTERPARTS = {
    "MNIST": f"torchvision.datasets.MNIST(root, train=...): {_DATASET}",
    "FashionMNIST": f"torchvision.datasets.FashionMNIST(root, train=...): {_DATASET}",
    "CIFAR10": f"torchvision.datasets.CIFAR10(root, train=...): {_DATASET}",
    "CIFAR100": f"torchvision.datasets.CIFAR100(root, train=...): {_DATASET}; Gluon's fine_label=False gives "
                "the 20 coarse labels, which torchvision does not offer",
    "ImageRecordDataset": "no torchvision counterpart: MXNet's .rec files need MXNet's recordio reader (or a "
                          "conversion of the files)",
    "ImageListDataset": "no torchvision counterpart: a small Dataset reading the .lst file",
    "Compose": "torchvision.transforms.Compose([...]): once each transform inside is translated",
    "ToTensor": "torchvision.transforms.ToTensor(): (H, W, C) uint8 -> (C, H, W) float in [0, 1] in both",
    "Normalize": "torchvision.transforms.Normalize(mean, std): the same on a (C, H, W) float tensor",
    "CenterCrop": "torchvision.transforms.CenterCrop: Gluon's size is (width, height), torchvision's "
                  "(height, width)",
    "RandomCrop": "torchvision.transforms.RandomCrop: sizes (width, height) in Gluon; other random draws",
    "RandomFlipLeftRight": "torchvision.transforms.RandomHorizontalFlip(): other random draws",
    "RandomFlipTopBottom": "torchvision.transforms.RandomVerticalFlip(): other random draws",
    "Cast": "x.to(torch.<dtype>) in a transform of its own",
}


def transform(site: Site):
    name = site.matched.rsplit(".", 1)[-1]
    where = "gluon.data.vision.transforms" if ".transforms." in site.matched else "gluon.data.vision"
    raise Manual(f"`{where}.{name}` -> {_COUNTERPARTS[name]}; choose the dataset copy and image "
                 "pipeline by hand")
