"""The rename suggester tells the ranker how much an occurrence of the old
name *outside* the renamed binding reads like the site the developer renamed
(``CandidateFeatures.neighbour_similarity`` and ``line_similarity`` of a
``text`` candidate; ``rename_text_similarity`` / ``rename_text_line_similarity``
in the ranker's vector).

The same name in a twin test (``client.post('/a')`` beside the renamed
``app.get('/a')``) is usually renamed too; the same name in unrelated code
(``def configure(settings, client)``) is usually a different thing the
developer leaves alone. These pin the features on a minimal fixture and the
two measures on plain text.
"""

from __future__ import annotations

from nextedit.session import Session
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.rank import feature_vector
from nextedit.suggest.similarity import line_similarity, neighbour_similarity
from nextedit.text import PositionEncoding, Range, TextChange

URI = "file:///w/test_client.py"

TEXT = (
    "def test_get(client):\n"
    "    response = client.get('/a')\n"
    "    assert response.status == 200\n"
    "\n"
    "def test_post(client):\n"
    "    response = client.post('/a')\n"
    "    assert response.status == 201\n"
    "\n"
    "def configure(settings, client):\n"
    "    settings.load()\n"
    "    client.close()\n"
)


def _rename_in_first_test() -> tuple[str, list[Candidate]]:
    """The developer renames ``client`` to ``app`` in ``test_get`` (its
    parameter, then its use); the rename candidates at the cursor."""
    session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, TEXT)
    text, version = TEXT, 1
    for where in ("client):", "client.get"):
        doc = session.documents[URI].document
        start = text.index(where)
        rng = Range(doc.position_at(start, PositionEncoding.UTF32), doc.position_at(start + 6, PositionEncoding.UTF32))
        version += 1
        session.did_change(URI, version, [TextChange(rng, "app")])
        text = session.documents[URI].document.text
    request = SuggestRequest(URI, version, text.index("app.get") + 3)
    ranking = session.engine.rank(session, request, session.kinds, frozenset())
    return text, [c for c in ranking.candidates if c.suggester == "rename" and c.features.family == "text"]


def _line_of(text: str, cp: int) -> str:
    return text[text.rfind("\n", 0, cp) + 1 :].split("\n", 1)[0].strip()


def test_the_twin_tests_use_reads_more_like_the_renamed_site_than_unrelated_code() -> None:
    text, candidates = _rename_in_first_test()
    by_line = {_line_of(text, c.edits[0].start_cp): c.features for c in candidates}
    twin = by_line["response = client.post('/a')"]
    other = by_line["def configure(settings, client):"]
    assert twin.neighbour_similarity > other.neighbour_similarity
    assert twin.line_similarity > other.line_similarity
    assert other.line_similarity == 0.0  # `def configure(settings, …)` shares no name with `response = app.get('/a')`


def test_the_ranker_reads_them_under_their_own_names() -> None:
    _text, candidates = _rename_in_first_test()
    assert candidates
    for c in candidates:
        vector = feature_vector(c, {})
        assert vector["rename_text_similarity"] == c.features.neighbour_similarity
        assert vector["rename_text_line_similarity"] == c.features.line_similarity
        # the repeat suggester's measure keeps its own weight
        assert vector["neighbour_similarity"] == 0.0


def test_identical_surroundings_share_every_name_and_unrelated_ones_none() -> None:
    text = "a = 1\nb = 2\nf(x)\nc = 3\nd = 4\n\na = 1\nb = 2\nf(x)\nc = 3\nd = 4\n\nq = 5\nr = 6\nf(x)\ns = 7\nt = 8\n"
    example = text.index("f(x)")
    twin = text.index("f(x)", example + 1)
    other = text.index("f(x)", twin + 1)
    assert neighbour_similarity(text, (twin, twin + 4), (example, example + 4)) == 1.0
    assert neighbour_similarity(text, (other, other + 4), (example, example + 4)) == 0.0


def test_line_similarity_leaves_the_changed_spans_out() -> None:
    text = "x = load(a)\ny = load(b)\n"
    first = text.index("a)")
    second = text.index("b)")
    # `load` is shared; `x`/`y` are not; the spans `a` and `b` themselves are not counted
    assert line_similarity(text, (second, second + 1), (first, first + 1)) == 1 / 3
    assert line_similarity(text, (0, len("x = load(a)")), (12, 12 + len("y = load(b)"))) == 0.0
