module github.com/agentos-dev/agentos/bench/vectorstore

go 1.26.8

require github.com/agentos-dev/agentos v0.0.0

require (
	github.com/philippgille/chromem-go v0.7.0
	golang.org/x/text v0.41.0 // indirect
)

replace github.com/agentos-dev/agentos => ../..
