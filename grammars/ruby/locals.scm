; Scopes, definitions and references (nvim-treesitter locals conventions).
; `(#set! scope "parent")`: the definition belongs to the scope enclosing the
; innermost scope that contains it (a class or module's own name).
; Limitation: def/class/module are treated like blocks (Ruby makes them hard
; scopes that do not see outer locals).

; --- scopes
(program) @local.scope
(method) @local.scope
(singleton_method) @local.scope
(class) @local.scope
(singleton_class) @local.scope
(module) @local.scope
(block) @local.scope
(do_block) @local.scope
(lambda) @local.scope

; --- definitions
((class name: (constant) @local.definition.type) (#set! scope "parent"))
((module name: (constant) @local.definition.namespace) (#set! scope "parent"))
(assignment left: (constant) @local.definition.constant)

(method_parameters (identifier) @local.definition.parameter)
(lambda_parameters (identifier) @local.definition.parameter)
(block_parameters (identifier) @local.definition.parameter)
(destructured_parameter (identifier) @local.definition.parameter)
(optional_parameter name: (identifier) @local.definition.parameter)
(splat_parameter name: (identifier) @local.definition.parameter)
(hash_splat_parameter name: (identifier) @local.definition.parameter)
(block_parameter name: (identifier) @local.definition.parameter)
(keyword_parameter name: (identifier) @local.definition.parameter)

(assignment left: (identifier) @local.definition.var)
(left_assignment_list (identifier) @local.definition.var)
(operator_assignment left: (identifier) @local.definition.var)
(for pattern: (identifier) @local.definition.var)
(exception_variable (identifier) @local.definition.var)

; --- references: every other identifier (resolved by the engine)
(identifier) @local.reference
(constant) @local.reference
