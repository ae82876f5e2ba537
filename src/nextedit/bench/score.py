"""Scoring a suggestion against a query's ground truth, exactly as docs/trace-format.md says.

Definitions (docs/trace-format.md "Scoring"; the exact rules this module implements):

* Only the **first** suggestion of each answer counts.
* A suggestion becomes a **change** of the current document (the mirror at the
  query's version): ``edit`` applies its edits (LSP rules: all ranges refer to
  the text before the suggestion, non-overlapping); ``searchAndReplace``
  replaces every match of ``search`` in the file (``isRegex``: only a pattern
  and replacement in the portable subset of
  :mod:`nextedit.text.portable_regex`, applied with ``$1``/``$$`` replacement
  semantics; anything else is judged wrong; otherwise a literal,
  non-overlapping left-to-right search); ``jump`` changes nothing and is
  followed (below); ``rename`` is not advertised by the replaying client and
  is judged wrong.
* The **regions** of a change are its edits with the common prefix and suffix
  of old and new text stripped (an edit that rewrites a whole line to change
  one word changes one word).  No-op edits are dropped; a change with no
  region left changes nothing and is wrong.  A pure insertion or deletion can
  be placed equivalently at any offset it can slide to without changing the
  result (``"ab" + insert "b"`` == insert ``"b"`` before the ``b``); every such
  placement is tried.
* A change is **correct** when every region lies inside one expected edit's
  range (same URI; bounds inclusive, so an insertion at either end of the
  range is inside) and, per expected edit, the text of its range after the
  suggestion's regions, ``sug``, lies on a shortest edit path from the current
  text ``old`` of that range to the expected ``newText`` ``new``::

      d(old, sug) + d(sug, new) == d(old, new)   and   sug != old

  where ``d`` is the insertion/deletion edit distance
  ``d(a, b) = len(a) + len(b) - 2 * LCS(a, b)`` over code points.  So
  completing part of an expected edit counts, touching anything else, adding
  text the developer did not write, or undoing what they wrote does not.
* A ``jump`` **lands** when its URI is an expected edit's URI and its line is
  a line the expected range spans: ``start.line .. end.line``, minus
  ``end.line`` when ``end.character == 0`` and the range spans several lines
  (no character of that line is replaced).  The replayer then follows it (a
  second ``nes/suggest`` at the jump's position) and :func:`settle_jump`
  makes it **correct** only when it landed *and* the follow-up's first
  suggestion is a correct change (a second jump, or silence, is wrong).  The
  jump's reversal and matched ids are those of the follow-up's change.
* A **reversal** is a change with a region that (a) deletes or replaces a
  code point the developer typed in this session (spans of inserted text are
  tracked through every later change) or (b) inserts text equal, after
  stripping surrounding whitespace, to a non-blank string the developer
  deleted in this session.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from nextedit.bench.events import ExpectedEdit, GradedEdit, Query
from nextedit.bench.wire import range_offsets
from nextedit.text import Document, common_affixes
from nextedit.text.portable_regex import NotPortable, replace_edits

MAX_SLIDE = 256  # how far an insertion/deletion may slide to an equivalent place


# --------------------------------------------------------------------------
# string edits and edit distance (code points; no positions here)
# --------------------------------------------------------------------------
def trim_change(old: str, new: str) -> tuple[int, int, int]:
    """Strip the common prefix and suffix of ``old`` → ``new``.

    Returns ``(prefix, old_core_end, new_core_end)``: the changed region is
    ``old[prefix:old_core_end]`` replaced by ``new[prefix:new_core_end]``.
    """
    prefix, suffix = common_affixes(old, new)
    return prefix, len(old) - suffix, len(new) - suffix


def apply_edits(text: str, edits: list[tuple[int, int, str]]) -> str:
    """Apply non-overlapping ``(start, end, new)`` code point edits, all against ``text``."""
    out = []
    pos = 0
    for s, e, new in sorted(edits, key=lambda x: (x[0], x[1])):
        if s < pos:
            raise ValueError("overlapping edits")
        out.append(text[pos:s])
        out.append(new)
        pos = e
    out.append(text[pos:])
    return "".join(out)


def lcs_length(a: str, b: str) -> int:
    """Length of the longest common subsequence of ``a`` and ``b`` (code points).

    Bit-parallel (Allison–Dix / Hyyrö): one big-int operation per character
    of ``b``; common prefix and suffix are matched first (always optimal).
    """
    p, a_end, b_end = trim_change(a, b)
    s = len(a) - a_end
    a_mid = a[p:a_end]
    b_mid = b[p:b_end]
    if not a_mid or not b_mid:
        return p + s
    if len(a_mid) < len(b_mid):
        a_mid, b_mid = b_mid, a_mid
    masks: dict[str, int] = {}
    for i, ch in enumerate(a_mid):
        masks[ch] = masks.get(ch, 0) | (1 << i)
    full = (1 << len(a_mid)) - 1
    v = full
    for ch in b_mid:
        m = masks.get(ch)
        if m is None:
            continue
        u = v & m
        v = ((v + u) | (v - u)) & full
    return p + s + len(a_mid) - v.bit_count()


def indel_distance(a: str, b: str) -> int:
    """Insertions + deletions turning ``a`` into ``b``."""
    return len(a) + len(b) - 2 * lcs_length(a, b)


def on_shortest_path(old: str, sug: str, new: str) -> bool:
    """True when ``sug`` is an intermediate state of a shortest indel path old → new."""
    return indel_distance(old, sug) + indel_distance(sug, new) == indel_distance(old, new)


# --------------------------------------------------------------------------
# turning a suggestion into a change
# --------------------------------------------------------------------------
class SuggestionError(ValueError):
    """The suggestion cannot be applied (bad range, bad regex, unknown document…)."""


def expand_search_and_replace(text: str, search: str, replace: str, is_regex: bool) -> list[tuple[int, int, str]]:
    """Every match of a searchAndReplace in ``text`` as ``(start, end, new)`` edits."""
    if not search:
        raise SuggestionError("empty search")
    if not is_regex:
        out = []
        i = text.find(search)
        while i >= 0:
            out.append((i, i + len(search), replace))
            i = text.find(search, i + len(search))
        return out
    try:
        return replace_edits(text, search, replace)
    except NotPortable as exc:
        raise SuggestionError(f"not a portable regex: {exc.reason}") from exc


def suggestion_edits(suggestion: dict, docs: dict[str, Document], enc: str) -> tuple[str, list[tuple[int, int, str]]]:
    """``(uri, edits in cp offsets)`` of an ``edit`` or ``searchAndReplace`` suggestion."""
    uri = suggestion.get("uri")
    doc = docs.get(uri)  # type: ignore[arg-type]
    if doc is None:
        raise SuggestionError(f"suggestion for a document not open: {uri}")
    kind = suggestion.get("kind")
    if kind == "edit":
        edits = []
        for e in suggestion.get("edits") or []:
            s, t = range_offsets(doc, e["range"], enc)
            edits.append((s, t, e["newText"]))
        edits.sort(key=lambda x: (x[0], x[1]))
        for (_s1, e1, _), (s2, _e2, _) in zip(edits, edits[1:], strict=False):
            if s2 < e1:
                raise SuggestionError("overlapping edits")
        return uri, edits  # type: ignore[return-value]
    if kind == "searchAndReplace":
        return uri, expand_search_and_replace(  # type: ignore[return-value]
            doc.text, suggestion["search"], suggestion["replace"], bool(suggestion.get("isRegex"))
        )
    raise SuggestionError(f"kind {kind!r} is not a change")


@dataclass(frozen=True, slots=True)
class Region:
    """A changed region: ``text[start:end]`` replaced by ``new`` (code points)."""

    start: int
    end: int
    new: str


def regions_of(text: str, edits: list[tuple[int, int, str]]) -> list[Region]:
    out = []
    for s, e, new in edits:
        old = text[s:e]
        p, oe, ne = trim_change(old, new)
        if p == oe and p == ne:
            continue  # no-op
        out.append(Region(s + p, s + oe, new[p:ne]))
    return out


def _placements(text: str, r: Region) -> list[Region]:
    """``r`` and every equivalent placement of a pure insertion or deletion."""
    out = [r]
    if r.start == r.end and r.new:  # insertion: rotate through equal neighbours
        x, p = r.new, r.start
        for _ in range(MAX_SLIDE):
            if p > 0 and text[p - 1] == x[-1]:
                x, p = text[p - 1] + x[:-1], p - 1
                out.append(Region(p, p, x))
            else:
                break
        x, p = r.new, r.start
        for _ in range(MAX_SLIDE):
            if p < len(text) and text[p] == x[0]:
                x, p = x[1:] + text[p], p + 1
                out.append(Region(p, p, x))
            else:
                break
    elif r.start < r.end and not r.new:  # deletion
        s, e = r.start, r.end
        for _ in range(MAX_SLIDE):
            if s > 0 and text[s - 1] == text[e - 1]:
                s, e = s - 1, e - 1
                out.append(Region(s, e, ""))
            else:
                break
        s, e = r.start, r.end
        for _ in range(MAX_SLIDE):
            if e < len(text) and text[s] == text[e]:
                s, e = s + 1, e + 1
                out.append(Region(s, e, ""))
            else:
                break
    return out


@dataclass(slots=True)
class CpExpected:
    id: str
    uri: str
    start: int
    end: int
    new_text: str
    lines: frozenset[int]


def expected_in_cp(expected: list[ExpectedEdit], docs: dict[str, Document], enc: str) -> list[CpExpected]:
    out = []
    for x in expected:
        doc = docs.get(x.uri)
        if doc is None:
            continue
        s, e = range_offsets(doc, x.range, enc)
        a, b = x.range["start"]["line"], x.range["end"]["line"]
        if b > a and x.range["end"]["character"] == 0:
            b -= 1
        out.append(CpExpected(x.id, x.uri, s, e, x.new_text, frozenset(range(a, b + 1))))
    return out


# The reasons :func:`judge_change` and :func:`judge` give, named so that
# what reads verdicts (benchmarks/quality/wrong_answers.py) does not depend
# on their wording.  ``OUTSIDE_EVERY_EXPECTED_EDIT`` follows the region's
# offsets ("region 12-15 lies outside every expected edit").
MOVES_TOWARD_EXPECTED = "moves toward the expected text"
CHANGES_NOTHING = "changes nothing"
NOTHING_EXPECTED = "nothing was expected"
NO_EXPECTED_EDIT_IN_DOCUMENT = "no expected edit in this document"
OUTSIDE_EVERY_EXPECTED_EDIT = "lies outside every expected edit"
OVERLAPPING_REGIONS = "overlapping regions"
NOT_ON_SHORTEST_PATH = "not on a shortest edit path to the expected text"
JUMP_TO_NO_EXPECTED_LINE = "jump to a line with no expected edit"


def judge_change(
    doc: Document, uri: str, regions: list[Region], expected: list[CpExpected]
) -> tuple[bool, list[str], str]:
    """``(correct, matched expected ids, reason)`` for a change of ``uri``.

    Regions and the expected edits of ``uri`` are grouped into *segments*:
    runs of whole lines where their line spans overlap.  A region whose line
    span overlaps no expected edit's (in any equivalent placement) is wrong.
    Per segment with a region, ``old`` is its current text, ``sug`` the text
    after the suggestion's regions, ``target`` the text after the expected
    edits; the segment is right when ``sug != old`` and ``sug`` lies on a
    shortest indel path from ``old`` to ``target`` — so a region may only
    change text that an expected edit changes (up to an equivalent alignment,
    e.g. the same insertion a few characters earlier on the same line).
    """
    text = doc.text
    if not regions:
        return False, [], CHANGES_NOTHING
    exp = [x for x in expected if x.uri == uri]
    if not exp:
        return False, [], NO_EXPECTED_EDIT_IN_DOCUMENT if expected else NOTHING_EXPECTED

    def span(a: int, b: int) -> tuple[int, int]:
        return doc.line_of(a), doc.line_of(b)

    exp_spans = [span(x.start, x.end) for x in exp]
    items: list[tuple[int, int, str, object]] = []
    for r in regions:
        for p in _placements(text, r):
            l0, l1 = span(p.start, p.end)
            if any(l0 <= b and a <= l1 for a, b in exp_spans):
                items.append((l0, l1, "r", p))
                break
        else:
            return False, [], f"region {r.start}-{r.end} {OUTSIDE_EVERY_EXPECTED_EDIT}"
    for (a, b), x in zip(exp_spans, exp, strict=False):
        items.append((a, b, "x", x))
    items.sort(key=lambda it: (it[0], it[1]))
    segs: list[list] = []  # [l0, l1, regions, expected]
    for l0, l1, tag, obj in items:
        if segs and l0 <= segs[-1][1]:
            seg = segs[-1]
            seg[1] = max(seg[1], l1)
        else:
            seg = [l0, l1, [], []]
            segs.append(seg)
        (seg[2] if tag == "r" else seg[3]).append(obj)
    matched: set[str] = set()
    for l0, l1, regs, xs in segs:
        if not regs:
            continue
        lo = doc.line_start(l0)
        hi = doc.line_end(l1, with_break=True)  # the next line's start, or the end of the text
        old = text[lo:hi]
        try:
            sug = apply_edits(old, [(r.start - lo, r.end - lo, r.new) for r in regs])
        except ValueError:
            return False, [], OVERLAPPING_REGIONS
        target = apply_edits(old, [(x.start - lo, x.end - lo, x.new_text) for x in xs])
        if sug == old:
            return False, [], CHANGES_NOTHING
        if not on_shortest_path(old, sug, target):
            return False, [], NOT_ON_SHORTEST_PATH
        matched.update(x.id for x in xs)
    return True, sorted(matched), MOVES_TOWARD_EXPECTED


# --------------------------------------------------------------------------
# reversal tracking
# --------------------------------------------------------------------------
class ReversalTracker:
    """What the developer typed (spans, tracked through changes) and deleted, per document."""

    def __init__(self) -> None:
        self.typed: dict[str, list[tuple[int, int]]] = {}
        self.deleted: set[str] = set()

    def on_change(self, uri: str, start: int, end: int, old: str, new: str) -> None:
        """Record one applied change (code points of the text before it)."""
        p, oe, ne = trim_change(old, new)
        s, e, ins = start + p, start + oe, new[p:ne]
        delta = len(ins) - (e - s)
        spans = []
        for a, b in self.typed.get(uri, []):
            # cut [s, e) out of [a, b), shift what follows
            if b <= s:
                spans.append((a, b))
            elif a >= e:
                spans.append((a + delta, b + delta))
            else:
                if a < s:
                    spans.append((a, s))
                if b > e:
                    spans.append((s + len(ins), b + delta))
        if ins:
            spans.append((s, s + len(ins)))
        spans.sort()
        self.typed[uri] = spans
        removed = old[p:oe].strip()
        if removed:
            self.deleted.add(removed)

    def reset(self, uri: str) -> None:
        self.typed.pop(uri, None)

    def is_reversal(self, uri: str, regions: list[Region]) -> bool:
        spans = self.typed.get(uri, [])
        for r in regions:
            if r.end > r.start and any(a < r.end and r.start < b for a, b in spans):
                return True
            ins = r.new.strip()
            if ins and ins in self.deleted:
                return True
        return False


# --------------------------------------------------------------------------
# verdict of one query
# --------------------------------------------------------------------------
@dataclass(slots=True)
class Verdict:
    answered: bool
    kind: str | None = None
    correct: bool = False
    reversal: bool = False
    matched: list[str] = field(default_factory=list)
    reason: str = ""
    grade: str | None = None  # VS Code recordings: nextEdit | valid | bad | ungraded | silence…
    scored: bool = True  # False: the query has no ground truth
    landed: bool | None = None  # a jump: on a line of an expected edit (None: not a jump)
    landed_on: list[str] = field(default_factory=list)  # a jump: the expected ids on its line

    def to_json(self) -> dict[str, Any]:
        return {
            "answered": self.answered,
            "kind": self.kind,
            "correct": self.correct,
            "reversal": self.reversal,
            "matched": self.matched,
            "reason": self.reason,
            "grade": self.grade,
            "scored": self.scored,
            "landed": self.landed,
        }


_GRADE_RANK = {"nextEdit": 0, "valid": 1, "bad": 2}


def grade_change(
    docs: dict[str, Document], uri: str | None, edits: list[tuple[int, int, str]] | None, graded: list[GradedEdit]
) -> str:
    """Category of the human-graded candidate producing the same text (or ``ungraded``)."""
    if edits is None:  # silence
        cats = [g.category for g in graded if g.edits is None]
        return "silence" + (f" ({min(cats, key=lambda c: _GRADE_RANK.get(c, 9))})" if cats else "")
    doc = docs.get(uri or "")
    if doc is None:
        return "ungraded"
    try:
        result = apply_edits(doc.text, edits)
    except ValueError:
        return "ungraded"
    best = None
    for g in graded:
        if g.edits is None or g.uri != uri:
            continue
        try:
            if apply_edits(doc.text, g.edits) == result:
                if best is None or _GRADE_RANK.get(g.category, 9) < _GRADE_RANK.get(best, 9):
                    best = g.category
        except ValueError:
            continue
    return best or "ungraded"


def judge(
    suggestion: dict | None,
    query: Query,
    docs: dict[str, Document],
    agent_enc: str,
    trace_enc: str,
    tracker: ReversalTracker | None = None,
    *,
    follow_up: bool = False,
) -> Verdict:
    """Judge the first suggestion of one answer (``None``: the agent stayed silent).

    A ``jump`` gets ``landed`` and stays wrong until :func:`settle_jump` has
    seen its follow-up.  ``follow_up``: this is the answer to the request made
    at a jump's position, where another jump is simply wrong.
    """
    scored = query.expected is not None
    expected = expected_in_cp(query.expected or [], docs, trace_enc)
    if suggestion is None:
        v = Verdict(answered=False, reason="silent", scored=scored)
        if query.graded is not None and not follow_up:
            v.grade = grade_change(docs, None, None, query.graded)
        return v
    kind = suggestion.get("kind")
    v = Verdict(answered=True, kind=kind, scored=scored)
    if kind == "jump":
        if follow_up:
            v.reason = "a second jump"
            return v
        uri = suggestion.get("uri")
        line = (suggestion.get("position") or {}).get("line")
        hits = sorted(x.id for x in expected if x.uri == uri and line in x.lines)
        v.landed, v.landed_on = bool(hits), hits
        v.reason = "jump onto an expected line (not followed)" if hits else JUMP_TO_NO_EXPECTED_LINE
        if query.graded is not None:
            v.grade = "jump"
        return v
    try:
        uri, edits = suggestion_edits(suggestion, docs, agent_enc)
    except (SuggestionError, KeyError, TypeError) as exc:
        v.reason = f"unusable suggestion: {exc}"
        if query.graded is not None:
            v.grade = "ungraded"
        return v
    doc = docs[uri]
    regions = regions_of(doc.text, edits)
    v.correct, v.matched, v.reason = judge_change(doc, uri, regions, expected)
    if tracker is not None:
        v.reversal = tracker.is_reversal(uri, regions)
    if query.graded is not None:
        v.grade = grade_change(docs, uri, edits, query.graded)
    return v


def settle_jump(jump: Verdict, follow: Verdict | None, why_not_followed: str = "not followed") -> None:
    """Make a jump's verdict final from its follow-up's (``None``: it could not be followed).

    Correct only when the jump landed on an expected line and the follow-up's
    first suggestion is a correct change; reversal and matched ids come from
    the follow-up's change (that is what the developer is shown).
    """
    jump.correct = False
    jump.matched = []
    jump.reversal = False
    if follow is None:
        jump.reason = f"jump {why_not_followed}"
        return
    jump.reversal = follow.reversal
    where = "jump onto an expected line" if jump.landed else JUMP_TO_NO_EXPECTED_LINE
    if not follow.answered:
        jump.reason = f"{where}; the follow-up was silent"
    elif follow.kind == "jump":
        jump.reason = f"{where}; the follow-up was a second jump"
    elif not follow.correct:
        jump.reason = f"{where}; the follow-up is wrong: {follow.reason}"
    elif not jump.landed:
        jump.reason = f"{where}; the follow-up is a correct change"
    else:
        jump.correct = True
        jump.matched = list(follow.matched)
        jump.reason = f"{where}; the follow-up moves toward the expected text"
