"""nextedit — a Next Edit Suggestions engine: offline, tree-sitter based, ACP NES and LSP."""

__version__ = "0.1.0"
__all__ = ["__version__"]
