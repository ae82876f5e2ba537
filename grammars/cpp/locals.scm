; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a function's own name).
; Parameters of prototypes (no body) are not definitions.
; This file is C's locals.scm plus the C++ additions.

; --- scopes
(translation_unit) @local.scope
(function_definition) @local.scope
(compound_statement) @local.scope
(for_statement) @local.scope
(preproc_function_def) @local.scope

; --- definitions
; Patterns that share their outer node and settings are written as one
; pattern with alternatives: tree-sitter analyses each pattern against the
; grammar when the query compiles, and for C++ that costs ~5 ms a pattern
; rooted at `declaration` or `function_definition` (one alternation costs
; about one pattern).
; (constructors — identifier-named functions in a class body — are plain
; references to the class; methods are field_identifier members)
((translation_unit (function_definition declarator: [
    (function_declarator declarator: (identifier) @local.definition.function)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @local.definition.function))]))
  (#set! scope "parent"))
((declaration_list (function_definition declarator: (function_declarator declarator: (identifier) @local.definition.function)))
  (#set! scope "parent"))
((template_declaration (function_definition declarator: (function_declarator declarator: (identifier) @local.definition.function)))
  (#set! scope "parent"))
((function_definition declarator: (reference_declarator (function_declarator declarator: (identifier) @local.definition.function)))
  (#set! scope "parent"))
(declaration declarator: [
  (function_declarator declarator: (identifier) @local.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @local.definition.function))
  (pointer_declarator declarator: (identifier) @local.definition.var)
  (array_declarator declarator: (identifier) @local.definition.var)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition.var))])

(function_definition declarator: [
  (function_declarator parameters: (parameter_list [
    (parameter_declaration declarator: [
      (identifier) @local.definition.parameter
      (pointer_declarator declarator: (identifier) @local.definition.parameter)
      (array_declarator declarator: (identifier) @local.definition.parameter)
      (reference_declarator (identifier) @local.definition.parameter)])
    (optional_parameter_declaration declarator: (identifier) @local.definition.parameter)]))
  (pointer_declarator declarator: (function_declarator parameters: (parameter_list (parameter_declaration declarator: (identifier) @local.definition.parameter))))])

(declaration declarator: (identifier) @local.definition.var)
(init_declarator declarator: (identifier) @local.definition.var)
(init_declarator declarator: [
  (pointer_declarator declarator: (identifier) @local.definition.var)
  (array_declarator declarator: (identifier) @local.definition.var)
  (reference_declarator (identifier) @local.definition.var)])
(parenthesized_declarator (pointer_declarator declarator: (identifier) @local.definition.var))

(type_definition declarator: (type_identifier) @local.definition.type)
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @local.definition.type))
((struct_specifier name: (type_identifier) @local.definition.type body: (_)) (#set! scope "parent"))
(union_specifier name: (type_identifier) @local.definition.type body: (_))
(enum_specifier name: (type_identifier) @local.definition.type body: (_))
(enumerator name: (identifier) @local.definition.constant)

((preproc_function_def name: (identifier) @local.definition.macro) (#set! scope "parent"))
(preproc_def name: (identifier) @local.definition.macro)
(preproc_params (identifier) @local.definition.parameter)

; --- C++ scopes
(namespace_definition) @local.scope
(class_specifier) @local.scope
(struct_specifier) @local.scope
(lambda_expression) @local.scope
(template_declaration) @local.scope
(for_range_loop) @local.scope
(catch_clause) @local.scope
(if_statement) @local.scope

; --- C++ definitions
((namespace_definition name: (namespace_identifier) @local.definition.namespace) (#set! scope "parent"))
((class_specifier name: (type_identifier) @local.definition.type body: (_)) (#set! scope "parent"))
(alias_declaration name: (type_identifier) @local.definition.type)
(type_parameter_declaration (type_identifier) @local.definition.type)
(optional_type_parameter_declaration name: (type_identifier) @local.definition.type)
(lambda_declarator parameters: (parameter_list (parameter_declaration declarator: [
  (identifier) @local.definition.parameter
  (reference_declarator (identifier) @local.definition.parameter)])))
(for_range_loop declarator: (identifier) @local.definition.var)
(for_range_loop declarator: (reference_declarator (identifier) @local.definition.var))
(structured_binding_declarator (identifier) @local.definition.var)
(catch_clause parameters: (parameter_list (parameter_declaration declarator: (identifier) @local.definition.var)))
(using_declaration (qualified_identifier name: (identifier) @local.definition.import))

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(type_identifier) @local.reference
