"""Asking by meaning with the sentence model (the test copy of the default, a static model): a question sharing no
word with its answer finds it; ranked with bm25, a question of words still finds its words."""

from __future__ import annotations

from pathlib import Path

from earmark.core.db.database import Database
from earmark.core.passages.session import asker, load_embedder, update_index
from earmark.core.passages.vectors import load
from earmark.core.settings import set_setting
from helpers.sentence_model import minilm_test_model, sentence_test_model


def test_a_question_in_other_words_finds_its_answer(asked: tuple[Database, Path, dict[str, int]],
                                                    tmp_path: Path) -> None:
    db, path, ids = asked
    set_setting(db, "ask.model", str(sentence_test_model(tmp_path / "model")))
    embedder, why = load_embedder(db)
    assert embedder is not None and why == ""
    question = "servicing a vehicle"
    update_index(db, path, None)
    assert asker(db, path, None).ask(question, 5) == []  # on words alone: no word in common
    assert update_index(db, path, embedder).items == 3  # the vectors are new: every item is indexed again
    answers = asker(db, path, embedder).ask(question, 5)
    assert answers[0].item_id == ids["Fixing cars"]
    guard = asker(db, path, embedder).ask("guard recompiled", 1)[0]
    assert (guard.item_id, guard.at) == (ids["Guards"], 7 * 9.0)


def test_without_a_model_it_says_it_works_on_words_alone(asked: tuple[Database, Path, dict[str, int]],
                                                         tmp_path: Path) -> None:
    db, _path, _ids = asked
    set_setting(db, "ask.model", str(tmp_path / "nowhere"))
    embedder, why = load_embedder(db)
    assert embedder is None and why.startswith("Answers come from words alone") and "nowhere" in why
    set_setting(db, "ask.model", "off")
    assert "turned off" in load_embedder(db)[1]


def test_a_question_is_compared_only_with_the_vectors_of_the_model_that_reads_it(
        asked: tuple[Database, Path, dict[str, int]], tmp_path: Path) -> None:
    db, path, ids = asked
    folder = sentence_test_model(tmp_path / "model")
    update_index(db, path, load(folder, "first"))
    other = load(folder, "second")  # another model (ask.model changed): the index holds none of its vectors yet
    assert asker(db, path, other).ask("servicing a vehicle", 5) == []
    assert update_index(db, path, other).items == 3
    assert asker(db, path, other).ask("servicing a vehicle", 5)[0].item_id == ids["Fixing cars"]


def test_all_minilm_chosen_instead_finds_the_answer_in_other_words_too(
        asked: tuple[Database, Path, dict[str, int]], tmp_path: Path) -> None:
    db, path, ids = asked
    set_setting(db, "ask.model", str(minilm_test_model(tmp_path / "minilm")))
    embedder, why = load_embedder(db)
    assert embedder is not None and why == "" and embedder.dimensions == 384
    assert update_index(db, path, embedder).items == 3
    assert asker(db, path, embedder).ask("servicing a vehicle", 5)[0].item_id == ids["Fixing cars"]
