package examplecheck_test

// The third-party packages the shipped standards' Go examples import. The
// checker lets an example import only what the module's go.mod and go.sum
// pin (checkOptions), and an import here is what keeps them pinned when no
// code of agentos's own uses them.
import _ "golang.org/x/crypto/argon2"
