; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: fields, methods, enum constants — one binding per name). Java has
; an implicit receiver: unqualified names with no local definition join the
; member binding (handled by the engine).

(identifier) @identifier
(type_identifier) @identifier

(field_access field: (identifier) @member)
(method_invocation name: (identifier) @member)
(method_reference (identifier) @member)
(field_declaration declarator: (variable_declarator name: (identifier) @member))
(constant_declaration declarator: (variable_declarator name: (identifier) @member))
(method_declaration name: (identifier) @member)
(enum_constant name: (identifier) @member)
(element_value_pair key: (identifier) @member)
(annotation_type_element_declaration name: (identifier) @member)
