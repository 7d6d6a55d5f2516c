package embed

import (
	"strings"
	"sync"

	"github.com/agentos-dev/agentos/search/tokenize"
)

// vocabulary is general programming vocabulary: one concept per line, a label
// then the words, abbreviations and closely related terms that stand for it.
// A word may appear in several concepts. Words are matched after stemming, so
// one form of each is enough. Keep entries general: they apply to any code
// base, in any language.
const vocabulary = `
absolutevalue: abs absolute magnitude modulus
average: average avg mean median
bitcount: popcount ones bitcount hamming
exponent: exponent exp pow power exponential raise
logarithm: logarithm log ln log2 log10
modulo: modulo mod modulus remainder rem
multiple: multiple multi many several
random: pseudorandom random rand
sqrt: sqrt square root
trigonometry: sin cos tan sine cosine tangent atan asin acos
varint: varint uvarint leb128 vlq
boundary: boundary edge limit border
canonical: canonical standard normalized normal
capacity: grow capacity reserve expand
closure: closure lambda anonymous func
collection: collection container set bag list
cycle: cycle loop circular ring
deadline: deadline cutoff expiry
duplicate: duplicate dup copy clone tee
endian: endian endianness byteorder bigendian littleendian
equality: equal equality deepequal compare identical
exit: exit quit terminate abort die fatal
fraction: fraction ratio rational quotient
interval: interval range span halfopen
leading: leading prefix front head
mutable: mutable modifiable writable
nearest: nearest closest round
negate: negate negative minus invert not
nonce: nonce iv salt
parity: parity even odd
permutation: permutation permute shuffle perm order
precision: precision accuracy digits decimal float
prime: prime primality
reverse: reverse reversed backwards invert flip
rune: rune codepoint character unicode
scientific: scientific exponent notation
signed: signed unsigned sign
stable: stable stability preserve
trailing: trailing suffix end tail
abort: abort cancel interrupt kill terminate halt
absolute: absolute abs
access: access permission permissions privilege rights acl
accumulate: accumulate sum total aggregate reduce fold tally
acquire: acquire lock obtain grab
add: add append insert push put plus
address: address addr endpoint host location
alias: alias symlink link shortcut
allocate: allocate alloc malloc reserve grow
alphabet: letter letters alphabetic alpha character
argument: argument arguments arg args param params parameter parameters option options flag flags
array: array slice list vector sequence
ascii: ascii character byte text
assert: assert check verify validate ensure expect
asynchronous: asynchronous async await promise future concurrent background
attribute: attribute attr attrs property properties field
authenticate: authenticate authentication auth login credential credentials password token identity
authorize: authorize authorization permission grant allow policy
backoff: backoff retry delay wait jitter
base64: base64 encode encoding radix64
begin: begin start open init commence
binary: binary bin bytes raw octets
bit: bit bits bitmask mask flag
block: block wait stall sleep hang
boolean: boolean bool truth flag
bound: bound limit max maximum cap capacity ceiling
broadcast: broadcast notify signal wake publish
buffer: buffer buf cache queue staging
build: build construct compile assemble make generate
byte: byte bytes octet octets
cache: cache memo memoize memoization lru store
calculate: calculate calc compute evaluate eval derive
callback: callback handler hook listener observer func fn
cancel: cancel cancellation abort stop revoke context deadline
capacity: capacity cap size limit room
case: uppercase lowercase upper lower capitalize capital title fold
certificate: certificate cert certs x509 tls ssl chain
channel: channel chan pipe queue stream
character: character char chars rune runes letter glyph symbol
check: check validate verify test inspect ensure
checksum: checksum crc crc32 adler hash digest sum fingerprint
child: child children subprocess subtree descendant
chunk: chunk block piece segment part fragment batch
cipher: cipher encrypt decrypt aes des crypto cryptography cryptographic
class: class type struct object record
clean: clean cleanup purge tidy sanitize normalize
clear: clear reset empty wipe erase
client: client cli caller consumer requester
clock: clock time timer tick ticker timestamp
clone: clone copy duplicate dup replicate
close: close shutdown stop teardown dispose release finalize terminate
cluster: cluster node peer replica shard
code: code source program
collect: collect gather accumulate harvest aggregate
color: color colour rgb rgba palette hue
column: column col field cell
command: command cmd exec execute run program shell invoke
comment: comment annotation remark note doc
compare: compare comparison cmp compareto equal eq less greater diff order
compile: compile compiler build translate transpile
complete: complete finish done finalize end
compose: compose composition pipe pipeline chain
compress: compress compression compressed deflate shrink
compressionformat: gzip zlib zip flate lz4 zstd snappy bzip2 brotli compress
debounce: debounce throttle quiet settle burst
decompress: decompress decompression uncompress uncompressed inflate unpack expand
concatenate: concatenate concat join append merge combine glue
concurrent: concurrent concurrently concurrency parallel goroutine goroutines thread threads sync synchronized race simultaneous
condition: condition cond predicate criteria test guard
config: config configuration conf cfg settings setting options preferences rc ini
connect: connect connection conn conns dial socket link session
console: console terminal tty stdout stderr shell
constant: constant const immutable fixed literal
constructor: constructor new create make init factory builder
contain: contain contains include includes has member membership
content: content contents body payload data text
context: context ctx scope environment
convert: convert conversion conv cast transform translate format parse marshal coerce
cookie: cookie cookies session jar
coordinate: coordinate point position location xy
copy: copy clone duplicate dup replicate cp
count: count counter number tally total len length size
create: create new make build construct spawn generate mk
credential: credential credentials password secret token key apikey
current: current cur curr present active now
cursor: cursor position offset pointer iterator
database: database db sql table query store repository
date: date day calendar time timestamp datetime
deadline: deadline timeout expire expiry expiration cutoff
debug: debug trace diagnose inspect troubleshoot
decimal: decimal base10 digits numeral numeric
decode: decode decoding decoder unmarshal deserialize parse unpack read
decrypt: decrypt decryption decipher plaintext
default: default fallback standard preset
delay: delay sleep wait pause backoff latency
delete: delete remove rm del erase drop unlink destroy purge
delimiter: delimiter separator sep delim comma split
dependency: dependency dependencies dep deps require import module package
deprecated: deprecated obsolete legacy
describe: describe description desc summary explain
destination: destination dst dest target to output sink
detect: detect discover find identify sniff recognize
dictionary: dictionary dict map hashmap table lookup associative
difference: difference diff delta change compare
digest: digest hash checksum sum fingerprint hmac sha sha1 md5
digit: digit digits numeral numeric number
directory: directory dir dirs folder folders path tree
disable: disable deactivate suppress turnoff
disk: disk drive storage volume filesystem
display: display show render print view draw
distance: distance length metric similarity
divide: divide division div quotient split partition
document: document doc docs documentation file page
domain: domain hostname host dns zone
download: download fetch pull get retrieve
duration: duration dur interval period elapsed span timeout
dynamic: dynamic runtime reflection reflect
edit: edit modify change update alter mutate patch
element: element elem item entry member node value
email: email mail smtp message inbox address
empty: empty blank zero null nil none void vacant
enable: enable activate allow
encode: encode encoding encoder marshal serialize pack write escape
encrypt: encrypt encryption encipher ciphertext cipher seal
end: end finish stop last tail terminate eof
endpoint: endpoint route url uri path handler api
entry: entry item record element row
environment: environment env environ variable variables setting
equal: equal equals eq equality same identical match compare
error: error errors err errs failure fault exception problem
escape: escape quote unescape unquote sanitize
event: event events signal notification message trigger
exception: exception error panic throw raise
exclusive: exclusive mutex lock sole
execute: execute exec run invoke call perform launch start
exist: exist exists present available stat
exit: exit quit terminate end leave
expand: expand grow extend widen inflate
expire: expire expiry expiration ttl timeout deadline stale
export: export publish expose public output
expression: expression expr formula regex pattern
extension: extension ext suffix
extract: extract parse pull unpack extraction
fail: fail failure failed error crash broken
fallback: fallback recover recovery rescue catch
fetch: fetch get retrieve download load pull request
field: field fields attribute attr property member column
file: file files filename fd descriptor document path os
filter: filter select where match predicate sieve
find: find search lookup locate seek query discover index
first: first head front initial leading
fix: fix repair patch correct resolve
flag: flag flags option options switch argument
flatten: flatten flat unnest nested
float: float floating float32 float64 double real decimal
flush: flush sync commit write drain
focus: focus blur visible visibility foreground
fold: fold reduce accumulate
format: format formatting fmt printf sprintf layout render stringify pretty
frame: frame packet message datagram
free: free release deallocate dispose
frequency: frequency rate hz cadence
function: function func fn method procedure routine callable lambda closure
garbage: garbage gc collector collection
generate: generate gen create produce emit synthesize
generic: generic generics template parametric
get: get fetch retrieve read obtain lookup load
global: global globals singleton shared
graceful: graceful gracefully shutdown drain clean orderly
graph: graph node edge vertex tree dag
group: group groups cluster batch category bucket
handle: handle handler handlers process serve callback
hash: hash hashing digest checksum sum fingerprint crc fnv sha md5 murmur
header: header headers heading preamble metadata
heap: heap priority queue pq
hexadecimal: hexadecimal hex base16
hidden: hidden private internal secret invisible
history: history log journal audit record
host: host hostname server machine domain
http: http https web request response rest api url
hydrate: hydrate hydration dehydrate rehydrate serialize snapshot restore
identifier: identifier id ids uuid guid key name
ignore: ignore skip exclude omit bypass
image: image img picture png jpeg jpg gif bitmap photo
immutable: immutable readonly frozen constant const
implement: implement implementation impl realize satisfy
import: import imports include require use load module package
increment: increment inc incr add plus counter
index: index idx indices position offset subscript
information: information info details metadata
initialize: initialize initialization init setup bootstrap prepare once lazy
input: input in stdin read source argument
insert: insert add put append push
install: install setup deploy provision
integer: integer int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 whole number
interface: interface protocol contract trait abstract
interrupt: interrupt signal sigint sigterm cancel ctrl
interval: interval period duration range span ticker
invalid: invalid malformed illegal bad corrupt wrong
invalidate: invalidate invalidation stale outdated refetch dirty
iterate: iterate iterator iter loop traverse walk range foreach each
join: join concat concatenate combine merge glue
json: json marshal unmarshal serialize deserialize encode decode
key: key keys id identifier name
keyword: keyword keywords reserved token
kill: kill terminate stop signal abort
language: language lang locale
last: last tail final end trailing
latency: latency delay lag
layout: layout format template arrangement
leak: leak leaks leaking
length: length len size count
library: library lib package module
limit: limit limits max maximum cap bound throttle quota threshold
line: line lines row newline eol
link: link links url href hyperlink symlink
list: list lists array slice items collection sequence
listen: listen listener accept bind serve server socket port
literal: literal constant value string
load: load read open import fetch
local: local locale localhost
locale: locale language translation i18n l10n region
lock: lock locks mutex mu rwmutex acquire synchronize latch semaphore
log: log logs logger logging trace journal print record
lookup: lookup find search resolve query get
loop: loop iterate repeat cycle for while
lowercase: lowercase lower downcase case fold
mail: mail email smtp message
main: main entry entrypoint primary
manager: manager mgr controller supervisor coordinator
map: map maps dictionary dict hashmap table associative
mask: mask bitmask bits flags
match: match matches matching pattern regex glob wildcard equal
math: math mathematics arithmetic numeric calculation
maximum: maximum max largest highest greatest upper most
memory: memory mem heap ram allocation alloc
merge: merge combine join union unify coalesce
message: message msg messages event notification text
metadata: metadata meta info attributes header
method: method methods function func receiver member
middle: middle mid center median
minimum: minimum min smallest lowest least lower
mode: mode modes setting state permission
modify: modify change update edit alter mutate set
module: module mod package pkg library unit
monitor: monitor watch observe track health metrics
move: move mv rename relocate transfer shift
multiply: multiply mul times product
mutex: mutex mu lock rwmutex exclusive synchronize critical
name: name names label identifier title
negative: negative minus sign signed
network: network net networking socket tcp udp ip internet
next: next following successor advance subsequent
node: node vertex element item leaf tree
normalize: normalize canonical canonicalize clean standardize
notify: notify notification signal alert broadcast inform
null: null nil none void empty missing
number: number num numbers numeric integer float digit count
object: object obj instance entity struct record
offset: offset position index seek cursor
once: once single singleton idempotent initialize
online: online offline connectivity network
open: open opening begin start connect load
operating: operating os system platform kernel
operation: operation op ops action task
option: option options opt opts setting config flag choice
order: order ordering sort sorted sequence rank
output: output out stdout write result sink emit print
overflow: overflow underflow wrap saturate
owner: owner ownership uid user
package: package pkg module library bundle
page: page pages paginate pagination
pair: pair tuple couple
parallel: parallel concurrent concurrently simultaneous workers
parameter: parameter parameters param params argument arguments arg args
parent: parent ancestor container owner
parse: parse parser parsing read decode scan lex tokenize interpret unmarshal
partial: partial incomplete fragment
password: password passwd passphrase secret credential
path: path paths filepath filename directory dir route
pattern: pattern regex glob template wildcard
pause: pause sleep wait suspend halt
peek: peek inspect look preview
percent: percent percentage ratio fraction
permission: permission permissions perm mode access privilege
pipe: pipe pipeline stream channel chain
plugin: plugin plugins extension addon
pointer: pointer ptr reference ref address
pool: pool pooling reuse recycle
port: port ports socket listen
position: position pos offset location index coordinate
prefetch: prefetch preload warm ahead eager
prefix: prefix leading start begin head
previous: previous prev prior last preceding
print: print printf println fmt write output display log
priority: priority precedence rank weight urgency
private: private internal hidden unexported
process: process proc pid subprocess exec command task job
program: program app application binary executable
progress: progress status percent advance
property: property properties attribute attr field prop
protocol: protocol proto interface handshake
proxy: proxy gateway relay forward tunnel
public: public exported visible api
query: query queries search lookup request question select filter
queue: queue fifo enqueue dequeue backlog buffer channel
quote: quote quoted quotes escape unquote
random: random rand randomness rng entropy shuffle nonce
range: range interval span bounds extent
rate: rate ratio frequency speed throughput throttle limit
read: read reader reading load input get fetch scan
ready: ready prepared available ok
receive: receive recv accept get read incoming
record: record row entry item log
recursive: recursive recursion recurse nested
redirect: redirect redirection forward reroute location
reduce: reduce fold accumulate aggregate shrink
reference: reference ref refs pointer link
reflect: reflect reflection introspect runtime type
refresh: refresh reload renew update
regex: regex regular expression pattern match
register: register registry registration enroll signup
release: release unlock free version publish
reload: reload refresh restart reread
remote: remote distant server network
remove: remove delete rm drop strip erase unlink
rename: rename move mv
render: render draw display paint template
repeat: repeat loop retry again iterate
replace: replace substitute swap sub overwrite rewrite
reply: reply response answer respond
repository: repository repo store storage git
request: request req requests query call ask http
reset: reset clear restore reinitialize
resolve: resolve lookup dns find resolution
resource: resource resources asset handle
response: response resp res reply answer result
restart: restart reboot relaunch reload
result: result results output return outcome value
retry: retry retries retrying attempt backoff again repeat
return: return returns result yield output
reverse: reverse invert flip backward
root: root base top origin
round: round rounding ceil floor truncate
route: route router routing path handler mux endpoint
row: row rows record line entry
run: run execute exec start launch invoke call
safe: safe safety secure guarded threadsafe
sample: sample example demo
save: save store persist write commit dump
scan: scan scanner read tokenize lex iterate
schedule: schedule scheduler cron timer plan queue
schema: schema model structure definition spec
scope: scope context namespace closure
search: search find lookup query grep seek locate
secret: secret secrets key password token private credential
section: section part chapter segment block
secure: secure security safe tls encrypted protected
seek: seek offset position cursor rewind
select: select choose pick filter query
send: send write transmit post emit deliver publish dispatch
separator: separator sep delimiter delim divider
sequence: sequence seq series list order
serialize: serialize marshal encode dump pack stringify
server: server srv service daemon host listener backend
service: service svc server daemon
session: session sessions cookie login connection
set: set setter assign put store update
shape: shape rect rectangle circle polygon
share: share shared common public
shell: shell sh bash terminal command
shift: shift move rotate
shortcut: shortcut alias hotkey
shutdown: shutdown stop close terminate halt graceful teardown quit
signal: signal signals sigint sigterm interrupt
signature: signature sign verify ecdsa rsa ed25519
similar: similar like resembling close near fuzzy
size: size length len count capacity bytes
skip: skip ignore omit bypass pass
sleep: sleep wait pause delay
slice: slice slices array list subslice
socket: socket sockets conn connection tcp udp unix
sort: sort sorted sorting order ordering rank arrange
source: source src origin input from
space: space whitespace blank spaces
split: split splitting divide partition separate tokenize cut break
sql: sql database db query table
stack: stack stacktrace backtrace lifo call
stale: stale fresh freshness outdated expired
start: start begin launch run init open boot spawn
state: state status condition mode
statistic: statistic statistics stats metrics count
status: status state health code condition
stop: stop halt end terminate close shutdown cancel quit kill
storage: storage store disk persistence database
stream: stream streams reader writer pipe flow io
string: string strings str text chars characters
struct: struct structure record object type class
subscribe: subscribe subscription listen observe watch
substring: substring substr slice part fragment
subtract: subtract sub minus difference
suffix: suffix trailing end extension ending
sum: sum total add accumulate digest aggregate
swap: swap exchange switch
synchronize: synchronize sync synchronized synchronization lock mutex atomic wait once barrier
table: table tables grid matrix
tag: tag tags label labels annotation
task: task tasks job jobs work worker operation
template: template templates tmpl layout pattern
temporary: temporary temp tmp scratch transient
terminal: terminal tty console term shell
test: test tests testing spec assert check verify
text: text string strings content prose characters
thread: thread threads goroutine goroutines worker concurrent
throttle: throttle limit rate ratelimit slow
time: time times clock timestamp datetime date duration
timeout: timeout deadline expire expiry limit
timer: timer ticker clock alarm schedule
timestamp: timestamp time datetime epoch unix
token: token tokens jwt bearer credential lexeme
transaction: transaction tx txn commit rollback atomic
undo: undo rollback revert restore abort
caseinsensitive: insensitive fold equalfold ignorecase
finalizer: finalizer finalize destructor cleanup collected
transform: transform convert map translate
tree: tree trees node hierarchy branch leaf
trim: trim strip chop truncate
truncate: truncate trim cut shorten clip
type: type types kind class struct
unique: unique distinct dedup deduplicate
unit: unit units measure
unix: unix posix linux epoch
update: update modify change refresh patch upgrade set
upload: upload send push post put
uppercase: uppercase upper capitalize caps case
url: url urls uri link href address endpoint
user: user users account member person uid username
utility: utility util utils helper helpers
validate: validate validation valid check verify sanitize
value: value values val vals data
variable: variable var vars env
verify: verify verification check validate confirm
version: version versions ver release semver revision
wait: wait waiting block sleep pause await join
walk: walk traverse visit iterate crawl
watch: watch watcher monitor observe notify
whitespace: whitespace space spaces blank tab indent
worker: worker workers pool goroutine thread job
wrap: wrap wrapper wrapping decorate encapsulate unwrap
write: write writer writing output save put store emit
xml: xml html markup element attribute
zero: zero zeros empty null initial
traceback: traceback stacktrace backtrace stack
coroutine: coroutine async await asynchronous
pickle: pickle serialize marshal dump
`

