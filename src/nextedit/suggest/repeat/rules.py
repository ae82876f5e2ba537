"""Repeated-edit rules: rewrite rules from examples, and whether one is specific enough.

Owns rule synthesis: one-example rules with context growing outwards from
the change (and the whole changed lines, indentation free), two examples
anti-unified (shared context kept token for token, differing identifiers and
literals become holes), the facts about an example's change a rule carries
in ``Rule.info``, and :func:`acceptable` — the precision gate (prose,
comments, new literal values, renames, too little literal text).

Must not know where a rule matches or which edits are examples
(:mod:`nextedit.suggest.repeat.sites`, :mod:`nextedit.suggest.repeat.synthesis`),
nor LSP/ACP or position encodings.
"""

from __future__ import annotations

import functools
import re
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from nextedit.frozen import evolve
from nextedit.suggest.model import SPECIFICITY_CAP
from nextedit.suggest.repeat.examples import EditExample
from nextedit.suggest.repeat.model import Rule, make_rule
from nextedit.suggest.repeat.text import reads_as_prose
from nextedit.suggest.repeat.tokens import IDENT, NUMBER, PUNCT, STRING, Tok, tokenize
from nextedit.text.lexical import REPEAT_TOKEN_RE

_MAX_CONTEXT_TOKENS = 8


_SPECIFIC_KINDS = (IDENT, STRING, NUMBER)


def _kind_weight(kind: str, length: int) -> float:
    """How much a token of this kind and length says about where a rule applies."""
    if kind == IDENT:
        return min(length, 12) / 4.0 + 0.5
    if kind == STRING:
        return min(length, 16) / 4.0 + 0.5
    if kind == NUMBER:
        return 0.75
    return 0.25 if length == 1 else 0.5


def _tok_weight(t: Tok) -> float:
    return _kind_weight(t.kind, len(t.text))


# what a hole says about where a rule applies, whatever token it stands for
_HOLE_WEIGHT = 0.3


def _specificity(toks: Sequence[Tok], holes: frozenset[int] | set[int] = frozenset()) -> float:
    return sum(_HOLE_WEIGHT if i in holes else _tok_weight(t) for i, t in enumerate(toks))


def _template(text: str, toks: Sequence[Tok], lo: int, hi: int, holes: dict[int, int]) -> list[str | int]:
    """Text of ``toks[lo:hi]`` with gaps, hole tokens replaced by hole ids:
    the text between two holes is one literal piece (tokens are slices of
    ``text``)."""
    if lo >= hi:
        return []
    parts: list[str | int] = []
    pos = toks[lo].start
    for i in sorted(i for i in holes if lo <= i < hi):
        t = toks[i]
        parts.append(text[pos : t.start])
        parts.append(holes[i])
        pos = t.end
    parts.append(text[pos : toks[hi - 1].end])
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


@dataclass(frozen=True)
class MadeRules:
    """A source's rules as they were made (or last restated) for examples of
    the same keys, shared between requests: ``here`` restates one for the
    examples where they stand now, which only a rule about to be offered
    needs (a rule's templates, limits and searches do not depend on where
    its examples stand). ``derived`` keeps what a caller works out of
    ``rules`` alone (position-free), for as long as they are kept.
    ``offsets`` (by ``id``) are the anti-unified rules shared with other
    pairs of examples (:func:`_anti_unified`): made for examples elsewhere,
    they are always restated, that much further on."""

    key: tuple[object, ...]
    rules: list[Rule]
    last: EditExample
    partner: EditExample | None
    restated: bool  # the examples stand elsewhere than the rules say
    shift: int
    derived: dict[str, object]
    offsets: dict[int, int]

    def here(self, rule: Rule) -> Rule:
        """``rule`` (one of ``rules``) stating the examples where they stand now."""
        offset = self.offsets.get(id(rule))
        if offset is None:
            if not self.restated:
                return rule
            offset = 0
        return _moved((rule,), self.shift + offset, self.last, self.partner)[0]


