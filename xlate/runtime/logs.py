"""MXNet's `mx.log` loggers (`get_logger`, its deprecated `getLogger`), on the standard library's
logging. Copied as text into converted programs."""


def _mx_get_logger(name=None, filename=None, filemode=None, level=30):
    """MXNet mx.log.get_logger: the named logger, set up once (a file handler, or a stream handler
    with MXNet's coloured `W1127 22:35:00 pid path:func:line] message` lines) at `level`;
    no name: the root logger untouched."""
    import logging

    logger = logging.getLogger(name)
    if name is not None and not getattr(logger, "_init_done", None):
        logger._init_done = True
        if filename:
            handler = logging.FileHandler(filename, filemode if filemode else "a")
        else:
            handler = logging.StreamHandler()
            handler.setFormatter(_mx_log_formatter())
        logger.addHandler(handler)
        logger.setLevel(level)
    return logger


def _mx_log_formatter():
    """MXNet's mx.log formatter: a colour, the level's letter, then time, process, place, message."""
    import logging

    class Formatter(logging.Formatter):
        def __init__(self):
            super().__init__(datefmt="%m%d %H:%M:%S")

        def format(self, record):
            level = record.levelno
            colour = "\x1b[31m" if level >= logging.WARNING else "\x1b[32m" if level >= logging.INFO else "\x1b[34m"
            label = {logging.CRITICAL: "C", logging.ERROR: "E", logging.WARNING: "W", logging.INFO: "I",
                     logging.DEBUG: "D"}.get(level, "U")
            self._style._fmt = (colour + label + "%(asctime)s %(process)d %(pathname)s:%(funcName)s:%(lineno)d"
                                "]\x1b[0m %(message)s")
            return super().format(record)

    return Formatter()
