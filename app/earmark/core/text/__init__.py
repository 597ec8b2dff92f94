"""The analyser of technical text, shared by the search index and the topic graph (no Qt, no database).

It reads technical vocabulary as people write it:

- ``split_identifier(word)``: the lower-case parts of a compound name, ``()`` for a plain word. CamelCase and
  letter/digit boundaries (AOTAutograd → aot, autograd; CUDAGraph → cuda, graph; FP8 → fp, 8), dotted, snake and
  hyphenated names (torch.compile, __torch_function__, all-reduce); acronyms (CUDA, GPUs) and names with a lone
  letter (ATen, iPhone, H100) stay whole.
- ``tokens(text)``: every word lower case, whole, followed by its parts (the whole first, so an exact name still
  counts as itself); ``words(text)`` gives the same as ``Word`` (surface, whole, parts) in order, and
  ``word(surface)`` one of them; ``runs(text)`` the words in runs that a phrase never crosses (sentence ends,
  commas, brackets, dashes, line breaks: the topic graph's two-word phrases).
- ``case_compounds(text)``: only the names that capitals or digits cut ({aotautograd: (aot, autograd)}), fast
  enough to run on every item written to the library (the search index learns them).
- ``looks_technical(word)``: written as a name rather than a plain word (AOTAutograd, FP8, torch.compile).
- ``acronym_definitions(text)``: (acronym, expansion) pairs defined beside each other ("Fully Sharded Data
  Parallel (FSDP)", "PT2 (PyTorch 2)").
- ``Aliases``: groups of names that mean the same thing; ``maintained()`` is the table of common ones in
  resources/text/aliases.txt, ``Aliases.learn(text)`` adds a text's acronym definitions, ``names(name)`` and
  ``canonical(name)`` look a name up. ``cooccurring_aliases(documents)`` finds compound names whose last part
  stands for them in a library (Inductor ~ TorchInductor).
"""

from earmark.core.text.acronyms import acronym_definitions
from earmark.core.text.aliases import Aliases, cooccurring_aliases, maintained, name_of
from earmark.core.text.identifiers import looks_technical, normal_form, split_identifier
from earmark.core.text.words import Word, case_compounds, runs, tokens, word, words

__all__ = ["Aliases", "Word", "acronym_definitions", "case_compounds", "cooccurring_aliases", "looks_technical",
           "maintained", "name_of", "normal_form", "runs", "split_identifier", "tokens", "word", "words"]