var (
	vocabOnce sync.Once
	// vocab maps a stemmed word to the concepts it belongs to.
	vocab map[string][]string
	// related maps a stemmed word to the other words of its concepts.
	related map[string][]string
)

func loadVocab() {
	vocab = map[string][]string{}
	members := map[string][]string{}
	for _, line := range strings.Split(vocabulary, "\n") {
		label, words, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		label = strings.TrimSpace(label)
		seen := map[string]bool{}
		for _, w := range strings.Fields(words) {
			// A word the tokenizer splits ("x509", "float64") stands as its
			// whole identifier, not its parts.
			ts := tokenize.Terms(w)
			if len(ts) == 0 {
				continue
			}
			t := ts[0]
			if seen[t] {
				continue
			}
			seen[t] = true
			vocab[t] = append(vocab[t], label)
			members[label] = append(members[label], t)
		}
	}
	related = map[string][]string{}
	for w, labels := range vocab {
		seen := map[string]bool{w: true}
		for _, l := range labels {
			for _, m := range members[l] {
				if !seen[m] {
					seen[m] = true
					related[w] = append(related[w], m)
				}
			}
		}
	}
}

// Concepts returns the concepts of the vocabulary a search term (a stem, as
// package tokenize produces) belongs to.
func Concepts(term string) []string {
	vocabOnce.Do(loadVocab)
	return vocab[term]
}

// Related returns the other terms that share a concept with term, for query
// expansion.
func Related(term string) []string {
	vocabOnce.Do(loadVocab)
	return related[term]
}
