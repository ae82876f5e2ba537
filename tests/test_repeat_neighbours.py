"""The repeat suggester tells the ranker how much a site's surroundings look
like the newest example's (``CandidateFeatures.neighbour_similarity``).

On the traces, the repeated edits the developer left alone are mostly sites
in code unlike the example's (another construct that happens to hold the
same tokens); the sites they did change sit among the same names. These pin
the feature on minimal fixtures, for the token rules and the whole-line ones.
"""

from __future__ import annotations

from nextedit.session import Session
from nextedit.suggest.model import Candidate, SuggestionKinds, SuggestRequest
from nextedit.suggest.repeat.model import PastEdit
from nextedit.suggest.repeat.suggester import _neighbour_similarity
from nextedit.text import PositionEncoding, Range, TextChange

URI = "file:///w/t.py"


def _candidates_after(text: str, old: str, new: str) -> tuple[str, list[Candidate]]:
    session = Session("t", encoding=PositionEncoding.UTF32, kinds=SuggestionKinds(jump=True))
    session.did_open(URI, "python", 1, text)
    doc = session.documents[URI].document
    start = text.index(old)
    rng = Range(
        doc.position_at(start, PositionEncoding.UTF32), doc.position_at(start + len(old), PositionEncoding.UTF32)
    )
    session.did_change(URI, 2, [TextChange(rng, new)])
    doc = session.documents[URI].document
    ranking = session.engine.rank(session, SuggestRequest(URI, 2, start + len(new)), session.kinds, frozenset())
    return doc.text, [c for c in ranking.candidates if c.suggester == "repeat"]


# the same call in a twin test and in unrelated set-up code
TEXT = (
    "def test_get(client):\n"
    "    response = client.get('/a')\n"
    "    check(response, timeout=3)\n"
    "    assert response.status == 200\n"
    "\n"
    "def test_post(client):\n"
    "    response = client.post('/a')\n"
    "    check(response, timeout=3)\n"
    "    assert response.status == 201\n"
    "\n"
    "def configure(settings):\n"
    "    settings.load()\n"
    "    check(response, timeout=3)\n"
    "    settings.freeze()\n"
)


def _similarity_by_line(text: str, candidates: list[Candidate], family: str) -> dict[str, float]:
    out = {}
    for c in candidates:
        if c.features.family != family:
            continue
        start = c.edits[0].start_cp
        nxt = text[text.find("\n", start) + 1 :].split("\n", 1)[0]
        out[nxt.strip()] = c.features.neighbour_similarity
    return out


def test_a_site_among_the_examples_names_is_more_similar_than_one_in_other_code() -> None:
    text, candidates = _candidates_after(TEXT, "timeout=3", "timeout=TIMEOUT")
    for family in ("line", "clone"):  # the token rule of a one-line edit, the whole-line rule
        by_next_line = _similarity_by_line(text, candidates, family)
        twin = by_next_line["assert response.status == 201"]
        other = by_next_line["settings.freeze()"]
        assert twin > other, (family, by_next_line)


def test_identical_surroundings_share_every_name_and_unrelated_ones_none() -> None:
    text = "a = 1\nb = 2\nf(x)\nc = 3\nd = 4\n\na = 1\nb = 2\nf(x)\nc = 3\nd = 4\n\nq = 5\nr = 6\nf(x)\ns = 7\nt = 8\n"
    example = text.index("f(x)")
    edited = PastEdit(example, "f(x)", "f(x)", 1)
    twin = text.index("f(x)", example + 1)
    other = text.index("f(x)", twin + 1)
    assert _neighbour_similarity(text, twin, twin + 4, edited) == 1.0
    assert _neighbour_similarity(text, other, other + 4, edited) == 0.0


def test_the_twin_site_is_offered_before_a_nearer_one_in_unrelated_code() -> None:
    # the unrelated site is the nearest after the cursor; the twin test's comes first anyway
    text = (
        "def test_get(client):\n"
        "    response = client.get('/a')\n"
        "    check(response, timeout=3)\n"
        "    assert response.status == 200\n"
        "\n"
        "def configure(settings):\n"
        "    settings.load()\n"
        "    check(response, timeout=3)\n"
        "    settings.freeze()\n"
        "\n"
        "def test_post(client):\n"
        "    response = client.post('/a')\n"
        "    check(response, timeout=3)\n"
        "    assert response.status == 201\n"
    )
    after, candidates = _candidates_after(text, "timeout=3", "timeout=TIMEOUT")
    best = max(candidates, key=lambda c: c.score)
    assert best.edits[0].start_cp > after.index("def test_post")
    assert best.edits[0].new_text == "TIMEOUT"
