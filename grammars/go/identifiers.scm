; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: struct fields, methods, selectors — one binding per name).

(identifier) @identifier
(type_identifier) @identifier
(field_identifier) @identifier
(package_identifier) @identifier
(label_name) @identifier

; x.Field, x.Method(), struct fields, method declarations, interface methods
(field_identifier) @member
; P{Field: v}
(keyed_element key: (literal_element (identifier) @member))
; labels form their own namespace
(label_name) @member
; pkg.Type names a type of another package, never one of this file
(qualified_type name: (type_identifier) @member)