def made_rules(examples: Sequence[EditExample]) -> MadeRules | None:
    """Candidate rules from the last example (and the newest earlier one
    that agrees), as made for examples of the same keys, not yet restated
    where these examples stand (:meth:`MadeRules.here`)."""
    if not examples:
        return None
    last = examples[-1]
    # the newest earlier example that agrees with it
    partner = next((e for e in reversed(examples[:-1]) if e.edit.start != last.edit.start and _agree(last, e)), None)
    # the rules depend on these two examples alone, wherever they stand: made
    # once, and moved with the examples when an edit above shifts them
    key = (last.key, partner.key if partner is not None else None)
    cached = _RULES.get(key)
    if cached is not None:
        _RULES.move_to_end(key)
        made_for = cached.made_for
        restated = _where(made_for) != _where((last, partner))
        shift = last.window_start - made_for[0].window_start
        return MadeRules(key, cached.rules, last, partner, restated, shift, cached.derived, cached.offsets)
    rules = []
    offsets: dict[int, int] = {}
    if partner is not None:
        anti, offset = _anti_unified(last, partner)
        rules.extend(anti)
        if offset is not None:
            offsets = {id(rule): offset for rule in anti}
    line = _line_rule(last)  # its context is the whole window: made afresh
    if line is not None:
        rules.append(line)
    single, offset = _one_example_rules(last)
    rules.extend(single)
    if offset is not None:
        offsets.update((id(rule), offset) for rule in single)
    entry = _RULES[key] = _Made((last, partner), rules, {}, offsets)
    if len(_RULES) > _RULES_SIZE:
        _RULES.popitem(last=False)
    return MadeRules(key, rules, last, partner, False, 0, entry.derived, offsets)


def _where(examples: tuple[EditExample, EditExample | None]) -> tuple[object, ...]:
    return tuple((ex.edit, ex.window_start) if ex is not None else None for ex in examples)


def _moved(rules: Sequence[Rule], shift: int, last: EditExample, partner: EditExample | None) -> list[Rule]:
    """``rules`` made for examples of the same keys, restated for ``last``
    and ``partner`` where they stand: their examples, and the span of the
    change in the current text ``shift`` characters further on."""
    two = (partner.edit, last.edit) if partner is not None else (last.edit,)
    out = []
    for rule in rules:
        info = dict(rule.info)
        info.pop("passed_over", None)  # a request's verdict, set again by the next
        start, end = info["a_span"]
        info["a_span"] = (start + shift, end + shift)
        examples = two if rule.evidence >= 2 else (last.edit,)
        out.append(evolve(rule, examples=examples, info=info))
    return out


def _anti_unified(last: EditExample, partner: EditExample) -> tuple[list[Rule], int | None]:
    """:func:`_anti_unify` of the two, made once per pair of local keys
    (:func:`_local_key`), and how much further on the examples stand than
    those they were made for (None: they were made for these): restated
    (:func:`_moved`) only when one is offered (:meth:`MadeRules.here`). The
    same edit repeated in function after function has a new window each time
    (another function's name three lines up) but the same rules."""
    last_key, last_at = _local_key(last)
    key = (last_key, _local_key(partner)[0])
    return _shared_rules(
        _ANTI_UNIFIED, key, (last.edit, partner.edit), last.window_start + last_at, lambda: _anti_unify(last, partner)
    )


def _one_example_rules(ex: EditExample) -> tuple[list[Rule], int | None]:
    """The one-example rules of ``ex`` (:func:`_single_rules`), made once
    per :func:`_single_key`, and how much further on ``ex`` stands than the
    example they were made for (None: made for this one); restated only
    when one is offered (:meth:`MadeRules.here`). The same edit made in
    function after function has a new window each time but, mostly, the
    same rules."""
    key, at = _single_key(ex)
    return _shared_rules(_SINGLE, key, (ex.edit,), ex.window_start + at, lambda: _single_rules(ex))


def _shared_rules(
    table: OrderedDict[tuple[object, ...], tuple[tuple[tuple[object, ...], int], list[Rule]]],
    key: tuple[object, ...],
    edits: tuple[object, ...],
    here: int,
    make: Callable[[], list[Rule]],
) -> tuple[list[Rule], int | None]:
    """The rules ``table`` keeps under ``key`` (made by ``make`` when it has
    none), and how much further on the examples stand (``here``: where their
    keyed text starts) than those they were made for — None when made for
    these very edits there. Bounded LRU (:data:`_RULES_SIZE`)."""
    cached = table.get(key)
    if cached is not None:
        table.move_to_end(key)
        (was_edits, was_at), rules = cached
        if (was_edits, was_at) == (edits, here):
            return rules, None
        return rules, here - was_at
    rules = make()
    table[key] = ((edits, here), rules)
    if len(table) > _RULES_SIZE:
        table.popitem(last=False)
    return rules, None


