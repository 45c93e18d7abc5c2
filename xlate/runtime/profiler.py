"""MXNet's profiler switched on and off around a region (`mx.profiler.set_config`, `set_state`,
`dump`, `dumps`), on torch.profiler. Copied as text into converted programs.

Note [profiler]
MXNet's profiler records the operators run between `set_state('run')` and `set_state('stop')`;
`dump()` writes them to `filename` (default 'profile.json') in the Chrome trace format, and
`dumps()` returns the aggregate table (with `aggregate_stats=True`). torch.profiler records the
same region, writes the same format (`export_chrome_trace`) and gives an aggregate table
(`key_averages().table()`): the operator names are torch's (`aten::addmm`, not MXNet's
`FullyConnected`) and the columns differ, so a program that parses the output needs a human. The
'server' process of a distributed run has no counterpart: its calls do nothing.
"""
import torch

class _mx_ProfilerState:
    """The profiler's process-wide state, as MXNet's: its configuration, the recording running
    (`prof`) and the last one stopped (`done`)."""

    config = {"filename": "profile.json"}
    prof = None
    done = None


def _mx_profiler_set_config(**kwargs):
    """mx.profiler.set_config(filename='profile.json', profile_all=..., ...): kept for set_state/dump."""
    if kwargs.get("profile_process", "worker") == "worker":
        _mx_ProfilerState.config.update(kwargs)


def _mx_profiler_set_state(state="stop", profile_process="worker"):
    """mx.profiler.set_state('run' | 'stop'): starts or stops recording (Note [profiler])."""
    if profile_process != "worker":
        return
    if state == "run" and _mx_ProfilerState.prof is None:
        activities = [torch.profiler.ProfilerActivity.CPU]
        if torch.cuda.is_available():
            activities.append(torch.profiler.ProfilerActivity.CUDA)
        config = _mx_ProfilerState.config
        prof = torch.profiler.profile(activities=activities,
                                      profile_memory=bool(config.get("profile_memory", config.get("profile_all"))))
        prof.__enter__()
        _mx_ProfilerState.prof = prof
    elif state == "stop" and _mx_ProfilerState.prof is not None:
        prof, _mx_ProfilerState.prof = _mx_ProfilerState.prof, None
        prof.__exit__(None, None, None)
        _mx_ProfilerState.done = prof


def _mx_profiler_dump(finished=True, profile_process="worker"):
    """mx.profiler.dump(): the recorded region to the configured file, Chrome trace format."""
    if profile_process != "worker":
        return
    if _mx_ProfilerState.prof is not None and finished:
        _mx_profiler_set_state("stop")
    if _mx_ProfilerState.done is not None:
        _mx_ProfilerState.done.export_chrome_trace(_mx_ProfilerState.config["filename"])


def _mx_profiler_dumps(reset=False, format="table", sort_by="total", ascending=False):
    """mx.profiler.dumps(): the aggregate table of the recorded region (torch's columns and names)."""
    prof = _mx_ProfilerState.prof or _mx_ProfilerState.done
    if prof is None:
        return ""
    averages = prof.key_averages()
    key = {"total": "cpu_time_total", "avg": "cpu_time", "min": "cpu_time_total", "max": "cpu_time_total",
           "count": "count"}.get(sort_by, "cpu_time_total")
    if format == "json":
        import json
        rows = sorted(({"name": e.key, "count": e.count, "total": e.cpu_time_total} for e in averages),
                      key=lambda r: r["total"], reverse=not ascending)
        text = json.dumps(rows)
    else:
        text = averages.table(sort_by=key)
    if reset:
        _mx_ProfilerState.done = None
    return text
