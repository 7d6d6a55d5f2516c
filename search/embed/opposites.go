package embed

import (
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// opposites are pairs of words that name opposite operations. Code keeps
// such pairs side by side (Encode beside Decode, Marshal beside Unmarshal),
// with the same package, types and vocabulary, so a bag of words ranks one as
// high as the other; the query's own verb is what tells them apart. Keep
// entries general: they apply to any code base, in any language.
const opposites = `
encode decode
encoder decoder
encrypt decrypt
marshal unmarshal
serialize deserialize
compress decompress
deflate inflate
zip unzip
pack unpack
wrap unwrap
escape unescape
quote unquote
read write
reader writer
get set
load save
load store
input output
open close
lock unlock
acquire release
start stop
begin end
first last
enable disable
add remove
insert delete
push pop
send receive
import export
upload download
min max
minimum maximum
lower upper
lowercase uppercase
prefix suffix
leading trailing
head tail
next previous
next prev
parse format
split join
increment decrement
subscribe unsubscribe
register unregister
connect disconnect
mount unmount
attach detach
grow shrink
ascending descending
commit rollback
undo redo
`

var (
	oppositesOnce sync.Once
	opposite      map[string][]string // stemmed word -> its opposites
)

func loadOpposites() {
	opposite = map[string][]string{}
	for _, line := range strings.Split(opposites, "\n") {
		f := strings.Fields(line)
		if len(f) != 2 {
			continue
		}
		a, b := tokenize.Terms(f[0]), tokenize.Terms(f[1])
		if len(a) != 1 || len(b) != 1 || a[0] == b[0] {
			continue // a word the tokenizer splits or stems together is no use
		}
		opposite[a[0]] = append(opposite[a[0]], b[0])
		opposite[b[0]] = append(opposite[b[0]], a[0])
	}
}

// Opposites returns the search terms naming the opposite operation of term
// (a stem, as package tokenize produces): "decod" for "encod".
func Opposites(term string) []string {
	oppositesOnce.Do(loadOpposites)
	return opposite[term]
}