def _single_key(ex: EditExample) -> tuple[tuple[object, ...], int]:
    """What :func:`_single_rules` reads of ``ex``, and where that starts in
    its window: as :func:`_local_key`, one token wider on each side (a
    one-example rule's context reaches one token further than an
    anti-unified one's on one side: ``_MAX_CONTEXT_TOKENS + 1``, and whether
    it reaches its line's start or end is read in the gap beyond). Two
    examples of one key have the same one-example rules, up to their
    position."""
    return _window_key(ex, _MAX_CONTEXT_TOKENS + 2, "_single_key")


def _local_key(ex: EditExample) -> tuple[tuple[object, ...], int]:
    """What :func:`_anti_unify` reads of ``ex``, and where that starts in its
    window: the text from the gap before the widest left context
    (``_MAX_CONTEXT_TOKENS`` tokens) through the gap after the widest right
    one — from the window's edge when fewer tokens stand there — widened to
    the start of the change's line (which the prose and comment facts read);
    in both texts, with the change's place in it. Two examples of one local
    key anti-unify alike with any partner, up to their position."""
    return _window_key(ex, _MAX_CONTEXT_TOKENS + 1, "_local_key")


def _window_key(ex: EditExample, reach: int, memo: str) -> tuple[tuple[object, ...], int]:
    """The text of ``ex`` from the gap ``reach`` tokens left of the change
    (widened to its line's start) through the gap ``reach`` tokens right of
    it, in both texts, with the change's place in it; and where it starts in
    the window. Memoised on the example under ``memo``."""
    cached = ex.__dict__.get(memo)
    if cached is not None:
        return cached
    b_toks, a_toks, p, s = ex.b_toks, ex.a_toks, ex.p, ex.s
    change = ex.edit.start - ex.window_start
    first = min([change, *(toks[p].start for toks in (b_toks, a_toks) if p < len(toks))])
    start = min(b_toks[p - reach].end if p >= reach else 0, ex.before.rfind("\n", 0, first) + 1)
    b_end = b_toks[len(b_toks) - s + reach - 1].start if s >= reach else len(ex.before)
    a_end = a_toks[len(a_toks) - s + reach - 1].start if s >= reach else len(ex.after)
    key = (
        ex.before[start:b_end],
        ex.after[start:a_end],
        change - start,
        ex.edit.old,
        ex.edit.new,
        min(p, reach),
        min(s, reach),
    )
    ex.__dict__[memo] = found = (key, start)  # frozen dataclass: a memo, not state
    return found


# _single_key -> ((the edit they were made for, where its key's text starts), its one-example rules)
_SINGLE: OrderedDict[tuple[object, ...], tuple[tuple[tuple[object, ...], int], list[Rule]]] = OrderedDict()


# (last example's local key, its partner's) -> ((the two edits they were made
# for, where the last's local text starts), their rules)
_ANTI_UNIFIED: OrderedDict[tuple[object, ...], tuple[tuple[tuple[object, ...], int], list[Rule]]] = OrderedDict()


@dataclass(frozen=True)
class _Made:
    made_for: tuple[EditExample, EditExample | None]  # the examples they were made or last moved for
    rules: list[Rule]
    derived: dict[str, object]  # MadeRules.derived
    offsets: dict[int, int]  # MadeRules.offsets


# (last example's key, the agreeing earlier example's key) -> their rules
_RULES: OrderedDict[tuple[object, ...], _Made] = OrderedDict()
_RULES_SIZE = 256


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
    pattern = r"(?m)^(?P<ind>[ \t]*)" + re.escape(before) + r"(?=[ \t]*$)"
    spec = _specificity(tokenize(before))
    replacement = "\\g<ind>" + after.replace("\\", "\\\\")
    rule = Rule((before,), (after,), (), 1, spec, (ex.edit,), pattern, replacement)  # its own regex
    rule.info.update(_info(ex, ex.p, ex.s))
    rule.info["line_rule"] = True
    rule.info["indent"] = ex.before[bs : bs + ind_b]
    return rule


