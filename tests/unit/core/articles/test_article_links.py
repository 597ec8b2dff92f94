"""Articles from local files (HTML, Markdown, text), and the links of an item saved as articles titled by their
link text: the PyTorch Weekly newsletter seed first of all."""

from __future__ import annotations

from pathlib import Path

import pytest

from earmark.core.articles.capture import LOCAL_SITE, capture, read_local
from earmark.core.articles.links import Link, choose_links, item_links, links_in
from earmark.core.articles.store import ArticleData, store_article
from earmark.core.db.database import Database
from earmark.core.db.filters import ItemFilter
from earmark.core.db.items import get_item, list_items
from earmark.core.errors import EarmarkError, UnreachableError
from earmark.core.html import to_text
from helpers.cli import Cli
from helpers.feed_server import FeedServer
from helpers.reading import FILES, WEEKLY_SEED

needs_seed = pytest.mark.skipif(not WEEKLY_SEED.is_file(), reason="the shared seeds are not beside the repo")


def test_markdown_file_is_rendered_and_raw_html_is_shown_as_text() -> None:
    article = read_local(FILES / "meetup-notes.md")
    assert (article.title, article.site) == ("Notes from the compiler meetup", LOCAL_SITE)
    assert article.url == (FILES / "meetup-notes.md").resolve().as_uri()
    assert "<strong>make compilation predictable</strong>" in article.html and "<h2>Guards</h2>" in article.html
    assert '<a href="https://notebook.example/posts/dynamic-shapes">Dynamic shapes in practice</a>' in article.html
    assert '<code class="language-python">torch._dynamo.mark_dynamic(x, 0)' in article.html
    assert "<script>" not in article.html and "&lt;script&gt;" in article.html


def test_plain_text_file_keeps_its_paragraphs_and_links_its_addresses() -> None:
    article = read_local(FILES / "reading-notes.txt")
    assert article.title == "Reading notes, week 12"
    assert article.html.count("<p>") == 2
    assert ('<a href="https://notebook.example/slides/guards.pdf">https://notebook.example/slides/guards.pdf</a> '
            "and the recording will follow.<br>Ask Marta") in article.html


def test_an_html_fragment_of_ones_own_is_kept_whole() -> None:
    article = read_local(FILES / "fragment.html")
    assert article.title == "fragment" and "Profile ten steps." in article.html and article.problem is None


def test_a_missing_or_empty_file_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(UnreachableError, match=f"There is no file {tmp_path / 'nope.md'}"):
        capture(str(tmp_path / "nope.md"))
    (tmp_path / "empty.txt").write_text("  \n")
    with pytest.raises(EarmarkError, match="is empty: there is no article in it"):
        capture(str(tmp_path / "empty.txt"))


def test_links_with_their_text_once_each_relative_made_absolute() -> None:
    markup = ('<p><a href="/a#part">First <b>link</b></a> and <a href="https://x.example/a">again</a>, '
              '<a href="mailto:me@x.example">mail</a>, <a href="javascript:go()">js</a>, <a href="#top">top</a>, '
              '<a href="https://x.example/post">itself</a>, <a href="https://y.example/"><img alt="Logo"></a>, '
              '<a href="https://z.example/">   </a> and a bare https://bare.example/page.</p>')
    assert links_in(markup, "https://x.example/post") == [
        Link("First link", "https://x.example/a"), Link("Logo", "https://y.example/"),
        Link("z.example", "https://z.example/"), Link("https://bare.example/page", "https://bare.example/page"),
    ]
    assert links_in("See https://plain.example/x, then stop.") == [
        Link("https://plain.example/x", "https://plain.example/x")]


