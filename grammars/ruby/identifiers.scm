; Identifier nodes a rename may touch (@identifier) and member contexts
; (@member: methods — one binding per name across the file). Ruby has an
; implicit receiver: unqualified names with no local definition (bare method
; calls, instance variables) join the member binding (handled by the engine).

(identifier) @identifier
(constant) @identifier
(instance_variable) @identifier
(class_variable) @identifier
(global_variable) @identifier

(call method: (identifier) @member)
(method name: (identifier) @member)
(singleton_method name: (identifier) @member)
(alias name: (identifier) @member)
(alias alias: (identifier) @member)
(pair key: (hash_key_symbol) @member)