def _single_rules(ex: EditExample) -> list[Rule]:
    """One-example rules with growing context, most general first."""
    out: list[Rule] = []
    # _specificity of any span as a difference of prefix sums: every token
    # weight is a multiple of 0.25, so the sums are exact in any order
    prefix = [0.0]
    for t in ex.b_toks:
        prefix.append(prefix[-1] + _tok_weight(t))
    literal = _literal_prefix(ex)
    edges = _LineEdges(ex)
    for kl, kr, lo, b_hi in _context_widths(ex, _MAX_CONTEXT_TOKENS):
        tpl = _span_template(ex, kl, kr, {}, {})
        if tpl is None:
            continue
        before_t, after_t = tpl
        spec = prefix[b_hi] - prefix[lo]
        r = make_rule(before_t, after_t, [], 1, spec, (ex.edit,))
        r.info.update(_info(ex, kl, kr, edges))
        _know_literal_specificity(r, literal[b_hi] - literal[lo])
        out.append(r)
    out.extend(_carried_rules(ex, prefix, edges))
    return out


def _context_widths(ex: EditExample, k_max: int) -> Iterator[tuple[int, int, int, int]]:
    """``(kl, kr, lo, b_hi)`` of a one-example rule's context widths, from
    none to ``k_max`` tokens a side (and one more on either side), narrowest
    first: ``lo``/``b_hi`` bound the rule's before tokens."""
    p, s = ex.p, ex.s
    for k in range(0, k_max + 1):
        for kl, kr in ((k, k), (k, k + 1), (k + 1, k)):
            if kl > p or kr > s:
                continue
            lo = p - kl
            b_hi = len(ex.b_toks) - s + kr
            if lo < b_hi:
                yield kl, kr, lo, b_hi


# a change that carries more names than this rewrites the line rather than transforms it
_MAX_CARRIED = 2
# the context of a rule with carried names: up to 1 token on one side and 2 on the other
# (in the traces, no wider one was right: the narrow ones are the transformation)
_CARRIED_CONTEXT = 1


def _carried_names(ex: EditExample) -> frozenset[str]:
    """The names the change carries from its old text into its new one
    (``onStack(stack, `` -> ``stack.contains(``: ``stack``), keywords aside."""
    old = {t.text for t in ex.old_toks if t.kind == IDENT and t.text not in _KEYWORDS}
    return frozenset(t.text for t in ex.new_toks if t.kind == IDENT and t.text in old)


def _carried_rules(ex: EditExample, prefix: Sequence[float], edges: _LineEdges) -> list[Rule]:
    """One-example rules whose carried names (:func:`_carried_names`) are
    holes wherever they stand in the rule's span: the change moves or wraps
    them, so it is about its fixed text, not about them (``onStack(<I>, ``
    -> ``<I>.contains(``). Tried after every literal rule of the example
    (:func:`is_carried`); context widths as :func:`_single_rules`', up to
    :data:`_CARRIED_CONTEXT`, and the context must end on fixed text."""
    carried = _carried_names(ex)
    if not carried or len(carried) > _MAX_CARRIED:
        return []
    if not any(t.kind in (IDENT, STRING) and t.text not in carried and t.text not in _KEYWORDS for t in ex.old_toks):
        return []  # nothing fixed in the old text: a line inserted above it, not a change of it
    b_named = [i for i, t in enumerate(ex.b_toks) if t.kind == IDENT and t.text in carried]
    a_named = [i for i, t in enumerate(ex.a_toks) if t.kind == IDENT and t.text in carried]
    hole_of = {name: h for h, name in enumerate(sorted(carried))}
    out: list[Rule] = []
    for kl, kr, lo, b_hi in _context_widths(ex, _CARRIED_CONTEXT):
        b_holes = {i: hole_of[ex.b_toks[i].text] for i in b_named if lo <= i < b_hi}
        if (kl > 0 and lo in b_holes) or (kr > 0 and b_hi - 1 in b_holes):
            continue  # a hole at the context's edge matches anything
        a_hi = len(ex.a_toks) - ex.s + kr
        a_holes = {i: hole_of[ex.a_toks[i].text] for i in a_named if lo <= i < a_hi}
        tpl = _span_template(ex, kl, kr, b_holes, a_holes)
        if tpl is None:
            continue
        before_t, after_t = tpl  # every carried name stands in the change, so every hole is used
        spec = prefix[b_hi] - prefix[lo] - sum(_tok_weight(ex.b_toks[i]) - _HOLE_WEIGHT for i in b_holes)
        r = make_rule(before_t, after_t, [IDENT] * len(carried), 1, spec, (ex.edit,))
        r.info.update(_info(ex, kl, kr, edges))
        r.info["carried"] = True
        _know_literal_specificity(r, _literal_sum(ex, lo, b_hi, b_holes))
        out.append(r)
    return out


