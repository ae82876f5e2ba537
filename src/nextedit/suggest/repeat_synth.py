"""Repeated-edit synthesis: generalise the developer's edits into a rewrite rule
and find the other sites where its *before* side matches.

Pure functions over plain strings and code-point offsets, so they can be
tested and evaluated offline without a session; :mod:`nextedit.suggest.repeat`
wraps them as a suggester.

A rule is a pair of templates over one stretch of text — ``before`` and
``after`` — made of literal text and *holes* (an identifier, number or string
token that differs between examples, or that moves from the old text into the
new one). The before template compiles to a Python regular expression (holes
become named groups, repeated holes back-references); a site is a match of it
whose replacement changes the text and whose after-state is not already
there. The same regex is the ``searchAndReplace`` form.

How a rule is chosen (precision first):

* the example is the developer's edit widened to whole tokens, with context
  tokens on both sides taken from the surrounding text (across lines);
* the context grows from the changed tokens outwards until the rule is
  *specific*: it carries enough identifier/string text, and it matches no
  more than a few sites; a rule that stays ambiguous (a lone ``(``, ``,``, an
  operator) is only used when a second example agrees with it;
* two examples with the same change are anti-unified: the context they share
  token for token is kept, identifiers/literals that differ become holes;
* one example that types in a new value (a string or number that is not an
  old one extended) is data, not a pattern: it waits for a second example;
* with a syntax tree, a site must sit in the example's context: never from
  code into a string or comment, and — unless the change only substitutes
  identifiers — in the same kind of list (call arguments, parameters,
  imports, attributes);
* negative evidence: when the developer works down the file, a matching site
  between two examples that they left unchanged means the rule is not
  universal — no suggestion from it.

Cost is bounded by the edit and the number of matches, never by the file: the
context window is clipped to ``_WINDOW_CHARS`` around the edit; sites are
found by ``str.find`` of the pattern's longest literal (C speed) and the regex
runs only over the lines around each occurrence; lines longer than
``_MAX_REGION_CHARS`` are skipped (the proposal is then marked incomplete and
never offered as search-and-replace); occurrences, rules scanned and sites are
capped, and ``cancelled()`` is checked as it goes.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from nextedit.suggest.repeat_tokens import IDENT, NUMBER, STRING, Tok, tokenize

__all__ = [
    "EditExample",
    "PastEdit",
    "Rule",
    "Site",
    "example_from_edit",
    "rules_for",
    "find_sites",
    "synthesize",
    "Proposal",
]

# how many lines around an edit we look at for context
_WINDOW_LINES = 3
# a rule must not match more sites than this many (after one example)
_MAX_SITES_ONE_EXAMPLE = 12
_MAX_SITES_TWO_EXAMPLES = 60
# limits to keep the cost bounded by the edit size
_MAX_EDIT_CHARS = 2000
_MAX_CONTEXT_TOKENS = 8
# the context window never reaches further than this many chars from the edit
# (a 1 MB line is never tokenized whole)
_WINDOW_CHARS = 400
# a site region (the lines a match may span) longer than this is skipped
_MAX_REGION_CHARS = 4000
# anchor occurrences examined per rule; rules scanned per request
_MAX_ANCHOR_HITS = 2000
_MAX_RULE_SCANS = 150

_HOLE_PATTERNS = {
    IDENT: r"[^\W\d]\w*",
    NUMBER: r"\d[\w.]*",
    STRING: r"""[rRbBuUfF]{0,2}(?:"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')""",
}


@dataclass(frozen=True, slots=True)
class PastEdit:
    """One developer edit in current-text coordinates: ``text[start:start+len(new)] == new``."""

    start: int
    old: str
    new: str
    seq: int = 0

    @property
    def new_end(self) -> int:
        return self.start + len(self.new)


@dataclass(frozen=True)
class EditExample:
    """An edit widened to whole tokens, with token context from both texts.

    ``before``/``after`` are the window texts; ``b_toks``/``a_toks`` their
    tokens; ``p`` tokens are shared before the change, ``s`` after it;
    ``window_start`` is the window's offset in the current text.
    """

    edit: PastEdit
    window_start: int
    before: str
    after: str
    b_toks: list[Tok]
    a_toks: list[Tok]
    p: int
    s: int
    clipped: bool = False  # the window was cut short of whole lines

    @property
    def old_toks(self) -> list[Tok]:
        return self.b_toks[self.p : len(self.b_toks) - self.s]

    @property
    def new_toks(self) -> list[Tok]:
        return self.a_toks[self.p : len(self.a_toks) - self.s]

    def change_key(self) -> tuple[tuple[str, ...], tuple[str, ...]]:
        return tuple(t.text for t in self.old_toks), tuple(t.text for t in self.new_toks)


@dataclass(frozen=True)
class Rule:
    """A rewrite: ``before`` and ``after`` templates (lists of str | int hole index)."""

    before: tuple[str | int, ...]
    after: tuple[str | int, ...]
    hole_kinds: tuple[str, ...]
    evidence: int  # how many examples agree
    specificity: float
    examples: tuple[PastEdit, ...]
    compiled: re.Pattern[str] | None = field(compare=False, hash=False, repr=False)
    replacement: str = field(compare=False, hash=False, repr=False, default="")
    info: dict = field(compare=False, hash=False, repr=False, default_factory=dict)

    @property
    def regex(self) -> re.Pattern[str]:
        """The before template as a regex, compiled on first use (most rules
        are judged unacceptable before any search)."""
        return self.compiled if self.compiled is not None else _compile(self.before, self.hole_kinds)

    @property
    def before_text(self) -> str:
        return _render(self.before, self.hole_kinds)

    @property
    def after_text(self) -> str:
        return _render(self.after, self.hole_kinds)

    @property
    def literal(self) -> bool:
        return not self.hole_kinds


