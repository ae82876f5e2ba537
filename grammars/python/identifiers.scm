; Identifier nodes a rename may touch (@identifier), and the contexts where an
; identifier names a member (@member): attributes, methods, class attributes;
; and keyword-argument names (@keyword). Members form one binding per name across the file.
; Top-level `(type) @identifier` patterns also define is_identifier_node_type.

(identifier) @identifier

(attribute attribute: (identifier) @member)

; methods and class-level attributes
(class_definition
  body: (block (function_definition name: (identifier) @member)))
(class_definition
  body: (block (decorated_definition
    definition: (function_definition name: (identifier) @member))))
(class_definition
  body: (block (assignment left: (identifier) @member)))

; f(name=value): a name of the callee's parameter list, never the caller's
; variable; the engine binds it to the parameter when the callee is a function
; of the same file
(keyword_argument name: (identifier) @keyword)

; module path parts after the first: `import a.b`, `from a.b import c`
(dotted_name (identifier) (identifier) @member)
(import_from_statement module_name: (dotted_name . (identifier) @member))
(import_from_statement module_name: (relative_import (dotted_name . (identifier) @member)))