def is_carried(rule: Rule) -> bool:
    """A one-example rule with the names its change carries as holes (:func:`_carried_rules`)."""
    return bool(rule.info.get("carried"))


# (a's change, b's change) -> whether the two changes agree (:func:`_change_holes`):
# every request asks it again of each source and the examples before it
_AGREE: OrderedDict[tuple[object, object], bool] = OrderedDict()
_AGREE_SIZE = 2048


def _agree(a: EditExample, b: EditExample) -> bool:
    """``_change_holes(a, b) is not None``, which depends on the kinds and
    texts of the two changes' old and new tokens alone (:func:`_change_key`),
    not on their context nor on where they stand."""
    ka, kb = _change_key(a), _change_key(b)
    if ka[2] != kb[2]:
        return False  # _change_holes' first test (as many old and new tokens): most pairs differ here
    if ka[0] == kb[0]:
        # no old token differs, so no hole: the new tokens' texts must be the
        # same too (the same name renamed to two others, the same edit twice)
        return ka[3] == kb[3] and ka[2] != (0, 0)
    key = (ka, kb)
    known = _AGREE.get(key)
    if known is None:
        known = _AGREE[key] = _change_holes(a, b) is not None
        if len(_AGREE) > _AGREE_SIZE:
            _AGREE.popitem(last=False)
    return known


def _change_key(
    ex: EditExample,
) -> tuple[tuple[tuple[str, str], ...], tuple[tuple[str, str], ...], tuple[int, int], tuple[str, ...]]:
    """The kinds and texts of the change's old and new tokens — all that
    :func:`_change_holes` compares of two examples (the hole positions it
    returns are not part of whether they agree) — their counts, and the new
    tokens' texts. Memoised on the example."""
    cached = ex.__dict__.get("_change_key")
    if cached is not None:
        return cached
    old = tuple((t.kind, t.text) for t in ex.old_toks)
    new = tuple((t.kind, t.text) for t in ex.new_toks)
    key = (old, new, (len(old), len(new)), tuple(text for _, text in new))
    ex.__dict__["_change_key"] = key  # frozen dataclass: a memo, not state
    return key


def _change_holes(
    a: EditExample, b: EditExample
) -> tuple[dict[tuple[str, str], int], list[str], dict[int, int], dict[int, int]] | None:
    """Do the two changes agree token for token, modulo identifiers/literals
    substituted consistently (``print x`` -> ``print(x)`` and ``print y`` ->
    ``print(y)``)? The substitution, hole kinds and hole positions in ``a``."""
    # as many old and new tokens (counted before any slicing: most pairs differ here)
    if len(a.b_toks) - len(b.b_toks) != a.p + a.s - b.p - b.s or len(a.a_toks) - len(b.a_toks) != a.p + a.s - b.p - b.s:
        return None
    ao, bo, an, bn = a.old_toks, b.old_toks, a.new_toks, b.new_toks
    holes: dict[tuple[str, str], int] = {}
    kinds: list[str] = []
    b_holes: dict[int, int] = {}
    a_holes: dict[int, int] = {}
    for j, (ta, tb) in enumerate(zip(ao, bo, strict=False)):
        if ta.text == tb.text:
            continue
        if ta.kind != tb.kind or ta.kind not in _SPECIFIC_KINDS:
            return None
        key = (ta.text, tb.text)
        if key not in holes:
            holes[key] = len(kinds)
            kinds.append(ta.kind)
        b_holes[a.p + j] = holes[key]
    for j, (ta, tb) in enumerate(zip(an, bn, strict=False)):
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
    weights = [_tok_weight(t) for t in a.b_toks]
    edges = _LineEdges(a)
    for left, right in _context_pairs(kl, kr):
        rule = _au_rule(a, b, left, right, kinds, a_bholes, a_aholes, weights, edges)
        if rule is not None:
            out.append(rule)
    return out


@functools.lru_cache(maxsize=128)
def _context_pairs(kl_max: int, kr_max: int) -> tuple[tuple[int, int], ...]:
    """Every (left, right) context width up to the maxima, narrowest and most balanced first."""
    return tuple(
        sorted(
            ((kl, kr) for kl in range(kl_max + 1) for kr in range(kr_max + 1)),
            key=lambda lr: (lr[0] + lr[1], abs(lr[0] - lr[1])),
        )
    )


