"""Signature changes: a parameter added to or removed from a definition → the call sites.

Owns the ``signature`` suggester. Evidence is the newest developer edit
lying inside the parameter list of a function/method definition (any
grammar whose definition node has ``name`` and ``parameters`` fields and
whose calls have ``function``/``name`` and ``arguments`` fields: Python,
JavaScript/TypeScript, Rust, Go, Java, C…). The parameter list before the
edit is the current one with the edit reverted; parameters are counted at
the top-level commas (``self``/``&self``/``cls`` receivers left out).

When the number of parameters changed, the call sites of the function
(:func:`nextedit.syntax.scopes.binding_occurrences` of its name, calls
only) that still fit the *old* arity and not the new one "don't match yet".
The next one (after the cursor, else the first) is offered:

- a parameter removed at a known position and the call passes every
  argument positionally → an ``edit`` deleting that argument (derivable);
- a parameter added, the call passes every old argument positionally and a
  variable named like the new parameter stands in the function around the
  call → an ``edit`` passing that variable (the engine's jump planning
  puts a ``jump`` before it when the call is far);
- otherwise the value is the developer's to write: nothing, not even a
  ``jump`` — a jump promises an edit at its target.

Silence when: the newest edit is not in a parameter list; the count did not
change (a rename or an annotation: the rename suggester's business);
variadic parameters (``*args``, ``...rest``) make arity meaningless; every
call already fits; the body still names a parameter that was removed (the
definition is not finished).

Must not know about LSP/ACP or position encodings.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from tree_sitter import Language, Node

from nextedit.history import DeveloperEdit
from nextedit.suggest.model import Candidate, CandidateFeatures, SilenceReason, TextEditCp
from nextedit.suggest.suggester import Proposal, SuggestContext
from nextedit.text.lexical import NAME_RE, word_pattern

if TYPE_CHECKING:
    from nextedit.syntax.tree import SyntaxTree

__all__ = ["SignatureSuggester", "deletes_a_used_parameter", "split_parameters"]

_CALL_TYPES = frozenset(
    {"call", "call_expression", "method_invocation", "new_expression", "object_creation_expression"}
)
_MEMBER_TYPES = frozenset(
    {"attribute", "member_expression", "field_expression", "selector_expression", "scoped_identifier"}
)
_SELF = re.compile(r"^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?self|mut\s+self|self|cls|this)\b")
_VARIADIC = re.compile(r"^\s*(?:\*|\.\.\.|&rest\b)|\.\.\.\s*\w*\s*$|^\s*/\s*$")
# how many newest edits may carry the evidence (a signature changed, then the
# body tidied over a few edits before the calls are reached)
_LOOKBACK = 8


_LIFETIME = re.compile(r"'[A-Za-z_]\w*(?!['\w])")


def split_parameters(text: str) -> list[str] | None:
    """The top-level comma-separated pieces of a parameter list (outer brackets
    dropped); ``None`` when its brackets or quotes do not balance."""
    body = text.strip()
    if body[:1] in "([" and body[-1:] in ")]":
        body = body[1:-1]
    pieces: list[str] = []
    depth = 0
    current: list[str] = []
    quote: str | None = None
    for i, ch in enumerate(body):
        if quote:
            current.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch == "'" and _LIFETIME.match(body, i):
            pass  # a Rust lifetime, not a quote
        elif ch in "\"'`":
            quote = ch
        elif ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            pieces.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    if depth != 0 or quote is not None:
        return None
    pieces.append("".join(current).strip())
    return [p for p in pieces if p and not p.startswith("#") and not p.startswith("//")]


def _arity(pieces: list[str] | None) -> tuple[int, int] | None:
    """``(required, total)`` parameters, receivers left out; ``None`` when variadic
    or unparsable."""
    if pieces is None:
        return None
    required = total = 0
    for piece in pieces:
        if _SELF.match(piece):
            continue
        if _VARIADIC.search(piece):
            return None
        total += 1
        if (
            "=" not in piece.replace("==", "").replace("=>", "").replace(">=", "").replace("<=", "")
            and "?" not in piece.split(":")[0]
        ):
            required += 1
    return required, total


def _param_name(piece: str) -> str:
    match = NAME_RE.search(piece.lstrip("&*").replace("mut ", ""))
    return match.group() if match else piece


class SignatureSuggester:
    """After a parameter is added or removed, leads to the calls that don't match yet."""

    name = "signature"

    def propose(self, context: SuggestContext) -> Proposal:
        state = context.state
        if state.syntax is None or not context.edits:
            return SilenceReason.NO_EVIDENCE
        for edit in reversed(context.edits[-_LOOKBACK:]):
            if context.cancelled():
                return SilenceReason.CANCELLED
            result = self._for_edit(context, edit)
            if result is not None:
                return result
        return SilenceReason.NO_EVIDENCE

    def _for_edit(self, context: SuggestContext, edit: DeveloperEdit) -> Proposal | None:
        from nextedit.syntax import scopes

        state = context.state
        document = context.document
        text = document.text
        source = document.source_bytes
        start_b = document.byte_offset_at(edit.start_cp)
        end_b = document.byte_offset_at(edit.new_end_cp)
        # the last parse before the newest edits, offsets moved, tells cheaply
        # whether the edit can be in a parameter list at all (most edits are
        # not). Asked whether or not another reader re-parsed already, so the
        # answer does not depend on it. Only then is the list read — on the
        # same last parse when every edit since lies inside it, else on the
        # re-parsed tree (:func:`_syntax_for_calls`).
        stale = _parameter_list(scopes.enclosing_node(state.syntax, start_b, end_b, stale=True))
        if stale is None:
            return None
        syntax = _syntax_for_calls(state.syntax, stale, source)
        params = _parameter_list(scopes.enclosing_node(syntax, start_b, end_b))
        if params is None or not (params.start_byte <= start_b and end_b <= params.end_byte):
            return None
        definition = params.parent
        if definition is None:
            return None
        name_node = definition.child_by_field_name("name")
        if name_node is None:
            return None
        fname = source[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
        p_start = document.cp_offset_at_byte(params.start_byte)
        p_end = document.cp_offset_at_byte(params.end_byte)
        now_text = text[p_start:p_end]
        before_text = now_text[: edit.start_cp - p_start] + edit.old_text + now_text[edit.new_end_cp - p_start :]
        before_pieces, now_pieces = split_parameters(before_text), split_parameters(now_text)
        before, now = _arity(before_pieces), _arity(now_pieces)
        if before is None or now is None or before[1] == now[1]:
            return None
        assert before_pieces is not None and now_pieces is not None
        owner = _owner_name(definition, source)
        # asked only for the calls whose callee leaves it open (``obj.f(…)``, a
        # method called bare), and scanned at most once: a plain function
        # called by name never pays a pass over the whole file
        unique = functools.cache(lambda: _one_definition_named(source, fname))

        comments = _comment_kinds(syntax.tree.language)

        def read(ident: Node, parent: Node | None) -> tuple[int, int]:
            """(number of arguments, where the argument list starts) of the
            call ``ident`` names; (-1, -1) when it names no call of the function."""
            site = _call_site(ident, parent, source, owner, unique)
            return (-1, -1) if site is None else (len(_arguments(site[1], comments)), site[1].start_byte)

        # each occurrence's call read while the resolver holds its node (no
        # second look-up from the root per site): ints only, by start byte
        calls: dict[int, tuple[int, int]] = {}

        def note(start: int, ident: Node, parent: Node | None) -> None:
            calls[start] = read(ident, parent)

        ranges = scopes.binding_occurrences(syntax, source, name_node.start_byte, note) or []
        root = syntax.root
        cursor_b = document.byte_offset_at(context.cursor_cp)
        # the calls that fit the old arity and not the new one: how many (the
        # ranker reads it: every one is counted), the first and the first
        # from the cursor on, by start byte
        pending = 0
        first: tuple[int, int] | None = None
        first_after_cursor: tuple[int, int] | None = None
        for s, e in ranges:
            if s == name_node.start_byte:
                continue
            got = calls.get(s)
            if got is None:  # classified before this request: looked up here
                ident = root.named_descendant_for_byte_range(s, e)
                got = read(ident, ident.parent) if ident is not None else (-1, -1)
            n, opened = got
            if n >= 0 and before[0] <= n <= before[1] and not now[0] <= n <= now[1]:
                pending += 1
                if first is None:
                    first = (s, e)
                if first_after_cursor is None and opened >= cursor_b:
                    first_after_cursor = (s, e)
        if first is None:
            return SilenceReason.NO_CANDIDATES

        ident = root.named_descendant_for_byte_range(*(first_after_cursor or first))
        found = _call_site(ident, ident.parent, source, owner, unique) if ident is not None else None
        if found is None:
            return SilenceReason.NO_CANDIDATES
        call, args = found
        arg_nodes = _arguments(args, comments)
        line = document.line_of(edit.start_cp) + 1
        call_cp = document.cp_offset_at_byte(args.start_byte)
        call_line = document.line_of(call_cp) + 1
        change = "removed" if now[1] < before[1] else "added"
        evidence = (
            f"edit #{edit.seq} at line {line}: parameters of `{fname}` {before_text.strip()} → {now_text.strip()}",
            f"parameter {change}: the call at line {call_line} still passes {len(arg_nodes)} argument(s)",
            f"{pending} call(s) not updated yet",
        )
        fingerprint = f"signature:{context.uri}:{fname}:{before_text.strip()!r}->{now_text.strip()!r}"

        removed = _removed_index(before_pieces, now_pieces)
        positional = _positional(arg_nodes)
        if change == "removed" and removed is not None and _still_used(definition, source, before_pieces, removed):
            return SilenceReason.NO_CANDIDATES  # the body still reads it: the removal is not finished
        if change == "removed" and removed is not None and positional and len(arg_nodes) == before[1]:
            i = removed
            if i + 1 < len(arg_nodes):
                s_cp = document.cp_offset_at_byte(arg_nodes[i].start_byte)
                e_cp = document.cp_offset_at_byte(arg_nodes[i + 1].start_byte)
            elif i > 0:
                s_cp = document.cp_offset_at_byte(arg_nodes[i - 1].end_byte)
                e_cp = document.cp_offset_at_byte(arg_nodes[i].end_byte)
            else:
                s_cp = document.cp_offset_at_byte(arg_nodes[i].start_byte)
                e_cp = document.cp_offset_at_byte(arg_nodes[i].end_byte)
            return [
                Candidate(
                    kind="edit",
                    uri=context.uri,
                    edits=(TextEditCp(s_cp, e_cp, ""),),
                    score=0.8,
                    suggester=self.name,
                    evidence=evidence + (f"argument {i + 1} dropped like parameter `{_param_name(before_pieces[i])}`",),
                    fingerprint=f"{fingerprint}:{call_line}",
                    cursor_cp=s_cp,
                    example_seq=edit.seq,
                    features=CandidateFeatures(family="removed-argument", shape="delete", sites=pending),
                )
            ]
        if change == "added":
            return self._added_argument(
                context,
                edit,
                definition,
                before,
                (before_pieces, now_pieces),
                (call, args, arg_nodes),
                pending,
                evidence,
                fingerprint,
            )
        return SilenceReason.NO_CANDIDATES

    def _added_argument(
        self,
        context: SuggestContext,
        edit: DeveloperEdit,
        definition: Node,
        before: tuple[int, int],
        pieces: tuple[list[str], list[str]],
        target: tuple[Node, Node, list[Node]],
        pending: int,
        evidence: tuple[str, ...],
        fingerprint: str,
    ) -> Proposal:
        """The next call, when it passes every old parameter positionally and
        sees a variable named like the new parameter: that variable goes in
        as the new argument. A call where the value is the developer's to
        write gets nothing — not even a jump: a jump promises an edit at its
        target (DESIGN.md "Jump"). ``target``: the call, its argument list and
        arguments; ``pending``: how many calls still fit the old arity."""
        call, args, arg_nodes = target
        added = _added_index(*pieces)
        if added is None or len(arg_nodes) != before[1] or not _positional(arg_nodes):
            return SilenceReason.NO_CANDIDATES
        index, name = added
        document = context.document
        source = document.source_bytes
        if not _visible_at(name, call, args, definition, source):
            return SilenceReason.NO_CANDIDATES
        if arg_nodes and index < len(arg_nodes):
            at, text = arg_nodes[index].start_byte, f"{name}, "
        elif arg_nodes:
            at, text = arg_nodes[-1].end_byte, f", {name}"
        elif source[args.start_byte : args.start_byte + 1] == b"(":
            at, text = args.start_byte + 1, name
        else:
            return SilenceReason.NO_CANDIDATES
        at_cp = document.cp_offset_at_byte(at)
        call_line = document.line_of(at_cp) + 1
        return [
            Candidate(
                kind="edit",
                uri=context.uri,
                edits=(TextEditCp(at_cp, at_cp, text),),
                score=0.7,
                suggester=self.name,
                evidence=evidence
                + (
                    f"`{name}` passed as argument {index + 1} at line {call_line}: a variable of that name is in scope",
                ),
                fingerprint=f"{fingerprint}:{call_line}:+{name}",
                cursor_cp=at_cp + len(text),
                example_seq=edit.seq,
                features=CandidateFeatures(family="added-argument", shape="insert", sites=pending),
            )
        ]


def deletes_a_used_parameter(context: SuggestContext, start_cp: int, end_cp: int, new_text: str) -> bool:
    """Whether replacing ``[start_cp, end_cp)`` by ``new_text`` deletes a
    parameter of a function definition whose body still names it: the same
    deletion the developer made elsewhere does not apply there (they kept
    the parameter because the function uses it). Read on the syntax tree as
    of its last parse, offsets moved (exact away from the developer's
    edits, where such a site is)."""
    syntax = context.state.syntax
    if syntax is None or new_text.strip(" \t\r\n,") or end_cp <= start_cp:
        return False
    from nextedit.syntax import scopes

    document = context.document
    start_b, end_b = document.byte_offset_at(start_cp), document.byte_offset_at(end_cp)
    params = _parameter_list(scopes.enclosing_node(syntax, start_b, end_b, stale=True))
    if params is None or params.parent is None:
        return False
    body = params.parent.child_by_field_name("body")
    if body is None:
        return False
    source = document.source_bytes
    for param in params.named_children:
        if not (start_b <= param.start_byte and param.end_byte <= end_b):
            continue
        name = _declared_name(param)
        if name is None:
            continue
        if (
            word_pattern(source[name.start_byte : name.end_byte]).search(source, body.start_byte, body.end_byte)
            is not None
        ):
            return True
    return False


def _declared_name(node: Node) -> Node | None:
    """The identifier a parameter declares (``x``, ``x: int``, ``int x``,
    ``x int``, ``mut x: T``, ``*x``): its name, pattern or declarator field,
    else its first named child, down to an identifier."""
    for _ in range(6):
        if node.type.endswith("identifier") or node.type == "self":
            return node if node.type != "self" else None
        child = (
            node.child_by_field_name("name")
            or node.child_by_field_name("pattern")
            or node.child_by_field_name("declarator")
            or (node.named_children[0] if node.named_children else None)
        )
        if child is None:
            return None
        node = child
    return None


def _parameter_list(node: Node | None) -> Node | None:
    """The parameter list (the ``parameters`` field of a definition) at or above ``node``."""
    while node is not None:
        parent = node.parent
        if parent is not None:
            candidate = parent.child_by_field_name("parameters")
            if (
                candidate is not None
                and candidate.start_byte == node.start_byte
                and candidate.end_byte == node.end_byte
            ):
                return node
        node = parent
    return None


def _syntax_for_calls(syntax: SyntaxTree, stale_params: Node, source: bytes) -> SyntaxTree:
    """The tree to read the definition's calls on: the last parse, offsets
    moved (no re-parse), when every edit since lies inside the parameter
    list ``stale_params`` (read on that tree), its brackets kept, and neither
    the list before nor after names the function — the calls, all outside
    the list, then read the same on it as on a fresh parse; else ``syntax``.
    The parameter list itself is read as text."""
    view = syntax.exact_outside(stale_params.start_byte + 1, stale_params.end_byte - 1)
    definition = stale_params.parent
    name = definition.child_by_field_name("name") if definition is not None else None
    parsed = syntax.parsed()
    if view is syntax or name is None or parsed is None:
        return syntax
    old = parsed[1]
    word = word_pattern(source[name.start_byte : name.end_byte])
    old_end = stale_params.end_byte - (len(source) - len(old))
    if word.search(source, stale_params.start_byte, stale_params.end_byte) or word.search(
        old, stale_params.start_byte, old_end
    ):
        return syntax  # a parameter named like the function: its calls in the body may change binding
    return view


def _still_used(definition: Node, source: bytes, before: list[str], removed: int) -> bool:
    """Whether the function's body still names the parameter that was removed."""
    names = [_param_name(p) for p in before if not _SELF.match(p)]
    if not 0 <= removed < len(names):
        return False
    body = definition.child_by_field_name("body")
    if body is None:
        return False
    return word_pattern(names[removed].encode()).search(source, body.start_byte, body.end_byte) is not None


def _call_site(
    ident: Node, parent: Node | None, source: bytes, owner: bytes | None, unique: Callable[[], bool]
) -> tuple[Node, Node] | None:
    """``(call, argument list)`` when ``ident`` (whose parent is ``parent``:
    a walk down from the root, asked once per site) is the callee of a call
    of the changed function, else ``None``."""
    if parent is None:
        return None
    call = _call_of(ident, parent)
    if call is None or not _same_callee(call, ident, parent, source, owner, unique):
        return None
    args = call.child_by_field_name("arguments")
    return None if args is None else (call, args)


def _call_of(ident: Node, parent: Node) -> Node | None:
    """The call node whose callee is ``ident`` (``f(…)``, ``obj.f(…)``,
    ``T::f(…)``); ``parent`` is ``ident``'s."""
    kind = parent.type
    if kind in _CALL_TYPES:
        for field in ("function", "name", "constructor", "type"):
            callee = parent.child_by_field_name(field)
            if callee is not None and callee.id == ident.id:
                return parent
        return None
    if kind not in _MEMBER_TYPES:
        return None
    call = parent.parent
    if call is not None and call.type in _CALL_TYPES:
        callee = call.child_by_field_name("function")
        if callee is not None and callee.id == parent.id:
            # the member part, not the receiver
            first = parent.named_child(0) if parent.named_child_count else None
            if first is None or first.id != ident.id:
                return call
    return None


_OWNERS = frozenset(
    {
        "impl_item",
        "trait_item",
        "class_definition",
        "class_declaration",
        "class_specifier",
        "struct_specifier",
        "interface_declaration",
        "class_body",
        "class",
    }
)


def _owner_name(definition: Node, source: bytes) -> bytes | None:
    """The type a method is defined in (``impl Foo``, ``class Foo``), else ``None``."""
    anc = definition.parent
    while anc is not None:
        if anc.type in _OWNERS:
            if anc.type == "class_body" and anc.parent is not None:
                anc = anc.parent
            node = anc.child_by_field_name("type") or anc.child_by_field_name("name")
            if node is None:
                return None
            return source[node.start_byte : node.end_byte].split(b"<")[0].strip()
        if anc.child_by_field_name("parameters") is not None:
            return None  # a nested function
        anc = anc.parent
    return None


def _one_definition_named(source: bytes, name: str) -> bool:
    """Whether at most one function definition in the file is named ``name``
    (a text scan: ``fn``/``def``/``func``/``function`` then the name)."""
    pattern = re.compile(rb"\b(?:fn|def|func|function)\s+" + re.escape(name.encode()) + rb"\b")
    return len(pattern.findall(source)) <= 1


def _same_callee(
    call: Node, ident: Node, parent: Node, source: bytes, owner: bytes | None, unique: Callable[[], bool]
) -> bool:
    """Whether ``call`` calls the changed function (not a same-named one of
    another type); ``parent`` is ``ident``'s."""
    if parent.id == call.id:
        return owner is None or unique()
    if parent.type == "scoped_identifier":
        path = parent.child_by_field_name("path")
        text = source[path.start_byte : path.end_byte].split(b"<")[0] if path is not None else b""
        last = re.split(rb"::", text)[-1].strip()
        return owner is not None and last in (owner, b"Self")
    # obj.f(…): the receiver's type is unknown; only when the name is unambiguous
    return unique()


@functools.cache
def _comment_kinds(language: Language) -> frozenset[int]:
    """The node kinds (``kind_id``) of ``language`` whose type names a comment:
    an argument list's comments are not arguments. Ids, not type names: a
    node's ``type`` is a new string at every read."""
    return frozenset(i for i in range(language.node_kind_count) if "comment" in (language.node_kind_for_id(i) or ""))


def _arguments(args: Node, comments: frozenset[int]) -> list[Node]:
    """The arguments of an argument list: its named children but comments."""
    return [c for c in args.named_children if c.kind_id not in comments]


def _positional(arg_nodes: list[Node]) -> bool:
    """Whether a call passes every argument by position."""
    return all(
        c.type not in ("keyword_argument", "named_argument", "dictionary_splat", "list_splat") for c in arg_nodes
    )


def _added_index(before: list[str], now: list[str]) -> tuple[int, str] | None:
    """``(index, name)`` (receivers left out) of the one parameter added, by name."""
    found = _one_changed(before, now, "insert")
    if found is None or not NAME_RE.fullmatch(found[1]):
        return None
    return found


def _visible_at(name: str, call: Node, args: Node, definition: Node, source: bytes) -> bool:
    """Whether a variable ``name`` reads as in scope at ``call``: the name
    stands in the code of the function around the call (its parameters,
    its body), outside this call's own arguments — and outside the changed
    definition, unless the call is inside it."""
    scope = call.parent
    while scope is not None and scope.child_by_field_name("parameters") is None:
        scope = scope.parent
    lo, hi = (scope.start_byte, scope.end_byte) if scope is not None else (0, len(source))
    inside = definition.start_byte <= call.start_byte and call.end_byte <= definition.end_byte
    skip = [(args.start_byte, args.end_byte)]
    if not inside:
        skip.append((definition.start_byte, definition.end_byte))
    for match in word_pattern(name.encode()).finditer(source, lo, hi):
        if not any(s <= match.start() < e for s, e in skip):
            return True
    return False


def _removed_index(before: list[str], now: list[str]) -> int | None:
    """Index (receivers left out) of the one parameter removed, by name."""
    found = _one_changed(before, now, "delete")
    return found[0] if found is not None else None


def _one_changed(before: list[str], now: list[str], op: str) -> tuple[int, str] | None:
    """The one parameter name that ``op`` ("insert" or "delete") changed
    between the two lists (receivers left out), with its index in the list
    that holds it."""
    b = [_param_name(p) for p in before if not _SELF.match(p)]
    a = [_param_name(p) for p in now if not _SELF.match(p)]
    if len(a) - len(b) != (1 if op == "insert" else -1):
        return None
    found = [
        index
        for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, b, a, autojunk=False).get_opcodes()
        if tag == op
        for index in (range(j1, j2) if op == "insert" else range(i1, i2))
    ]
    if len(found) != 1:
        return None
    return found[0], (a if op == "insert" else b)[found[0]]
