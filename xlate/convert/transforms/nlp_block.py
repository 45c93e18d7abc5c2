"""gluonnlp's blocks and data utilities that have a helper with gluonnlp's own signature (Note
[gluonnlp modules] in xlate/runtime/nlp.py, Note [gluonnlp data utilities] in nlpdata.py):
the call as written, on the helper."""
from xlate.convert.rulectx import Manual, Site
from xlate.convert.transforms import layer_args as la


_SAMPLERS = {"FixedBucketSampler": ("lengths", "batch_size", "num_buckets", "bucket_keys", "ratio", "shuffle",
                                     "use_average_length", "num_shards", "bucket_scheme"),
             "SortedBucketSampler": ("sort_keys", "batch_size", "mult", "reverse", "shuffle"),
             "SortedSampler": ("sort_keys", "reverse"),
             "SplitSampler": ("length", "num_parts", "part_index", "even_size", "repeat", "shuffle")}


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    if short in _SAMPLERS:
        site.bind(*_SAMPLERS[short])
    else:  # gluonnlp's blocks take their options by keyword (most are keyword-only)
        site.args = {a.keyword.value: a for a in site.node.args if a.keyword is not None}
    la.naming(site)
    if short == "FixedBucketSampler":
        if site.has("bucket_scheme") and site.literal("bucket_scheme") is not None:
            raise Manual("bucket_scheme= is not translated: only gluonnlp's default ConstWidthBucket is (its batches "
                         "are the same); port LinearWidthBucket/ExpWidthBucket's keys and pass them as bucket_keys=")
    name = site.rule.runtime_for(site.matched)
    if site.status != "review":
        site.fixed(f"`{short}(...)` -> `{name}(...)`: gluonnlp's own code on torch, same arguments")
    return site.verbatim()
