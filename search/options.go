package search

import (
	"path"
	"runtime"
	"slices"
	"strings"

	"github.com/agentos-dev/agentos/search/chunk"
	"github.com/agentos-dev/agentos/search/embed"
)

// Domains of standards chunks.
const (
	DomainUniversal   = "universal"
	DomainDevelopment = "development"
	DomainWorkflow    = "workflow"
)

// DomainRule gives the files under a folder a domain.
type DomainRule struct {
	Prefix string // slash-separated folder, relative to Root
	Domain string
}

// Options configure an Index.
type Options struct {
	// Root is the project root; every path is relative to it.
	Root string
	// Paths are the folders (or files) to index, relative to Root.
	Paths []string
	// Languages to index: "go", "python", "typescript", "javascript",
	// "rust", "java", "markdown". Default: all but markdown.
	Languages []string
	// Gitignore honours .gitignore files and .git/info/exclude.
	Gitignore bool
	// Domains label files by folder, first match wins (standards).
	Domains []DomainRule
	// Embedder makes the vectors. Default: embed.NewHashing(0).
	Embedder embed.Embedder
	// Dir is the folder holding the index's snapshot; "" keeps it in memory
	// only.
	Dir string
	// Workers bounds parallel indexing. Default: GOMAXPROCS.
	Workers int
	// MaxFileSize in bytes. Default: 1 MiB.
	MaxFileSize int64
	// Markdown bounds markdown chunks.
	Markdown chunk.MarkdownOptions
	// Tuning sets ranking weights. Zero value: DefaultTuning.
	Tuning *Tuning
}

// StandardsOptions configures the standards index: every markdown file under
// the standards and workflows folders. Files under standards/development are
// in the development domain, under workflows in the workflow domain, the rest
// universal. Git ignore rules are not applied: the folders are curated.
func StandardsOptions(root, standardsDir, workflowsDir string) Options {
	s, w := path.Clean(standardsDir), path.Clean(workflowsDir)
	return Options{
		Root:      root,
		Paths:     []string{s, w},
		Languages: []string{"markdown"},
		Domains: []DomainRule{
			{Prefix: s + "/development", Domain: DomainDevelopment},
			{Prefix: w, Domain: DomainWorkflow},
			{Prefix: s, Domain: DomainUniversal},
		},
	}
}

// CodeOptions configures the code index: the given source folders and
// languages (all supported when empty), honouring git ignore rules.
func CodeOptions(root string, sourcePaths, languages []string) Options {
	return Options{Root: root, Paths: sourcePaths, Languages: languages, Gitignore: true}
}

