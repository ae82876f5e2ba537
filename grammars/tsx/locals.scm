; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a declared function's own name).
; `(#set! scope "function")`: hoisted to the nearest function scope (`var`).
; Destructuring nested deeper than written here is handled by the engine
; (scopes._DESTRUCTURING).

; --- scopes
(program) @local.scope
(statement_block) @local.scope
(function_declaration) @local.scope
(generator_function_declaration) @local.scope
(function_expression) @local.scope
(generator_function) @local.scope
(arrow_function) @local.scope
(method_definition) @local.scope
(for_statement) @local.scope
(for_in_statement) @local.scope
(catch_clause) @local.scope
(class_body) @local.scope
(class_declaration) @local.scope
(abstract_class_declaration) @local.scope
(interface_declaration) @local.scope
(type_alias_declaration) @local.scope
(method_signature) @local.scope
(abstract_method_signature) @local.scope
(function_signature) @local.scope
(call_signature) @local.scope
(construct_signature) @local.scope
(function_type) @local.scope

; --- definitions
((function_declaration name: (identifier) @local.definition.function)
  (#set! scope "parent"))
((generator_function_declaration name: (identifier) @local.definition.function)
  (#set! scope "parent"))
; a function expression's name is visible only inside it
(function_expression name: (identifier) @local.definition.function)
((class_declaration name: (_) @local.definition.type) (#set! scope "parent"))
((abstract_class_declaration name: (_) @local.definition.type) (#set! scope "parent"))
((interface_declaration name: (_) @local.definition.type) (#set! scope "parent"))
((type_alias_declaration name: (_) @local.definition.type) (#set! scope "parent"))
(enum_declaration name: (identifier) @local.definition.type)
(internal_module name: (identifier) @local.definition.namespace)
(type_parameter name: (type_identifier) @local.definition.type)

(variable_declarator name: (identifier) @local.definition.var)
((variable_declaration (variable_declarator name: (identifier) @local.definition.var))
  (#set! scope "function"))
((for_in_statement kind: "var" left: (identifier) @local.definition.var)
  (#set! scope "function"))
(variable_declarator name: (object_pattern (shorthand_property_identifier_pattern) @local.definition.var))
(variable_declarator name: (object_pattern (pair_pattern value: (identifier) @local.definition.var)))
(variable_declarator name: (object_pattern (rest_pattern (identifier) @local.definition.var)))
(variable_declarator name: (object_pattern (object_assignment_pattern left: (shorthand_property_identifier_pattern) @local.definition.var)))
(variable_declarator name: (array_pattern (identifier) @local.definition.var))
(variable_declarator name: (array_pattern (rest_pattern (identifier) @local.definition.var)))
(variable_declarator name: (array_pattern (assignment_pattern left: (identifier) @local.definition.var)))

(required_parameter pattern: (identifier) @local.definition.parameter)
(optional_parameter pattern: (identifier) @local.definition.parameter)
(required_parameter pattern: (rest_pattern (identifier) @local.definition.parameter))
(required_parameter pattern: (object_pattern (shorthand_property_identifier_pattern) @local.definition.parameter))
(required_parameter pattern: (array_pattern (identifier) @local.definition.parameter))
(arrow_function parameter: (identifier) @local.definition.parameter)
(catch_clause parameter: (identifier) @local.definition.parameter)
(for_in_statement left: (identifier) @local.definition.var)

(import_clause (identifier) @local.definition.import)
(namespace_import (identifier) @local.definition.import)
(import_specifier alias: (identifier) @local.definition.import)
(import_specifier name: (identifier) @local.definition.import !alias)

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(shorthand_property_identifier) @local.reference
