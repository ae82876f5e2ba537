; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a function's own name).

; --- scopes
(source_file) @local.scope
(function_declaration) @local.scope
(method_declaration) @local.scope
(func_literal) @local.scope
(block) @local.scope
(if_statement) @local.scope
(for_statement) @local.scope
(expression_switch_statement) @local.scope
(type_switch_statement) @local.scope
(select_statement) @local.scope
(expression_case) @local.scope
(type_case) @local.scope
(default_case) @local.scope
(communication_case) @local.scope
(type_declaration) @local.scope

; --- definitions
((function_declaration name: (identifier) @local.definition.function) (#set! scope "parent"))
((type_spec name: (type_identifier) @local.definition.type) (#set! scope "parent"))
((type_alias name: (type_identifier) @local.definition.type) (#set! scope "parent"))
(type_parameter_declaration name: (identifier) @local.definition.type)

(parameter_declaration name: (identifier) @local.definition.parameter)
(variadic_parameter_declaration name: (identifier) @local.definition.parameter)

(short_var_declaration left: (expression_list (identifier) @local.definition.var))
(var_spec name: (identifier) @local.definition.var)
(const_spec name: (identifier) @local.definition.constant)
(range_clause left: (expression_list (identifier) @local.definition.var))
(type_switch_statement alias: (expression_list (identifier) @local.definition.var))
(receive_statement left: (expression_list (identifier) @local.definition.var))
(import_spec name: (package_identifier) @local.definition.import)

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(type_identifier) @local.reference