// Tuning holds the ranking weights. The defaults were chosen on a development
// question set (bench/searcheval/testdata), not on the evaluation set.
type Tuning struct {
	// BM25F field weights and length normalisation, in field order: name,
	// summary (a doc comment's first sentence), doc, keywords (a markdown
	// section's; in code, the comments inside the body of a symbol without
	// a doc comment), signature, path, body, context (summaries of the
	// symbol's types and package).
	FieldWeight [numFields]float64
	FieldB      [numFields]float64
	// K1 is BM25's term frequency saturation.
	K1 float64
	// ExpandWeight is the weight of vocabulary expansions of query words in
	// the lexical leg of hybrid search (0: none). Plain lexical search never
	// expands.
	ExpandWeight float64
	// ExpandMaxDF drops expansions found in more than this share of chunks.
	ExpandMaxDF float64
	// Fusion: "rrf" (reciprocal rank fusion) or "weighted" (normalised
	// score sum).
	Fusion string
	// RRFK is the rank constant of reciprocal rank fusion.
	RRFK float64
	// LexicalShare is the lexical leg's share in fusion (0..1).
	LexicalShare float64
	// ScriptLexicalShare replaces LexicalShare for TypeScript and
	// JavaScript chunks: the built-in embedder reads their code less well
	// than Go's, and the lexical leg is the surer of the two there.
	ScriptLexicalShare float64
	// Candidates each leg contributes to fusion.
	Candidates int
	// Priors multiply a chunk's score.
	TestFactor       float64 // chunk from a test file
	ImportsFactor    float64 // only imports
	ModuleFactor     float64 // top-level statements or a window of lines
	PackageFactor    float64 // a package clause with the package's documentation
	UnexportedFactor float64 // a private symbol
	// NoDocFactor multiplies a function, method or type without a doc
	// comment: in documented code, the public ones are documented. Mild,
	// because in code that documents little it says little (0.85 → 0.92:
	// the sparse TypeScript tuning sets +0.036 and +0.043 MRR@10, the
	// others within one question's flip; docs/benchmarks.md).
	NoDocFactor    float64
	InternalFactor float64 // under an internal/ folder
	// ExampleFactor multiplies code beside the project's own, in examples/,
	// docs/, benchmarks/, scripts/, fixtures/ and the like (see
	// chunk.IsExampleFile), unless the query asks for examples: a real
	// checkout carries them, and their functions, which call the library
	// and repeat its words, otherwise crowd out the library's definitions.
	ExampleFactor float64
	// A type, and a constant or variable, when the query does not ask for
	// one by kind ("the struct …"): most questions ask what does something.
	TypeFactor  float64
	ValueFactor float64
	// MemberFactor multiplies, on top of ValueFactor, a field or property
	// of a class, interface or object type ("Options.timeout"), unless the
	// query asks for declarations: a member holds data, and the many short
	// ones of an options or result type otherwise crowd out the functions
	// that use them.
	MemberFactor    float64
	GeneratedFactor float64 // in a file generated by a tool
	// DeprecatedFactor multiplies a symbol marked deprecated (Go's
	// "Deprecated:" paragraph, @deprecated, @Deprecated, #[deprecated], a
	// Python docstring's own ".. deprecated::"; isDeprecated), unless the
	// query asks for one: its replacement is the better answer.
	DeprecatedFactor float64
	// SetterFactor multiplies a function or method whose body only stores
	// values in fields (isSetter): it names what the function that reads them
	// does, and ranked above it.
	SetterFactor float64
	// Graph signals multiply by 1 + boost·ln(1+count), for the symbol's
	// callers, the other packages calling it, and the packages importing
	// its package.
	FanInBoost     float64
	CallerPkgBoost float64
	ImporterBoost  float64
	// ScriptFanInBoost is FanInBoost for TypeScript and JavaScript: on the
	// five TypeScript tuning sets no weight of callers did better, summed,
	// than none (docs/benchmarks.md).
	ScriptFanInBoost float64
	// EmbedDocChars caps the doc comment in a symbol's embedding text;
	// EmbedBodyChars is how much of its body follows.
	EmbedDocChars  int
	EmbedBodyChars int
	// EmbedBodyCharsNoDoc is how much of its body follows instead for a
	// symbol without a doc comment, whose name and signature are otherwise
	// all its vector has to go on (code documented elsewhere, or not at
	// all: on the sparsely documented TypeScript tuning set, 0, 200, 500,
	// 1000 gave hybrid MRR@10 0.414, 0.441, 0.560, 0.551; more than 500
	// lowered query-core; docs/benchmarks.md).
	EmbedBodyCharsNoDoc int
	// QueryIDF weighs the words of a query by their rarity in the index
	// (inverse document frequency to this power) when the embedder supports
	// it; 0 turns it off.
	QueryIDF float64
	// DocIDF does the same for indexed chunks, when building.
	DocIDF float64
	// OppositeFactor multiplies the score of a symbol named for the opposite
	// of what the query asks (Decode when it asks to encode; see
	// embed.Opposites) in hybrid and vector search; 1 turns it off.
	OppositeFactor float64
	// CoverageWeight is how much the share of the query's words a chunk
	// matches lexically counts in hybrid search: its score is multiplied by
	// 1 - w + w·share (0: not at all).
	CoverageWeight float64
	// AbbrevWeight is the weight of the shortenings of query words
	// ("config" for "configuration") in the lexical leg of hybrid search
	// (0: none).
	AbbrevWeight float64
	// SiblingFactor multiplies, in hybrid search, the score of a symbol
	// whose name (a method's without its receiver) a better-ranked symbol
	// of the same folder already has, once for each: the same method on
	// several types is one answer, and the rest of the list should offer
	// others. 1 turns it off.
	SiblingFactor float64
	// ClassFactor replaces TypeFactor for a Python class: calling the
	// class is how its objects are made and its docstring says what they
	// do, so it answers "what does …" questions as a function does.
	ClassFactor float64
	// ConstructorFactor multiplies a TypeScript or JavaScript class's
	// constructor: it borrows its class's summary as context and so matches
	// the questions about what the class does, which the class answers.
	ConstructorFactor float64
	// Pseudo-relevance feedback in hybrid search: the query's vector moves
	// towards the FeedbackDocs best chunks of a first ranking (their mean,
	// each weighted by its share of their scores, counts FeedbackVector
	// against the query's own; 0: no feedback), and the candidates are
	// ranked again. Off by default: on the tuning sets it moved MRR@10 by
	// less than one question's rank either way (docs/benchmarks.md).
	FeedbackDocs   int
	FeedbackVector float64
}