def _au_rule(
    a: EditExample,
    b: EditExample,
    kl: int,
    kr: int,
    kinds: list[str],
    a_bholes: dict[int, int],
    a_aholes: dict[int, int],
    weights: Sequence[float],
    edges: _LineEdges,
) -> Rule | None:
    """The rule of ``kl``/``kr`` context tokens; ``weights`` are ``a``'s
    before-token weights and ``edges`` its line-boundary facts (the same for
    every width)."""
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
    # _specificity(a.b_toks[lo:b_hi], holes), summed in the same order
    spec = sum(_HOLE_WEIGHT if i in b_holes else weights[i] for i in range(lo, b_hi))
    r = make_rule(before_t, after_t, kinds2, 2, spec, (b.edit, a.edit))
    r.info.update(_info(a, kl, kr, edges))
    _know_literal_specificity(r, _literal_sum(a, lo, b_hi, b_holes))
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


# how much of the change's stripped line its info keeps: enough for any comment prefix
_LINE_HEAD = 3


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
        "prose": reads_as_prose(line_b) or reads_as_prose(line_a),
        # whether that is a comment line depends on the language (:func:`nextedit.text.comments.comment_starts`)
        "line_head": stripped[:_LINE_HEAD],
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
        "atom_swap": _atom_swap(old, new),
    }
    ex.__dict__["_change_info"] = info  # frozen dataclass: a memo, not state
    return info


_ATOMS = frozenset((IDENT, STRING, NUMBER))
_OPENERS, _CLOSERS = "([{", ")]}"


def _atom_swap(old: Sequence[Tok], new: Sequence[Tok]) -> bool:
    """One side of the change is a single name or literal and the other one
    expression (brackets balanced, no ``,`` or ``;``): ``"GET"`` ->
    ``http.MethodGet``. Such a change keeps the shape of any list it sits in,
    so it may be repeated in another kind of list than the example's."""
    if not old or not new:
        return False
    atom, other = (old, new) if len(old) == 1 and old[0].kind in _ATOMS else (new, old)
    if len(atom) != 1 or atom[0].kind not in _ATOMS:
        return False
    depth = 0
    for tok in other:
        if tok.kind != PUNCT:
            continue
        if tok.text in (",", ";"):
            return False
        depth += sum(tok.text.count(c) for c in _OPENERS) - sum(tok.text.count(c) for c in _CLOSERS)
        if depth < 0:
            return False
    return depth == 0


class _LineEdges:
    """Whether the context of an example's rule reaches the start of its
    first line (for each first token) and the end of its last line (for each
    last token): asked once per token, however many context widths share it."""

    __slots__ = ("_ex", "_left", "_right")

    def __init__(self, ex: EditExample) -> None:
        self._ex = ex
        self._left: dict[int, bool] = {}
        self._right: dict[int, bool] = {}

    def full_left(self, lo: int) -> bool:
        """Only blanks stand between the line's start and token ``lo``."""
        found = self._left.get(lo)
        if found is None:
            toks, b = self._ex.b_toks, self._ex.before
            if lo < len(toks):
                ls = b.rfind("\n", 0, toks[lo].start) + 1
                found = b[ls : toks[lo].start].strip() == ""
            else:
                found = True
            self._left[lo] = found
        return found

    def full_right(self, hi: int) -> bool:
        """Only blanks stand between token ``hi - 1`` and the line's end."""
        found = self._right.get(hi)
        if found is None:
            toks, b = self._ex.b_toks, self._ex.before
            if hi > 0:
                le = b.find("\n", toks[hi - 1].end)
                le = len(b) if le < 0 else le
                found = b[toks[hi - 1].end : le].strip() == ""
            else:
                found = True
            self._right[hi] = found
        return found


def _info(ex: EditExample, kl: int, kr: int, edges: _LineEdges | None = None) -> dict:
    # does the context reach the line boundaries?
    lo = ex.p - kl
    hi = len(ex.b_toks) - ex.s + kr
    if edges is None:
        edges = _LineEdges(ex)
    full_left = edges.full_left(lo)
    full_right = edges.full_right(hi)
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


_KEYWORDS = frozenset(
    """self this def fn let mut pub return if else for in while not and or is None
    True False true false null nil const var func class struct impl use import from
    new int str bool usize u8 u32 i32 i64 u64 void static as""".split()
)


