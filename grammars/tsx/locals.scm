; inherits: typescript
; TSX is TypeScript with JSX: same scopes and definitions.