@dataclass(frozen=True, slots=True)
class Site:
    start: int
    end: int
    new_text: str  # replacement for text[start:end], already trimmed
    match_start: int
    match_end: int
    match_text: str


@dataclass(frozen=True)
class Proposal:
    rule: Rule
    sites: tuple[Site, ...]  # every remaining site, nearest after the cursor first
    score: float
    complete: bool = True  # False: part of the text was not searched (long lines, caps)


def _render(parts: Sequence[str | int], kinds: Sequence[str]) -> str:
    return "".join(p if isinstance(p, str) else f"<{kinds[p]}{p}>" for p in parts)


# ---------------------------------------------------------------------------
# examples


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", 0, pos) + 1


def _lines_back(text: str, pos: int, n: int, floor: int = 0) -> int:
    """Start of the line ``n`` lines above ``pos`` (never searching below ``floor``)."""
    floor = max(0, floor)
    start = text.rfind("\n", floor, pos) + 1 or floor
    for _ in range(n):
        if start <= floor:
            break
        start = text.rfind("\n", floor, start - 1) + 1 or floor
    return start


def _lines_forward(text: str, pos: int, n: int, ceiling: int | None = None) -> int:
    """End (after the newline) of the line ``n`` lines below ``pos`` (never searching past ``ceiling``)."""
    ceiling = len(text) if ceiling is None else min(ceiling, len(text))
    end = pos
    for _ in range(n + 1):
        nl = text.find("\n", end, ceiling)
        if nl < 0:
            return ceiling
        end = nl + 1
    return end