def literal_specificity(rule: Rule) -> float:
    """Weight of the literal identifiers/strings of the before template (holes
    excluded), up to :data:`~nextedit.suggest.model.SPECIFICITY_CAP`: no
    reader looks past it (the ranker caps it there, the synthesis compares
    with 1.5 and 4), so a long literal costs no more than a short one.
    Rules made from an example's tokens know it already
    (:func:`_know_literal_specificity`); the others count their template."""
    cached = rule.info.get("_literal_specificity")
    if cached is not None:
        return cached
    total = 0.0
    for part in rule.before:
        if isinstance(part, str):
            total += _literal_weight(part)
            if total >= SPECIFICITY_CAP:
                total = SPECIFICITY_CAP
                break
    rule.info["_literal_specificity"] = total
    return total


@functools.lru_cache(maxsize=4096)
def _literal_weight(part: str) -> float:
    """The weight of one literal piece of a template, up to
    ``SPECIFICITY_CAP``: the same pieces recur in the rules of every similar
    edit."""
    total = 0.0
    for m in REPEAT_TOKEN_RE.finditer(part):  # tokenize() without its Tok objects
        total += _literal_token_weight(m.lastgroup or PUNCT, m.group())
        if total >= SPECIFICITY_CAP:
            return SPECIFICITY_CAP
    return total


def _literal_token_weight(kind: str, text: str) -> float:
    """One fixed token's part of :func:`literal_specificity`: a keyword says less than another name."""
    return 0.5 if kind == IDENT and text in _KEYWORDS else _kind_weight(kind, len(text))


def _literal_prefix(ex: EditExample) -> list[float]:
    """Prefix sums of :func:`_literal_token_weight` over ``ex``'s before
    tokens. Memoised on the example."""
    cached = ex.__dict__.get("_literal_prefix")
    if cached is not None:
        return cached
    prefix = [0.0]
    for t in ex.b_toks:
        prefix.append(prefix[-1] + _literal_token_weight(t.kind, t.text))
    ex.__dict__["_literal_prefix"] = prefix  # frozen dataclass: a memo, not state
    return prefix


def _literal_sum(ex: EditExample, lo: int, hi: int, holes: dict[int, int]) -> float:
    """The fixed weight of ``ex``'s before tokens ``lo:hi``, holes aside."""
    prefix = _literal_prefix(ex)
    return prefix[hi] - prefix[lo] - sum(prefix[i + 1] - prefix[i] for i in holes)


def _know_literal_specificity(rule: Rule, total: float) -> None:
    """Set :func:`literal_specificity` of a rule made from example tokens,
    from their weights rather than by tokenizing its template again: a
    template's fixed pieces are the text between its tokens, so they hold
    the same tokens, and every weight is a multiple of 0.25 (any order of
    the sum is exact)."""
    rule.info["_literal_specificity"] = min(total, SPECIFICITY_CAP)


# A rule must carry some fixed text; everything else about it — one example
# or two, prose, a new literal, an insertion — is the ranker's to weigh
# (the facts in ``Rule.info`` become :class:`~nextedit.suggest.model.CandidateFeatures`).
MIN_LITERAL = 1.5


def acceptable(rule: Rule) -> bool:
    """Does the rule state a change specific enough to be weighed? An
    insertion or deletion needs an anchor (a context token on one side; a
    deletion of at least :data:`SELF_ANCHORED_DELETION` of fixed text is its
    own), and the before side some fixed identifier, string or punctuation
    text."""
    info = rule.info
    verdict = info.get("_acceptable")
    if verdict is None:  # position-free: a moved rule keeps it
        specificity = literal_specificity(rule)
        verdict = info["_acceptable"] = _acceptable(info, specificity) and specificity >= MIN_LITERAL
    return verdict


# the fixed text a deletion with no context token must remove to anchor itself
SELF_ANCHORED_DELETION = 6.0


def _acceptable(info: dict, specificity: float) -> bool:
    n_old, n_new = info.get("n_old", 0), info.get("n_new", 0)
    if (n_old == 0 or n_new == 0) and not (info.get("kl", 0) >= 1 or info.get("kr", 0) >= 1):
        # a deletion of enough fixed text is its own anchor (``  # type: ignore[…]``)
        return n_new == 0 and specificity >= SELF_ANCHORED_DELETION
    # a bare identifier swapped: a rename, whose binding the rename suggester knows
    return not (info.get("single_ident") and not info.get("line_rule") and info.get("kl", 0) + info.get("kr", 0) < 2)