def test_choosing_links_by_number_words_or_all_never_twice() -> None:
    links = [Link("Hidet", "https://a.example/"), Link("TorchBench", "https://b.example/", saved=True),
             Link("JAX vs. PyTorch", "https://c.example/jax")]
    assert choose_links(links, numbers=[1]) == links[:1]
    assert choose_links(links, matches=["JAX", "torchbench"]) == links[2:]  # the saved one is left out
    assert choose_links(links, matches=["A.EXAMPLE"]) == links[:1]  # addresses match too
    assert choose_links(links, everything=True) == [links[0], links[2]]
    with pytest.raises(EarmarkError, match="There is no link 4: this item has 3 link"):
        choose_links(links, numbers=[4])


@needs_seed
def test_the_pytorch_weekly_seed_becomes_articles_titled_by_their_link_text(cli: Cli) -> None:
    code, out, err = cli("add-article", str(WEEKLY_SEED))
    assert code == 0, err
    [weekly] = cli.json("list", "--kind", "article")
    assert weekly["title"] == "Pytorch Weekly - #1, May 2nd 2023" and weekly["source"] == LOCAL_SITE
    listing = cli.json("add-links", str(weekly["id"]))
    assert len(listing) == 33
    assert listing[2] == {"number": 3, "text": "Hidet", "url": "https://pytorch.org/blog/introducing-hidet/",
                          "saved": False}
    code, out, err = cli("add-links", str(weekly["id"]), "--all", "--no-fetch", "--tag", "weekly")
    assert code == 0, err
    assert out.startswith(f"Saved 33 links from “{weekly['title']}”; fetch their pages with")
    titles = {item["title"]: item for item in cli.json("list", "--kind", "article", "--tag", "weekly")}
    assert len(titles) == 33
    for text in ("Hidet", "TorchBench", "Build your own Transformer from scratch using Pytorch",
                 "JAX vs. PyTorch: Differences and Similarities [2023]", "the install method",
                 "How to fix “CUDA error: device-side assert triggered” error?",
                 "new programming language for all AI developers Mojo"):
        assert text in titles, text
    assert titles["TorchBench"]["url"] == "https://arxiv.org/abs/2304.14226"
    assert titles["TorchBench"]["source"] == "arxiv.org"
    assert all(link["saved"] for link in cli.json("add-links", str(weekly["id"])))
    code, _out, err = cli("add-links", str(weekly["id"]), "--all", "--no-fetch")
    assert code == 1 and "all saved already" in err  # nothing is ever saved twice


def test_links_of_an_episodes_show_notes_are_fetched_and_titled_by_their_text(
        page_server: FeedServer, library: Database, cli: Cli) -> None:
    notes = (f'<p>This week: <a href="{page_server.url("messy.html")}">guards, explained</a>, a '
             f'<a href="{page_server.url("scripts.html")}">profiling guide</a> and a '
             f'<a href="{page_server.url("moved.html")}">post that moved</a>.</p>')
    page_server.serve_status("/moved.html", 404)
    [newsletter] = [store_article(library, ArticleData("Weekly", "https://weekly.example/1", "Weekly", notes)).item_id]
    assert [link.text for link in item_links(library, newsletter)] == [
        "guards, explained", "profiling guide", "post that moved"]
    library.close()
    code, out, err = cli("add-links", str(newsletter), "--index", "1", "--match", "MOVED")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].startswith("Saved “guards, explained” (article ") and "min read) from The Compiler Notebook." \
        in lines[0]
    assert lines[1].startswith(f"Saved {page_server.url('moved.html')} as a link (article ")
    assert lines[1].endswith("answered with HTTP error 404 (Not Found).")
    articles = {item["title"]: item for item in cli.json("list", "--kind", "article")}
    assert set(articles) == {"Weekly", "guards, explained", "post that moved"}


def test_the_sample_newsletter_lists_its_links(library: Database) -> None:
    from earmark.core.sample import load_sample

    load_sample(library)
    weekly = next(i for i in list_items(library, ItemFilter(kind="article")) if i.title.startswith("Pytorch Weekly"))
    links = item_links(library, weekly.id)
    assert Link("Hidet", "https://pytorch.org/blog/introducing-hidet/") in links
    assert "Hidet" in to_text(get_item(library, weekly.id).content)
