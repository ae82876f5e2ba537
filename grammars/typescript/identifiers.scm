; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: one binding per name across the file).

(identifier) @identifier
(property_identifier) @identifier
(private_property_identifier) @identifier
(shorthand_property_identifier) @identifier
(shorthand_property_identifier_pattern) @identifier
(statement_identifier) @identifier
(type_identifier) @identifier

; obj.name, { name: v }, class fields and methods, interface members, enum members
(property_identifier) @member
(private_property_identifier) @member

; ns.Type names a type of another module or namespace (z.input, core.output)
(nested_type_identifier name: (type_identifier) @member)
