"""The prompt format of Zed's open next-edit model, Zeta (zeta1).

Written from zed-industries/zed: ``crates/zeta_prompt`` (its ``zeta1``
module: the markers, ``INSTRUCTION_HEADER``, ``EXCERPT_HEADER``,
``RESPONSE_HEADER``, ``format_zeta1_prompt``, ``format_zeta1_excerpt``,
``clean_zeta1_model_output``) and ``crates/edit_prediction``
(``zeta1.rs``: ``format_event``, ``excerpt_for_cursor_position``,
``parse_edits``; ``open_ai_compatible.rs``: the completion request with
``<|editable_region_end|>`` as its stop sequence). The prompt::

    ### Instruction:
    You are a code completion assistant and your task is to analyze user edits and then rewrite an
    excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into
    account the cursor location.

    ### User Edits:

    User edited src/app.py:
    ```diff
    @@ -3,4 +3,4 @@
    ...
    ```

    ### User Excerpt:

    ```src/app.py
    <|start_of_file|>                   (only when the context starts the file)
    …context…
    <|editable_region_start|>
    …region before the cursor…<|user_cursor_is_here|>…after…
    <|editable_region_end|>
    …context…
    ```

    ### Response:

The model answers with the excerpt rewritten and stops at
``<|editable_region_end|>``. Its rewrite of the region is the text after
``<|editable_region_start|>`` (and one line break), up to the end marker or
the end of the reply (one final line break dropped), cursor markers removed.
Stricter than Zed: a reply without the start marker, with two of a marker,
or cut off by the token limit is refused (:class:`ReplyError`) rather than
read as a region.

Must not know: HTTP, the wire, the engine.
"""

from __future__ import annotations

from nextedit.provider.excerpt import EditEvent, Excerpt
from nextedit.provider.prompt import Prompt, PromptInput, ReplyError

__all__ = [
    "CURSOR_MARKER",
    "EDITABLE_REGION_END_MARKER",
    "EDITABLE_REGION_START_MARKER",
    "START_OF_FILE_MARKER",
    "ZetaFormat",
]

CURSOR_MARKER = "<|user_cursor_is_here|>"
START_OF_FILE_MARKER = "<|start_of_file|>"
EDITABLE_REGION_START_MARKER = "<|editable_region_start|>"
EDITABLE_REGION_END_MARKER = "<|editable_region_end|>"

INSTRUCTION_HEADER = (
    "### Instruction:\n"
    "You are a code completion assistant and your task is to analyze user edits and then rewrite an "
    "excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking "
    "into account the cursor location.\n\n"
    "### User Edits:\n\n"
)
EXCERPT_HEADER = "\n\n### User Excerpt:\n\n"
RESPONSE_HEADER = "\n\n### Response:\n"


def format_event(event: EditEvent) -> str:
    """Zed's ``format_event``: ``User edited PATH:`` and the hunk in a ``diff`` fence."""
    return f"User edited {event.path}:\n```diff\n{event.hunk}\n```"


def format_excerpt(excerpt: Excerpt) -> str:
    """Zed's ``format_zeta1_excerpt``: the context, the marked region, the cursor."""
    text = excerpt.text
    parts = [f"```{excerpt.path}\n"]
    if excerpt.at_file_start:
        parts.append(f"{START_OF_FILE_MARKER}\n")
    parts.append(text[excerpt.context_start : excerpt.editable_start])
    parts.append(f"{EDITABLE_REGION_START_MARKER}\n")
    parts.append(text[excerpt.editable_start : excerpt.cursor])
    parts.append(CURSOR_MARKER)
    parts.append(text[excerpt.cursor : excerpt.editable_end])
    parts.append(f"\n{EDITABLE_REGION_END_MARKER}")
    parts.append(text[excerpt.editable_end : excerpt.context_end])
    parts.append("\n```")
    return "".join(parts)


class ZetaFormat:
    """Zeta's prompt (see the module docstring)."""

    name = "zeta"

    def build(self, prompt_input: PromptInput, region_tokens: int) -> Prompt:
        events = "\n\n".join(format_event(event) for event in prompt_input.events)
        text = INSTRUCTION_HEADER + events + EXCERPT_HEADER + format_excerpt(prompt_input.excerpt) + RESPONSE_HEADER
        # the answer repeats the context before the region, then rewrites the region
        context_before = prompt_input.excerpt.editable_start - prompt_input.excerpt.context_start
        max_tokens = 2 * region_tokens + context_before // 2 + 64
        return Prompt(text, (EDITABLE_REGION_END_MARKER,), max_tokens, prompt_input.excerpt)

    def parse(self, reply: str, prompt: Prompt) -> str:
        content = reply.replace(CURSOR_MARKER, "")
        starts = content.count(EDITABLE_REGION_START_MARKER)
        ends = content.count(EDITABLE_REGION_END_MARKER)
        if starts != 1:
            raise ReplyError(f"{starts} {EDITABLE_REGION_START_MARKER} markers in the reply (expected 1)")
        if ends > 1:
            raise ReplyError(f"{ends} {EDITABLE_REGION_END_MARKER} markers in the reply (expected at most 1)")
        start = content.index(EDITABLE_REGION_START_MARKER) + len(EDITABLE_REGION_START_MARKER)
        if content.startswith("\n", start):
            start += 1
        if ends:
            end = content.index(EDITABLE_REGION_END_MARKER)
            if end < start:
                raise ReplyError("the end marker comes before the start marker")
            if end > start and content[end - 1] == "\n":
                end -= 1
        else:
            end = len(content) - 1 if content.endswith("\n") else len(content)
        region = content[start : max(start, end)]
        if START_OF_FILE_MARKER in region:
            raise ReplyError(f"{START_OF_FILE_MARKER} inside the rewritten region")
        return region
