"""An article's highlight leaves with the sentence around it, the highlighted words in bold, as a CommonMark
parser (markdown-it-py, as Obsidian's) reads it, whatever the text holds."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from earmark.core.db.database import Database
from earmark.core.db.notes import NoteFilter
from earmark.core.notes.export import export_notes
from earmark.core.notes.highlight_context import CONTEXT_CHARS, quote_in_sentence, sentence_around
from helpers.hostile_library import HOSTILE
from helpers.markdown_structure import structure
from helpers.notes_library import EXPORTED_AT, build

ARTICLE = "Ünïcode slashes a “quoted” title.md"


def bold_and_shown(line: str) -> tuple[list[str], str]:
    """The bold runs of one line of Markdown and its whole text, as shown."""
    parser = MarkdownIt("commonmark")
    [inline] = [token for token in parser.parse(line) if token.type == "inline"]
    bold, shown, inside = [], [], False
    for child in inline.children or []:
        if child.type in ("strong_open", "strong_close"):
            inside = child.type == "strong_open"
            bold.append("") if inside else None
        elif child.type in ("text", "text_special", "code_inline"):
            shown.append(child.content)
            if inside:
                bold[-1] += child.content
    return bold, "".join(shown)


def test_the_export_quotes_each_highlight_in_its_sentence(library: Database, tmp_path: Path) -> None:
    build(library)  # "Three things happened this week. Compiled autograd landed, and the new CI is faster."
    export_notes(library, "markdown", NoteFilter(), tmp_path / "vault", now=EXPORTED_AT)
    text = (tmp_path / "vault" / ARTICLE).read_text(encoding="utf-8")
    highlights = text.split("## Highlights\n", 1)[1].split("## Notes", 1)[0]
    quotes = [line.removeprefix("> ") for line in highlights.splitlines() if line.startswith("> ")]
    assert [bold_and_shown(line) for line in quotes] == [
        (["Compiled autograd landed"], "Compiled autograd landed, and the new CI is faster."),
        (["the new CI is faster"], "Compiled autograd landed, and the new CI is faster.")]
    assert "**Note:** Try it on the big model." in highlights
    assert structure(text).blocks.count("blockquote_open") == 2


def test_the_sentence_ends_at_sentence_ends_and_line_breaks() -> None:
    text = "First one. Then we said: the key part, plainly! And more.\nNext paragraph."
    start = text.index("the key")
    assert sentence_around(text, start, start + len("the key part")) == ("Then we said: ", ", plainly!")
    end = text.index("more.") + len("more.")
    assert sentence_around(text, text.index("And"), end) == ("", "")  # the highlight is the sentence
    assert sentence_around(text, text.index("Next"), text.index("Next") + 4) == ("", " paragraph.")
    long = "word " * 200 + "KEY " + "word " * 200 + "end."
    before, after = sentence_around(long, long.index("KEY"), long.index("KEY") + 3)
    assert before.startswith("…") and after.endswith("…")
    assert len(before) <= CONTEXT_CHARS + 1 and len(after) <= CONTEXT_CHARS + 1


def test_bold_after_punctuation_inside_a_word_widens_to_the_word() -> None:
    assert bold_and_shown(quote_in_sentence("tion", ("The na", "al plan."))) == (["tion"], "The national plan.")
    bold, shown = bold_and_shown(quote_in_sentence("“quoted”", ("a", "word here.")))
    assert shown == "a“quoted”word here." and bold == ["a“quoted”word"]


sentences = st.text(alphabet=st.sampled_from(HOSTILE) | st.characters(codec="utf-8", exclude_characters="\x00"),
                    min_size=1, max_size=60)


@settings(max_examples=300, deadline=None)
@given(text=sentences, data=st.data())
def test_any_text_shows_whole_with_the_quote_in_one_bold_run(text: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(text) - 1))
    end = data.draw(st.integers(start + 1, len(text)))
    while start < end and text[start].isspace():  # a highlight's quote is trimmed (articles/anchor.py)
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if start == end:
        return
    quote = text[start:end]
    before, after = sentence_around(text, start, end)
    line = quote_in_sentence(quote, (before, after))
    assert "\n" not in line
    bold, shown = bold_and_shown(line)
    folded = " ".join(quote.split())
    assert len(bold) == 1 and folded in bold[0], (line, bold)
    assert " ".join(shown.split()) == " ".join((before + folded + after).split())