def trim_edit(old: str, new: str) -> tuple[int, int, int]:
    """Common prefix length and the lengths of old/new suffix shared."""
    n = min(len(old), len(new))
    pre = 0
    while pre < n and old[pre] == new[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and old[len(old) - 1 - suf] == new[len(new) - 1 - suf]:
        suf += 1
    return pre, suf, 0


def example_from_edit(text: str, edit: PastEdit) -> EditExample | None:
    """Widen ``edit`` (already applied to ``text``) to tokens with context.

    The window is a few lines around the edit, clipped to ``_WINDOW_CHARS``
    on each side: its cost is bounded by the edit, not by the line or file.
    A token cut by a clipped window edge is dropped."""
    if len(edit.old) > _MAX_EDIT_CHARS or len(edit.new) > _MAX_EDIT_CHARS:
        return None
    if edit.new_end > len(text) or not text.startswith(edit.new, edit.start):
        return None
    pre, suf, _ = trim_edit(edit.old, edit.new)
    if pre + suf >= len(edit.old) and pre + suf >= len(edit.new):
        return None  # no change
    ws = max(_lines_back(text, edit.start, _WINDOW_LINES, edit.start - _WINDOW_CHARS), edit.start - _WINDOW_CHARS, 0)
    we = min(_lines_forward(text, edit.new_end, _WINDOW_LINES, edit.new_end + _WINDOW_CHARS), edit.new_end + _WINDOW_CHARS)
    clip_left = ws > 0 and text[ws - 1] != "\n"
    clip_right = we < len(text) and text[we - 1] != "\n"
    after = text[ws:we]
    before = text[ws : edit.start] + edit.old + text[edit.new_end : we]
    # the changed char span, in window coordinates
    cs = edit.start - ws + pre
    b_ce = edit.start - ws + len(edit.old) - suf
    a_ce = edit.start - ws + len(edit.new) - suf
    b_toks = tokenize(before)
    a_toks = tokenize(after)
    if clip_left and b_toks and a_toks and b_toks[0].end < cs:
        b_toks, a_toks = b_toks[1:], a_toks[1:]
    if clip_right and b_toks and a_toks and b_toks[-1].start > b_ce and a_toks[-1].start > a_ce:
        b_toks, a_toks = b_toks[:-1], a_toks[:-1]
    # shared prefix: tokens ending at or before the change start (in both)
    p = 0
    while (
        p < len(b_toks)
        and p < len(a_toks)
        and b_toks[p].end <= cs
        and a_toks[p].end <= cs
        and not (b_toks[p].end == cs and b_ce > cs and _glued(before, cs))
    ):
        p += 1
    # shared suffix: tokens starting at or after the change end
    s = 0
    while (
        s < len(b_toks) - p
        and s < len(a_toks) - p
        and b_toks[len(b_toks) - 1 - s].start >= b_ce
        and a_toks[len(a_toks) - 1 - s].start >= a_ce
    ):
        s += 1
    # a change strictly inside whitespace (no token touched) is formatting
    ex = EditExample(edit, ws, before, after, b_toks, a_toks, p, s, clip_left or clip_right)
    if [t.text for t in ex.old_toks] == [t.text for t in ex.new_toks]:
        return None
    return ex


def _glued(text: str, pos: int) -> bool:
    """True when the chars at ``pos-1`` and ``pos`` are both word chars."""
    return 0 < pos < len(text) and (text[pos - 1].isalnum() or text[pos - 1] == "_") and (
        text[pos].isalnum() or text[pos] == "_"
    )


# ---------------------------------------------------------------------------
# rules


_SPECIFIC_KINDS = (IDENT, STRING, NUMBER)
_COMMENT_STARTS = ("#", "//", "/*", "*", "--", '"' * 3, "'" * 3)


def _tok_weight(t: Tok) -> float:
    if t.kind == IDENT:
        return min(len(t.text), 12) / 4.0 + 0.5
    if t.kind == STRING:
        return min(len(t.text), 16) / 4.0 + 0.5
    if t.kind == NUMBER:
        return 0.75
    return 0.25 if len(t.text) == 1 else 0.5


def _specificity(toks: Sequence[Tok], holes: set[int] = frozenset()) -> float:
    return sum(0.3 if i in holes else _tok_weight(t) for i, t in enumerate(toks))


def _boundary_left(first: str) -> str:
    return r"(?<![\w])" if first and (first[0].isalnum() or first[0] == "_") else ""


def _boundary_right(last: str) -> str:
    return r"(?![\w])" if last and (last[-1].isalnum() or last[-1] == "_") else ""


@functools.lru_cache(maxsize=1024)
def _compile(before: tuple[str | int, ...], kinds: tuple[str, ...]) -> re.Pattern[str]:
    seen: set[int] = set()
    parts: list[str] = []
    for part in before:
        if isinstance(part, str):
            parts.append(re.escape(part))
        elif part in seen:
            parts.append(f"(?P={_gname(part)})")
        else:
            seen.add(part)
            parts.append(f"(?P<{_gname(part)}>{_HOLE_PATTERNS[kinds[part]]})")
    first = before[0] if before and isinstance(before[0], str) else "a"
    last = before[-1] if before and isinstance(before[-1], str) else "a"
    return re.compile(_boundary_left(first) + "".join(parts) + _boundary_right(last))


def _gname(i: int) -> str:
    return f"h{i}"


def _replacement(after: Sequence[str | int]) -> str:
    out = []
    for part in after:
        if isinstance(part, str):
            out.append(part.replace("\\", "\\\\"))
        else:
            out.append(f"\\g<{_gname(part)}>")
    return "".join(out)


def _make_rule(
    before: list[str | int],
    after: list[str | int],
    kinds: list[str],
    evidence: int,
    specificity: float,
    examples: tuple[PastEdit, ...],
) -> Rule:
    before = _merge(before)
    after = _merge(after)
    return Rule(
        tuple(before),
        tuple(after),
        tuple(kinds),
        evidence,
        specificity,
        examples,
        None,
        _replacement(after),
    )


def _merge(parts: list[str | int]) -> list[str | int]:
    out: list[str | int] = []
    for part in parts:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + part
        elif part != "":
            out.append(part)
    return out


def _template(
    text: str, toks: Sequence[Tok], lo: int, hi: int, holes: dict[int, int]
) -> list[str | int]:
    """Text of ``toks[lo:hi]`` with gaps, hole tokens replaced by hole ids."""
    if lo >= hi:
        return []
    parts: list[str | int] = []
    pos = toks[lo].start
    for i in range(lo, hi):
        t = toks[i]
        parts.append(text[pos : t.start])
        parts.append(holes[i] if i in holes else t.text)
        pos = t.end
    return parts


def _span_template(
    ex: EditExample, kl: int, kr: int, b_holes: dict[int, int], a_holes: dict[int, int]
) -> tuple[list[str | int], list[str | int]] | None:
    """Before/after templates of the change with ``kl``/``kr`` context tokens."""
    p, s = ex.p, ex.s
    nb, na = len(ex.b_toks), len(ex.a_toks)
    lo = p - kl
    if lo < 0 or kr > s:
        return None
    b_hi = nb - s + kr
    a_hi = na - s + kr
    if lo >= b_hi or lo >= a_hi:
        # empty old and empty context: pure insertion with no anchor
        if lo >= b_hi:
            return None
    b_start = ex.b_toks[lo].start
    b_end = ex.b_toks[b_hi - 1].end
    a_start = ex.a_toks[lo].start if lo < na else len(ex.after)
    a_end = ex.a_toks[a_hi - 1].end if a_hi > 0 else 0
    # the gap before the first/after the last token must be the same
    before_t = _template(ex.before, ex.b_toks, lo, b_hi, b_holes)
    after_t = _template(ex.after, ex.a_toks, lo, a_hi, a_holes) if lo < a_hi else []
    # whitespace at the outer edges that the change itself altered
    # (``f(a, b)`` -> ``g(a)(b)`` drops the blank after the comma)
    if lo >= a_hi:
        return before_t, after_t
    b_left = ex.before[ex.b_toks[lo - 1].end if lo > 0 else 0 : b_start]
    a_left = ex.after[ex.a_toks[lo - 1].end if lo > 0 else 0 : a_start]
    if b_left != a_left:
        before_t = [b_left, *before_t]
        after_t = [a_left, *after_t]
    b_right = ex.before[b_end : ex.b_toks[b_hi].start if b_hi < nb else len(ex.before)]
    a_right = ex.after[a_end : ex.a_toks[a_hi].start if a_hi < na else len(ex.after)]
    if b_right != a_right:
        before_t = [*before_t, b_right]
        after_t = [*after_t, a_right]
    return before_t, after_t


def rules_for(text: str, examples: Sequence[EditExample]) -> list[Rule]:
    """Candidate rules from the last example (and earlier ones that agree)."""
    if not examples:
        return []
    last = examples[-1]
    rules: list[Rule] = []
    agreeing = [
        e for e in examples[:-1] if e.edit.start != last.edit.start and _change_holes(last, e) is not None
    ]
    if agreeing:
        rules.extend(_anti_unify(last, agreeing[-1]))
    line = _line_rule(last)
    if line is not None:
        rules.append(line)
    rules.extend(_single_rules(last))
    return rules


def _line_rule(ex: EditExample) -> Rule | None:
    """The changed lines as a whole (indentation free): the most specific rule."""
    if not ex.old_toks or not ex.new_toks or ex.clipped:
        return None
    b_first = ex.old_toks[0].start
    b_last = ex.old_toks[-1].end
    a_first = ex.new_toks[0].start
    a_last = ex.new_toks[-1].end
    bs = ex.before.rfind("\n", 0, b_first) + 1
    be = ex.before.find("\n", b_last)
    be = len(ex.before) if be < 0 else be
    # the text outside the change is the same in both: map by offset
    delta = len(ex.after) - len(ex.before)
    as_ = bs
    ae = be + delta
    if not (as_ <= a_first and a_last <= ae):
        return None
    before = ex.before[bs:be]
    after = ex.after[as_:ae]
    ind_b = len(before) - len(before.lstrip(" \t"))
    ind_a = len(after) - len(after.lstrip(" \t"))
    if before[:ind_b] != after[:ind_a]:
        return None
    before, after = before[ind_b:].rstrip(), after[ind_a:].rstrip()
    if not before or not after or before == after:
        return None
    regex = re.compile(r"(?m)^(?P<ind>[ \t]*)" + re.escape(before) + r"(?=[ \t]*$)")
    spec = _specificity(tokenize(before))
    replacement = "\\g<ind>" + after.replace("\\", "\\\\")
    rule = Rule((before,), (after,), (), 1, spec, (ex.edit,), regex, replacement)  # its own regex
    rule.info.update(_info(ex, ex.p, ex.s))
    rule.info["line_rule"] = True
    rule.info["indent"] = ex.before[bs : bs + ind_b]
    return rule


def _single_rules(ex: EditExample) -> list[Rule]:
    """One-example rules with growing context, most general first."""
    out: list[Rule] = []
    p, s = ex.p, ex.s
    for k in range(0, _MAX_CONTEXT_TOKENS + 1):
        for kl, kr in ((k, k), (k, k + 1), (k + 1, k)):
            if kl > p or kr > s:
                continue
            lo = p - kl
            b_hi = len(ex.b_toks) - s + kr
            if lo >= b_hi:
                continue
            tpl = _span_template(ex, kl, kr, {}, {})
            if tpl is None:
                continue
            before_t, after_t = tpl
            spec = _specificity(ex.b_toks[lo:b_hi])
            r = _make_rule(before_t, after_t, [], 1, spec, (ex.edit,))
            r.info.update(_info(ex, kl, kr))
            out.append(r)
    # whole lines context
    return out


def _change_holes(
    a: EditExample, b: EditExample
) -> tuple[dict[tuple[str, str], int], list[str], dict[int, int], dict[int, int]] | None:
    """Do the two changes agree token for token, modulo identifiers/literals
    substituted consistently (``print x`` -> ``print(x)`` and ``print y`` ->
    ``print(y)``)? The substitution, hole kinds and hole positions in ``a``."""
    ao, bo, an, bn = a.old_toks, b.old_toks, a.new_toks, b.new_toks
    if len(ao) != len(bo) or len(an) != len(bn):
        return None
    holes: dict[tuple[str, str], int] = {}
    kinds: list[str] = []
    b_holes: dict[int, int] = {}
    a_holes: dict[int, int] = {}
    for j, (ta, tb) in enumerate(zip(ao, bo)):
        if ta.text == tb.text:
            continue
        if ta.kind != tb.kind or ta.kind not in _SPECIFIC_KINDS:
            return None
        key = (ta.text, tb.text)
        if key not in holes:
            holes[key] = len(kinds)
            kinds.append(ta.kind)
        b_holes[a.p + j] = holes[key]
    for j, (ta, tb) in enumerate(zip(an, bn)):
        if ta.text == tb.text:
            continue
        key = (ta.text, tb.text)
        if key not in holes:
            return None  # new text differs in a way the old text does not explain
        a_holes[a.p + j] = holes[key]
    if not ao and not an:
        return None
    return holes, kinds, b_holes, a_holes


def _anti_unify(a: EditExample, b: EditExample) -> list[Rule]:
    """The context two examples share, token by token, with differing
    identifiers/literals as holes."""
    agreed = _change_holes(a, b)
    if agreed is None:
        return []
    hole_of_text, kinds, a_bholes, a_aholes = agreed
    kinds = list(kinds)
    a_bholes = dict(a_bholes)
    a_aholes = dict(a_aholes)
    # grow left context while tokens agree (or both abstractable of same kind)
    kl = 0
    while kl < min(a.p, b.p, _MAX_CONTEXT_TOKENS):
        ta = a.b_toks[a.p - kl - 1]
        tb = b.b_toks[b.p - kl - 1]
        if ta.text == tb.text:
            kl += 1
            continue
        if ta.kind == tb.kind and ta.kind in _SPECIFIC_KINDS:
            key = (ta.text, tb.text)
            if key not in hole_of_text:
                hole_of_text[key] = len(kinds)
                kinds.append(ta.kind)
            a_bholes[a.p - kl - 1] = hole_of_text[key]
            a_aholes[a.p - kl - 1] = hole_of_text[key]
            kl += 1
            continue
        break
    kr = 0
    while kr < min(a.s, b.s, _MAX_CONTEXT_TOKENS):
        ta = a.b_toks[len(a.b_toks) - a.s + kr]
        tb = b.b_toks[len(b.b_toks) - b.s + kr]
        if ta.text == tb.text:
            kr += 1
            continue
        if ta.kind == tb.kind and ta.kind in _SPECIFIC_KINDS:
            key = (ta.text, tb.text)
            if key not in hole_of_text:
                hole_of_text[key] = len(kinds)
                kinds.append(ta.kind)
            a_bholes[len(a.b_toks) - a.s + kr] = hole_of_text[key]
            a_aholes[len(a.a_toks) - a.s + kr] = hole_of_text[key]
            kr += 1
            continue
        break
    out: list[Rule] = []
    kl_max, kr_max = kl, kr
    pairs = sorted(
        ((kl, kr) for kl in range(kl_max + 1) for kr in range(kr_max + 1)),
        key=lambda lr: (lr[0] + lr[1], abs(lr[0] - lr[1])),
    )
    for kl, kr in pairs:
        rule = _au_rule(a, b, kl, kr, kinds, a_bholes, a_aholes)
        if rule is not None:
            out.append(rule)
    return out


def _au_rule(
    a: EditExample,
    b: EditExample,
    kl: int,
    kr: int,
    kinds: list[str],
    a_bholes: dict[int, int],
    a_aholes: dict[int, int],
) -> Rule | None:
    lo = a.p - kl
    b_hi = len(a.b_toks) - a.s + kr
    if lo >= b_hi:
        return None
    # context must end on literal tokens: a hole at the edge matches anything
    if kl > 0 and lo in a_bholes:
        return None
    if kr > 0 and (b_hi - 1) in a_bholes:
        return None
    b_holes = {i: h for i, h in a_bholes.items() if lo <= i < b_hi}
    a_hi = len(a.a_toks) - a.s + kr
    a_holes = {i: h for i, h in a_aholes.items() if lo <= i < a_hi}
    tpl = _span_template(a, kl, kr, b_holes, a_holes)
    if tpl is None:
        return None
    before_t, after_t = tpl
    used = sorted({h for h in b_holes.values()})
    if any(isinstance(x, int) and x not in used for x in after_t):
        return None
    remap = {h: i for i, h in enumerate(used)}
    before_t = [remap[x] if isinstance(x, int) else x for x in before_t]
    after_t = [remap[x] if isinstance(x, int) else x for x in after_t]
    kinds2 = [kinds[h] for h in used]
    spec = _specificity(a.b_toks[lo:b_hi], {i - lo for i in b_holes})
    r = _make_rule(before_t, after_t, kinds2, 2, spec, (b.edit, a.edit))
    r.info.update(_info(a, kl, kr))
    return r


def _literal_body(text: str) -> str:
    return text.lstrip("rRbBuUfF").strip("\"'`")


def _new_literal(old: Sequence[Tok], new: Sequence[Tok]) -> bool:
    """The change types in a new value — a string or number that is not an
    old one, nor an old string extended (``"failed"`` -> ``"failed: %w"``)."""
    old_lits = [_literal_body(t.text) for t in old if t.kind in (STRING, NUMBER)]
    for t in new:
        if t.kind not in (STRING, NUMBER):
            continue
        body = _literal_body(t.text)
        if any(body == o or (o and o in body) for o in old_lits):
            continue
        return True
    return False


def _example_info(ex: EditExample) -> dict:
    """What a rule's acceptability needs of its example's change (independent
    of the context width): computed once per example."""
    cached = ex.__dict__.get("_change_info")
    if cached is not None:
        return cached
    old, new = ex.old_toks, ex.new_toks
    b, a_text = ex.before, ex.after
    line_b = b[b.rfind("\n", 0, old[0].start) + 1 : old[-1].end] if old else ""
    line_a = a_text[a_text.rfind("\n", 0, new[0].start) + 1 : new[-1].end] if new else ""
    stripped = (line_b or line_a).lstrip()
    info = {
        "prose": _prose(line_b) or _prose(line_a),
        "comment": stripped.startswith(_COMMENT_STARTS),
        "n_old": len(old),
        "n_new": len(new),
        "old_spec": _specificity(old),
        "new_spec": _specificity(new),
        "old_idents": sum(1 for t in old if t.kind in _SPECIFIC_KINDS),
        "old_text": "".join(t.text for t in old),
        "new_text": "".join(t.text for t in new),
        "new_literal": _new_literal(old, new),
        "substitution": len(old) == len(new) and all(t.kind == IDENT for t in (*old, *new)),
        "single_ident": len(old) == 1 and len(new) == 1 and old[0].kind == IDENT and new[0].kind == IDENT,
    }
    ex.__dict__["_change_info"] = info  # frozen dataclass: a memo, not state
    return info


def _info(ex: EditExample, kl: int, kr: int) -> dict:
    # does the context reach the line boundaries?
    lo = ex.p - kl
    hi = len(ex.b_toks) - ex.s + kr
    b = ex.before
    ls = b.rfind("\n", 0, ex.b_toks[lo].start) + 1 if lo < len(ex.b_toks) else 0
    full_left = b[ls : ex.b_toks[lo].start].strip() == "" if lo < len(ex.b_toks) else True
    le = b.find("\n", ex.b_toks[hi - 1].end) if hi > 0 else -1
    le = len(b) if le < 0 else le
    full_right = b[ex.b_toks[hi - 1].end : le].strip() == "" if hi > 0 else True
    a_hi = len(ex.a_toks) - ex.s + kr
    a_lo_cp = ex.a_toks[lo].start if lo < len(ex.a_toks) and lo < a_hi else ex.edit.start - ex.window_start
    a_hi_cp = ex.a_toks[a_hi - 1].end if 0 < a_hi and lo < a_hi else a_lo_cp
    return {
        **_example_info(ex),
        "a_span": (ex.window_start + a_lo_cp, ex.window_start + a_hi_cp),
        "kl": kl,
        "kr": kr,
        "full_line": full_left and full_right,
    }


# ---------------------------------------------------------------------------
# sites


def _align_lines(text: str, start: int, end: int, new: str) -> tuple[int, int, str]:
    """Slide a pure insertion/deletion of whole lines to start at a line start.

    Trimming places an inserted line wherever the shared text ends (``#[inline]\n    ``
    after an indentation); the same change expressed at the line start is what
    an editor (and a reader) expects.
    """
    if start == end and "\n" in new:
        s, ins = start, new
        for _ in range(len(new)):
            if (s == 0 or text[s - 1] == "\n") and ins.endswith("\n"):
                return s, s, ins
            if s == 0 or text[s - 1] != ins[-1]:
                break
            s, ins = s - 1, ins[-1] + ins[:-1]
        return start, end, new
    if new == "" and "\n" in text[start:end]:
        s, e = start, end
        for _ in range(end - start):
            if (s == 0 or text[s - 1] == "\n") and text[e - 1] == "\n":
                return s, e, ""
            if s == 0 or text[s - 1] != text[e - 1]:
                break
            s, e = s - 1, e - 1
    return start, end, new


class _Scan:
    """Bookkeeping of one rule's site search: was it complete?"""

    __slots__ = ("complete", "cancelled", "_tick")

    def __init__(self, cancelled: Callable[[], bool] | None = None) -> None:
        self.complete = True  # False: a long line skipped or the hit cap reached
        self.cancelled = cancelled
        self._tick = 0

    def stop(self) -> bool:
        self._tick += 1
        if self.cancelled is not None and self._tick % 64 == 0 and self.cancelled():
            self.complete = False
            return True
        return False


def _anchor(rule: Rule) -> tuple[str, int, int] | None:
    """The before template's longest literal piece (found with ``str.find``)
    and how many line breaks the template has before / after it."""
    cached = rule.info.get("_anchor")
    if cached is not None:
        return cached or None
    parts = [p for p in rule.before if isinstance(p, str)]
    best = max(parts, key=lambda p: (any(c.isalnum() for c in p), len(p.strip())), default="")
    if not best.strip():
        rule.info["_anchor"] = ()
        return None
    idx = next(i for i, p in enumerate(rule.before) if p is best)
    nl_before = sum(p.count("\n") for p in rule.before[:idx] if isinstance(p, str))
    nl_after = sum(p.count("\n") for p in rule.before[idx + 1 :] if isinstance(p, str))
    found = (best, nl_before, nl_after)
    rule.info["_anchor"] = found
    return found


def _region(text: str, pos: int, end: int, nl_before: int, nl_after: int) -> tuple[int, int] | None:
    """The lines a match around ``text[pos:end]`` may span; ``None`` when longer
    than ``_MAX_REGION_CHARS`` (a minified or generated line)."""
    floor = max(0, pos - _MAX_REGION_CHARS)
    ls = _lines_back(text, pos, nl_before, floor)
    if ls == floor and floor > 0 and text[floor - 1] != "\n":
        return None
    ceiling = min(len(text), end + _MAX_REGION_CHARS)
    le = _lines_forward(text, end, nl_after, ceiling)
    if le == ceiling and ceiling < len(text) and text[ceiling - 1] != "\n":
        return None
    return ls, le


def _matches(text: str, rule: Rule, scan: _Scan):
    """The rule's matches, left to right, non-overlapping. The longest literal
    piece of the pattern is located with ``str.find`` (C speed) and the regex
    runs only over the lines around each occurrence: the cost is one scan plus
    the number of occurrences (capped), never a Python loop over the file."""
    anchor = _anchor(rule)
    if anchor is None:
        for i, m in enumerate(rule.regex.finditer(text)):
            if i >= _MAX_ANCHOR_HITS or scan.stop():
                scan.complete = False
                return
            yield m
        return
    lit, nl_before, nl_after = anchor
    last_end = -1
    last_region = (-1, -1)
    hits = 0
    pos = text.find(lit)
    while pos >= 0:
        hits += 1
        if hits > _MAX_ANCHOR_HITS or scan.stop():
            scan.complete = False
            return
        region = _region(text, pos, pos + len(lit), nl_before, nl_after)
        if region is None:
            scan.complete = False
        elif region != last_region:
            last_region = region
            for m in rule.regex.finditer(text, max(region[0], last_end), region[1]):
                if m.start() < last_end:
                    continue
                last_end = m.end() if m.end() > m.start() else m.end() + 1
                yield m
        if region is None:  # skip the rest of the long line
            nl = text.find("\n", pos)
            pos = text.find(lit, nl + 1) if nl >= 0 else -1
        else:
            pos = text.find(lit, pos + 1)


def find_sites(
    text: str, rule: Rule, exclude: Sequence[tuple[int, int]] = (), limit: int = 200
) -> list[Site]:
    """Every match of ``rule.before`` whose rewrite changes the text."""
    return scan_sites(text, rule, exclude, limit)[0]


def scan_sites(
    text: str,
    rule: Rule,
    exclude: Sequence[tuple[int, int]] = (),
    limit: int = 200,
    cancelled: Callable[[], bool] | None = None,
) -> tuple[list[Site], bool]:
    """``(sites, complete)``: every match of ``rule.before`` whose rewrite
    changes the text (at most ``limit + 1``); ``complete`` is False when part
    of the text was not examined (a line too long, too many occurrences,
    cancelled)."""
    scan = _Scan(cancelled)
    sites: list[Site] = []
    for m in _matches(text, rule, scan):
        ms, me = m.start(), m.end()
        if any(ms < xe and xs < me or (xs == xe and ms <= xs <= me) for xs, xe in exclude):
            continue
        try:
            replaced = m.expand(rule.replacement)
        except (re.error, IndexError):
            continue
        old = m.group()
        ex_indent = rule.info.get("indent")
        if ex_indent is not None and "ind" in rule.regex.groupindex:
            site_indent = m.group("ind")
            if site_indent != ex_indent:
                replaced = replaced.replace("\n" + ex_indent, "\n" + site_indent)
        if replaced == old:
            continue
        # the change is already there (the before pattern is part of the after)
        lo = max(0, ms - len(replaced))
        window = text[lo : me + len(replaced)]
        k = window.find(replaced)
        done = False
        while k >= 0:
            if lo + k <= ms and me <= lo + k + len(replaced):
                done = True
                break
            k = window.find(replaced, k + 1)
        if done:
            continue
        pre, suf, _ = trim_edit(old, replaced)
        start, end, new = _align_lines(text, ms + pre, me - suf, replaced[pre : len(replaced) - suf])
        sites.append(Site(start, end, new, ms, me, old))
        if len(sites) > limit:
            break
    return sites, scan.complete


def synthesize(
    text: str,
    edits: Sequence[PastEdit],
    cursor: int,
    *,
    max_sources: int = 4,
    max_examples: int = 10,
    all_rules: bool = False,
    cancelled: Callable[[], bool] | None = None,
    category: Callable[[int, int], tuple[str, str | None] | None] | None = None,
) -> list[Proposal]:
    """Proposals from the developer's recent edits (oldest first), best first.

    ``category(start, end)`` names the syntactic context of a span of the
    current text (:func:`node_category`: call arguments, parameters, import,
    string, comment, code…); a site whose context differs from the example's
    is not a site.

    The most recent edit is tried first; an older one only when the newer
    ones give no rule with sites (an unfinished earlier transformation).
    """
    recent = list(edits[-max_examples:])
    if not recent:
        return []
    examples: list[EditExample] = []
    for e in recent:
        ex = example_from_edit(text, e)
        if ex is not None:
            examples.append(ex)
    exclude = [(e.start, e.new_end) for e in recent]
    proposals: list[Proposal] = []
    sources = examples[-max_sources:]
    scans = 0
    top_down = _top_down(recent)
    for idx in range(len(sources) - 1, -1, -1):
        src = sources[idx]
        if _is_undone(src.edit, recent):
            continue
        earlier = examples[: len(examples) - len(sources) + idx]
        for rule in rules_for(text, [*earlier, src]):
            if not all_rules and not acceptable(rule):
                continue
            if idx != len(sources) - 1 and rule.evidence < 2:
                continue  # an older one-off edit the developer did not follow up
            scans += 1
            if scans > _MAX_RULE_SCANS or (cancelled is not None and cancelled()):
                return proposals
            limit = _MAX_SITES_TWO_EXAMPLES if rule.evidence >= 2 else _MAX_SITES_ONE_EXAMPLE
            sites, complete = scan_sites(text, rule, exclude, limit, cancelled)
            if not sites or len(sites) > limit:
                continue
            if category is not None:
                sites = _same_category(sites, rule, category)
                if not sites:
                    continue
            if _passed_over(rule, sites, top_down):
                continue
            sites.sort(key=lambda st: (st.start < cursor, st.start))
            score = rule.evidence * 2.0 + min(rule.specificity, 10.0) / 5.0 - 0.5 * (len(sources) - 1 - idx)
            proposals.append(Proposal(rule, tuple(sites), score, complete))
            if not all_rules:
                break
        if proposals and not all_rules:
            break
    return proposals


# node-type name fragments -> the list-level context of a span; by suffix or
# substring so that one table serves every grammar
_FINE_CONTEXTS = (
    (("type_arguments", "type_parameters", "generic"), "type"),
    (("parameters", "parameter_list"), "parameters"),
    (("arguments", "argument_list"), "arguments"),
    (("import", "use_declaration", "use_list"), "import"),
    (("decorator", "attribute_item", "annotation", "attribute"), "attribute"),
)
_CONTEXT_DEPTH = 2


def node_category(types: Sequence[str]) -> tuple[str, str | None]:
    """The syntactic context of a span from the types of the nodes strictly
    enclosing it, innermost first: ``(coarse, fine)`` — coarse is ``comment``,
    ``string`` or ``code``; fine the list the span sits in (call
    ``arguments``, ``parameters``, ``import``, ``attribute``, ``type``) or None."""
    near = types[:_CONTEXT_DEPTH]
    coarse = "code"
    for node_type in near:
        if "comment" in node_type:
            coarse = "comment"
            break
        if "string" in node_type or node_type in ("char_literal", "heredoc_body", "template_string"):
            coarse = "string"
            break
    fine = None
    for node_type in near:
        for fragments, name in _FINE_CONTEXTS:
            if any(f in node_type for f in fragments):
                fine = name
                break
        if fine is not None:
            break
    return coarse, fine


def _same_category(sites: list[Site], rule: Rule, category: Callable[[int, int], tuple[str, str | None] | None]) -> list[Site]:
    """The sites whose syntactic context is the example's: never from code
    into a string or comment (or back); and, unless the change only
    substitutes identifiers one for one, in the same kind of list (a parameter
    removed from a definition is not removed from a call)."""
    span = rule.info.get("a_span")
    if span is None:
        return sites
    want = category(*span)
    if want is None:
        return sites
    substitution = rule.info.get("substitution", False)
    out = []
    for site in sites:
        got = category(site.match_start, site.match_end)
        if got is None or (got[0] == want[0] and (substitution or got[1] == want[1])):
            out.append(site)
    return out


_KEYWORDS = frozenset(
    """self this def fn let mut pub return if else for in while not and or is None
    True False true false null nil const var func class struct impl use import from
    new int str bool usize u8 u32 i32 i64 u64 void static as""".split()
)


def _prose(text: str) -> bool:
    """Four words in a row separated by blanks only: prose (a comment, a docstring)."""
    return _PROSE_RE.search(text) is not None


# anchored at word starts, possessive: linear in the text (a long run of word
# characters is not retried from each of its positions)
_PROSE_RE = re.compile(r"(?<!\w)[^\W\d]\w*+[ \t]++[^\W\d]\w*+[ \t]++[^\W\d]\w*+[ \t]++[^\W\d]")


def literal_specificity(rule: Rule) -> float:
    """Weight of the literal identifiers/strings of the before template (holes excluded)."""
    total = 0.0
    for part in rule.before:
        if isinstance(part, int):
            continue
        for t in tokenize(part):
            if t.kind == IDENT and t.text in _KEYWORDS:
                total += 0.5
            else:
                total += _tok_weight(t)
    return total


ONE_EXAMPLE_LINE_ONLY = False
EV2_MIN_LITERAL = 4.0
SINGLE_IDENT_MIN_LITERAL = 4.0


def _rename_like(info: dict) -> bool:
    """An identifier grown or shrunk (``name`` -> ``name_filter``): a rename of
    one binding, whose other sites the rename suggester knows better."""
    old, new = info.get("old_text", ""), info.get("new_text", "")
    return bool(old and new) and len(new) > len(old) and (new.startswith(old) or new.endswith(old))


def acceptable(rule: Rule) -> bool:
    """Is the rule specific enough to be suggested with its evidence?"""
    info = rule.info
    n_old, n_new = info.get("n_old", 0), info.get("n_new", 0)
    if _prose(rule.before_text) or _prose(rule.after_text):
        return False
    if rule.evidence < 2 and (info.get("prose") or info.get("comment")):
        return False
    lit = literal_specificity(rule)
    single_ident = info.get("single_ident", False)
    if rule.evidence >= 2:
        if (n_old == 0 or n_new == 0) and not (info.get("kl", 0) >= 1 and info.get("kr", 0) >= 1):
            return False
        if single_ident and info.get("kl", 0) + info.get("kr", 0) < 2:
            return False
        return lit >= EV2_MIN_LITERAL
    # one example: only replacements, specific ones
    if n_old == 0 or n_new == 0:
        return False
    if info.get("new_literal"):
        return False  # a new value typed in (a string, a number): data, not a pattern
    if ONE_EXAMPLE_LINE_ONLY and not info.get("line_rule"):
        return False
    if single_ident and _rename_like(info):
        return False
    if single_ident and not info.get("line_rule") and (info.get("kl", 0) < 2 or lit < SINGLE_IDENT_MIN_LITERAL):
        return False
    return lit >= 4.0 and info.get("old_spec", 0.0) >= 1.0




def _top_down(edits: Sequence[PastEdit]) -> bool:
    """The developer works down the file: every edit below the previous one."""
    return len(edits) >= 2 and all(b.start >= a.start for a, b in zip(edits, edits[1:]))


def _passed_over(rule: Rule, sites: Sequence[Site], top_down: bool) -> bool:
    """Did the developer pass over a matching site? When they work down the
    file, a site between two of the rule's examples that they left unchanged
    is a negative example: the transformation is not universal, so its other
    sites are guesses. (Editing in any other order, the sites in between
    may simply not be reached yet.)"""
    if not top_down:
        return False
    starts = [e.start for e in rule.examples]
    lo, hi = min(starts), max(starts)
    return len(starts) >= 2 and any(lo < site.match_start < hi for site in sites)


def _is_undone(edit: PastEdit, recent: Sequence[PastEdit]) -> bool:
    """``edit`` reverts an earlier edit, or a later edit reverts it."""
    for e in recent:
        if e is edit:
            continue
        if e.new == edit.old and e.old == edit.new:
            return True
    return False
