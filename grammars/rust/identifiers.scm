; Identifier nodes a rename may touch (@identifier), member contexts
; (@member: fields, methods, associated items — one binding per name across
; the file) and @plain, which vetoes @member (imports stay plain bindings).

(identifier) @identifier
(type_identifier) @identifier
(field_identifier) @identifier
(shorthand_field_identifier) @identifier

(field_identifier) @member

; methods and associated items
(impl_item body: (declaration_list (function_item name: (identifier) @member)))
(trait_item body: (declaration_list (function_item name: (identifier) @member)))
(trait_item body: (declaration_list (function_signature_item name: (identifier) @member)))
(impl_item body: (declaration_list (const_item name: (identifier) @member)))
(enum_variant name: (identifier) @member)
; Type::item, module::item (paths name things in another namespace)
(scoped_identifier path: (_) name: (identifier) @member)
(scoped_type_identifier path: (_) name: (type_identifier) @member)

; lifetimes and loop labels form their own namespace
(lifetime (identifier) @member)
(label (identifier) @member)

; `use a::b::C;` defines C locally
(use_declaration argument: (scoped_identifier name: (identifier) @plain))
(use_list (scoped_identifier name: (identifier) @plain))
(use_as_clause path: (scoped_identifier name: (identifier) @plain))

; inside a macro's token tree a path or a member access is only tokens:
; a name right after `::` or `.` is another item's, as in code
(token_tree "::" . (identifier) @member)
(token_tree "." . (identifier) @member)
