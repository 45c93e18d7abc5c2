"""gluonnlp utilities with no exact translation here: what to use on the PyTorch side."""
from xlate.convert.rulectx import Manual, Site

REPLACEMENTS = {
    "SpacyTokenizer": "spaCy itself: `nlp = spacy.load(lang, disable=['parser', 'tagger', 'ner'])` once, then "
                      "`[t.text for t in nlp(sentence)]` (what gluonnlp's SpacyTokenizer returns)",
    "BERTTokenizer": "the Hugging Face tokenizer of the same vocabulary: write `vocab.idx_to_token` to a vocab.txt, "
                     "one token a line, and use `transformers.BertTokenizer(vocab_file, do_lower_case=lower)`; "
                     "check that both give the same wordpieces on your data",
    "BERTSPTokenizer": "sentencepiece itself (`sentencepiece.SentencePieceProcessor(model_file=path)`) with the "
                       "vocabulary's token indices",
    "SequenceSampler": "torch.multinomial over the translated decoder's softmax, step by step",
    "HybridBeamSearchSampler": "`_mx_BeamSearchSampler(beam_size, decoder, eos_id, scorer, max_length)` (MX308), "
                               "gluonnlp's beam search on the translated decoder (batch_size and vocab_size go)",
    "from_json": "json of `vocab.idx_to_token` and the special tokens, rebuilt with the translated Vocab's "
                 "token_to_idx=",
}


def transform(site: Site):
    short = site.matched.rsplit(".", 1)[-1]
    raise Manual(f"gluonnlp's {short} is not translated; on the PyTorch side use {REPLACEMENTS[short]}")
