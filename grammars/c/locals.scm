; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a function's own name).
; Parameters of prototypes (no body) are not definitions.

; --- scopes
(translation_unit) @local.scope
(function_definition) @local.scope
(compound_statement) @local.scope
(for_statement) @local.scope
(preproc_function_def) @local.scope

; --- definitions
; Patterns that share their outer node and settings are written as one
; pattern with alternatives: tree-sitter analyses each pattern against the
; grammar when the query compiles (a few ms a pattern rooted at
; `declaration` or `function_definition`; an alternation costs about one).
((function_definition declarator: [
    (function_declarator declarator: (identifier) @local.definition.function)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @local.definition.function))])
  (#set! scope "parent"))
(declaration declarator: [
  (function_declarator declarator: (identifier) @local.definition.function)
  (pointer_declarator declarator: (function_declarator declarator: (identifier) @local.definition.function))
  (pointer_declarator declarator: (identifier) @local.definition.var)
  (array_declarator declarator: (identifier) @local.definition.var)
  (pointer_declarator declarator: (pointer_declarator declarator: (identifier) @local.definition.var))])

(function_definition declarator: [
  (function_declarator parameters: (parameter_list (parameter_declaration declarator: [
    (identifier) @local.definition.parameter
    (pointer_declarator declarator: (identifier) @local.definition.parameter)
    (array_declarator declarator: (identifier) @local.definition.parameter)])))
  (pointer_declarator declarator: (function_declarator parameters: (parameter_list (parameter_declaration declarator: (identifier) @local.definition.parameter))))])

(declaration declarator: (identifier) @local.definition.var)
(init_declarator declarator: (identifier) @local.definition.var)
(init_declarator declarator: [
  (pointer_declarator declarator: (identifier) @local.definition.var)
  (array_declarator declarator: (identifier) @local.definition.var)])
(parenthesized_declarator (pointer_declarator declarator: (identifier) @local.definition.var))

(type_definition declarator: (type_identifier) @local.definition.type)
(type_definition declarator: (pointer_declarator declarator: (type_identifier) @local.definition.type))
(struct_specifier name: (type_identifier) @local.definition.type body: (_))
(union_specifier name: (type_identifier) @local.definition.type body: (_))
(enum_specifier name: (type_identifier) @local.definition.type body: (_))
(enumerator name: (identifier) @local.definition.constant)

((preproc_function_def name: (identifier) @local.definition.macro) (#set! scope "parent"))
(preproc_def name: (identifier) @local.definition.macro)
(preproc_params (identifier) @local.definition.parameter)

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(type_identifier) @local.reference