// fanInBoost is the weight of a symbol's callers in its prior, by its
// language.
func (t *Tuning) fanInBoost(language string) float64 {
	if language == "typescript" || language == "javascript" {
		return t.ScriptFanInBoost
	}
	return t.FanInBoost
}

// DefaultTuning returns the default ranking weights.
func DefaultTuning() Tuning {
	return Tuning{
		FieldWeight:        [numFields]float64{3, 2, 1.5, 2, 1, 1, 0.4, 0.5},
		FieldB:             [numFields]float64{0.3, 0.3, 0.6, 0.3, 0.5, 0.3, 0.75, 0.5},
		K1:                 1.2,
		ExpandWeight:       0.35,
		ExpandMaxDF:        0.05,
		Fusion:             "weighted",
		RRFK:               60,
		LexicalShare:       0.5,
		ScriptLexicalShare: 0.65,
		Candidates:         200,
		TestFactor:         0.5,
		ImportsFactor:      0.3,
		ModuleFactor:       0.8,
		PackageFactor:      0.7,
		UnexportedFactor:   0.85,
		NoDocFactor:        0.92,
		InternalFactor:     0.7,
		ExampleFactor:      0.5,
		TypeFactor:         0.8,
		ValueFactor:        0.8,
		MemberFactor:       0.7,
		GeneratedFactor:    0.5,
		DeprecatedFactor:   0.7,
		SetterFactor:       0.7,
		FanInBoost:         0.07,
		ScriptFanInBoost:   0,
		CallerPkgBoost:     0.02,
		ImporterBoost:      0,
		EmbedDocChars:      600,
		EmbedBodyChars:     0,
		QueryIDF:           0.5,
		DocIDF:             0,
		OppositeFactor:     0.6,
		CoverageWeight:     0.4,
		AbbrevWeight:       0.5,
		SiblingFactor:      0.8,
		ClassFactor:        1,

		EmbedBodyCharsNoDoc: 500,
		ConstructorFactor:   0.8,
		FeedbackDocs:        8,
		FeedbackVector:      0,
	}
}

// Lexical fields.
const (
	fieldName = iota
	fieldSummary
	fieldDoc
	fieldKeywords
	fieldSignature
	fieldPath
	fieldBody
	fieldContext
	numFields
)

var fieldNames = [numFields]string{"name", "summary", "doc", "keywords", "signature", "path", "body", "context"}

// signalName is how a result names a lexical field it matched in: the
// keywords field of code holds the comments inside an undocumented symbol's
// body (lexicalFields).
func signalName(f int, language string) string {
	if f == fieldKeywords && language != "markdown" {
		return "comments"
	}
	return fieldNames[f]
}

func (o *Options) normalize() {
	if o.Embedder == nil {
		o.Embedder = embed.NewHashing(0)
	}
	if o.Workers <= 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
	if len(o.Languages) == 0 {
		for l := range chunk.Languages {
			if l != "markdown" {
				o.Languages = append(o.Languages, l)
			}
		}
	} else {
		o.Languages = slices.Clone(o.Languages)
	}
	slices.Sort(o.Languages)
	t := DefaultTuning()
	if o.Tuning != nil {
		t = *o.Tuning // a copy: SetTuning must not reach into the caller's value
	}
	o.Tuning = &t
	o.Paths = slices.Clone(o.Paths)
	for i, p := range o.Paths {
		o.Paths[i] = path.Clean(strings.ReplaceAll(p, "\\", "/"))
	}
	if len(o.Paths) == 0 {
		o.Paths = []string{"."}
	}
}

func (o *Options) extensions() []string {
	var out []string
	for _, l := range o.Languages {
		out = append(out, chunk.Languages[l]...)
	}
	return out
}

func (o *Options) domainOf(p string) string {
	for _, r := range o.Domains {
		if r.Prefix == "." || p == r.Prefix || strings.HasPrefix(p, r.Prefix+"/") {
			return r.Domain
		}
	}
	return ""
}
