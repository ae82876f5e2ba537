; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: struct/union fields — one binding per name across the file).

(identifier) @identifier
(type_identifier) @identifier
(field_identifier) @identifier
(statement_identifier) @identifier

(field_identifier) @member
; labels form their own namespace
(statement_identifier) @member
