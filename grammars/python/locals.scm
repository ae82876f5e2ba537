; Scopes, definitions and references (nvim-treesitter locals conventions).
; A definition whose pattern sets `scope "parent"` belongs to the scope that
; encloses the innermost scope containing it (a function's own name).
; Python scoping is per function/class/comprehension, not per block; every
; binding occurrence in a scope (assignment, for, with, import…) defines it.
; Parameter default values and annotations are evaluated in the enclosing
; scope (the engine knows; see scopes._HEADER_FIELDS).

; --- scopes
(module) @local.scope
(function_definition) @local.scope
(lambda) @local.scope
(class_definition) @local.scope
(list_comprehension) @local.scope
(set_comprehension) @local.scope
(dictionary_comprehension) @local.scope
(generator_expression) @local.scope

; --- definitions
((function_definition name: (identifier) @local.definition.function)
  (#set! scope "parent"))
((class_definition name: (identifier) @local.definition.type)
  (#set! scope "parent"))

(parameters (identifier) @local.definition.parameter)
(lambda_parameters (identifier) @local.definition.parameter)
(default_parameter name: (identifier) @local.definition.parameter)
(typed_parameter (identifier) @local.definition.parameter)
(typed_default_parameter name: (identifier) @local.definition.parameter)
(list_splat_pattern (identifier) @local.definition.parameter)
(dictionary_splat_pattern (identifier) @local.definition.parameter)

(assignment left: (identifier) @local.definition.var)
(assignment left: (pattern_list (identifier) @local.definition.var))
(assignment left: (tuple_pattern (identifier) @local.definition.var))
(assignment left: (list_pattern (identifier) @local.definition.var))
(augmented_assignment left: (identifier) @local.definition.var)
(named_expression name: (identifier) @local.definition.var)

(for_statement left: (identifier) @local.definition.var)
(for_statement left: (pattern_list (identifier) @local.definition.var))
(for_statement left: (tuple_pattern (identifier) @local.definition.var))
(for_in_clause left: (identifier) @local.definition.var)
(for_in_clause left: (pattern_list (identifier) @local.definition.var))
(for_in_clause left: (tuple_pattern (identifier) @local.definition.var))

(as_pattern_target (identifier) @local.definition.var)

; `global x` / `nonlocal x`: the declaring scope's definitions of x belong to
; the module scope / the nearest enclosing scope defining x
((global_statement (identifier) @local.definition.var) (#set! scope "global"))
((nonlocal_statement (identifier) @local.definition.var) (#set! scope "nonlocal"))

(import_statement name: (dotted_name . (identifier) @local.definition.import))
(aliased_import alias: (identifier) @local.definition.import)
(import_from_statement name: (dotted_name . (identifier) @local.definition.import))

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
