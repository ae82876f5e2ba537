; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (an item's own name).
; `let` shadowing within one block is sequential (handled by the engine: a
; `let` binding is visible after its let_declaration).

; --- scopes
(source_file) @local.scope
(block) @local.scope
(function_item) @local.scope
(function_signature_item) @local.scope
(closure_expression) @local.scope
(for_expression) @local.scope
(while_expression) @local.scope
(if_expression) @local.scope
(match_arm) @local.scope
(impl_item) @local.scope
(trait_item) @local.scope
(struct_item) @local.scope
(enum_item) @local.scope
(type_item) @local.scope
(mod_item) @local.scope

; --- definitions
((function_item name: (identifier) @local.definition.function) (#set! scope "parent"))
((function_signature_item name: (identifier) @local.definition.function) (#set! scope "parent"))
((struct_item name: (type_identifier) @local.definition.type) (#set! scope "parent"))
((enum_item name: (type_identifier) @local.definition.type) (#set! scope "parent"))
((trait_item name: (type_identifier) @local.definition.type) (#set! scope "parent"))
((type_item name: (type_identifier) @local.definition.type) (#set! scope "parent"))
((mod_item name: (identifier) @local.definition.namespace) (#set! scope "parent"))
(union_item name: (type_identifier) @local.definition.type)
(const_item name: (identifier) @local.definition.constant)
(static_item name: (identifier) @local.definition.constant)
(macro_definition name: (identifier) @local.definition.macro)
(type_parameter name: (type_identifier) @local.definition.type)

(parameter pattern: (identifier) @local.definition.parameter)
(parameter pattern: (mut_pattern (identifier) @local.definition.parameter))
(parameter pattern: (reference_pattern (identifier) @local.definition.parameter))
(parameter pattern: (tuple_pattern (identifier) @local.definition.parameter))
(closure_parameters (identifier) @local.definition.parameter)

(let_declaration pattern: (identifier) @local.definition.var)
(let_declaration pattern: (mut_pattern (identifier) @local.definition.var))
(let_declaration pattern: (reference_pattern (identifier) @local.definition.var))
(let_declaration pattern: (ref_pattern (identifier) @local.definition.var))
(let_condition pattern: (identifier) @local.definition.var)
(for_expression pattern: (identifier) @local.definition.var)
(for_expression pattern: (mut_pattern (identifier) @local.definition.var))
(match_pattern (identifier) @local.definition.var)
(captured_pattern (identifier) @local.definition.var)
(tuple_pattern (identifier) @local.definition.var)
(tuple_pattern (mut_pattern (identifier) @local.definition.var))
(slice_pattern (identifier) @local.definition.var)
(tuple_struct_pattern type: (_) (identifier) @local.definition.var)
(tuple_struct_pattern type: (_) (mut_pattern (identifier) @local.definition.var))
(field_pattern pattern: (identifier) @local.definition.var)
(field_pattern name: (shorthand_field_identifier) @local.definition.var)
(field_pattern (mut_pattern (identifier) @local.definition.var))

(use_declaration argument: (identifier) @local.definition.import)
(use_declaration argument: (scoped_identifier name: (identifier) @local.definition.import))
(use_list (identifier) @local.definition.import)
(use_list (scoped_identifier name: (identifier) @local.definition.import))
(use_as_clause alias: (identifier) @local.definition.import)

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(type_identifier) @local.reference
