; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: fields and methods — one binding per name across the file).
; C++ has an implicit receiver: unqualified names with no local definition
; join the member binding (handled by the engine).

(identifier) @identifier
(type_identifier) @identifier
(field_identifier) @identifier
(namespace_identifier) @identifier
(statement_identifier) @identifier

; this->x, obj.m(), fields and methods declared in a class
(field_identifier) @member
; int A::m() {…} defined outside the class
(function_declarator declarator: (qualified_identifier name: (identifier) @member))
; labels form their own namespace
(statement_identifier) @member
