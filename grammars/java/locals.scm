; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a type's own name).

; --- scopes
(program) @local.scope
(class_declaration) @local.scope
(interface_declaration) @local.scope
(enum_declaration) @local.scope
(record_declaration) @local.scope
(annotation_type_declaration) @local.scope
(method_declaration) @local.scope
(constructor_declaration) @local.scope
(lambda_expression) @local.scope
(block) @local.scope
(for_statement) @local.scope
(enhanced_for_statement) @local.scope
(try_with_resources_statement) @local.scope
(catch_clause) @local.scope
(switch_block_statement_group) @local.scope
(switch_rule) @local.scope

; --- definitions
((class_declaration name: (identifier) @local.definition.type) (#set! scope "parent"))
((interface_declaration name: (identifier) @local.definition.type) (#set! scope "parent"))
((enum_declaration name: (identifier) @local.definition.type) (#set! scope "parent"))
((record_declaration name: (identifier) @local.definition.type) (#set! scope "parent"))
((annotation_type_declaration name: (identifier) @local.definition.type) (#set! scope "parent"))
(type_parameter (type_identifier) @local.definition.type)

(formal_parameter name: (identifier) @local.definition.parameter)
(spread_parameter (variable_declarator name: (identifier) @local.definition.parameter))
(catch_formal_parameter name: (identifier) @local.definition.parameter)
(inferred_parameters (identifier) @local.definition.parameter)
(lambda_expression parameters: (identifier) @local.definition.parameter)

(local_variable_declaration declarator: (variable_declarator name: (identifier) @local.definition.var))
(enhanced_for_statement name: (identifier) @local.definition.var)
(resource name: (identifier) @local.definition.var)
(instanceof_expression name: (identifier) @local.definition.var)

(import_declaration (scoped_identifier name: (identifier) @local.definition.import))

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(type_identifier) @local.reference
