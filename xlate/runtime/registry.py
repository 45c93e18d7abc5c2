"""MXNet's `mxnet.registry`: named factories of classes, pure Python, kept as MXNet writes them.

Gluon packages register their own classes by name through it (gluonnlp's datasets, token
embeddings and subword functions; GluonCV's and Gluon's own initializers, optimizers and
metrics): `register = registry.get_register_func(Base, 'nick')` as a class decorator, then
`create = registry.get_create_func(Base, 'nick')` to build one from its name. Nothing in it is
MXNet's arithmetic, so the helpers do what mxnet/registry.py does, message for message.
"""
import torch  # noqa: F401  (every runtime module starts the same way; the helpers need no torch)


# Note [one registry]
# MXNet keeps one table per base class for the whole process (mxnet.registry._REGISTRY). A converted
# tree gets one helper module, so its modules share the table as they shared MXNet's; a single file
# converted on its own has its own copy of the helpers, and so its own table.
class _mx_registry:
    """MXNet's registry table (`_REGISTRY` of mx.registry): base class -> {lower-cased name: registered class}."""

    table = {}


def _mx_registry_get_registry(base_class):
    """`mx.registry.get_registry(base_class)`: a copy of the classes registered on that base."""
    return _mx_registry.table.setdefault(base_class, {}).copy()


def _mx_registry_get_register_func(base_class, nickname):
    """`mx.registry.get_register_func(base_class, nickname)`: a decorator registering a subclass
    of `base_class` under its lower-cased class name (or `name`); a second class under one name
    replaces the first, with MXNet's warning."""
    registry = _mx_registry.table.setdefault(base_class, {})

    def register(klass, name=None):
        import warnings

        assert issubclass(klass, base_class), "Can only register subclass of %s" % base_class.__name__
        if name is None:
            name = klass.__name__
        name = name.lower()
        if name in registry:
            warnings.warn(
                "\033[91mNew %s %s.%s registered with name %s is"
                "overriding existing %s %s.%s\033[0m" % (
                    nickname, klass.__module__, klass.__name__, name,
                    nickname, registry[name].__module__, registry[name].__name__),
                UserWarning, stacklevel=2)
        registry[name] = klass
        return klass

    register.__doc__ = "Register %s to the %s factory" % (nickname, nickname)
    return register


def _mx_registry_get_alias_func(base_class, nickname):
    """`mx.registry.get_alias_func(base_class, nickname)`: `alias('a', 'b')` registers a class
    under each name given."""
    register = _mx_registry_get_register_func(base_class, nickname)

    def alias(*aliases):
        def reg(klass):
            for name in aliases:
                register(klass, name)
            return klass
        return reg

    return alias


def _mx_registry_get_create_func(base_class, nickname):
    """`mx.registry.get_create_func(base_class, nickname)`: `create(name, *args, **kwargs)` builds
    the class registered under `name` (any case); an instance of `base_class` is returned as it is,
    a dict is keyword arguments, and a JSON string `'["name", {...}]'` or `'{...}'` is decoded."""
    registry = _mx_registry.table.setdefault(base_class, {})

    def create(*args, **kwargs):
        import json

        if len(args):
            name = args[0]
            args = args[1:]
        else:
            name = kwargs.pop(nickname)
        if isinstance(name, base_class):
            assert len(args) == 0 and len(kwargs) == 0, \
                "%s is already an instance. Additional arguments are invalid" % (nickname)
            return name
        if isinstance(name, dict):
            return create(**name)
        assert isinstance(name, str), "%s must be of string type" % nickname
        if name.startswith('['):
            assert not args and not kwargs
            name, kwargs = json.loads(name)
            return create(name, **kwargs)
        elif name.startswith('{'):
            assert not args and not kwargs
            kwargs = json.loads(name)
            return create(**kwargs)
        name = name.lower()
        assert name in registry, \
            "%s is not registered. Please register with %s.register first" % (str(name), nickname)
        return registry[name](*args, **kwargs)

    create.__doc__ = "Create a %s instance from config (a name, an instance, a dict or JSON)" % nickname
    return create


# Note [model store]
# `mxnet.gluon.model_zoo.model_store` is MXNet's table of pretrained files (name -> SHA-1) and their
# download. Packages add their own names at import (`model_store._model_sha1.update({...})`,
# gluonnlp's BERT, ELMo, language models): as a module-level statement, leaving it made every module
# of the package fail to import without MXNet. The class keeps the table and MXNet's functions; the
# table starts empty (MXNet's own vision models are translated by the model-zoo rule). A file it
# fetches is MXNet's `.params` file, which translated code loads through `_mx_load_parameters`
# only once converted to a state_dict (MX611).
class _mx_model_store:
    """`gluon.model_zoo.model_store` of MXNet as an object with the module's names."""

    apache_repo_url = "https://apache-mxnet.s3-accelerate.dualstack.amazonaws.com/"
    _url_format = "{repo_url}gluon/models/{file_name}.zip"
    _model_sha1 = {}

    @staticmethod
    def short_hash(name):
        if name not in _mx_model_store._model_sha1:
            raise ValueError("Pretrained model for {name} is not available.".format(name=name))
        return _mx_model_store._model_sha1[name][:8]

    @staticmethod
    def get_model_file(name, root=None):
        """The local path of a pretrained file, downloaded (MXNet's URL and layout) when missing or
        when its SHA-1 differs."""
        import os
        import shutil
        import tempfile
        import uuid
        import zipfile

        if root is None:
            root = os.path.join(os.environ.get("MXNET_HOME", os.path.join("~", ".mxnet")), "models")
        file_name = "{name}-{short_hash}".format(name=name, short_hash=_mx_model_store.short_hash(name))
        root = os.path.expanduser(root)
        file_path = os.path.join(root, file_name + ".params")
        sha1_hash = _mx_model_store._model_sha1[name]
        if os.path.exists(file_path) and _mx_check_sha1(file_path, sha1_hash):
            return file_path
        os.makedirs(root, exist_ok=True)
        repo_url = os.environ.get("MXNET_GLUON_REPO", _mx_model_store.apache_repo_url)
        if repo_url[-1] != "/":
            repo_url = repo_url + "/"
        temp_zip_file_path = os.path.join(root, file_name + ".zip" + str(uuid.uuid4()))
        _mx_download(_mx_model_store._url_format.format(repo_url=repo_url, file_name=file_name),
                     path=temp_zip_file_path, overwrite=True)
        with zipfile.ZipFile(temp_zip_file_path) as zf:
            temp_dir = tempfile.mkdtemp(dir=root)
            zf.extractall(temp_dir)
            os.replace(os.path.join(temp_dir, file_name + ".params"), file_path)
            shutil.rmtree(temp_dir)
        os.remove(temp_zip_file_path)
        if _mx_check_sha1(file_path, sha1_hash):
            return file_path
        raise ValueError("Downloaded file has different hash. Please try again.")

    @staticmethod
    def purge(root=None):
        import os

        if root is None:
            root = os.path.join(os.environ.get("MXNET_HOME", os.path.join("~", ".mxnet")), "models")
        root = os.path.expanduser(root)
        for f in os.listdir(root):
            if f.endswith(".params"):
                os.remove(os.path.join(root, f))
